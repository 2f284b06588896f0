"""The orders of Patton's First Victory and their text grammar.

place PIECE HEX             set-up (PFV 5), Patton and II Corps swaps (PFV 16)
auto                        set up the rest of your pieces in default hexes (PFV 5)
move PIECE[,PIECE] HEX...   the hexes entered in order, or just the destination (PFV 8)
attack UNIT HEX [air AIR]   declare a battle, with air support if wanted (PFV 7, 11)
air AIR | air none          the defender's air support (PFV 7 phase 3)
loss PIECE                  which piece of the stack takes the step loss (PFV 13)
retreat PIECE HEX [HEX]     two hexes away: via and to, or just the destination (PFV 14)
advance PIECE... | advance none   (PFV 7 phase 5, 14)
rebase AIR HEX              Return to Base (PFV 7 phase 6)
rebuild PIECE               flip a reduced piece back (PFV 7 phase 7)
replace PIECE HEX           bring an eliminated support asset back (PFV 7 phase 7)
done                        end this phase or step
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from engine.core.errors import OrderSyntaxError
from engine.core.hexgrid import is_hex_id
from engine.core.orders import Order, excerpt, order_words


def canonical_pieces(pieces: list[str]) -> list[str]:
    """The pieces of a group in one order (by id), whatever order they were typed in: a
    group moves or advances as one, so two spellings must store alike. Applied when an
    order is read from text; stored orders load as written, so older logs replay
    unchanged."""
    return sorted(pieces)


class Place(Order):
    verb: Literal["place"] = "place"
    piece: str
    hex: str
    text_fields: ClassVar[tuple[str, ...]] = ("piece", "hex")


class Auto(Order):
    verb: Literal["auto"] = "auto"


class Move(Order):
    verb: Literal["move"] = "move"
    pieces: list[str]
    path: list[str]

    def text(self) -> str:
        return f"move {','.join(self.pieces)} {' '.join(self.path)}"


class Attack(Order):
    verb: Literal["attack"] = "attack"
    unit: str
    target: str
    air: str | None = None

    def text(self) -> str:
        return f"attack {self.unit} {self.target}" + (f" air {self.air}" if self.air else "")


class Air(Order):
    verb: Literal["air"] = "air"
    piece: str | None = None

    def text(self) -> str:
        return f"air {self.piece or 'none'}"


class Loss(Order):
    verb: Literal["loss"] = "loss"
    piece: str
    text_fields: ClassVar[tuple[str, ...]] = ("piece",)


class Retreat(Order):
    verb: Literal["retreat"] = "retreat"
    piece: str
    path: list[str]
    text_fields: ClassVar[tuple[str, ...]] = ("piece", "path")


class Advance(Order):
    verb: Literal["advance"] = "advance"
    pieces: list[str] = []

    def text(self) -> str:
        return "advance " + (" ".join(self.pieces) if self.pieces else "none")


class Rebase(Order):
    verb: Literal["rebase"] = "rebase"
    piece: str
    hex: str
    text_fields: ClassVar[tuple[str, ...]] = ("piece", "hex")


class Rebuild(Order):
    verb: Literal["rebuild"] = "rebuild"
    piece: str
    text_fields: ClassVar[tuple[str, ...]] = ("piece",)


class Replace(Order):
    verb: Literal["replace"] = "replace"
    piece: str
    hex: str
    text_fields: ClassVar[tuple[str, ...]] = ("piece", "hex")


class Done(Order):
    verb: Literal["done"] = "done"


ORDER_TYPES: dict[str, type[Order]] = {
    cls.model_fields["verb"].default: cls
    for cls in (
        Place,
        Auto,
        Move,
        Attack,
        Air,
        Loss,
        Retreat,
        Advance,
        Rebase,
        Rebuild,
        Replace,
        Done,
    )
}

#: the rulebook section each verb belongs to, named in syntax errors
SECTION = {
    "place": "PFV 5", "auto": "PFV 5", "move": "PFV 8", "attack": "PFV 11", "air": "PFV 7",
    "loss": "PFV 13", "retreat": "PFV 14", "advance": "PFV 14", "rebase": "PFV 7", "rebuild": "PFV 7",
    "replace": "PFV 7", "done": "PFV 7",
}  # fmt: skip

USAGE = {
    "place": "place PIECE HEX",
    "auto": "auto",
    "move": "move PIECE[,PIECE] HEX [HEX ...]",
    "attack": "attack UNIT HEX [air AIR]",
    "air": "air AIR  or  air none",
    "loss": "loss PIECE",
    "retreat": "retreat PIECE [VIA] HEX",
    "advance": "advance PIECE [PIECE ...]  or  advance none",
    "rebase": "rebase AIR HEX",
    "rebuild": "rebuild PIECE",
    "replace": "replace PIECE HEX",
    "done": "done",
}


def load_order(data: dict[str, Any]) -> Order:
    """A stored order back as a model; never raises anything but
    :class:`OrderSyntaxError` (the data may come from an imported file)."""
    verb = data.get("verb") if isinstance(data, dict) else None
    if not isinstance(verb, str) or verb not in ORDER_TYPES:
        raise OrderSyntaxError(
            "PFV 7", f"{excerpt(str(verb))} is not an order of this game.", _verbs_hint()
        )
    try:
        return ORDER_TYPES[verb].model_validate(data)
    except Exception:
        raise OrderSyntaxError(
            SECTION[verb], f"That {verb} order is malformed.", f"Write it as: {USAGE[verb]}."
        ) from None


def _verbs_hint() -> str:
    return "The orders are: " + ", ".join(USAGE) + "."


def parse_order(text: str) -> Order:
    """Turn a line such as ``move 10pz 8213 8313`` into an order; never raises anything
    but :class:`OrderSyntaxError`, which quotes at most a short excerpt of the text."""
    words = order_words(
        text.replace("/", " ") if isinstance(text, str) else text,
        lambda why: OrderSyntaxError("PFV 7", why, _verbs_hint()),
    )
    if not words:
        raise OrderSyntaxError("PFV 7", "That order is empty.", _verbs_hint())
    verb, args = words[0].lower(), [w.lower() for w in words[1:]]
    if verb not in ORDER_TYPES:
        raise OrderSyntaxError(
            "PFV 7", f"{excerpt(words[0])} is not an order of this game.", _verbs_hint()
        )

    def bad(why: str) -> OrderSyntaxError:
        return OrderSyntaxError(SECTION[verb], why, f"Write it as: {USAGE[verb]}.")

    def need_hexes(values: list[str]) -> list[str]:
        for v in values:
            if not (v.isascii() and is_hex_id(v)):
                raise bad(f"{excerpt(v)} is not a hex number (four digits, like 8113).")
        return values

    match verb:
        case "done" | "auto":
            if args:
                raise bad(f"'{verb}' takes nothing after it.")
            return ORDER_TYPES[verb]()
        case "place" | "rebase" | "replace":
            if len(args) != 2:
                raise bad(f"'{verb}' needs a piece and a hex.")
            return ORDER_TYPES[verb](piece=args[0], hex=need_hexes(args[1:])[0])
        case "move":
            if len(args) < 2:
                raise bad("'move' needs a piece and at least one hex.")
            pieces = [p for p in args[0].split(",") if p]
            if not pieces:
                raise bad("'move' needs at least one piece before the hexes.")
            return Move(pieces=canonical_pieces(pieces), path=need_hexes(args[1:]))
        case "attack":
            if len(args) == 2:
                return Attack(unit=args[0], target=need_hexes(args[1:])[0])
            if len(args) == 4 and args[2] == "air":
                air = None if args[3] == "none" else args[3]
                return Attack(unit=args[0], target=need_hexes(args[1:2])[0], air=air)
            raise bad(
                "'attack' needs a unit, the hex it attacks and optionally 'air' and an air piece."
            )
        case "air":
            if len(args) != 1:
                raise bad("'air' needs one air piece, or 'none'.")
            return Air(piece=None if args[0] in ("none", "no", "pass") else args[0])
        case "loss" | "rebuild":
            if len(args) != 1:
                raise bad(f"'{verb}' needs one piece.")
            return ORDER_TYPES[verb](piece=args[0])
        case "retreat":
            if len(args) not in (2, 3):
                raise bad("'retreat' needs a piece and one or two hexes.")
            return Retreat(piece=args[0], path=need_hexes(args[1:]))
        case "advance":
            if args in ([], ["none"], ["no"]):
                return Advance(pieces=[])
            pieces = [p for a in args for p in a.split(",") if p]
            if not pieces:
                raise bad("'advance' needs the pieces that advance, or 'none'.")
            return Advance(pieces=canonical_pieces(pieces))
    raise bad("unreadable order")  # pragma: no cover
