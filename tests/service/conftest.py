"""Shared pieces for the service tests: a real SQLite file, a fake clock, random games.

Every test that plays a game is parametrised over ``RULESETS``: the toy always, and
Patton's First Victory. Tests of long fuzzed games use
``FUZZ_RULESET``: pfv unless ``UMPIRE_TEST_RULESETS`` leaves it out. ``UMPIRE_TEST_RULESETS=toy``
restricts both to the listed rulesets.

The service tests of ``ALL_BACKENDS_MODULES`` run twice, on an SQLite file and on a
PostgreSQL schema of a server the test session starts itself (tests/pg/server.py; issue 16).
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass
from typing import Any

import pytest

import engine
import tests.service.toy  # noqa: F401  (registers the "toy" ruleset)
from bot.service import Service
from bot.service_fuzz import random_order
from engine.core.game import Game

#: UMPIRE_TEST_RULESETS=toy runs on the toy alone (while another ruleset is being built)
_ONLY = os.environ.get("UMPIRE_TEST_RULESETS", "").split(",")
RULESETS = [r for r in ["toy", "pfv"] if _ONLY == [""] or r in _ONLY]
FUZZ_RULESET = RULESETS[-1]

#: options that make a game long enough for the 1,000-action tests
LONG_GAME_OPTIONS: dict[str, dict[str, Any]] = {"toy": {"pile": 2500}, "pfv": {"last_turn": 60}}

T0 = 1_700_000_000.0


class FakeClock:
    """A clock that only moves when told to."""

    def __init__(self, now: float = T0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


#: the storage back ends the service suite runs on (issue 16); UMPIRE_TEST_BACKENDS=sqlite
#: restricts a local run to one
BACKENDS = [
    b
    for b in ["sqlite", "postgresql"]
    if os.environ.get("UMPIRE_TEST_BACKENDS", "") in ("", b)
    or b in os.environ.get("UMPIRE_TEST_BACKENDS", "").split(",")
]

#: the modules whose tests run on every back end (through ``db_path``); the others test
#: the SQLite file itself (its pragmas, migrations, damage) and stay on SQLite
ALL_BACKENDS_MODULES = {"test_service", "test_concurrency", "test_replay", "test_export"}

#: tests of those modules that open the SQLite file themselves
SQLITE_ONLY = {"test_moderator_rollback_marks_the_undone_actions_and_audits_why"}


def pytest_generate_tests(metafunc) -> None:
    module = metafunc.module.__name__.rsplit(".", 1)[-1]
    if (
        "db_path" in metafunc.fixturenames
        and module in ALL_BACKENDS_MODULES
        and metafunc.function.__name__ not in SQLITE_ONLY
    ):
        metafunc.parametrize("db_path", BACKENDS, indirect=True)


@pytest.fixture
def db_path(tmp_path, request) -> str:
    """Where the test's database is: an SQLite file, or (parametrised ``postgresql``) the
    URL of a fresh PostgreSQL schema."""
    if getattr(request, "param", "sqlite") == "postgresql":
        return request.getfixturevalue("pg_session").new_url()
    return str(tmp_path / "umpire.db")


@pytest.fixture(scope="session")
def pg_session():
    """The test session's PostgreSQL server (tests/pg/server.py), stopped at the end."""
    from tests.pg.server import SERVER

    server = SERVER.acquire()
    yield server
    SERVER.release()


@pytest.fixture
async def service(db_path, clock):
    svc = await Service.open(db_path, clock=clock)
    yield svc
    await svc.close()


def roles_of(ruleset_id: str) -> list[str]:
    rs = engine.ruleset(ruleset_id)
    return rs.roles(rs.scenarios()[0].id)


async def new_game(
    service: Service,
    ruleset_id: str,
    *,
    users: dict[str, str] | None = None,
    options: dict[str, Any] | None = None,
    secret: bytes = b"s" * 32,
    game_id: str | None = None,
) -> str:
    """A started game with one user per role (``user-<role>``) unless ``users`` says."""
    users = users or {role: f"user-{role}" for role in roles_of(ruleset_id)}
    created = await service.create(
        ruleset_id, created_by="mod", seats=users, options=options, secret=secret, game_id=game_id
    )
    await service.start(created.game, "mod")
    return created.game


async def play(service: Service, game_id: str, n: int, rng: random.Random) -> list[Any]:
    """Play up to ``n`` random orders as their seat holders; the results."""
    results = []
    seats = {s.role: s.user for s in (await service.status(game_id)).seats}
    for _ in range(n):
        ruleset, state, seq = await service.live_state(game_id)
        if ruleset.prompt(state).role is None:
            break
        role, order = random_order(ruleset, state, rng)
        results.append(await service.submit(game_id, seats[role], order, role=role, seen=seq))
    return results


async def fresh_replay(service: Service, game_id: str) -> Game:
    """The game replayed from set-up by the engine alone, from the live log."""
    status = await service.status(game_id)
    async with service.store.read() as tx:
        row = await tx.game(game_id)
        live = await tx.live_actions(game_id)
    assert row is not None
    actions = [(a.role, a.order) for a in live]
    return Game.replay(status.ruleset, row.scenario, row.options, row.secret, game_id, actions)


async def state_dump(service: Service, game_id: str) -> dict[str, Any]:
    ruleset, state, _ = await service.live_state(game_id)
    return ruleset.dump_state(state)


def canonical(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples become lists), for comparing with stored data."""
    return json.loads(json.dumps(value))


@dataclass
class Script:
    """A fuzzed game played once by the engine alone: the orders to send through the
    service, so that long tests do not pay for enumerating legal orders each time."""

    ruleset: str
    game_id: str
    secret: bytes
    options: dict[str, Any]
    steps: list[tuple[str, dict[str, Any]]]
    final: dict[str, Any]  # ruleset.dump_state after the last step


def make_script(ruleset_id: str, length: int, seed: int) -> Script:
    rs = engine.ruleset(ruleset_id)
    secret, game_id = bytes([seed % 256]) * 32, f"script-{seed}"
    options = LONG_GAME_OPTIONS[ruleset_id]
    game = Game(rs, rs.scenarios()[0].id, options, secret, game_id)
    rng = random.Random(seed)
    steps = []
    while len(steps) < length and game.prompt().role is not None:
        role, order = random_order(rs, game.state, rng)
        game.play(order, role)
        steps.append((role, order.to_dict()))
    assert len(steps) == length, "the fuzzed game ended early; lengthen it in LONG_GAME_OPTIONS"
    return Script(ruleset_id, game_id, secret, options, steps, rs.dump_state(game.state))


@pytest.fixture(scope="session")
def long_script() -> Script:
    """A 1,000-action fuzzed game of ``FUZZ_RULESET``."""
    return make_script(FUZZ_RULESET, 1000, seed=11)


async def start_script_game(service: Service, script: Script) -> str:
    return await new_game(
        service,
        script.ruleset,
        options=script.options,
        secret=script.secret,
        game_id=script.game_id,
    )


class Reference:
    """The game as the engine alone plays the live log from set-up, never from a snapshot.

    Kept incrementally: :meth:`check` follows the log after rollbacks by cutting back to
    the common prefix and playing on, and compares dice, events and state with the
    service's (cached, and freshly loaded from the database).
    """

    def __init__(self, ruleset_id: str, options: dict[str, Any], secret: bytes, game_id: str):
        rs = engine.ruleset(ruleset_id)
        self.game = Game(rs, rs.scenarios()[0].id, options, secret, game_id)
        self.states = [self.game.state]
        self.compared: set[int] = set()  # log entries whose dice and events were compared

    async def check(
        self, service: Service, game_id: str, live: list[Any] | None = None, cold: bool = True
    ) -> None:
        """Compare with the live log (read now unless given); ``cold`` also loads the game
        afresh from the database."""
        if live is None:
            async with service.store.read() as tx:
                live = await tx.live_actions(game_id)
        mine = self.game.actions
        same = 0
        while same < min(len(live), len(mine)) and (live[same].role, live[same].order) == (
            mine[same].role,
            canonical(mine[same].order),
        ):
            same += 1
        del mine[same:]
        del self.states[same + 1 :]
        self.game.state = self.states[same]
        for a in live[same:]:
            self.game.play(a.order, a.role)
            self.states.append(self.game.state)
        assert len(live) == len(mine)
        for a, ref in zip(live, mine, strict=True):
            if a.entry in self.compared:
                continue
            self.compared.add(a.entry)
            assert a.rolls == [
                {"sides": r.sides, "value": r.value, "purpose": r.purpose} for r in ref.rolls
            ], f"action {a.seq} rolled other dice than the engine does"
            assert a.events == canonical([e.to_dict() for e in ref.events])
        expected = self.game.ruleset.dump_state(self.game.state)
        assert await state_dump(service, game_id) == expected
        if cold:
            fresh = Service(service.store, service.clock)  # same database, empty cache
            assert await state_dump(fresh, game_id) == expected
