"""The rules contract every game implements (ARCHITECTURE: The rules contract).

A ruleset is pure and deterministic: the same state, order and dice give the same result.
``apply`` never changes the state it is given; it returns a new one, or raises
:class:`~engine.core.errors.IllegalOrder` and leaves everything as it was.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

from pydantic import BaseModel

from engine.core.events import Event
from engine.core.orders import Order


class Scenario(BaseModel):
    id: str
    title: str
    description: str = ""


class Prompt(BaseModel):
    """Whose decision it is now and what kind of decision.

    ``role`` is ``None`` once the game is over. ``verbs`` are the order verbs accepted now;
    :meth:`Ruleset.legal_orders` enumerates the orders themselves. ``text`` is written for
    ``role``; where it names pieces others may not see, ``public`` is the version for
    everyone else (ARCHITECTURE: the log is a view).
    """

    role: str | None
    kind: str
    text: str
    verbs: list[str] = []
    turn: int = 0
    phase: str = ""
    public: str | None = None
    """What everyone but ``role`` reads when ``text`` names things hidden from them."""

    def text_for(self, audience: str | None) -> str:
        """The prompt as ``audience`` (a role, or None for the public) may read it."""
        if self.public is None or (audience is not None and audience == self.role):
            return self.text
        from engine.core.events import EVERYONE

        return self.text if audience == EVERYONE else self.public


class Result(BaseModel):
    """How the game ended: the winning role or side (``None`` for a draw) and the level."""

    winner: str | None
    level: str = "victory"
    text: str


class Progress(BaseModel):
    """Where the game stands on its turn track, for snapshots and "roll back to turn N"."""

    turn: int
    player: str
    phase: str


def check_turn(
    prompt: Prompt,
    role: str,
    verb: str,
    *,
    sequence_rule: str,
    end_rule: str,
    step: str,
    role_name=lambda r: r,
) -> None:
    """Refuse an order given out of turn: after the end, by a role whose decision it is not,
    or with a verb the current step does not take. ``sequence_rule`` names the rulebook's
    sequence of play, ``end_rule`` its rule on winning; ``step`` is the step's name for
    players."""
    from engine.core.errors import IllegalOrder

    if prompt.role is None:
        raise IllegalOrder(end_rule, "The game is over; no more orders are taken.")
    if role != prompt.role:
        raise IllegalOrder(
            sequence_rule,
            f"It is the {role_name(prompt.role)} player's decision now, not the {role_name(role)} player's.",
            f"Waiting for: {prompt.text_for(role)}",
        )
    if verb not in prompt.verbs:
        raise IllegalOrder(
            sequence_rule,
            f"'{verb}' is not an order in this step ({step}).",
            f"Accepted now: {', '.join(prompt.verbs)}. {prompt.text}",
        )


class Dice(Protocol):
    def roll(self, sides: int, purpose: str = "") -> int: ...


@runtime_checkable
class Ruleset(Protocol):
    id: str
    title: str

    def scenarios(self) -> list[Scenario]: ...

    def roles(self, scenario: str) -> list[str]: ...

    def setup(self, scenario: str, options: dict[str, Any], dice: Dice) -> Any: ...

    def prompt(self, state: Any) -> Prompt: ...

    def legal_orders(self, state: Any, role: str | None = None) -> list[Order]: ...

    def parse_order(self, text: str) -> Order: ...

    def load_order(self, data: dict[str, Any]) -> Order: ...

    def apply(self, state: Any, role: str, order: Order, dice: Dice) -> tuple[Any, list[Event]]: ...

    def view(self, state: Any, role: str | None) -> Any: ...

    def result(self, state: Any) -> Result | None: ...

    def progress(self, state: Any) -> Progress: ...

    def dump_state(self, state: Any) -> dict[str, Any]: ...

    def load_state(self, data: dict[str, Any]) -> Any: ...

    def invariant_problems(self, state: Any) -> list[str]: ...

    def datapack_version(self) -> str: ...
