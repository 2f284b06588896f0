"""``umpire email`` (the mail loop, with the deadlines of games that have no Discord
channel: :mod:`bot.deadlines`), ``umpire email --once`` (for cron) and
``umpire seat GAME ROLE --email ADDRESS`` (seat a player by mail; ``--reissue`` gives the
seat a new key). Registered from ``bot.console.register``; imports the mail libraries
only when a command runs.
"""

from __future__ import annotations

import argparse
import asyncio
import logging

from bot.cli import UserError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("email", help="play by email: read the mailbox and send the mail")
    p.add_argument(
        "--db", help="the database: a file or a postgresql:// URL (default: UMPIRE_DB or ./umpire.db)"
    )
    p.add_argument(
        "--once", action="store_true", help="handle what is waiting and exit (for cron)"
    )
    p.add_argument("--no-maps", action="store_true", help="send no map attachments")
    p.set_defaults(func=cmd_email)

    p = sub.add_parser("seat", help="moderator: seat a player by email in a game")
    p.add_argument(
        "--db", help="the database: a file or a postgresql:// URL (default: UMPIRE_DB or ./umpire.db)"
    )
    p.add_argument("game")
    p.add_argument("role")
    who = p.add_mutually_exclusive_group(required=True)
    who.add_argument("--email", metavar="ADDRESS", help="the player's mail address")
    who.add_argument(
        "--reissue", action="store_true", help="give the seat a new key and mail it"
    )
    p.add_argument("--timezone", help="the player's time zone for deadlines, e.g. Europe/Paris")
    p.add_argument("--why", default="", help="the reason, kept in the game's audit trail")
    p.set_defaults(func=cmd_seat)


def _config(args: argparse.Namespace):  # noqa: ANN202 (MailConfig, imported lazily)
    from bot.email.config import MailConfigError, load_config

    try:
        return load_config(db_path=args.db)
    except MailConfigError as exc:
        raise UserError(str(exc)) from None


def _run(work) -> int:  # noqa: ANN001
    from bot.email.config import MailConfigError
    from bot.service import ServiceError
    from bot.store import StoreError

    try:
        return asyncio.run(work())
    except (ServiceError, StoreError, MailConfigError) as exc:
        raise UserError(str(exc)) from None


def cmd_email(args: argparse.Namespace) -> int:
    cfg = _config(args)
    from bot.discord.config import log_level

    try:
        level = log_level()  # UMPIRE_LOG_LEVEL, default INFO
    except ValueError as exc:
        raise UserError(str(exc)) from None
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(message)s")

    async def work() -> int:
        from bot.email.transport import IMAP_ERRORS, ImapError, open_mail

        service, desk, box = await open_mail(cfg, maps=not args.no_maps)
        # the passed deadlines of games without a Discord channel (bot/deadlines.py)
        deadlines = desk.deadline_runner()
        try:
            if args.once:
                while await deadlines.tick() == 0:  # a full batch: more is waiting
                    pass
                try:
                    handled = await box.once()
                except (*IMAP_ERRORS, ImapError) as exc:
                    raise UserError(f"the mailbox cannot be read: {exc}") from None
                print(f"{handled} mails handled, {box.outbox.sent} sent.")
                return 0
            print(f"Reading {cfg.imap.user or cfg.address} at {cfg.imap.host}; Ctrl-C stops.")
            from bot.shutdown import run_until_signalled

            stop = asyncio.Event()

            async def stopping() -> None:
                stop.set()

            deadlines.start()
            try:
                # SIGTERM/SIGINT: no new mail is read; the mail under way is finished
                await run_until_signalled(box.run(stop), stopping)
            finally:
                await deadlines.stop()
            return 0
        finally:
            await service.close()

    return _run(work)


def cmd_seat(args: argparse.Namespace) -> int:
    cfg = _config(args)
    if args.timezone:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(args.timezone)
        except (ZoneInfoNotFoundError, ValueError):
            raise UserError(f"{args.timezone!r} is not a time zone such as Europe/Paris.") from None

    async def work() -> int:
        from bot.email.desk import user_of
        from bot.email.transport import open_mail

        service, desk, box = await open_mail(cfg)
        try:
            if args.reissue:
                await desk.reissue(args.game, args.role)
                seat = next(s for s in await service.email_seats(args.game) if s.role == args.role)
                address = seat.address
            else:
                address = args.email.strip().lower()
                await desk.seat(args.game, args.role, address, "console", args.why)
            if args.timezone:
                await service.set_seat_preferences(
                    args.game, user_of(address), args.role, timezone=args.timezone
                )
            sent = await box.outbox.flush()
            what = "A new key was" if args.reissue else "The welcome mail was"
            where = "sent" if sent else "queued (it goes out with the next `umpire email`)"
            print(f"{args.role} in game {args.game} is played by {address}. {what} {where}.")
            return 0
        finally:
            await service.close()

    return _run(work)
