"""``umpire bot`` runs the Discord bot; ``umpire sync`` registers its slash commands.

Both read ``DISCORD_TOKEN`` (and the other settings) from the environment or a ``.env``
file. Without a token, ``umpire bot`` says how to get one and starts the console game
instead, so the README's first command always does something useful.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys

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


def cmd_bot(args: argparse.Namespace) -> int:
    settings = _settings(args)
    if not settings.token:
        print(NO_TOKEN, file=sys.stderr)
        from bot.cli import main

        return main(["play", "--db", settings.db_path])
    discord.utils.setup_logging()
    try:
        asyncio.run(run_bot(settings))
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


async def run_bot(settings: Settings) -> None:
    from bot.discord.client import UmpireBot
    from bot.email.transport import start_beside
    from bot.service import Service
    from bot.shutdown import run_until_signalled

    service = await Service.open(settings.db_path)
    mail = await start_beside(settings.db_path)  # play by email too, when configured
    try:
        bot = UmpireBot(service, settings)
        bot.table.mail = mail
        async with bot:
            # SIGTERM/SIGINT: stop taking commands, let those under way finish (issue 15)
            await run_until_signalled(bot.start(settings.token or ""), bot.close)
    finally:
        if mail is not None:
            await mail.close()
        await service.close()


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
