"""The Blocks in Afrika ruleset: whose decision it is, which orders are legal, and applying
one (ARCHITECTURE: The rules contract). The sequence of play itself is
:mod:`engine.games.bia.turn`; this module sets a scenario up and answers the contract.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.orders import Order
from engine.core.ruleset import Dice, Progress, Prompt, Result, Scenario, check_turn
from engine.games.bia import fleet, movement, prompts, turn
from engine.games.bia.board import ALLIED, AXIS, SIDE_NAME, TOKEN_TAG, Board
from engine.games.bia.context import Ctx
from engine.games.bia.mapview import BiaMapView, bia_map_view
from engine.games.bia.options import ADVANCED, BONUS_CANCELS_MALUS, HIDDEN_RESERVES
from engine.games.bia.orders import load_order, parse_order
from engine.games.bia.state import BlockState, State
from engine.games.bia.turn import (  # noqa: F401 - the sequence, as the tests reach it
    PHASE_NAMES,
    final_supply_phase,
    next_phase,
    settle,
    supply_phase,
    victory_phase,
)
from engine.games.bia.view import BiaView, sees_face, view

#: the options of a game at set-up, all off unless chosen (RULINGS F1); ``umpire new
#: --help`` lists them from :mod:`engine.games.bia.options`
OPTIONS = {
    "advanced": ADVANCED,
    "bonus_cancels_malus": BONUS_CANCELS_MALUS,
    "hidden_reserves": HIDDEN_RESERVES,
}

#: the phases that take orders; the others run by themselves
DECISION_PHASES = {"production", "srm", "movement", "reaction", "combat", "blitz", "exploitation"}


class BlocksInAfrika:
    id = "bia"
    title = "Blocks in Afrika"
    #: orders any seated role may give at any moment, not only at its own decision: a
    #: standing order is set in advance for the decisions it answers (ARCHITECTURE:
    #: Asynchronous play)
    any_time_verbs = frozenset({"standing"})

    def __init__(self, board: Board | None = None) -> None:
        self._board = board
        self._within: dict[str, frozenset[str]] = {}

    @property
    def board(self) -> Board:
        if self._board is None:
            self._board = Board()
        return self._board

    # -- set-up ----------------------------------------------------------------

    def scenarios(self) -> list[Scenario]:
        return [
            Scenario(
                id=s.id,
                title=s.name,
                description=" ".join(
                    [f"{s.dates}.", s.victory.text, *(r.text for r in s.special_rules)]
                ),
            )
            for s in self.board.pack.scenarios.scenarios
        ]

    def scenario_refusal(self, scenario: str) -> str | None:
        """Why a scenario of the pack that :meth:`scenarios` does not offer cannot be set
        up, in one sentence; None when it is offered or the pack does not have it. Every
        scenario of the pack is offered since the naval rules are written (17.0, L2477;
        engine.games.bia.fleet), so this is always None."""
        return None

    def roles(self, scenario: str) -> list[str]:
        return [AXIS, ALLIED]

    #: random play (``umpire fuzz``) needs no option: every land scenario has a last turn
    fuzz_options: dict[str, Any] = {}

    def fuzz_setup(self, seed: int) -> tuple[str, dict[str, Any]]:
        """The scenario and options of random game ``seed``: the ten scenarios (the four
        naval ones included) in turn, so that consecutive seeds spread over all of them,
        each ten of them with the advanced rules (option ``advanced``: recon, HQs,
        Panzers Attack!; nothing in a naval scenario) and the next ten without. Every
        third game cancels Bonus against Malus (``bonus_cancels_malus``, RULINGS F5), and
        every other advanced game hides its reserves (``hidden_reserves``, F6), the
        scenarios that do so alternating from one advanced ten to the next."""
        ids = [s.id for s in self.scenarios()]
        options = dict(self.fuzz_options)
        if seed // len(ids) % 2:
            options["advanced"] = True
            if (seed + seed // (2 * len(ids))) % 2 == 0:
                options["hidden_reserves"] = True
        if seed % 3 == 0:
            options["bonus_cancels_malus"] = True
        return ids[seed % len(ids)], options

    def fuzz_pick(self, state: State, orders: list[Order], rng: Any) -> Order:
        """The order a random player gives among ``orders`` (``umpire fuzz``): standing
        orders are offered at every decision and a random player disbanding at will would
        empty the map, so both come seldom, as does holding back a reinforcement (7.3.5); battles (a move onto the enemy, a fight, a
        blitz, an air attack, a retreat or a hit) and the fuel an attack needs under the
        advanced rules (AR 11.10) half the time they are offered; ``done``
        now and then, as for every game."""
        finish = [o for o in orders if o.verb == "done"]
        if finish and rng.random() < 0.12:
            return finish[0]
        rare = {"standing": 0.03, "disband": 0.05, "hold": 0.05}  # hold: 7.3.5, B100
        common = [o for o in orders if o.verb not in rare and o.verb != "done"]
        for verb, chance in rare.items():
            some = [o for o in orders if o.verb == verb]
            if some and rng.random() < chance:
                return rng.choice(some)
        if not common:
            return finish[0] if finish else rng.choice(orders)
        foes = {b.at for b in state.on_map() if b.side != self.prompt(state).role}
        bold = [
            o for o in common
            if o.verb in ("fight", "blitz", "attack", "retreat", "hit", "fuel")
            or (o.verb == "move" and o.path[-1] in foes)
        ]  # fmt: skip
        if bold and rng.random() < 0.5:
            return rng.choice(bold)
        return rng.choice(common)

    def setup(self, scenario: str, options: dict[str, Any], dice: Dice) -> State:
        """Set a scenario up from the pack (2.0; Scenario Booklet): its blocks on their
        hexes at their steps, the countries each side controls (and the hexes its ground
        units hold, 3.3 L247-254), and the first turn.
        Every block gets a public token, numbered per nation in an order drawn with the
        dice so that no token tells which block it is (RULINGS B1)."""
        ids = [s.id for s in self.scenarios()]
        if scenario not in ids:
            raise IllegalOrder(
                "",
                self.scenario_refusal(scenario) or f"There is no land scenario {scenario!r}.",
                f"The scenarios are: {', '.join(ids)}.",
            )
        for key, value in (options or {}).items():
            if key not in OPTIONS:
                raise IllegalOrder(
                    "",
                    f"Blocks in Afrika has no option {key!r}.",
                    "Options: " + ", ".join(f"{k} ({v})" for k, v in OPTIONS.items()) + ".",
                )
            if not isinstance(value, bool):
                raise IllegalOrder("", f"The option {key} is on (true) or off (false).")
        if (options or {}).get("hidden_reserves") and not options.get("advanced"):
            raise IllegalOrder(  # Reserve Mode is an advanced rule (AR 16.0; RULINGS F7)
                "",
                "The option hidden_reserves hides the units in Reserve Mode, an advanced "
                "rule (16.0): choose it together with advanced=true.",
            )
        b = self.board
        sc = b.pack.scenario(scenario)
        state = State(
            scenario=scenario,
            options=dict(options or {}),
            pack_version=b.version,
            turn=sc.first_turn,
            last_turn=sc.last_turn,
        )
        for p in sc.setup:
            where, at = ("box", p.hex[4:]) if p.hex.startswith("box:") else ("map", p.hex)
            edge = _edge(b, p.unit, p.steps)
            state.blocks[p.unit] = BlockState(p.unit, p.side, where, at, edge)
        for r in sc.reinforcements:
            if r.unit not in state.blocks:
                side = b.side_of_power(b.block(r.unit).power)
                edge = _edge(b, r.unit, r.steps)
                state.blocks[r.unit] = BlockState(r.unit, side, "pool", None, edge)
        if sc.kind == "naval":  # the fleets of BIA7-BIA10 (17.0, L2477-2551)
            fleet.setup(b, state, _edge)
        # 64 bits drawn with the dice: too many to try them all against the tokens seen
        salt = ":".join(str(dice.roll(1 << 16, "token order")) for _ in range(4))
        counts: dict[str, int] = {}
        for bs in sorted(
            state.blocks.values(),
            key=lambda x: hashlib.sha256(f"{salt}|{x.id}".encode()).hexdigest(),
        ):
            tag = TOKEN_TAG.get(b.block(bs.id).power, "XX")
            counts[tag] = counts.get(tag, 0) + 1
            bs.token = f"{tag}-{counts[tag]:02d}"
        for h in b.pack.map.hexes:
            if not b.is_land(h.id):
                continue
            side = sc.hex_control.get(h.id) or sc.control.get(h.country or "")
            if side in (AXIS, ALLIED):
                state.control[h.id] = side
        for h in sorted({x.at for x in state.on_map()}):
            sides = {x.side for x in state.at_hex(h) if movement.is_ground(b.block(x.id))}
            if len(sides) == 1 and sides <= {AXIS, ALLIED}:
                state.control[h] = sides.pop()  # RULINGS B2: who stands there holds it
        state.phase = "strategic_warfare"
        ctx = Ctx(b, state, dice)
        settle(ctx)
        return state

    # -- questions -------------------------------------------------------------

    def datapack_version(self) -> str:
        return self.board.version

    def progress(self, state: State) -> Progress:
        return Progress(turn=state.turn, player=state.player, phase=state.phase)

    def result(self, state: State) -> Result | None:
        if state.phase != "over":
            return None
        return Result(winner=state.winner, level="victory", text=state.result_text)

    def prompt(self, state: State) -> Prompt:
        return prompts.prompt(Ctx(self.board, state, _NoDice()))

    def view(self, state: State, role: str | None) -> BiaMapView:
        """What ``role`` (a side, None for the public, EVERYONE for the audit) may see, as
        the map the front ends draw (:func:`engine.games.bia.mapview.map_view`), built
        from the fog-of-war view only (1.3, L134-138; digest 4.2): enemy blocks as their
        colour and token unless revealed, and the viewer's own PP stock. The prompt on
        the map is the one ``role`` may read."""
        p = self.prompt(state)
        seen = view(self.board, state, role)
        return bia_map_view(seen, active_role=p.role, prompt=p.text_for(role), board=self.board)

    def fog_view(self, state: State, role: str | None) -> BiaView:
        """The same as :meth:`view`, as data only (the blocks and PP, no map)."""
        return view(self.board, state, role)

    def hidden_words(
        self, state: State, audience: str | None, events: Iterable[Event] = ()
    ) -> dict[str, set[str]]:
        """Block id -> the words that would name it (its id, its printed name) for every
        block whose face ``audience`` (a side, or None for the public) may not see in
        ``state`` (1.3, L134-138; digest 4.2): the enemy's, and for the public every
        block, unless face up. Blocks ``events`` turned face up (a battle reveals them,
        L1446-1447) are seen, since the line that says so names them. A name that a
        block the audience sees also bears, or holds as a word, names nothing hidden and
        is left out. Read by the fuzzer's leak scan (:mod:`engine.fuzz`)."""
        shown = {t for e in events if e.kind == "reveal" for t in e.data.get("tokens", [])}
        seen, hidden = set(), []
        for x in state.blocks.values():
            if sees_face(state, x, audience) or x.token in shown:
                seen.add(x.id)
            else:
                hidden.append(x)
        out = {}
        for x in hidden:
            name = self.board.block(x.id).name
            out[x.id] = {x.id} if self._named_within(x.id) & seen else {x.id, name}
        return out

    def _named_within(self, block_id: str) -> frozenset[str]:
        """The blocks whose printed name holds ``block_id``'s name as whole words (its
        own included): where one of them is seen, that name tells nothing."""
        found = self._within.get(block_id)
        if found is None:
            name = self.board.block(block_id).name
            word = re.compile(rf"(?<![\w*]){re.escape(name)}(?![\w*])")
            found = frozenset(x.id for x in self.board.pack.units.blocks if word.search(x.name))
            self._within[block_id] = found
        return found

    # -- orders ----------------------------------------------------------------

    def parse_order(self, text: str) -> Order:
        return parse_order(text)

    def load_order(self, data: dict[str, Any]) -> Order:
        return load_order(data)

    def legal_orders(self, state: State, role: str | None = None) -> list[Order]:
        p = self.prompt(state)
        if p.role is None or (role is not None and role != p.role):
            return []
        return prompts.legal(Ctx(self.board, state, _NoDice()), p.role)

    def apply(self, state: State, role: str, order: Order, dice: Dice) -> tuple[State, list[Event]]:
        p = self.prompt(state)
        if order.verb in self.any_time_verbs and p.role is not None and role in (AXIS, ALLIED):
            ctx = Ctx(self.board, state.clone(), dice)  # a side's standing order, any time
            turn.dispatch(ctx, role, order)
            return ctx.state, ctx.events
        check_turn(
            p,
            role,
            order.verb,
            sequence_rule="BIA 7.0",
            end_rule="BIA 7.11",
            step=PHASE_NAMES[state.phase],
            role_name=lambda r: SIDE_NAME.get(r, r),
        )
        ctx = Ctx(self.board, state.clone(), dice)
        turn.dispatch(ctx, role, order)
        return ctx.state, ctx.events

    # -- storage and checks ------------------------------------------------------

    def dump_state(self, state: State) -> dict[str, Any]:
        return state.to_dict()

    def load_state(self, data: dict[str, Any]) -> State:
        return State.from_dict(data)

    def invariant_problems(self, state: State) -> list[str]:
        """Every block on the map stands on a playable land hex on one of its edges; no
        hex overstacked (3.13); the two sides meet only in battle hexes; battles are fought
        only in Combat and Blitz; every block has one token. Empty when all is well."""
        b = self.board
        out = []
        for x in state.blocks.values():
            if x.where == "map" and not b.is_land(x.at or ""):
                out.append(f"{x.id} stands on {x.at}, which is not a playable land hex.")
            if x.where == "map" and not 0 < x.steps <= len(b.block(x.id).track):
                out.append(f"{x.id} has {x.steps} steps.")
        ground: dict[tuple[str, str], int] = {}
        for x in state.on_map():
            if movement.is_ground(b.block(x.id)):
                ground[(x.at, x.side)] = ground.get((x.at, x.side), 0) + 1
        for (h, side), n in sorted(ground.items()):
            if n > b.pack.tables.stacking.ground_units:
                out.append(f"{h} holds {n} {side} ground units (3.13).")
        sides_at: dict[str, set[str]] = {}
        for x in state.on_map():
            sides_at.setdefault(x.at, set()).add(x.side)
        for h, found in sorted(sides_at.items()):
            if len(found) > 1 and h not in state.battles:
                out.append(f"{h} holds both sides' blocks but is no battle hex.")
        if state.fight is not None and state.phase not in ("combat", "blitz"):
            out.append(f"A battle is being fought in the {state.phase} phase.")
        tokens = [x.token for x in state.blocks.values()]
        if len(set(tokens)) != len(tokens) or not all(tokens):
            out.append("Two blocks share a token, or a block has none.")
        return out


def _edge(board: Board, block_id: str, value: int) -> int:
    """The position on its track (1 = weakest edge) of the edge a block stands on when the
    scenario gives its printed value (3.14, L535-545): the strongest edge of that value."""
    values = board.block(block_id).values()
    return max(i for i, v in enumerate(values) if v == value) + 1


class _NoDice:
    def roll(self, sides: int, purpose: str = "") -> int:
        raise AssertionError(f"no dice while listing legal orders ({purpose})")


RULESET = BlocksInAfrika()
