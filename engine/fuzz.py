"""Random legal play: games of random legal orders that must never crash, dead-end, break
an invariant, or fail to replay exactly from their action log (STYLE: Rally the Troops'
fuzzer)."""

from __future__ import annotations

import hashlib
import json
import random
import time
from dataclasses import dataclass, field

from engine.core.errors import IllegalOrder
from engine.core.game import Game
from engine.core.orders import Order
from engine.core.registry import ruleset as get_ruleset
from engine.core.ruleset import Ruleset


class DeadEnd(Exception):
    """A prompt with no legal order."""


def random_order(rules: Ruleset, state, rng: random.Random) -> tuple[str, Order]:
    """Pick a legal order for whoever's decision it is. ``done`` is picked now and then,
    not uniformly, so that phases see a fair number of moves and attacks."""
    prompt = rules.prompt(state)
    if prompt.role is None:
        raise DeadEnd("the game is over")
    orders = rules.legal_orders(state, prompt.role)
    if not orders:
        raise DeadEnd(f"{prompt.role} has no legal order at: {prompt.text}")
    finishing = [o for o in orders if o.verb in ("done", "auto")]
    others = [o for o in orders if o.verb not in ("done", "auto")]
    if finishing and (not others or rng.random() < 0.12):
        return prompt.role, rng.choice(finishing)
    return prompt.role, rng.choice(others)


@dataclass
class Failure:
    seed: int
    action: int
    kind: str
    detail: str

    def __str__(self) -> str:
        return f"seed {self.seed}, action {self.action}: {self.kind}: {self.detail}"


@dataclass
class GameRun:
    seed: int
    actions: int = 0
    finished: bool = False
    winner: str | None = None
    apply_times: list[float] = field(default_factory=list)
    failure: Failure | None = None
    game: Game | None = None


def play_random_game(
    ruleset_id: str, seed: int, max_actions: int = 20000, timed: bool = False
) -> GameRun:
    """One random game from setup to the end, then replayed from its actions."""
    rng = random.Random(seed)
    secret = hashlib.sha256(f"fuzz-secret-{seed}".encode()).digest()
    # a ruleset may ask for options that make random games end (a round limit, say), or
    # choose each game's scenario and options by its seed (``fuzz_setup``)
    rs = get_ruleset(ruleset_id)
    scenario, options = None, dict(getattr(rs, "fuzz_options", {}))
    if hasattr(rs, "fuzz_setup"):
        scenario, options = rs.fuzz_setup(seed)
    game = Game.new(ruleset_id, scenario, options, secret=secret, game_id=f"fuzz-{seed}")
    rules = game.ruleset
    run = GameRun(seed, game=game)
    clock = time.perf_counter
    while game.result() is None:
        n = len(game.actions) + 1
        if n > max_actions:
            run.failure = Failure(seed, n, "no end", f"still running after {max_actions} actions")
            return run
        try:
            role, order = random_order(rules, game.state, rng)
        except DeadEnd as exc:
            run.failure = Failure(seed, n, "dead end", str(exc))
            return run
        try:
            t0 = clock()
            game.play(order, role)
            if timed:
                run.apply_times.append(clock() - t0)
        except IllegalOrder as exc:
            run.failure = Failure(seed, n, "listed order refused", f"{order.text()}: {exc}")
            return run
        except Exception as exc:  # noqa: BLE001 - a fuzzer reports every crash
            run.failure = Failure(seed, n, "crash", f"{order.text()}: {type(exc).__name__}: {exc}")
            return run
        problems = rules.invariant_problems(game.state)
        if problems:
            run.failure = Failure(
                seed, n, "invariant", f"after {order.text()}: {'; '.join(problems)}"
            )
            return run
    run.actions = len(game.actions)
    run.finished = True
    run.winner = game.result().winner
    replay = Game.replay(
        ruleset_id,
        game.scenario,
        game.options,
        secret,
        game.game_id,
        [(a.role, a.order) for a in game.actions],
    )
    if rules.dump_state(replay.state) != rules.dump_state(game.state):
        run.failure = Failure(
            seed, run.actions, "replay mismatch", "the replayed state differs from the played one"
        )
    elif replay.log() != game.log():
        run.failure = Failure(
            seed, run.actions, "replay mismatch", "the replayed log differs from the played one"
        )
    elif (at := first_reload_mismatch(game)) is not None:
        run.failure = Failure(
            seed, at, "reload mismatch",
            "played on from its state saved and loaded again (as a service that had to "
            "load the game from the database does), the game gives other events",
        )  # fmt: skip
    return run


def first_reload_mismatch(game: Game) -> int | None:
    """Play ``game``'s actions again, saving the state and loading it back before each one
    the way the database does it (JSON with sorted keys): the number of the first action
    whose events then differ, or None. A state whose reading order (a dict's) shows in
    the events would otherwise give a game that `umpire verify` refuses."""
    rules = game.ruleset
    again = Game(rules, game.scenario, game.options, game.secret, game.game_id, game.dice_scheme)
    for action in game.actions:
        saved = json.dumps(rules.dump_state(again.state), sort_keys=True)
        again.state = rules.load_state(json.loads(saved))
        events = again.play(action.order, action.role)
        if [e.to_dict() for e in events] != [e.to_dict() for e in action.events]:
            return action.seq
    return None


def fuzz(
    ruleset_id: str, games: int, seed: int, max_actions: int = 20000
) -> tuple[list[GameRun], Failure | None]:
    get_ruleset(ruleset_id)
    runs = []
    for i in range(games):
        run = play_random_game(ruleset_id, seed * 100003 + i, max_actions)
        run.game = None
        runs.append(run)
        if run.failure:
            return runs, run.failure
    return runs, None
