"""Orders: pydantic models with a ``verb``, writable as text.

Each game declares its order models (subclasses of :class:`Order`) and a parser from text.
The text form of an order (:meth:`Order.text`) parses back to the same order, so the
console, email and Discord autocomplete all speak one grammar.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict


class Order(BaseModel):
    """Base of every order. Subclasses set ``verb`` as a ``Literal`` default."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verb: str
    #: the positional text form, in field order, e.g. ("piece", "path")
    text_fields: ClassVar[tuple[str, ...]] = ()

    def text(self) -> str:
        """The order as a player would type it: ``move 1arm 8113 8114``."""
        parts = [self.verb]
        for name in self.text_fields:
            value = getattr(self, name)
            if value is None:
                continue
            if isinstance(value, (list, tuple)):
                parts.extend(str(v) for v in value)
            else:
                parts.append(str(value))
        return " ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(exclude_defaults=False)

    def __str__(self) -> str:
        return self.text()


# -- reading order text (shared by every game's parser) ---------------------------------

#: the longest order text a parser reads; longer text is refused before it is split
MAX_ORDER_TEXT = 1000
#: the longest word of an order: every name, id and count of the games fits with room
MAX_WORD = 40
#: the most digits a count may have (no game counts a million of anything)
MAX_COUNT_DIGITS = 6
#: how much of what was typed a refusal quotes
EXCERPT = 24


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted for a refusal, cut to ``limit`` characters: a refusal must not
    echo a megabyte back at the player.

    >>> excerpt("move 1arm 8113"), excerpt("x" * 100, 5)
    ("'move 1arm 8113'", "'xxxxx...'")
    """
    shown = repr(text[:limit])
    if len(shown) > 3 * limit:  # escapes of unprintable characters lengthen it
        shown = shown[: 3 * limit]
    elif len(text) <= limit:
        return shown
    return shown[:-1] + "...'" if shown.endswith("'") else shown + "...'"


def order_words(text: str, refuse) -> list[str]:
    """The words of an order (split at white space), after checking that the text and
    each word are of a readable length; ``refuse(why)`` builds the refusal to raise."""
    if not isinstance(text, str):
        raise refuse("An order is a line of text.")
    if len(text) > MAX_ORDER_TEXT:
        raise refuse(
            f"That order is {len(text)} characters long; an order has at most {MAX_ORDER_TEXT}."
        )
    words = text.split()
    for word in words:
        if len(word) > MAX_WORD:
            raise refuse(f"{excerpt(word)} is too long to be a word of an order.")
        if not word.isprintable():
            raise refuse(f"{excerpt(word)} holds a character that is not printable.")
    return words


def is_count(word: str) -> bool:
    """Whether ``word`` is written as a count: the digits 0-9 only (``²`` or ``①`` are not)."""
    return word.isascii() and word.isdigit()


def read_count(word: str, refuse) -> int:
    """The number ``word`` writes (digits 0-9), refused when it has too many digits."""
    if not is_count(word):
        raise refuse(f"{excerpt(word)} is not a number written with the digits 0-9.")
    if len(word) > MAX_COUNT_DIGITS:
        raise refuse(f"{excerpt(word)} is too large a number for an order.")
    return int(word)
