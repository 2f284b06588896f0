"""Random legal play: games of random legal orders that must never crash, dead-end, break
an invariant, or fail to replay exactly from their action log (STYLE: Rally the Troops'
fuzzer)."""

from __future__ import annotations

import hashlib
import json
import random
import re
import time
from dataclasses import dataclass, field

from engine.core.dice import ActionDice
from engine.core.errors import IllegalOrder
from engine.core.events import lines_for, order_line
from engine.core.game import Game
from engine.core.orders import Order
from engine.core.registry import ruleset as get_ruleset
from engine.core.ruleset import Ruleset


class DeadEnd(Exception):
    """A prompt with no legal order."""


def random_order(
    rules: Ruleset, state, rng: random.Random, orders: list[Order] | None = None
) -> tuple[str, Order]:
    """Pick a legal order for whoever's decision it is. ``done`` is picked now and then,
    not uniformly, so that phases see a fair number of moves and attacks. ``orders`` are
    that role's legal orders when the caller has listed them already."""
    prompt = rules.prompt(state)
    if prompt.role is None:
        raise DeadEnd("the game is over")
    if orders is None:
        orders = rules.legal_orders(state, prompt.role)
    if not orders:
        raise DeadEnd(f"{prompt.role} has no legal order at: {prompt.text}")
    pick = getattr(rules, "fuzz_pick", None)  # a game may weigh its orders as players would
    if pick is not None:
        return prompt.role, pick(state, orders, rng)
    finishing = [o for o in orders if o.verb in ("done", "auto")]
    others = [o for o in orders if o.verb not in ("done", "auto")]
    if finishing and (not others or rng.random() < 0.12):
        return prompt.role, rng.choice(finishing)
    return prompt.role, rng.choice(others)


#: a word as the leak scan reads it: letters, digits, ``_`` and ``*`` (``Panzer**``)
_WORD = re.compile(r"[\w*]+")


def _whole(word: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w*]){re.escape(word)}(?![\w*])")


class LeakScan:
    """The fuzzer's fog-of-war scan (issue 11, point 3), for a ruleset with hidden pieces:
    one that says, through ``hidden_words(state, audience, events)``, which pieces an
    audience may not see and the words that would name them. After every order, what
    each audience (the public and every role) can receive is searched for those words:
    its view, its log lines and the order as it reads it, the dice purposes it is shown,
    the prompt as it may read it, and for a role its own legal orders. Before some orders
    the acting role gives one naming a piece hidden from it (a word of one of its legal
    orders swapped for the hidden piece's id): it must be refused, and the refusal must
    name nothing hidden beyond the word typed."""

    def __init__(self, rules: Ruleset, roles: list[str], seed: int) -> None:
        self.rules = rules
        self.audiences: list[str | None] = [None, *roles]
        self.rng = random.Random(f"leak-probe-{seed}")  # the game's own choices unchanged
        self.checked = 0
        #: the last state scanned and the legal orders of the role to decide there
        self.offered: tuple[object, list[Order]] | None = None

    @staticmethod
    def applies(rules: Ruleset) -> bool:
        return callable(getattr(rules, "hidden_words", None))

    def _find(self, where: str, texts: list[str], hidden: dict[str, set[str]]) -> str | None:
        """The first of ``texts`` that names a hidden piece by one of its words, said as
        the whole word ("td" is not inside "td2", nor a name inside "name**"), or None.
        A one-word name is looked up among the text's words; a longer one is searched."""
        self.checked += len(texts)
        if not hidden:
            return None
        joined = "\n".join(texts)
        tokens: set[str] | None = None
        for piece, words in hidden.items():
            for word in words:
                if _WORD.fullmatch(word):
                    if tokens is None:
                        tokens = set(_WORD.findall(joined))
                    if word not in tokens:
                        continue
                elif word not in joined or not _whole(word).search(joined):
                    continue
                text = next(t for t in texts if _whole(word).search(t))
                return f"{where} names {piece} ({word!r}), hidden from it: {text[:300]!r}"
        return None

    def after(self, before, state, order: Order, events: list, rolls: list) -> str | None:
        """What every audience can receive once ``order`` took ``before`` to ``state``:
        the first text naming a piece hidden from its reader, or None. What the state
        shows (view, prompt, legal orders) must name nothing hidden in ``state``; what
        the action says (its lines, order, dice) nothing hidden both before it and after
        it, since it may tell of a piece in sight when it was done and hidden again at
        its end."""
        rules = self.rules
        prompt = rules.prompt(state)
        for audience in self.audiences:
            now = rules.hidden_words(state, audience)
            was = rules.hidden_words(before, audience)
            told = rules.hidden_words(state, audience, events)
            told = {p: ws for p, ws in told.items() if p in was}
            who = "the public" if audience is None else audience
            view = rules.view(state, audience)
            shown = [
                view.model_dump_json() if hasattr(view, "model_dump_json")
                else json.dumps(view, default=str),
                prompt.text_for(audience),
            ]  # fmt: skip
            if audience is not None:
                offered = rules.legal_orders(state, audience)
                if audience == prompt.role:
                    self.offered = (state, offered)  # the next order is picked from them
                shown += [o.text() for o in offered]
            said = [*lines_for(events, audience), order_line(order.text(), events, audience) or ""]
            if all(e.sees_whole(audience) for e in events):
                said += [r.purpose for r in rolls if r.purpose]
            found = self._find(f"what {who} is shown", shown, now) or self._find(
                f"what {who} is told", said, told
            )
            if found:
                return found
        return None

    def refusal(self, state, role: str, dice) -> str | None:
        """An order by ``role`` naming a piece hidden from it: None when it is refused
        naming nothing else hidden, else what went wrong."""
        rules = self.rules
        hidden = rules.hidden_words(state, role)
        if not hidden:
            return None
        mine = set(rules.hidden_words(state, None)) - set(hidden)  # its own, face down
        texts = [o.text() for o in rules.legal_orders(state, role)]
        self.rng.shuffle(texts)
        text = next((t for t in texts if mine & set(t.split())), None)
        if text is None:
            return None
        words = text.split()
        at = self.rng.choice([i for i, w in enumerate(words) if w in mine])
        target = self.rng.choice(sorted(hidden))
        words[at] = target
        probe = " ".join(words)
        try:
            rules.apply(state, role, rules.parse_order(probe), dice)
        except IllegalOrder as exc:
            rest = {p: ws - {target} for p, ws in hidden.items()}
            return self._find(f"the refusal of {probe!r} to {role}", [exc.message], rest)
        except Exception as exc:  # noqa: BLE001 - a fuzzer reports every crash
            return f"{probe!r} crashed the rules: {type(exc).__name__}: {exc}"
        return f"{probe!r}, naming a piece hidden from {role}, was accepted"


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
    #: texts the leak scan read (0 for a game without hidden pieces)
    scanned: int = 0


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
    scan = LeakScan(rules, rules.roles(game.scenario), seed) if LeakScan.applies(rules) else None
    while game.result() is None:
        n = len(game.actions) + 1
        if n > max_actions:
            run.failure = Failure(seed, n, "no end", f"still running after {max_actions} actions")
            return run
        listed = None
        if scan is not None and scan.offered is not None and scan.offered[0] is game.state:
            listed = scan.offered[1]
        try:
            role, order = random_order(rules, game.state, rng, listed)
        except DeadEnd as exc:
            run.failure = Failure(seed, n, "dead end", str(exc))
            return run
        if scan is not None and scan.rng.random() < 0.2:
            probe_dice = ActionDice(b"leak-probe", f"fuzz-{seed}", n)
            if (leak := scan.refusal(game.state, role, probe_dice)) is not None:
                run.failure = Failure(seed, n, "leak", leak)
                return run
        before = game.state
        try:
            t0 = clock()
            events = game.play(order, role)
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
        if scan is not None:
            leak = scan.after(before, game.state, order, events, game.actions[-1].rolls)
            if leak is not None:
                run.failure = Failure(seed, n, "leak", f"after {order.text()}: {leak}")
                return run
    run.actions = len(game.actions)
    run.scanned = scan.checked if scan is not None else 0
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
