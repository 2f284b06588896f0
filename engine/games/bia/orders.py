"""The orders of Blocks in Afrika implemented so far, and their text grammar.

move BLOCK HEX...   ground movement: the hexes entered in order (7.5, L1297-1313)
done                end the current phase

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


class Done(Order):
    verb: Literal["done"] = "done"


ORDERS: dict[str, type[Order]] = {"move": Move, "done": Done}
GRAMMAR = "Orders: 'move BLOCK HEX...' (the hexes entered, in order) or 'done'."


def _refuse(why: str) -> OrderSyntaxError:
    return OrderSyntaxError("BIA 7.0", why, GRAMMAR)


def _hex(word: str) -> str:
    if len(word) != 4 or not (word.isascii() and word.isdigit()):
        raise _refuse(f"{excerpt(word)} is not a hex number (four digits, column then row).")
    return word


def parse_order(text: str) -> Order:
    words = order_words(text, _refuse)
    if not words:
        raise _refuse("That order is empty.")
    verb, args = words[0].lower(), words[1:]
    if verb == "done":
        if args:
            raise _refuse("'done' takes nothing after it.")
        return Done()
    if verb == "move":
        if len(args) < 2:
            raise _refuse("'move' needs a block and at least one hex.")
        return Move(block=args[0], path=[_hex(w) for w in args[1:]])
    raise _refuse(f"{excerpt(words[0])} is not an order of this game.")


def load_order(data: dict[str, Any]) -> Order:
    cls = ORDERS.get(data.get("verb", "")) if isinstance(data, dict) else None
    if cls is None:
        raise _refuse("That stored order is not an order of this game.")
    return cls.model_validate(data)
