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
