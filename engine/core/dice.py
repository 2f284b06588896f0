"""Verifiable dice (ARCHITECTURE: Dice).

Every roll of a game comes from one secret. Under the ``chain-v1`` scheme (every game
created since the chain existed) roll ``k`` of action ``n`` is derived from
``HMAC-SHA256(secret, "<game_id>|<n>|<h_n>|<k>")``, where ``h_n`` chains the live log:
``h_0`` is :data:`CHAIN_START` and ``h_n = sha256("<h_(n-1)>|<canonical order n>")`` (hex).
``h_n`` includes order ``n`` itself, so the same order after an undo rolls the same dice
(nobody can fish for a better roll) while a different order, or a different history
before it, rolls fresh ones (a rollback tells nobody the dice another order would get).
The ``plain`` scheme of older games leaves ``h_n`` out: ``"<game_id>|<n>|<k>"``.

32-bit words of the digest are rejection sampled to the die size, so every face is
exactly equally likely. The game publishes ``commitment(secret)`` when it is created
and reveals the secret when it ends; anyone can then recompute every roll.

>>> h1 = chain_next(CHAIN_START, {"kind": "pass"})
>>> derive_roll(b"s", "g", 1, 0, 6, h1) == derive_roll(b"s", "g", 1, 0, 6, h1)
True
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets as _secrets
from dataclasses import dataclass, field
from typing import Any

#: the dice schemes a game may record; new games use the last
PLAIN = "plain"
CHAIN_V1 = "chain-v1"
SCHEMES = (PLAIN, CHAIN_V1)

#: ``h_0``: the chain before any order (sha256 of a fixed label)
CHAIN_START = hashlib.sha256(b"umpire dice chain v1").hexdigest()

#: a die has at most this many sides (rejection sampling needs sides well below 2**32)
MAX_SIDES = 1 << 16


def canonical_order(order: dict[str, Any]) -> str:
    """The stored order as the chain hashes it: JSON with sorted keys and no spaces.

    The order goes through JSON once first, so a dict fresh from ``to_dict`` hashes the
    same as the one read back from the log (tuples become lists, keys strings).
    """
    stored = json.loads(json.dumps(order))
    return json.dumps(stored, sort_keys=True, separators=(",", ":"))


def chain_next(previous: str, order: dict[str, Any]) -> str:
    """``h_n`` from ``h_(n-1)`` and order ``n`` (both hex in, hex out)."""
    return hashlib.sha256(f"{previous}|{canonical_order(order)}".encode()).hexdigest()


def new_secret() -> bytes:
    """32 random bytes from the operating system."""
    return _secrets.token_bytes(32)


def commitment(secret: bytes) -> str:
    """The public promise: sha256 of the secret, as hex."""
    return hashlib.sha256(secret).hexdigest()


def derive_roll(
    secret: bytes, game_id: str, action: int, index: int, sides: int, chain: str | None = None
) -> int:
    """Roll ``index`` of action ``action``: a uniform integer from 1 to ``sides``.

    ``chain`` is ``h_action`` under ``chain-v1``; None under ``plain``.
    """
    if not 2 <= sides <= MAX_SIDES:
        raise ValueError(f"a die has from 2 to {MAX_SIDES} sides")
    limit = (1 << 32) - ((1 << 32) % sides)
    base = f"{game_id}|{action}|{index}" if chain is None else f"{game_id}|{action}|{chain}|{index}"
    attempt = 0
    while True:
        label = base if attempt == 0 else f"{base}|{attempt}"
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
    chain: str | None = None  # h_action under chain-v1; None under plain
    rolls: list[Roll] = field(default_factory=list)

    def roll(self, sides: int, purpose: str = "") -> int:
        value = derive_roll(
            self.secret, self.game_id, self.action, len(self.rolls), sides, self.chain
        )
        self.rolls.append(Roll(sides, value, purpose))
        return value


def setup_dice(secret: bytes, game_id: str, scheme: str) -> ActionDice:
    """The dice of the set-up (action 0): ``h_0`` under ``chain-v1``."""
    _check_scheme(scheme)
    return ActionDice(secret, game_id, 0, CHAIN_START if scheme == CHAIN_V1 else None)


def order_dice(
    secret: bytes,
    game_id: str,
    scheme: str,
    action: int,
    previous: str | None,
    order: dict[str, Any],
) -> ActionDice:
    """The dice of action ``action``, given as the stored ``order`` after a live history
    whose chain is ``previous`` (``h_(action-1)``; None counts as ``h_0``). Under
    ``chain-v1`` the dice's ``chain`` is ``h_action``, the next action's ``previous``."""
    _check_scheme(scheme)
    if scheme == PLAIN:
        return ActionDice(secret, game_id, action)
    return ActionDice(secret, game_id, action, chain_next(previous or CHAIN_START, order))


def _check_scheme(scheme: str) -> None:
    if scheme not in SCHEMES:
        raise ValueError(f"unknown dice scheme {scheme!r} (known: {', '.join(SCHEMES)})")


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
