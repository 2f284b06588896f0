"""Fixtures for the Discord tests: a bot logged in to a fake Discord over a real SQLite
file, with a clock that moves only when told, and the players who use it."""

from __future__ import annotations

import hashlib
import itertools
import uuid

import pytest

import tests.service.toy  # noqa: F401  (registers the "toy" ruleset)
from tests.discord.harness import MOD_ROLE_ID, Harness, User
from tests.service.conftest import FakeClock

ALICE = User(100_000_000_000_000_001, "alice")
BOB = User(100_000_000_000_000_002, "bob")
CAROL = User(100_000_000_000_000_003, "carol")  # plays nothing
MODERATOR = User(100_000_000_000_000_004, "mod", roles=(MOD_ROLE_ID,))


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture(autouse=True)
def fixed_dice(monkeypatch):
    """Games get their ids and dice secrets from a counter: the dice of a game depend on
    both, so a failing random game replays exactly."""
    counter = itertools.count(1)
    monkeypatch.setattr(
        "bot.service.new_secret", lambda: hashlib.sha256(b"test-secret-%d" % next(counter)).digest()
    )
    ids = itertools.count(1)
    monkeypatch.setattr("bot.service.uuid.uuid4", lambda: uuid.UUID(int=next(ids) << 80))


@pytest.fixture
async def harness(tmp_path, clock):
    h = Harness(str(tmp_path / "umpire.db"), clock)
    await h.start()
    yield h
    await h.stop()
