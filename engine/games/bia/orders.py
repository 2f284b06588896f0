"""The orders of Blocks in Afrika implemented so far, and their text grammar.

move BLOCK HEX...        ground movement and exploitation: the hexes entered in order (7.5, 7.10)
rail BLOCK HEX           strategic rail movement to a rail hex (7.4)
fly BLOCK HEX            Air Transfer of an air unit to another airfield (7.5)
fight HEX                fight the battle in that hex next (7.7, the phasing side's choice)
hit BLOCK                give the next hit to that block, of the tied strongest (3.18, 7.7.9)
retreat BLOCK HEX        retreat a block from its battle after the ground step (7.7.11)
stay                     end this side's retreats for this round
blitz BLOCK HEX          the 1 free MP of the Blitz into an adjacent hex (7.8)
repair BLOCK             buy the next edge of a supplied block (7.3)
rebuild BLOCK [HEX]      buy back an eliminated block's weakest edge, at HEX when it has a choice (7.3)
disband BLOCK            disband a supplied block for 1 yellow PP, after all purchases (7.3.6)
standing hits engine|ask     who breaks ties of the strongest when this side takes hits
standing retreat stay|ask    whether this side is asked about retreats after each round
standing warfare COLOUR      the colour Strategic Warfare hits take first (the Allied choice, 7.1)
done                     end the current phase

``BLOCK`` is the block's id (``it_10c``) or its public token (``IT-07``); a side names
only its own blocks, so either spelling is private to it.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from engine.core.errors import OrderSyntaxError
from engine.core.orders import Order, excerpt, order_words


class Move(Order):
    verb: Literal["move"] = "move"
    block: str
    path: list[str]
    text_fields: ClassVar[tuple[str, ...]] = ("block", "path")


class Rail(Order):
    verb: Literal["rail"] = "rail"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Fly(Order):
    verb: Literal["fly"] = "fly"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Fight(Order):
    verb: Literal["fight"] = "fight"
    hex: str
    text_fields: ClassVar[tuple[str, ...]] = ("hex",)


class Hit(Order):
    verb: Literal["hit"] = "hit"
    block: str
    text_fields: ClassVar[tuple[str, ...]] = ("block",)


class Retreat(Order):
    verb: Literal["retreat"] = "retreat"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Stay(Order):
    verb: Literal["stay"] = "stay"


class Blitz(Order):
    verb: Literal["blitz"] = "blitz"
    block: str
    to: str
    text_fields: ClassVar[tuple[str, ...]] = ("block", "to")


class Repair(Order):
    verb: Literal["repair"] = "repair"
    block: str
    text_fields: ClassVar[tuple[str, ...]] = ("block",)


class Rebuild(Order):
    verb: Literal["rebuild"] = "rebuild"
    block: str
    at: str | None = None
    text_fields: ClassVar[tuple[str, ...]] = ("block", "at")


class Disband(Order):
    verb: Literal["disband"] = "disband"
    block: str
    text_fields: ClassVar[tuple[str, ...]] = ("block",)


class Standing(Order):
    verb: Literal["standing"] = "standing"
    topic: Literal["hits", "retreat", "warfare"]
    value: Literal["engine", "ask", "stay", "yellow", "red", "blue", "white", "oil"]
    text_fields: ClassVar[tuple[str, ...]] = ("topic", "value")


class Done(Order):
    verb: Literal["done"] = "done"


ORDERS: dict[str, type[Order]] = {
    c.model_fields["verb"].default: c
    for c in (
        Move,
        Rail,
        Fly,
        Fight,
        Hit,
        Retreat,
        Stay,
        Blitz,
        Repair,
        Rebuild,
        Disband,
        Standing,
        Done,
    )
}
GRAMMAR = (
    "Orders: 'move BLOCK HEX...', 'rail BLOCK HEX', 'fly BLOCK HEX', 'fight HEX', 'hit BLOCK', "
    "'retreat BLOCK HEX', 'stay', 'blitz BLOCK HEX', 'repair BLOCK', "
    "'rebuild BLOCK [HEX]', 'disband BLOCK', 'standing hits engine|ask', "
    "'standing retreat stay|ask', 'standing warfare COLOUR' or 'done'."
)
#: the standing orders each topic takes (the first is the default)
STANDING = {
    "hits": ("engine", "ask"),
    "retreat": ("stay", "ask"),
    "warfare": ("yellow", "red", "blue", "white", "oil"),
}
#: the standing orders only one side gives (7.1: the Allied player chooses the colours)
STANDING_SIDE = {"warfare": "allied"}


def _refuse(why: str) -> OrderSyntaxError:
    return OrderSyntaxError("BIA 7.0", why, GRAMMAR)


def _hex(word: str) -> str:
    if len(word) != 4 or not (word.isascii() and word.isdigit()):
        raise _refuse(f"{excerpt(word)} is not a hex number (four digits, column then row).")
    return word


def _count(verb: str, args: list[str], n: int, shape: str) -> None:
    if len(args) != n:
        raise _refuse(f"'{verb}' takes {shape}.")


def parse_order(text: str) -> Order:
    words = order_words(text, _refuse)
    if not words:
        raise _refuse("That order is empty.")
    verb, args = words[0].lower(), words[1:]
    if verb in ("done", "stay"):
        _count(verb, args, 0, "nothing after it")
        return Done() if verb == "done" else Stay()
    if verb == "move":
        if len(args) < 2:
            raise _refuse("'move' needs a block and at least one hex.")
        return Move(block=args[0], path=[_hex(w) for w in args[1:]])
    if verb in ("rail", "fly", "retreat", "blitz"):
        _count(verb, args, 2, "a block and one hex")
        return ORDERS[verb](block=args[0], to=_hex(args[1]))
    if verb == "fight":
        _count(verb, args, 1, "one hex")
        return Fight(hex=_hex(args[0]))
    if verb in ("hit", "repair", "disband"):
        _count(verb, args, 1, "one block")
        return ORDERS[verb](block=args[0])
    if verb == "rebuild":
        if len(args) not in (1, 2):
            raise _refuse("'rebuild' takes a block and, where it has a choice, one hex.")
        return Rebuild(block=args[0], at=_hex(args[1]) if len(args) == 2 else None)
    if verb == "standing":
        _count(verb, args, 2, "a topic and a value")
        topic, value = args[0].lower(), args[1].lower()
        if value not in STANDING.get(topic, ()):
            raise _refuse(
                "A standing order is 'hits engine', 'hits ask', 'retreat stay', 'retreat ask' "
                "or 'warfare' with yellow, red, blue, white or oil."
            )
        return Standing(topic=topic, value=value)
    raise _refuse(f"{excerpt(words[0])} is not an order of this game.")


def load_order(data: dict[str, Any]) -> Order:
    cls = ORDERS.get(data.get("verb", "")) if isinstance(data, dict) else None
    if cls is None:
        raise _refuse("That stored order is not an order of this game.")
    try:
        return cls.model_validate(data)
    except ValueError as err:  # pydantic's ValidationError is a ValueError
        raise _refuse("That stored order is not an order of this game.") from err
