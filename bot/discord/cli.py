"""``umpire bot`` runs the Discord bot; ``umpire sync`` registers its slash commands.

Both read ``DISCORD_TOKEN`` (and the other settings) from the environment or a ``.env``
file. Without a token, ``umpire bot`` says how to get one and starts the console game
instead, so the README's first command always does something useful.

Several processes (issue 16): ``umpire bot --shards 0,1 --shard-count 4`` runs those
shards of four with discord.py's auto-sharded client, over the same database as the
others. Every process serves commands from its shards and runs the deadline scheduler
(claims make each deadline and notice act once); only the process holding shard 0 runs
the mail loop beside it and sends direct messages, since Discord delivers every direct
message to shard 0.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from dataclasses import dataclass
from typing import Any

import discord

from bot.discord.config import Settings, load_env_file, read_env_file

NO_TOKEN = """\
umpire: no Discord token is configured, so the bot cannot start.
To play on Discord:
  1. Create an application at https://discord.com/developers/applications, open Bot,
     press Reset Token and copy the token.
  2. Put it in .env as DISCORD_TOKEN=... (copy .env.example), or export DISCORD_TOKEN.
  3. Invite the bot with the scopes bot and applications.commands, then run
     `umpire sync --guild <server id>` once (the README has the details).
Starting the console game instead.
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "bot", help="run the Discord bot (DISCORD_TOKEN from the environment or .env)"
    )
    p.add_argument("--db", help="the database file (default: UMPIRE_DB or ./umpire.db)")
    p.add_argument("--env", default=".env", help="the .env file to read (default: ./.env)")
    p.add_argument(
        "--shards",
        metavar="IDS",
        help="run only these Discord shards in this process, e.g. 0,1 (with --shard-count); "
        "the process holding shard 0 also runs the mail loop and direct messages",
    )
    p.add_argument(
        "--shard-count",
        type=int,
        metavar="N",
        help="the number of shards of all the bot's processes together",
    )
    p.set_defaults(func=cmd_bot)

    s = sub.add_parser(
        "sync", help="register the slash commands with Discord, globally or in one server"
    )
    s.add_argument(
        "--guild", type=int, metavar="ID", help="only this server (instant; for testing)"
    )
    s.add_argument("--env", default=".env", help="the .env file to read (default: ./.env)")
    s.set_defaults(func=cmd_sync)


def token_configured(env_file: str = ".env") -> bool:
    """Whether ``umpire bot`` would find a token: for choosing what bare ``umpire`` runs."""
    return bool(
        (
            os.environ.get("DISCORD_TOKEN") or read_env_file(env_file).get("DISCORD_TOKEN") or ""
        ).strip()
    )


def _settings(args: argparse.Namespace) -> Settings:
    load_env_file(args.env)
    try:
        settings = Settings.from_env()
    except ValueError as exc:
        from bot.cli import UserError

        raise UserError(str(exc)) from None
    if getattr(args, "db", None):
        settings.db_path = args.db
    return settings


@dataclass(frozen=True)
class Shards:
    """The Discord shards this process runs (ARCHITECTURE: Scale): ``ids`` of ``count``,
    or ``None`` for an unsharded bot, one process for everything."""

    ids: tuple[int, ...] | None = None
    count: int | None = None

    @property
    def primary(self) -> bool:
        """Whether this process does what only one may: the mail loop, the deadlines of
        games without a channel, and direct messages (which Discord sends to shard 0)."""
        return self.ids is None or 0 in self.ids

    def serves(self, guild: str | None) -> bool:
        """Whether this process serves the games of ``guild`` (what it warms its cache
        with before logging in): Discord puts a server on shard ``(id >> 22) % count``; a
        game with no server known (console, email, or made before games recorded theirs)
        belongs to the primary process."""
        if self.ids is None or self.count is None:
            return True
        if guild is None or not (guild.isascii() and guild.isdigit()):
            return self.primary
        return (int(guild) >> 22) % self.count in self.ids


def parse_shards(shards: str | None, count: int | None) -> Shards:
    """``--shards 0,1 --shard-count 4``; ``--shard-count N`` alone runs all N shards here.
    Anything else is one sentence (:class:`bot.cli.UserError`)."""
    from bot.cli import UserError

    if shards is None and count is None:
        return Shards()
    if count is None:
        raise UserError(
            "--shards needs --shard-count, the number of shards of all the bot's processes"
        )
    if count < 1:
        raise UserError(f"--shard-count must be 1 or more, not {count}")
    if shards is None:
        return Shards(tuple(range(count)), count)
    ids: list[int] = []
    for part in shards.split(","):
        word = part.strip()
        if not (word.isascii() and word.isdigit()) or int(word) >= count:
            raise UserError(
                f"--shards takes shard numbers from 0 to {count - 1} separated by commas, "
                f"like 0,1; {word or 'an empty place'!r} is not one"
            )
        if int(word) in ids:
            raise UserError(f"--shards names shard {int(word)} twice")
        ids.append(int(word))
    return Shards(tuple(sorted(ids)), count)


def cmd_bot(args: argparse.Namespace) -> int:
    shards = parse_shards(args.shards, args.shard_count)
    settings = _settings(args)
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        from bot.cli import main

        return main(["play", "--db", settings.db_path])
    discord.utils.setup_logging(level=settings.log_level)  # UMPIRE_LOG_LEVEL
    try:
        asyncio.run(run_bot(settings, shards))
    except discord.LoginFailure:
        from bot.cli import UserError

        raise UserError(
            "Discord refused the token in DISCORD_TOKEN; reset it in the developer portal"
        ) from None
    return 0


def cmd_sync(args: argparse.Namespace) -> int:
    from bot.cli import UserError

    settings = _settings(args)
    if not settings.token:
        raise UserError(
            "syncing needs DISCORD_TOKEN in the environment or .env (see 'Running the Discord bot' in the README)"
        )
    try:
        synced = asyncio.run(sync_commands(settings, args.guild))
    except discord.LoginFailure:
        raise UserError(
            "Discord refused the token in DISCORD_TOKEN; reset it in the developer portal"
        ) from None
    except discord.HTTPException as exc:
        raise UserError(f"Discord refused the commands: {exc}") from None
    where = f"server {args.guild} (available now)" if args.guild else "every server (global)"
    print(
        f"Registered {len(synced)} commands in {where}: {', '.join('/' + c.name for c in synced)}"
    )
    return 0


@dataclass
class BotProcess:
    """What one ``umpire bot`` process runs: the service, the bot (sharded or not) and,
    in the primary process (:attr:`Shards.primary`), the mail loop beside it with the
    deadlines of games that have no channel (:mod:`bot.deadlines`)."""

    service: Any
    bot: Any
    mail: Any | None = None
    mail_deadlines: Any | None = None

    async def close(self) -> None:
        if self.mail_deadlines is not None:
            await self.mail_deadlines.stop()
        if self.mail is not None:
            await self.mail.close()
        await self.service.close()


def build_bot(service: Any, settings: Settings, shards: Shards, **options: Any) -> Any:
    """The bot for these shards, not connected: discord.py's auto-sharded client with the
    given shard ids and count, or the plain client for an unsharded process."""
    from bot.discord.client import ShardedUmpireBot, UmpireBot

    if shards.count is None:
        return UmpireBot(service, settings, **options)
    return ShardedUmpireBot(
        service,
        settings,
        dm_work=shards.primary,
        shard_ids=list(shards.ids or ()),
        shard_count=shards.count,
        **options,
    )


async def open_bot_process(settings: Settings, shards: Shards) -> BotProcess:
    """Open the service and build the bot; the primary process also starts the mail loop
    (when mail is configured) and its deadline runner."""
    from bot.email.transport import start_beside
    from bot.service import Service

    service = await Service.open(settings.db_path)
    process = BotProcess(service, None)
    try:
        # the games this process serves, loaded before it logs in: no command can come
        # before this ends (issue 16, the first seconds of a cold start)
        await service.warm(serves=shards.serves)
        if shards.primary:
            process.mail = await start_beside(settings.db_path)  # when configured
        if process.mail is not None:
            process.mail_deadlines = process.mail.box.desk.deadline_runner()
            process.mail_deadlines.start()
        process.bot = build_bot(service, settings, shards)
        process.bot.table.mail = process.mail
    except BaseException:
        await process.close()
        raise
    return process


async def run_bot(settings: Settings, shards: Shards | None = None) -> None:
    from bot.shutdown import run_until_signalled

    process = await open_bot_process(settings, shards or Shards())
    try:
        bot = process.bot
        async with bot:
            # SIGTERM/SIGINT: stop taking commands, let those under way finish (issue 15)
            await run_until_signalled(bot.start(settings.token or ""), bot.close)
    finally:
        await process.close()


async def sync_commands(
    settings: Settings, guild_id: int | None
) -> list[discord.app_commands.AppCommand]:
    from bot.discord.client import UmpireBot
    from bot.service import Service

    service = await Service.open(settings.db_path)
    try:
        bot = UmpireBot(service, settings, run_scheduler=False)
        async with bot:
            await bot.login(settings.token or "")
            if guild_id is None:
                return await bot.tree.sync()
            guild = discord.Object(guild_id)
            bot.tree.copy_global_to(guild=guild)
            return await bot.tree.sync(guild=guild)
    finally:
        await service.close()
