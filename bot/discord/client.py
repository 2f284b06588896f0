"""The Discord bot: a ``commands.Bot`` holding the service, the game table, the cogs and
the scheduler (STYLE: RoboDanny, thin cogs).

Application commands are not synced on start; ``umpire sync`` does it deliberately,
because Discord rate-limits syncing and a bot restarting in a loop would hit the limit.
"""

from __future__ import annotations

import logging
import secrets
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.buttons import DYNAMIC_ITEMS
from bot.discord.cogs.games import GameCog
from bot.discord.cogs.guide import GuideCog
from bot.discord.cogs.moderation import ModerationCog
from bot.discord.cogs.odds import OddsCog
from bot.discord.cogs.orders import OrderCog
from bot.discord.cogs.settings import SettingsCog
from bot.discord.config import Settings
from bot.discord.images import Renderer
from bot.discord.respond import answer_privately
from bot.discord.scheduler import Scheduler
from bot.discord.table import GameTable, Refusal
from bot.service import Service, ServiceError

log = logging.getLogger(__name__)


def needed_intents() -> discord.Intents:
    """Only the gateway events the bot uses (issue 15 item 6): the servers and their
    channels and threads, to find a game's channel. Commands, buttons and the members
    who use them arrive with each interaction, and posts and direct messages are sent
    over REST, so no message, member, presence, reaction, voice or typing events are
    needed; each would cost traffic and memory in every server the bot is in."""
    intents = discord.Intents.none()
    intents.guilds = True
    return intents


class UmpireTree(app_commands.CommandTree):
    """The command tree, with one answer for every failure: a refusal in the player's
    words, or, for a bug, a short reference the log can be searched for."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        table: GameTable | None = getattr(self.client, "table", None)
        if table is not None:
            table.learn(interaction)
            await table.seen(interaction)  # an older game learns its server (issue 15)
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
        dm_work: bool = True,
        **client_options: Any,
    ) -> None:
        """``dm_work``: this process sends the direct-message notices (the one holding
        shard 0); ``client_options`` go to discord.py's client (``shard_ids``,
        ``shard_count`` for :class:`ShardedUmpireBot`)."""
        super().__init__(
            **client_options,
            command_prefix=commands.when_mentioned,
            intents=needed_intents(),
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
        self.scheduler = Scheduler(self.table, dm_work=dm_work)
        self.table.wake = self.scheduler.poke
        self.run_scheduler = run_scheduler

    async def setup_hook(self) -> None:
        await self.add_cog(GameCog(self.table))
        await self.add_cog(OrderCog(self.table))
        await self.add_cog(ModerationCog(self.table))
        await self.add_cog(OddsCog())
        await self.add_cog(GuideCog())
        await self.add_cog(SettingsCog(self.table))
        # the buttons of posts made before a restart answer again (ids carry the game)
        self.add_dynamic_items(*DYNAMIC_ITEMS)
        if self.run_scheduler:
            self.scheduler.start()

    async def close(self) -> None:
        await self.scheduler.stop()
        await super().close()


class ShardedUmpireBot(UmpireBot, commands.AutoShardedBot):
    """The bot over discord.py's auto-sharded client: the shards ``shard_ids`` of
    ``shard_count`` in this process (issue 16; ``umpire bot --shards``)."""
