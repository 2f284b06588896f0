"""``Game``: a ruleset, its state, the dice and the action log, in one object.

>>> import engine
>>> g = engine.Game.new("pfv", secret=b"doc", game_id="doc")
>>> g.prompt().role
'allied'

The engine stays pure: ``Game`` only remembers what was applied, so that a game can be
replayed from its actions and every roll recomputed from the secret.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

from engine.core import registry
from engine.core.dice import (
    CHAIN_V1,
    ActionDice,
    Roll,
    commitment,
    new_secret,
    order_dice,
    setup_dice,
)
from engine.core.errors import IllegalOrder
from engine.core.events import EVERYONE, Event, lines_for
from engine.core.orders import Order
from engine.core.ruleset import Prompt, Result, Ruleset


@dataclass
class Action:
    """One applied order: its number, who gave it, the order as data, the dice it rolled."""

    seq: int
    role: str
    order: dict[str, Any]
    rolls: list[Roll] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)
    chain: str | None = None  # h_seq of the dice chain (ARCHITECTURE: Dice); None if plain


class Game:
    def __init__(
        self,
        ruleset: Ruleset,
        scenario: str,
        options: dict[str, Any],
        secret: bytes,
        game_id: str,
        dice_scheme: str = CHAIN_V1,
    ) -> None:
        self.ruleset = ruleset
        self.scenario = scenario
        self.options = dict(options)
        self.secret = secret
        self.game_id = game_id
        self.dice_scheme = dice_scheme
        dice = setup_dice(secret, game_id, dice_scheme)
        self.state = ruleset.setup(scenario, self.options, dice)
        self.setup_rolls = dice.rolls
        self.actions: list[Action] = []

    @classmethod
    def new(
        cls,
        ruleset_id: str,
        scenario: str | None = None,
        options: dict[str, Any] | None = None,
        *,
        secret: bytes | None = None,
        game_id: str | None = None,
    ) -> Game:
        rs = registry.ruleset(ruleset_id)
        if scenario is None:
            scenario = rs.scenarios()[0].id
        return cls(
            rs, scenario, options or {}, secret or new_secret(), game_id or uuid.uuid4().hex[:12]
        )

    @property
    def commitment(self) -> str:
        return commitment(self.secret)

    def dice_for(self, seq: int, order: dict[str, Any]) -> ActionDice:
        """The dice of action ``seq`` given as ``order`` after the actions played so far
        (ARCHITECTURE: Dice): bound to that order and to the history before it."""
        previous = self.actions[seq - 2].chain if seq >= 2 else None
        return order_dice(self.secret, self.game_id, self.dice_scheme, seq, previous, order)

    # -- reading -----------------------------------------------------------------

    def prompt(self) -> Prompt:
        return self.ruleset.prompt(self.state)

    def legal_orders(self, role: str | None = None) -> list[Order]:
        return self.ruleset.legal_orders(self.state, role)

    def result(self) -> Result | None:
        return self.ruleset.result(self.state)

    def view(self, role: str | None = None) -> Any:
        return self.ruleset.view(self.state, role)

    def log(self, audience: str | None = EVERYONE) -> list[str]:
        """The log lines ``audience`` may read: a role, ``PUBLIC`` (None) or ``EVERYONE``."""
        return [line for a in self.actions for line in lines_for(a.events, audience)]

    # -- acting ------------------------------------------------------------------

    def parse(self, order: str | Order | dict[str, Any]) -> Order:
        if isinstance(order, Order):
            return order
        if isinstance(order, dict):
            return self.ruleset.load_order(order)
        return self.ruleset.parse_order(order)

    def play(self, order: str | Order | dict[str, Any], role: str | None = None) -> list[Event]:
        """Apply an order as ``role`` (default: whoever's decision it is now).

        Raises :class:`IllegalOrder` and changes nothing if the rules refuse it.
        """
        parsed = self.parse(order)
        if role is None:
            role = self.prompt().role
            if role is None:
                raise IllegalOrder("", "The game is over; no more orders are taken.")
        seq = len(self.actions) + 1
        order = parsed.to_dict()
        dice = self.dice_for(seq, order)
        state, events = self.ruleset.apply(self.state, role, parsed, dice)
        self.state = state
        self.actions.append(Action(seq, role, order, dice.rolls, events, dice.chain))
        return events

    @classmethod
    def replay(
        cls,
        ruleset_id: str,
        scenario: str,
        options: dict[str, Any],
        secret: bytes,
        game_id: str,
        actions: list[tuple[str, dict[str, Any]]],
        dice_scheme: str = CHAIN_V1,
    ) -> Game:
        """Rebuild a game from its actions; every roll comes out as it did the first time."""
        game = cls(registry.ruleset(ruleset_id), scenario, options, secret, game_id, dice_scheme)
        for role, order in actions:
            game.play(order, role)
        return game
