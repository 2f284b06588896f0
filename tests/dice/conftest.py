"""The service fixtures of tests/service, for the dice tests."""

from tests.service.conftest import clock, db_path, service  # noqa: F401
