"""The fixtures of the Discord harness and of the service tests, for these tests."""

from tests.discord.conftest import clock, fixed_dice, harness  # noqa: F401
from tests.service.conftest import db_path, service  # noqa: F401
