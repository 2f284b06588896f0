"""What each role may see (PFV 6, the stack-peeking rule; ARCHITECTURE: view).

A player sees every piece of his own stacks. Of an enemy stack he sees the top piece (the
unit, when there is one) and how many pieces are there, unless one of his units is next to
it. The public view, posted to the channel, shows only what both players could see: the top
piece of every stack. Off-map boxes are open, as on the table.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.events import EVERYONE
from engine.core.view import (
    ArrowView,
    BoxView,
    CounterView,
    HexMapView,
    MarkerView,
    SideView,
    StackView,
)
from engine.games.pfv.state import ALLIED, AXIS, State

if TYPE_CHECKING:
    from engine.games.pfv.board import Board
    from engine.games.pfv.rules import PattonsFirstVictory

ARROW_KINDS = {"move", "attack", "retreat", "advance", "air", "breakthrough"}


def counter_view(rules: PattonsFirstVictory, state: State, pid: str) -> CounterView:
    b = rules.board
    c = b.counter(pid)
    p = state.pieces[pid]
    face = b.face(pid, p.reduced)
    kind = "air" if c.kind == "air" else "support" if c.kind == "support" else "unit"
    return CounterView(
        id=pid,
        side=c.side,
        kind=kind,
        name=c.name,
        symbol=c.symbol,
        combat=face.combat,
        move=face.move,
        modifier=face.modifier,
        range=face.range,
        reduced=p.reduced,
        tags=list(c.tags),
    )


def may_look_under(
    rules: PattonsFirstVictory, state: State, viewer: str | None, hex_id: str, side: str
) -> bool:
    """PFV 6: only with one of your units adjacent may you look beneath an enemy's top piece."""
    return looks_under(
        rules.board, rules.options(state).open_information, state, viewer, hex_id, side
    )


def looks_under(
    b: Board, open_information: bool, state: State, viewer: str | None, hex_id: str, side: str
) -> bool:
    """PFV 6 (L70): the owner sees his whole stack; another role looks beneath an enemy's top
    piece only while one of its units (not a support asset alone) is next to the stack; the
    public never does (RULINGS R3). ``EVERYONE`` (the audit) sees everything."""
    if viewer == side or viewer == EVERYONE or open_information:
        return True
    if viewer is None:
        return False
    near = set(b.grid.neighbours(hex_id))
    return any(
        p.where == "map" and p.hex in near and b.is_unit(p.id) and b.side(p.id) == viewer
        for p in state.pieces.values()
    )


def sees_piece(
    b: Board,
    open_information: bool,
    state: State,
    audience: str | None,
    pid: str,
    stacks: dict[str, list[str]] | None = None,
) -> bool:
    """Whether ``audience`` (a side, PUBLIC or EVERYONE) may know where ``pid`` is now
    (PFV 6, L70; RULINGS R3, R38): every piece off the map is in an open box or out of play;
    on the map, the top piece of every stack is in plain sight, the rest only as
    :func:`looks_under` allows."""
    p = state.pieces[pid]
    if p.where != "map" or open_information:
        return True
    stacks = stacks if stacks is not None else b.stacks(state)
    here = stacks.get(p.hex, [])
    if here and here[0] == pid:
        return True
    return looks_under(b, open_information, state, audience, p.hex, b.side(pid))


def build_view(rules: PattonsFirstVictory, state: State, viewer: str | None) -> HexMapView:
    b = rules.board
    stacks = []
    for h, pieces in sorted(b.stacks(state).items()):
        side = b.side(pieces[0])
        visible = pieces if may_look_under(rules, state, viewer, h, side) else pieces[:1]
        stacks.append(
            StackView(
                hex=h,
                side=side,
                counters=[counter_view(rules, state, p) for p in visible],
                count=len(pieces),
                hidden=len(visible) < len(pieces),
            )
        )

    def box(where: str, side: str) -> list[CounterView]:
        return [
            counter_view(rules, state, p.id)
            for p in sorted(state.pieces.values(), key=lambda q: q.id)
            if p.where == where and b.side(p.id) == side
        ]

    boxes = [
        BoxView(id="rtb-axis", title="Axis Return to Base", side=AXIS, counters=box("rtb", AXIS)),
        BoxView(
            id="rtb-allied", title="Allied Return to Base", side=ALLIED, counters=box("rtb", ALLIED)
        ),
        BoxView(id="dead-axis", title="Axis eliminated", side=AXIS, counters=box("dead", AXIS)),
        BoxView(
            id="dead-allied", title="Allied eliminated", side=ALLIED, counters=box("dead", ALLIED)
        ),
    ]
    if state.to_place:
        boxes.append(
            BoxView(
                id="arriving",
                title="Arriving",
                side=ALLIED,
                counters=[counter_view(rules, state, p) for p in state.to_place],
            )
        )
    arrows, markers = [], []
    for item in recent_items(state):
        if item["kind"] in ARROW_KINDS:
            arrows.append(
                ArrowView(
                    kind=item["kind"],
                    side=item["side"],
                    path=item["path"],
                    label=item.get("text", ""),
                )
            )
        else:
            markers.append(
                MarkerView(hex=item["path"][-1], kind=item["kind"], text=item.get("text", ""))
            )
    prompt = rules.prompt(state)
    turn_label = next((t.label for t in b.scenario.turns if t.turn == state.turn), str(state.turn))
    from engine.games.pfv.rules import PHASE_NAMES

    notes = []
    if state.patton_arrived:
        notes.append("Patton is in command of II Corps.")
    if state.rommel_recalled:
        notes.append("Rommel has been recalled.")
    if state.axis_entered_8th_army:
        notes.append("An Axis unit has entered the 8th Army area.")
    if state.winner:
        notes.append(state.result_text)
    return HexMapView(
        game=rules.id, viewer=viewer, title=rules.title, turn=state.turn,
        turn_label=f"Turn {state.turn} of {rules.board.last_turn}: {turn_label}",
        phase=("Axis " if state.player == AXIS else "Allied ") + PHASE_NAMES.get(state.phase, state.phase),
        active_role=prompt.role, prompt=prompt.text_for(viewer),
        sides=[SideView(id=AXIS, name="Axis"), SideView(id=ALLIED, name="Allied")],
        stacks=stacks, boxes=boxes, arrows=arrows, markers=markers,
        control=dict(state.control), notes=notes,
    )  # fmt: skip


def recent_items(state: State) -> list[dict]:
    """The arrows and markers of the latest player turn that did something."""
    groups: list[tuple[int, str]] = []
    for item in state.recent:
        key = (item["turn"], item["player"])
        if not groups or groups[-1] != key:
            groups.append(key)
    if not groups:
        return []
    return [i for i in state.recent if (i["turn"], i["player"]) == groups[-1]]
