"""What each side may see (1.3 Fog of War, L134-138; digest 4.2, the visibility matrix).

A block's position, nation (its colour) and public token are seen by everyone, and so
is the white barrel (out of supply, 7.2). Its identity, type and strength are its
owner's alone, unless a battle or a recon has turned it face up (then both sides see it
until the Final Supply Check, L2416-2417). The public view is what both sides see.
So are a block's Reserve Mode (the black barrel, AR 16.0; RULINGS B62, B95), but for its
owner's eyes only under the option ``hidden_reserves`` (L2447-2448; RULINGS F6), and the
hexes a recon revealed this turn (AR 12.0; RULINGS B47), and those where an attempt revealed
nothing (B83). A Supreme Leader's AP left (advanced
rules, L1994-2004; RULINGS B60) are its own side's to read, as the PP are (RULINGS F2).
An activated HQ lies face up with its AP for all (AR 11.3); which units are fuelled is
their owner's to read (AR 11.0-11.10; RULINGS B75).
"""

from __future__ import annotations

from pydantic import BaseModel

from engine.core.events import EVERYONE
from engine.games.bia import hq, ledger
from engine.games.bia.board import Board
from engine.games.bia.state import BlockState, State


class BlockView(BaseModel):
    """One block as the viewer sees it. The fields from ``id`` down are set only when the
    viewer may see the block's face."""

    token: str
    side: str
    nation: str
    colour: str
    where: str
    at: str | None
    oos: bool = False
    revealed: bool = False
    #: in Reserve Mode, by Motorization or for a reaction: the black barrel, public (AR
    #: 16.0, L2418-2446; RULINGS B62, B95), its owner's only under the option
    #: ``hidden_reserves`` (L2447-2448; RULINGS F6)
    reserve: bool = False
    #: an activated HQ, face up with its action points left (AR 11.3; public)
    active_ap: int | None = None
    #: fuelled for this phase (AR 11.0-11.10): its owner's to read only (RULINGS B75)
    fuelled: bool = False
    id: str | None = None
    name: str | None = None
    kind: str | None = None
    steps: int | None = None
    strength: int | None = None
    track: list[tuple[int, str]] | None = None


class BiaView(BaseModel):
    viewer: str | None
    scenario: str
    turn: int
    player: str
    phase: str
    blocks: list[BlockView]
    control: dict[str, str]
    battles: list[str]
    #: power -> colour -> PP held, for the viewer's own powers only (digest 4.2)
    pp: dict[str, dict[str, int]] = {}
    #: hexes a recon revealed this turn, public (AR 12.0; RULINGS B47)
    reconned: list[str] = []
    #: hex -> ``failed`` or ``negated``: this turn's recon attempts that revealed nothing
    #: there, public like the attempt itself (AR 12.0, L2314-2320; RULINGS B83)
    recon_failed: dict[str, str] = {}
    #: Supreme Leader -> AP left this turn, for the viewer's own side's leaders only and
    #: only under the advanced rules (L1994-2004; RULINGS B60)
    leader_ap: dict[str, int] = {}


def sees_face(state: State, b: BlockState, viewer: str | None) -> bool:
    """Whether ``viewer`` sees a block's face: its owner, the moderator's audit, or anyone
    once it is revealed."""
    return viewer == EVERYONE or viewer == b.side or b.revealed


def sees_reserve(state: State, b: BlockState, viewer: str | None) -> bool:
    """Whether ``viewer`` sees the black barrel of a block in Reserve Mode: everyone does
    (RULINGS B62, B95) unless the option ``hidden_reserves`` puts it on the owner's set-up
    board (16.0, L2447-2448; RULINGS F6), where only the owner and the audit see it."""
    return not state.options.get("hidden_reserves") or viewer in (EVERYONE, b.side)


def block_view(board: Board, state: State, b: BlockState, viewer: str | None) -> BlockView:
    block = board.block(b.id)
    power = board.pack.units.powers[block.power]
    out = BlockView(
        token=b.token,
        side=b.side,
        nation=block.power,
        colour=power.block,
        where=b.where,
        at=b.at,
        oos=b.oos,
        revealed=b.revealed,
        reserve=sees_reserve(state, b, viewer)
        and (b.id in state.reserve or b.id in state.reaction_reserve),
        active_ap=state.hq_active.get(b.id),
        fuelled=b.id in state.fuelled and viewer in (EVERYONE, b.side),
    )
    if sees_face(state, b, viewer):
        out.id, out.name, out.kind, out.steps = b.id, block.name, block.kind, b.steps
        out.strength = block.track[b.steps - 1][0] if b.steps else None
        out.track = [tuple(t) for t in block.track]
    return out


def view(board: Board, state: State, viewer: str | None) -> BiaView:
    """The game as ``viewer`` (a side, None for the public, EVERYONE for the audit) sees
    it. Blocks not yet in play (``pool``) are shown to their owner only: the Order of
    Battle sheets are each player's own (digest 4.2, RULINGS B10); eliminated blocks the
    same way. A reinforcement that arrived by itself in this Production Phase is its
    owner's until the phase ends, as he may still hold it back (7.3.5; RULINGS B100)."""
    shown = [
        block_view(board, state, b, viewer)
        for b in sorted(state.blocks.values(), key=lambda b: b.token)
        if viewer in (EVERYONE, b.side)
        or (b.where in ("map", "box") and b.id not in state.fresh)
    ]
    return BiaView(
        viewer=viewer,
        scenario=state.scenario,
        turn=state.turn,
        player=state.player,
        phase=state.phase,
        blocks=shown,
        control=dict(state.control),
        battles=list(state.battles),
        pp=ledger.view_pp(board, state, viewer, EVERYONE),
        reconned=list(state.reconned),
        recon_failed=dict(state.recon_failed),
        leader_ap=leaders_ap(board, state, viewer),
    )


def leaders_ap(board: Board, state: State, viewer: str | None) -> dict[str, int]:
    """The AP each Supreme Leader of ``viewer``'s side has left this turn (advanced rules,
    L1994-2004; RULINGS B60): the viewer's own leaders only, every leader for the audit,
    none for the public, when the basic rules are played, or in a naval scenario (whose
    leaders only fuel a fleet, RULINGS B70)."""
    if not hq.playing(state) or viewer is None:
        return {}
    if board.pack.scenario(state.scenario).kind == "naval":
        return {}
    return {
        k: hq.ap_left(board, state, k)
        for k, leader in board.pack.units.leaders.items()
        if viewer == EVERYONE or board.side_of_power(leader.power) == viewer
    }
