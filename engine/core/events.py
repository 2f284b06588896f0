"""Events: what an applied order did, as data and as log lines each audience may read.

The log is a view (ARCHITECTURE: The rules contract). An event that names hidden things
says who may read it whole (``seen_by``) and what everyone else reads instead
(``others``, or nothing at all). An audience is a role, :data:`PUBLIC` (``None``: the
channel, a spectator) or :data:`EVERYONE` (a moderator's audit, the export after the end).

>>> e = Event("move", "21st Panzer moves 8214 -> 8114.", seen_by=("axis",),
...           others="An Axis stack moves 8214 -> 8114.")
>>> e.text_for("axis"), e.text_for("allied"), e.text_for(PUBLIC)
('21st Panzer moves 8214 -> 8114.', 'An Axis stack moves 8214 -> 8114.', 'An Axis stack moves 8214 -> 8114.')
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

PUBLIC: None = None
"""The audience of the public channel: what every role may see."""

EVERYONE = "*"
"""The audience that sees everything: a moderator's audit, the export after the end."""

ORDER = "order"
"""The kind of the event that carries the order's own text when it names hidden things."""


@dataclass(slots=True)
class Event:
    """One thing that happened.

    ``text`` is the whole line (``"10th Panzer attacks 8113: rolls 6, needs 6 or less: hit."``).
    ``seen_by`` lists the roles that read it whole; ``None`` means everyone does. Everyone
    else reads ``others`` (``None``: the event is not shown to them at all). ``reveals``
    marks events that showed a player hidden information, which ends the right to take
    back an order (ARCHITECTURE: Undo). ``data`` is for renderers and tests and follows
    ``text``: an audience that does not read the whole line gets none of it.
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    reveals: bool = False
    seen_by: tuple[str, ...] | None = None
    others: str | None = None

    @property
    def is_public(self) -> bool:
        return self.seen_by is None

    def sees_whole(self, audience: str | None) -> bool:
        """Whether ``audience`` (a role, PUBLIC or EVERYONE) reads the whole event."""
        return self.seen_by is None or audience == EVERYONE or (
            audience is not None and audience in self.seen_by
        )

    def text_for(self, audience: str | None) -> str | None:
        """The line ``audience`` reads, or ``None`` when the event is hidden from it."""
        return self.text if self.sees_whole(audience) else self.others

    def data_for(self, audience: str | None) -> dict[str, Any]:
        return self.data if self.sees_whole(audience) else {}

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.data:
            out["data"] = self.data
        if self.reveals:
            out["reveals"] = True
        if self.seen_by is not None:
            out["seen_by"] = list(self.seen_by)
            if self.others is not None:
                out["others"] = self.others
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        seen = d.get("seen_by")
        return cls(
            d["kind"],
            d["text"],
            d.get("data", {}),
            d.get("reveals", False),
            tuple(seen) if seen is not None else None,
            d.get("others"),
        )


def private(
    kind: str,
    text: str,
    roles: Iterable[str],
    others: str | None = None,
    *,
    reveals: bool = False,
    **data: Any,
) -> Event:
    """An event read whole only by ``roles``; everyone else reads ``others`` (or nothing)."""
    return Event(kind, text, data, reveals, tuple(roles), others)


def lines_for(events: Iterable[Event | dict[str, Any]], audience: str | None) -> list[str]:
    """The log lines ``audience`` may read, in order, from events or their stored dicts.
    The :data:`ORDER` event is the order itself, not a line of what happened: see
    :func:`order_line`."""
    out = []
    for e in events:
        ev = e if isinstance(e, Event) else Event.from_dict(e)
        if ev.kind == ORDER:
            continue
        line = ev.text_for(audience)
        if line is not None:
            out.append(line)
    return out


def order_line(
    order_text: str, events: Iterable[Event | dict[str, Any]], audience: str | None
) -> str | None:
    """How the order of an action reads to ``audience``: the typed text, unless the action
    carries an :data:`ORDER` event that keeps it private (then what that event gives the
    audience, possibly nothing)."""
    for e in events:
        ev = e if isinstance(e, Event) else Event.from_dict(e)
        if ev.kind == ORDER:
            return ev.text_for(audience)
    return order_text
