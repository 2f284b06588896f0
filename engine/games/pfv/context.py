"""What every rule handler works with while one order is applied.

``Ctx`` holds the static board, the options, the state being changed (a clone: the state
the caller passed in is never touched), the events written so far and the dice.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.core.ruleset import Dice
from engine.games.pfv.board import Board
from engine.games.pfv.options import Options
from engine.games.pfv.state import ALLIED, AXIS, State

SIDE_NAME = {AXIS: "Axis", ALLIED: "Allied"}


def refuse(rule: str, reason: str, legal: str = "") -> IllegalOrder:
    return IllegalOrder(rule, reason, legal)


def listing(items: list[str], limit: int = 12) -> str:
    items = list(items)
    if not items:
        return "none"
    if len(items) > limit:
        return ", ".join(items[:limit]) + f" and {len(items) - limit} more"
    return ", ".join(items)


@dataclass
class Ctx:
    board: Board
    options: Options
    state: State
    dice: Dice
    events: list[Event] = field(default_factory=list)

    # -- the log ---------------------------------------------------------------

    def log(self, kind: str, text: str, reveals: bool = False, **data: Any) -> None:
        self.events.append(Event(kind, text, data, reveals))

    def mark(self, kind: str, side: str, path: list[str], text: str = "") -> None:
        """Remember an arrow or a battle marker for the map of this player turn."""
        self.state.recent.append(
            {"turn": self.state.turn, "player": self.state.player, "kind": kind, "side": side,
             "path": list(path), "text": text}
        )  # fmt: skip
        if len(self.state.recent) > 80:
            del self.state.recent[:-80]

    def roll(self, purpose: str) -> int:
        return self.dice.roll(12, purpose)

    # -- naming ----------------------------------------------------------------

    def name(self, piece_id: str) -> str:
        p = self.state.pieces[piece_id]
        label = self.board.name(piece_id)
        return f"{label} (reduced)" if p.reduced else label

    # -- what a move or placement does to the board -----------------------------

    def entered(self, piece_id: str, hexes: list[str]) -> None:
        """A piece entered these hexes: units take control of them (RULINGS R17) and an
        Axis unit entering an 8th Army hex spends the Rommel modifier (PFV 17)."""
        b = self.board
        if not b.is_unit(piece_id):
            return
        side = b.side(piece_id)
        for h in hexes:
            if h in self.state.control:
                self.state.control[h] = side
        if side == AXIS and not self.state.axis_entered_8th_army:
            watch = set(b.scenario.eighth_army_hexes)
            considered = hexes if self.options.rommel_flag_counts_transit else hexes[-1:]
            if any(h in watch for h in considered):
                self.state.axis_entered_8th_army = True
                self.log(
                    "flag",
                    "An Axis unit has entered the 8th Army's area: the Allies lose "
                    "the -1 on Rommel's recall roll for the rest of the game (PFV 17).",
                )

    def put(self, piece_id: str, hex_id: str) -> None:
        p = self.state.pieces[piece_id]
        p.where, p.hex = "map", hex_id

    def eliminate(self, piece_id: str, why: str) -> None:
        """Remove a piece to the dead pile. An eliminated battlegroup goes back to the pool
        of battlegroup counters (RULINGS R14)."""
        p = self.state.pieces[piece_id]
        where = p.hex
        name = self.name(piece_id)
        if self.board.counter(piece_id).kind == "battlegroup":
            p.where, p.hex, p.reduced, p.origin = "pool", None, False, None
        else:
            p.where, p.hex, p.reduced = "dead", None, False
        self.state.moved.discard(piece_id)
        self.log("eliminated", f"{name} is eliminated{why}.", piece=piece_id, hex=where)
        if where:
            self.mark("eliminated", self.board.side(piece_id), [where], name)

    def lose_step(self, piece_id: str, battlegroup: bool = True) -> None:
        """PFV 13: a full two-step piece flips; a reduced unit gives way to a battlegroup;
        a one-step piece, a battlegroup or a reduced support asset is eliminated."""
        b = self.board
        p = self.state.pieces[piece_id]
        c = b.counter(piece_id)
        if not p.reduced and c.back is not None:
            p.reduced = True
            self.log("reduced", f"{b.name(piece_id)} is reduced.", piece=piece_id, hex=p.hex)
            return
        if c.kind == "unit" and c.back is not None and battlegroup and p.where == "map":
            bg = self.free_battlegroup(c.side)
            if bg is not None:
                hex_id = p.hex
                self.eliminate(piece_id, " and replaced by a battlegroup")
                self.put(bg, hex_id)
                self.state.pieces[bg].origin = piece_id
                if piece_id in self.state.moved:
                    self.state.moved.add(bg)
                return
            self.eliminate(piece_id, " (no battlegroup counter is left to replace it)")
            return
        self.eliminate(piece_id, "")

    def free_battlegroup(self, side: str) -> str | None:
        for pid in sorted(self.state.pieces):
            c = self.board.counter(pid)
            if (
                c.kind == "battlegroup"
                and c.side == side
                and self.state.pieces[pid].where == "pool"
            ):
                return pid
        return None

    def to_rtb(self, piece_id: str) -> None:
        p = self.state.pieces[piece_id]
        p.where, p.hex = "rtb", None
