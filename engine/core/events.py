"""Events: what an applied order did, as data and as a log line a player can read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Event:
    """One thing that happened.

    ``text`` is the log line (``"10th Panzer attacks 8113: rolls 6, needs 6 or less: hit."``).
    ``reveals`` marks events that showed a player hidden information, which ends the right
    to take back an order (ARCHITECTURE: Undo). ``data`` is for renderers and tests.
    """

    kind: str
    text: str
    data: dict[str, Any] = field(default_factory=dict)
    reveals: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind, "text": self.text}
        if self.data:
            out["data"] = self.data
        if self.reveals:
            out["reveals"] = True
        return out

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Event:
        return cls(d["kind"], d["text"], d.get("data", {}), d.get("reveals", False))
