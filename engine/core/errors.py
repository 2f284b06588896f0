"""Errors that reach players. Each carries a sentence a player can act on."""

from __future__ import annotations


class IllegalOrder(Exception):
    """An order the rules forbid, or text that is not an order at all.

    ``rule`` names the rulebook section (``"PFV 8"``), ``reason`` says what is wrong and
    ``legal`` what would be accepted instead. ``str()`` joins them into one message that
    reads the same in Discord, the console and email.

    >>> str(IllegalOrder("PFV 6", "8519 would hold two units.", "Move to 8520 instead."))
    '8519 would hold two units. (PFV 6) Move to 8520 instead.'
    """

    def __init__(self, rule: str, reason: str, legal: str = "") -> None:
        self.rule = rule
        self.reason = reason
        self.legal = legal
        super().__init__(self.message)

    @property
    def message(self) -> str:
        text = self.reason
        if self.rule:
            text += f" ({self.rule})"
        if self.legal:
            text += f" {self.legal}"
        return text

    def __str__(self) -> str:
        return self.message


class OrderSyntaxError(IllegalOrder):
    """Text that does not parse as an order of this game."""


class DataPackError(Exception):
    """A data pack that fails validation; ``problems`` are ``(line, message)`` pairs."""

    def __init__(self, path: str, problems: list[tuple[int | None, str]]) -> None:
        self.path = path
        self.problems = problems
        lines = [f"{path}:{line or '?'}: {msg}" for line, msg in problems]
        super().__init__("\n".join(lines))
