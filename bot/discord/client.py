"""The Discord bot: a ``commands.Bot`` holding the service, the game table, the cogs and
the scheduler (STYLE: RoboDanny, thin cogs).

Application commands are not synced on start; ``umpire sync`` does it deliberately,
because Discord rate-limits syncing and a bot restarting in a loop would hit the limit.
"""

from __future__ import annotations

import logging
import secrets

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.buttons import DYNAMIC_ITEMS
from bot.discord.cogs.games import GameCog
from bot.discord.cogs.guide import GuideCog
from bot.discord.cogs.moderation import ModerationCog
from bot.discord.cogs.odds import OddsCog
from bot.discord.cogs.orders import OrderCog
from bot.discord.config import Settings
from bot.discord.images import Renderer
from bot.discord.respond import answer_privately
from bot.discord.scheduler import Scheduler
from bot.discord.table import GameTable, Refusal
from bot.service import Service, ServiceError

log = logging.getLogger(__name__)


class UmpireTree(app_commands.CommandTree):
    """The command tree, with one answer for every failure: a refusal in the player's
    words, or, for a bug, a short reference the log can be searched for."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        table: GameTable | None = getattr(self.client, "table", None)
        if table is not None:
            table.learn(interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        original = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        if isinstance(original, (ServiceError, Refusal)):
            text = str(original)
        elif isinstance(error, app_commands.NoPrivateMessage):
            text = "Games are played in a server's channels, not in direct messages."
        elif isinstance(error, app_commands.CheckFailure):
            text = str(error) or "You may not use that command here."
        elif isinstance(error, app_commands.TransformerError):
            text = f"{error.value!r} is not a valid {error.type.name.lower()} for that option."
        else:
            ref = secrets.token_hex(4)
            name = interaction.command.qualified_name if interaction.command else "?"
            log.error("/%s failed (reference %s)", name, ref, exc_info=original)
            text = (
                f"Something went wrong on the bot's side (reference `{ref}`); the details are "
                "in its log. Please tell a moderator the reference."
            )
        try:
            await answer_privately(interaction, text)
        except discord.HTTPException:
            log.warning("could not tell the user about an error", exc_info=True)


class UmpireBot(commands.Bot):
    def __init__(
        self,
        service: Service,
        settings: Settings,
        *,
        draw: Renderer | None = None,
        run_scheduler: bool = True,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            tree_cls=UmpireTree,
            # Games live in server channels: no commands in DMs or for user installs.
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=False, private_channel=False
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
        )
        self.service = service
        self.settings = settings
        self.table = GameTable(self, service, settings, draw)
        self.scheduler = Scheduler(self.table)
        self.table.wake = self.scheduler.poke
        self.run_scheduler = run_scheduler

    async def setup_hook(self) -> None:
        await self.add_cog(GameCog(self.table))
        await self.add_cog(OrderCog(self.table))
        await self.add_cog(ModerationCog(self.table))
        await self.add_cog(OddsCog())
        await self.add_cog(GuideCog())
        # the buttons of posts made before a restart answer again (ids carry the game)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.run_scheduler:
            self.scheduler.start()

    async def close(self) -> None:
        await self.scheduler.stop()
        await super().close()
