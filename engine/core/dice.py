"""Verifiable dice (ARCHITECTURE: Dice).

Every roll of a game comes from one secret. Roll ``k`` of action ``n`` is derived from
``HMAC-SHA256(secret, "<game_id>|<n>|<k>")``; 32-bit words of the digest are rejection
sampled to the die size, so every face is exactly equally likely. The game publishes
``commitment(secret)`` when it is created and reveals the secret when it ends; anyone
can then recompute every roll. Undoing and redoing an order gives the same roll, so
nobody can fish for a better one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets as _secrets
from dataclasses import dataclass, field


def new_secret() -> bytes:
    """32 random bytes from the operating system."""
    return _secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    """The public promise: sha256 of the secret, as hex."""
    return hashlib.sha256(secret).hexdigest()


def derive_roll(secret: bytes, game_id: str, action: int, index: int, sides: int) -> int:
    """Roll ``index`` of action ``action``: a uniform integer from 1 to ``sides``."""
    if sides < 2:
        raise ValueError("a die has at least two sides")
    limit = (1 << 32) - ((1 << 32) % sides)
    attempt = 0
    while True:
        label = (
            f"{game_id}|{action}|{index}"
            if attempt == 0
            else f"{game_id}|{action}|{index}|{attempt}"
        )
        digest = hmac.new(secret, label.encode(), hashlib.sha256).digest()
        for i in range(0, 32, 4):
            word = int.from_bytes(digest[i : i + 4], "big")
            if word < limit:
                return word % sides + 1
        attempt += 1


@dataclass(slots=True)
class Roll:
    """One die rolled during an action."""

    sides: int
    value: int
    purpose: str = ""


@dataclass
class ActionDice:
    """The dice of one action. Rolls are numbered in the order they are asked for."""

    secret: bytes
    game_id: str
    action: int
    rolls: list[Roll] = field(default_factory=list)

    def roll(self, sides: int, purpose: str = "") -> int:
        value = derive_roll(self.secret, self.game_id, self.action, len(self.rolls), sides)
        self.rolls.append(Roll(sides, value, purpose))
        return value


class ScriptedDice:
    """Dice that return a fixed script of values: for tests and rulebook examples.

    >>> d = ScriptedDice([6, 7]); d.roll(12), d.roll(12)
    (6, 7)
    """

    def __init__(self, values: list[int] | tuple[int, ...]) -> None:
        self._values = list(values)
        self.rolls: list[Roll] = []

    def roll(self, sides: int, purpose: str = "") -> int:
        if not self._values:
            raise AssertionError(f"scripted dice ran out (asked for a d{sides}: {purpose})")
        value = self._values.pop(0)
        if not 1 <= value <= sides:
            raise AssertionError(f"scripted value {value} is not on a d{sides}")
        self.rolls.append(Roll(sides, value, purpose))
        return value

    @property
    def remaining(self) -> list[int]:
        return list(self._values)


class NoDice:
    """Dice for an action that must not roll (setup without chance, or a dry run)."""

    rolls: list[Roll] = []

    def roll(self, sides: int, purpose: str = "") -> int:
        raise AssertionError(f"this action may not roll dice ({purpose})")
