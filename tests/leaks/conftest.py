"""The leak tests play through the service (its fixtures) and through the Discord bot
(the harness's fixtures)."""

from tests.discord.conftest import fixed_dice, harness  # noqa: F401
from tests.service.conftest import clock, db_path, service  # noqa: F401
