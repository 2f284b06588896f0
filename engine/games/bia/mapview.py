"""Blocks in Afrika as a map, built from a side's fog-of-war view, never from the state.

Everything drawn comes from :func:`engine.games.bia.view.view`, which already holds only
what the viewer may see (1.3 Fog of War, L134-138; digest 4.2): a block whose face the
viewer may not see arrives as its nation (the block's colour, public) and its anonymous
token, and becomes a blank block carrying that token. A block whose face the viewer sees
(its own, or one revealed by a battle or a recon until the Final Supply Check,
L2416-2417) shows its strength on the top edge (3.14), its type and its steps.

The encoding of a block in a :class:`~engine.core.view.CounterView`: ``side`` is the
nation (the block colour), ``symbol`` its type or ``"block"`` for a blank one, ``combat``
its current strength, and ``tags`` ``edge:<colour>`` (the colour of the edge it stands
on), ``steps:<n>/<max>``, ``oos`` (the white barrel, 7.2), ``reserve`` (the black barrel
of Reserve Mode, AR 16.0; RULINGS B62: the view carries it on its owner's blocks only
under the option ``hidden_reserves``, L2447-2448, RULINGS F6), ``revealed``, ``ap:<n>``
(an activated HQ's action points left, AR 11.3: it lies face up, so every reader sees
them; RULINGS B73) and ``fuelled`` (AR 11.0-11.10: the view carries it on its owner's
blocks only, RULINGS B75).

The markers: a battle marker on each battle hex, a recon marker on each hex a recon
revealed this turn (RULINGS F4), and the same marker with the text ``failed`` (the recon
die) or ``negated`` (the AA interdiction) on a hex whose attempt this turn revealed
nothing (AR 12.0, L2311-2320; RULINGS B83), which the panel's results list spells out.
Every reader gets the same markers: they say where an attempt was declared and how it
ended, never what the AA dice or the units there were.

The naval blocks of BIA7-BIA10 (17.0; 3.4.2, L310-315; RULINGS B70) stand in port on
their port hex like any block; a fleet at sea and a convoy box are boxes of the side
panel, as the Strategic Map's home boxes are, each with its count of blocks. Where a
naval block is, its nation and its token are public, its face its owner's.

>>> from engine.core.dice import ActionDice
>>> from engine.games.bia.rules import BlocksInAfrika
>>> from engine.games.bia.view import view
>>> rules = BlocksInAfrika()
>>> state = rules.setup("BIA3", {}, ActionDice(b"doc", "doc", 0))
>>> mv = map_view(view(rules.board, state, "axis"))
>>> mv.grid, mv.viewer, mv.turn_label
('odd-r-CCRR', 'axis', 'Turn 15: November 1940')
"""

from __future__ import annotations

from functools import cache

from engine.core.view import BoxView, CounterView, HexMapView, MarkerView, SideView, StackView
from engine.games.bia import hq
from engine.games.bia.board import SIDE_NAME, Board
from engine.games.bia.view import BiaView, BlockView


class BiaMapView(HexMapView):
    """The ruleset's view (:meth:`BlocksInAfrika.view`): the map the front ends draw,
    carrying also the fog-of-war view it was drawn from (``blocks``, ``pp``), which holds
    no more than the map shows."""

    blocks: list[BlockView] = []
    #: power -> colour -> PP held, for the viewer's own powers only (digest 4.2)
    pp: dict[str, dict[str, int]] = {}


MONTHS = (
    "January", "February", "March", "April", "May", "June", "July", "August", "September",
    "October", "November", "December",
)  # fmt: skip
PHASE_NAMES = {
    "strategic_warfare": "Strategic Warfare Phase",
    "supply": "Supply Phase",
    "production": "Production Phase",
    "srm": "Strategic Rail Movement",
    "movement": "Movement Phase",
    "reaction": "Defender Reaction",
    "combat": "Combat Phase",
    "blitz": "Blitz Phase",
    "final_supply": "Final Supply Check",
    "exploitation": "Armour Exploitation",
    "over": "Game over",
}


@cache
def _board() -> Board:
    return Board()


def month_of(turn: int) -> str:
    """The month of a campaign turn (turn 1 is September 1939, one turn a month).

    >>> month_of(1), month_of(36)
    ('September 1939', 'August 1942')
    """
    k = turn + 7
    return f"{MONTHS[k % 12]} {1939 + k // 12}"


def block_counter(b: BlockView) -> CounterView:
    """One block as drawn: its face when the view carries it, else its colour and token."""
    tags = (["oos"] if b.oos else []) + (["reserve"] if b.reserve else [])
    if b.active_ap is not None:
        tags.append(f"ap:{b.active_ap}")
    if b.fuelled:
        tags.append("fuelled")
    if b.id is None:
        return CounterView(
            id=b.token, side=b.nation, kind="unit", name=b.token, symbol="block", tags=tags
        )
    track = b.track or []
    if b.steps and 0 < b.steps <= len(track):
        tags.append(f"edge:{track[b.steps - 1][1]}")
    tags.append(f"steps:{b.steps or 0}/{len(track)}")
    if b.revealed:
        tags.append("revealed")
    return CounterView(
        id=b.id,
        side=b.nation,
        kind="unit",
        name=b.name or b.id,
        symbol=b.kind or "block",
        combat=b.strength,
        tags=tags,
    )


def map_view(
    v: BiaView,
    *,
    active_role: str | None = None,
    prompt: str = "",
    board: Board | None = None,
) -> HexMapView:
    """The map of ``v`` (a side's, the public's or the audit's view). ``active_role`` and
    ``prompt`` are the ruleset's prompt for that moment (whose decision it is and what it
    asks), which names no hidden block; by default the phasing side is shown to act."""
    bd = board or _board()
    by_hex: dict[str, list[BlockView]] = {}
    in_box: dict[str, list[BlockView]] = {}
    pool: list[BlockView] = []
    dead: list[BlockView] = []
    for b in v.blocks:
        if b.where == "map" and b.at:
            by_hex.setdefault(b.at, []).append(b)
        elif b.where == "box" and b.at and b.at.startswith("port:"):
            by_hex.setdefault(b.at[5:], []).append(b)  # in port (17.0, L313-314)
        elif b.where == "box" and b.at:
            in_box.setdefault(b.at, []).append(b)
        elif b.where == "pool":
            pool.append(b)
        elif b.where == "dead":
            dead.append(b)
    stacks = []
    for h, blocks in sorted(by_hex.items()):
        # the viewer's own blocks on top; otherwise the view's order (by token), which
        # says nothing about which block is which
        blocks = sorted(blocks, key=lambda b: b.side != v.viewer)
        stacks.append(
            StackView(
                hex=h, side=blocks[0].side, counters=[block_counter(b) for b in blocks],
                count=len(blocks),
            )
        )  # fmt: skip
    naval = bd.pack.scenario(v.scenario).kind == "naval" if v.scenario else False
    boxes = [
        BoxView(
            id=f"box:{key}", title=f"Strategic Map: {box.name}", side=None,
            counters=[block_counter(b) for b in in_box.get(key, [])],
        )
        for key, box in bd.pack.strategic.boxes.items()
        if not naval or in_box.get(key)  # the naval scenarios leave the home boxes empty
    ]  # fmt: skip
    boxes += sea_boxes(v, in_box, bd, naval)
    side = v.viewer if v.viewer in SIDE_NAME else None
    if pool:
        boxes.append(BoxView(id="pool", title="Reinforcements to come", side=side,
                             counters=[block_counter(b) for b in pool]))  # fmt: skip
    if dead:
        boxes.append(BoxView(id="dead", title="Eliminated", side=side,
                             counters=[block_counter(b) for b in dead]))  # fmt: skip
    scenario = next((s for s in bd.pack.scenarios.scenarios if s.id == v.scenario), None)
    title = f"Blocks in Afrika: {scenario.name}" if scenario else "Blocks in Afrika"
    over = v.phase == "over"
    acting = None if over else (active_role or v.player)
    oos = sum(1 for b in v.blocks if b.oos and b.where == "map")
    notes = [f"{oos} blocks out of supply (white barrel)."] if oos else []
    held = sum(1 for b in v.blocks if b.reserve and b.where == "map")
    if held:
        blocks = "block" if held == 1 else "blocks"
        notes.append(f"{held} {blocks} in Reserve Mode (black barrel), to move in the "
                     "Exploitation Phase.")  # fmt: skip
    notes += hq_notes(v)
    return HexMapView(
        game="bia",
        viewer=v.viewer,
        title=title,
        turn=v.turn,
        turn_label=f"Turn {v.turn}: {month_of(v.turn)}",
        phase=f"{SIDE_NAME.get(v.player, v.player)} {PHASE_NAMES.get(v.phase, v.phase)}",
        active_role=acting,
        prompt=prompt,
        sides=[SideView(id=k, name=n) for k, n in SIDE_NAME.items()],
        stacks=stacks,
        boxes=boxes,
        markers=[MarkerView(hex=h, kind="battle") for h in v.battles]
        + [MarkerView(hex=h, kind="recon") for h in v.reconned]
        + [MarkerView(hex=h, kind="recon", text=why) for h, why in sorted(v.recon_failed.items())],
        control=dict(v.control),
        notes=notes,
        grid="odd-r-CCRR",
    )


def hq_notes(v: BiaView) -> list[str]:
    """The activated HQs with the AP each has left, for every reader (AR 11.3: face up,
    RULINGS B73), and the count of the viewer's own fuelled units (RULINGS B75: the view
    marks them on their owner's map only)."""
    out = []
    active = [b for b in v.blocks if b.active_ap is not None and b.where == "map"]
    if active:
        left = ", ".join(
            f"{f'{b.name} ({b.token})' if b.name else b.token} {b.active_ap}" for b in active
        )
        out.append(f"Activated HQs, AP left (white disc): {left}.")
    fuelled = sum(1 for b in v.blocks if b.fuelled and b.where == "map")
    if fuelled:
        out.append(f"Your units fuelled (amber dot, seen by you only): {fuelled}.")
    return out


def sea_boxes(
    v: BiaView, in_box: dict[str, list[BlockView]], bd: Board, naval: bool
) -> list[BoxView]:
    """The naval places off the map as panel boxes (17.0, L2536-2564; RULINGS B70-B72): a
    box for each fleet at sea (``sea:BODY/fN``, numbered publicly), in the order the fleets
    were formed, outlined in its nation's colour, and one for each convoy box of the
    Strategic Map (both sides' fleets may meet there). A naval scenario shows the convoy
    boxes of the bodies of water its fleets are on and those its victory scores, empty or
    not, naming the side that scores (RULINGS F4); a land scenario only those holding a
    block (none do: RULINGS B63)."""
    out = []
    fleets = sorted(
        (k for k in in_box if k.startswith("sea:")),
        key=lambda k: (int(k.rpartition("/f")[2]) if k.rpartition("/f")[2].isdigit() else 0, k),
    )
    waters = {**bd.pack.map.bodies_of_water, **bd.pack.strategic.off_map_bodies}
    for key in fleets:
        body, _, number = key[4:].partition("/")
        blocks = in_box[key]
        nations = {b.nation for b in blocks}  # a fleet is one power's (L2537), its colour
        nation = nations.pop() if len(nations) == 1 else None
        water = waters.get(body, body).partition(" (")[0]
        out.append(
            BoxView(
                id=f"fleet:{key[4:]}",
                title=f"At sea: fleet {number.lstrip('f')}, {water}",
                side=nation,
                counters=[
                    block_counter(b) for b in sorted(blocks, key=lambda b: b.side != v.viewer)
                ],
            )
        )
    scores = bd.pack.scenario(v.scenario).victory.convoys if naval else {}
    used = {k[4:].partition("/")[0] for k in fleets}
    for key, box in bd.pack.strategic.convoy_boxes.items():
        blocks = in_box.get(f"convoy:{key}", [])
        if not blocks and not (naval and (box.body in used or key in scores)):
            continue
        escort = f" ({SIDE_NAME[scores[key]]} scores)" if key in scores else ""
        out.append(
            BoxView(
                id=f"convoy:{key}",
                title=f"Convoy: {box.name}{escort}",
                side=None,
                counters=[
                    block_counter(b) for b in sorted(blocks, key=lambda b: b.side != v.viewer)
                ],
            )
        )
    return out


def bia_map_view(
    v: BiaView, *, active_role: str | None = None, prompt: str = "", board: Board | None = None
) -> BiaMapView:
    """:func:`map_view` of ``v`` with its blocks and PP kept beside the map, and the
    viewer's own PP stock (7.3, digest 4.2: each side's alone) among the notes."""
    bd = board or _board()
    mv = map_view(v, active_role=active_role, prompt=prompt, board=bd)
    notes = list(mv.notes)
    powers = bd.pack.units.powers
    for power, stock in sorted(v.pp.items()):
        held = ", ".join(f"{n} {colour}" for colour, n in sorted(stock.items()) if n)
        name = powers[power].name if power in powers else power
        notes.append(f"{name} PP: {held or 'none'}.")
    if v.leader_ap:
        left = ", ".join(f"{hq.name(k)} {n}" for k, n in v.leader_ap.items())
        notes.append(f"Supreme Leaders' AP left this turn: {left}.")
    return BiaMapView(**{**dict(mv), "notes": notes}, blocks=v.blocks, pp=v.pp)
