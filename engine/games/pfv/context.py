"""What every rule handler works with while one order is applied.

``Ctx`` holds the static board, the options, the state being changed (a clone: the state
the caller passed in is never touched), the events written so far and the dice.
"""

from __future__ import annotations

from collections.abc import Iterable
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


def capital(text: str) -> str:
    """The text with its first letter in upper case (a sentence may start with `called`)."""
    return text[:1].upper() + text[1:]


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
    #: the state as the order found it (never changed): what each side could see before
    before: State | None = None
    #: events naming pieces, with those pieces, until :meth:`finish` says who reads them
    pending: list[tuple[Event, list[str]]] = field(default_factory=list)

    # -- the log ---------------------------------------------------------------

    def log(
        self,
        kind: str,
        text: str,
        reveals: bool = False,
        *,
        about: Iterable[str] = (),
        others: str | None = None,
        **data: Any,
    ) -> None:
        """Write an event. ``about`` lists the pieces ``text`` names: a side that could not
        see one of them (before the order or once it is done, PFV 6) reads ``others``
        instead, which must name only what :meth:`called` allows (ARCHITECTURE: the log is
        a view). Who reads what is settled by :meth:`finish`."""
        event = Event(kind, text, data, reveals, None, others)
        self.events.append(event)
        about = list(about)
        if about:
            self.pending.append((event, about))

    def finish(self) -> None:
        """Once the order is done: each event naming pieces is read whole by the sides that
        saw every one of them before the order and see them now, and by everyone if the
        public does; everyone else reads its ``others`` text."""
        for event, about in self.pending:
            event.seen_by = self.readers(about)
            if event.seen_by is None:
                event.others = None
        self.pending.clear()

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

    # -- who may read what (PFV 6, L70) ----------------------------------------

    def sees(self, audience: str | None, piece_id: str) -> bool:
        """Whether ``audience`` (a side or PUBLIC) may be told where the piece is, both as
        the order found the board and as it stands now (PFV 6, L70; RULINGS R38).

        A side sees what its view shows. The public is told less: a player turn's log
        reaches the channel when the turn ends, by which time a support asset standing
        alone may be under a unit, so the public hears a piece named only while it is off
        the map or is the unit on top of its stack."""
        from engine.games.pfv.view import sees_piece

        open_information = self.options.open_information
        for state in (self.before, self.state):
            if state is None:
                continue
            p = state.pieces[piece_id]
            if p.where != "map":
                continue
            if audience is None and not open_information and not self.board.is_unit(piece_id):
                return False
            if not sees_piece(self.board, open_information, state, audience, piece_id):
                return False
        return True

    def readers(self, pieces: Iterable[str]) -> tuple[str, ...] | None:
        """The sides that see every one of ``pieces``; ``None`` when the public does too."""
        pieces = list(pieces)
        if all(self.sees(None, p) for p in pieces):
            return None
        return tuple(side for side in (AXIS, ALLIED) if all(self.sees(side, p) for p in pieces))

    def called(self, piece_id: str) -> str:
        """The piece as the public may name it: by name when :meth:`sees` allows, otherwise
        only its side and kind ("an Axis support asset")."""
        return self.group_called([piece_id])

    def subject(self, pieces: Iterable[str]) -> str:
        """``group_called`` to open a sentence with."""
        return capital(self.group_called(pieces))

    def group_called(self, pieces: Iterable[str]) -> str:
        """``called`` for a group: the pieces the public may know by name, the rest counted
        by side and kind ("10th Panzer and 2 Axis support assets")."""
        pieces = list(pieces)
        shown = [self.name(p) for p in pieces if self.sees(None, p)]
        hidden = [p for p in pieces if not self.sees(None, p)]
        for kind in ("unit", "support asset"):
            these = [p for p in hidden if self.board.is_unit(p) == (kind == "unit")]
            if these:
                side = SIDE_NAME[self.board.side(these[0])]
                n = len(these)
                shown.append(f"an {side} {kind}" if n == 1 else f"{n} {side} {kind}s")
        return " and ".join(shown)

    # -- naming ----------------------------------------------------------------

    def name(self, piece_id: str) -> str:
        p = self.state.pieces[piece_id]
        label = self.board.name(piece_id)
        return f"{label} (reduced)" if p.reduced else label

    # -- what a move or placement does to the board -----------------------------

    def entered(self, piece_id: str, hexes: list[str]) -> None:
        """A piece entered these hexes, the last being where it comes to rest. A unit takes
        control of the hex it comes to rest in (RULINGS R17), and an Axis unit coming to
        rest in an 8th Army hex or the airbase has occupied it, which spends the Rommel
        modifier (PFV 17, RULINGS R25). A piece only passing through a hex is not in it
        (PFV 6, L68; PFV 4, L46-48); the options ``control_by_transit`` and
        ``rommel_flag_counts_transit`` count the hexes passed through as well."""
        b = self.board
        if not b.is_unit(piece_id):
            return
        side = b.side(piece_id)
        for h in hexes if self.options.control_by_transit else hexes[-1:]:
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
        """Remove a piece to the dead pile. A battlegroup is a unit in every respect (PFV 13,
        L198) and no eliminated unit ever comes back (PFV 7, L118), so it stays there too
        (RULINGS R14); the option ``battlegroup_recycled`` returns its counter to the pool."""
        p = self.state.pieces[piece_id]
        where = p.hex
        name = self.name(piece_id)
        if self.board.counter(piece_id).kind == "battlegroup" and self.options.battlegroup_recycled:
            p.where, p.hex, p.reduced, p.origin = "pool", None, False, None
        else:
            p.where, p.hex, p.reduced = "dead", None, False
        self.state.moved.discard(piece_id)
        self.log(
            "eliminated",
            f"{name} is eliminated{why}.",
            about=[piece_id],
            others=f"{capital(self.called(piece_id))} is eliminated{why}.",
            piece=piece_id,
            hex=where,
        )
        if where:
            self.mark("eliminated", self.board.side(piece_id), [where], self.called(piece_id))

    def lose_step(self, piece_id: str, battlegroup: bool = True) -> None:
        """PFV 13: a full two-step piece flips; a reduced unit gives way to a battlegroup;
        a one-step piece, a battlegroup or a reduced support asset is eliminated."""
        b = self.board
        p = self.state.pieces[piece_id]
        c = b.counter(piece_id)
        if not p.reduced and c.back is not None:
            p.reduced = True
            self.log(
                "reduced",
                f"{b.name(piece_id)} is reduced.",
                about=[piece_id],
                others=f"{capital(self.called(piece_id))} is reduced.",
                piece=piece_id,
                hex=p.hex,
            )
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
