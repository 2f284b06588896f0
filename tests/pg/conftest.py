"""The PostgreSQL server of the test session (tests/pg/server.py): started by the first
test that needs it, stopped at the end of the session."""

from __future__ import annotations

import pytest

from tests.pg.server import SERVER, Server
from tests.service.conftest import long_script  # noqa: F401  (the 1,000-action game)


@pytest.fixture(scope="session")
def pg_server():
    server: Server = SERVER.acquire()
    yield server
    SERVER.release()


@pytest.fixture
def pg_url(pg_server) -> str:
    """A database URL of its own for one test (a fresh schema)."""
    return pg_server.new_url()
