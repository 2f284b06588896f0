"""Scenario special rules (Scenario Booklet, reconstructed in the data pack; RULINGS
D10-D16): the typed ``special_rules`` of a scenario (:mod:`engine.games.bia.pack`) as the
engine enforces them.

* ``no_entry``: units of the named powers enter no hex of the named countries (on turns
  before ``before_turn`` when given), by ground move, blitz, retreat, rail, sea transport,
  air transfer, air attack, reaction, arrival from home or rebasing (D10, D11);
* ``confine``: units of the named powers enter no hex outside the named countries (D12);
* ``in_play``: no unit enters a hex outside the named countries (D13);
* ``air_route``: air units of the named powers fly into the named countries from outside
  them only from a hex of the ``via`` countries (D14);
* ``locality``: a hex's locality, its holder at the start and what it becomes when taken
  (7.7.9 special cases, L1727-1756; D15); the type itself is carried by ``tobruk``;
* ``control`` and ``example``: checked against the set-up by ``umpire datapack check``,
  nothing to enforce in play (D16);
* ``dieppe_from``: the turn the Dieppe Raid bonus starts (7.3.2, L1200-1206; D9, D16).

A refused order names the scenario and its rule in one sentence and changes nothing;
the same tests keep the refused moves out of the legal orders.

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``.
"""

from __future__ import annotations

from engine.games.bia.board import Board
from engine.games.bia.context import Ctx, refuse
from engine.games.bia.pack import (
    AirRoute,
    Confine,
    DieppeFrom,
    InPlay,
    LocalityRule,
    NoEntry,
    Pack,
    SpecialRule,
)
from engine.games.bia.state import BlockState, State

#: the rules that limit where a unit may go
ENTRY_KINDS = (NoEntry, Confine, InPlay, AirRoute)

#: (pack id, scenario id) -> (the pack, the scenario's entry rules with their numbers);
#: the pack is kept so that its id is never reused by another while cached. Asked at every
#: step of every move search, so kept cheap.
_ENTRY: dict[tuple[int, str], tuple[Pack, tuple[tuple[int, SpecialRule], ...]]] = {}


def _entry_rules(board: Board, state: State) -> tuple[tuple[int, SpecialRule], ...]:
    key = (id(board.pack), state.scenario)
    hit = _ENTRY.get(key)
    if hit is None:
        sc = board.pack.scenario(state.scenario)
        rules = tuple((k, r) for k, r in enumerate(sc.special_rules) if isinstance(r, ENTRY_KINDS))
        hit = _ENTRY[key] = (board.pack, rules)
    return hit[1]


def broken(
    board: Board, state: State, b: BlockState, there: str, frm: str | None = None
) -> tuple[int, SpecialRule] | None:
    """The special rule (with its index) that forbids block ``b`` to enter hex ``there``,
    coming from hex ``frm`` (None: from a Strategic Map box), or None."""
    rules = _entry_rules(board, state)
    if not rules:
        return None
    here = board.hex(there)
    if here is None:
        return None
    block = board.block(b.id)
    country = here.country
    for k, r in rules:
        if isinstance(r, InPlay):
            if country not in r.countries:
                return k, r
        elif block.power not in r.powers:
            continue
        elif isinstance(r, NoEntry):
            if country in r.countries and (r.before_turn is None or state.turn < r.before_turn):
                return k, r
        elif isinstance(r, Confine):
            if country not in r.countries:
                return k, r
        elif isinstance(r, AirRoute) and block.unit_class == "air" and country in r.countries:
            came = board.hex(frm).country if frm is not None and board.hex(frm) else None
            if came not in r.countries and came not in r.via:
                return k, r
    return None


def may_enter(
    board: Board, state: State, b: BlockState, there: str, frm: str | None = None
) -> bool:
    return broken(board, state, b, there, frm) is None


def check_entry(ctx: Ctx, b: BlockState, there: str, frm: str | None = None) -> None:
    """Refuse, naming the scenario's rule, a unit entering a hex one of its special rules
    forbids (RULINGS D10-D14). Changes nothing."""
    found = broken(ctx.board, ctx.state, b, there, frm)
    if found is None:
        return
    k, r = found
    sc_id = ctx.state.scenario
    board = ctx.board
    country = board.hex(there).country
    land = (
        board.pack.map.countries[country].name
        if country in board.pack.map.countries
        else "no country"
    )
    who, where = ctx.name(b), ctx.where(there)
    if isinstance(r, InPlay):
        tail = f"{where} lies in {land}, which is out of play."
    elif isinstance(r, NoEntry):
        until = f" before turn {r.before_turn}" if r.before_turn is not None else ""
        tail = f"{who} may not enter {where}, in {land}{until}."
    elif isinstance(r, Confine):
        tail = f"{who} may not leave for {where}, in {land}."
    else:
        via = ", ".join(board.pack.map.countries[c].name for c in getattr(r, "via", []))
        start = ctx.where(frm) if frm is not None else "off the map"
        tail = f"{who} may not fly into {where} from {start}: it must take off from {via}."
    raise refuse(f"{sc_id} special rule {k + 1}", f"{sc_id} special rule: {r.text} {tail}")


def dieppe_in_force(board: Board, state: State) -> bool:
    """Whether the Dieppe Raid bonus (7.3.2, L1200-1206) applies this turn: from the turn
    the scenario's ``dieppe_from`` rule names, else from the turn after the raid (D9)."""
    for r in board.pack.scenario(state.scenario).special_rules:
        if isinstance(r, DieppeFrom):
            return state.turn >= r.turn
    return state.turn > board.pack.strategic.dieppe_raid_turn


def when_captured(board: Board, state: State, h: str, place: str | None, by: str) -> str | None:
    """What the locality ``place`` of hex ``h`` becomes when side ``by`` takes it, where a
    scenario's ``locality`` rule says so (BIA6: the Axis taking Tobruk's bunker finds a
    minor city, L1751-1756; RULINGS D15); None to follow the table (7.7.9, L1727-1749)."""
    for r in board.pack.scenario(state.scenario).special_rules:
        if (
            isinstance(r, LocalityRule) and r.hex == h and r.when_captured
            and place == r.locality and by != r.held_by
        ):  # fmt: skip
            return r.when_captured
    return None
