"""Players for the Discord tests: they know only what the bot told them.

A :class:`Players` object follows the messages of a game: who was last told it is their
decision, and which commands the bot listed for it. To move, the player whose decision it
is picks one of those commands (now and then ``/done``, as the engine's fuzzer does),
fills its options from autocomplete, choosing at random among what Discord would show,
and sends it. Nothing here reads the database or calls the service.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field

from bot.discord.choices import VERBS
from tests.discord.harness import Harness, Sent, User, posts, replies

DECIDE = re.compile(r"\*\*([\w-]+)\*\* \(<@(\d+)>\) to decide:.*?\nOrders: (.*?)\.(?:\n|$)", re.S)
COMMAND = re.compile(r"`(/[^`]+)`")


@dataclass
class Turn:
    """What a player knows after reading a message: whose decision, and its commands."""

    role: str
    user: int
    commands: list[str]


def read_prompt(text: str) -> Turn | None:
    found = DECIDE.findall(text)
    if not found:
        return None
    role, user, commands = found[-1]
    return Turn(role, int(user), COMMAND.findall(commands))


@dataclass
class Players:
    harness: Harness
    users: dict[int, User]
    rng: random.Random
    turn: Turn | None = None
    over: bool = False
    history: list[list[Sent]] = field(default_factory=list)
    orders: int = 0

    def read(self, sent: list[Sent]) -> None:
        """Update who decides from what the bot just said (channel first, then replies)."""
        for s in posts(sent) + replies(sent):
            if "is over" in s.content and "**Game" in s.content:
                self.over = True
            turn = read_prompt(s.content)
            if turn is not None:
                self.turn = turn

    async def choices(
        self, user: User, command: str, focused: str, **options: str | None
    ) -> list[dict]:
        return await self.harness.autocomplete(user, command, focused, **options)

    async def fill(self, user: User, command: str) -> tuple[str, dict[str, str | None]] | None:
        """A command and options that name a legal order, from autocomplete; None if the
        autocomplete offers nothing for this command now."""
        if command.startswith("/order text:"):
            word = command.split(":", 1)[1]
            found = [
                c
                for c in await self.choices(user, "order", "text", text=word)
                if c["value"].split("~")[0].split()[0] == word
            ]
            return ("order", {"text": self.rng.choice(found)["value"]}) if found else None
        name = command.lstrip("/")
        verb = VERBS[name]
        if not any(slot.required for slot in verb.slots):  # /done: is a plain done legal?
            found = [
                c
                for c in await self.choices(user, "order", "text", text=name)
                if c["value"].split("~")[0] == name
            ]
            return (name, {}) if found else None
        values: dict[str, str | None] = {}
        for slot in verb.slots:
            offered = await self.choices(user, name, slot.name, **values)
            if not offered:
                if slot.required:
                    return None
                values[slot.name] = None
                continue
            pick = self.rng.choice(offered)["value"]
            # an extra led by its keyword (air support) is left out now and then; a slot
            # optional only because another game's order has no such word is filled
            if slot.keyword is not None and not slot.required and self.rng.random() < 0.5:
                pick = None
            values[slot.name] = pick
        return name, values

    async def move(self) -> list[Sent]:
        """The decider gives one order; what the bot sent."""
        assert self.turn is not None, "nobody has been told it is their decision"
        user = self.users[self.turn.user]
        commands = list(self.turn.commands)
        finishing = [c for c in commands if c in ("/done", "/order text:auto")]
        others = [c for c in commands if c not in finishing]
        self.rng.shuffle(others)
        tries = finishing + others if finishing and self.rng.random() < 0.12 else others + finishing
        for command in tries:
            filled = await self.fill(user, command)
            if filled is None:
                continue
            name, values = filled
            sent = await self.harness.command(user, name, **values)
            self.history.append(sent)
            self.orders += 1
            self.read(sent)
            return sent
        raise AssertionError(f"none of {commands} had a legal order for {user.name}")
