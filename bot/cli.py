"""The ``umpire`` command. Each front end or tool adds its sub-commands from its own module.

A module in ``COMMAND_MODULES`` exposes ``register(subparsers)``; each sub-command it adds
sets ``func`` to a callable taking the parsed arguments and returning an exit code.
Errors meant for a person are printed as one sentence with a non-zero exit, never a
traceback.

Only the module of the command being run is imported (``umpire show`` never loads
Discord or the renderer): :data:`COMMANDS` lists each module's sub-commands and their
one-line help, which is all ``umpire --help`` needs.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import importlib.util
import os
import sys
import time
import traceback
from pathlib import Path

COMMAND_MODULES = [
    "bot.commands_engine",  # fuzz, datapack
    "bot.console",  # new, play, list, order, show, orders, log, undo, rollback, end, verify, ...
    "renderer.cli",  # render
    "bot.commands_odds",  # odds
    "bot.discord.cli",  # bot, sync
    "bot.email.cli",  # email, seat
    "bot.commands_db",  # migrate-db
    "bot.backup",  # backup
]

#: the sub-commands each module registers, with their help line (a test keeps them equal)
COMMANDS: dict[str, dict[str, str]] = {
    "bot.commands_engine": {
        "fuzz": "play random legal games and replay each from its log",
        "datapack": "data-pack tools",
    },
    "bot.console": {
        "new": "create a game; prints its id and dice commitment",
        "play": "play a game at this terminal (hot-seat)",
        "list": "list the games, one a line, id first",
        "order": "give one order",
        "show": "show a game's status and what a role (or the public) sees",
        "orders": "list the legal orders now, filtered and by page",
        "log": "print a game's log (as the public reads it, unless --as)",
        "undo": "take back a role's last order",
        "rollback": "moderator: roll a game back",
        "end": "moderator: end a game now and reveal its dice secret",
        "verify": "check every roll and action of a finished game",
        "export": "print a game as JSON",
        "import": "store a game from an export file",
    },
    "renderer.cli": {"render": "draw a game's map to a PNG file"},
    "bot.commands_odds": {"odds": "exact battle odds: A&A Revised, A&A North Africa, TAC"},
    "bot.discord.cli": {
        "bot": "run the Discord bot (DISCORD_TOKEN from the environment or .env)",
        "sync": "register the slash commands with Discord, globally or in one server",
    },
    "bot.email.cli": {
        "email": "play by email: read the mailbox and send the mail",
        "seat": "moderator: seat a player by email in a game",
    },
    "bot.commands_db": {
        "migrate-db": "copy every game of an SQLite file into an empty PostgreSQL database",
    },
    "bot.backup": {
        "backup": "copy the database safely while the bot runs, and check the copy",
    },
}


class UserError(Exception):
    """A problem with what the user asked for: printed as one sentence, exit code 2."""


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser for ``argv``: the module of the command named in it is imported and
    registers its sub-commands in full; every other command is listed by name and help
    only. Without ``argv`` every module is imported (for tools that want the whole tree)."""
    parser = argparse.ArgumentParser(
        prog="umpire", description="Umpire: an adjudicator for wargames."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    wanted = _command_word(argv) if argv is not None else None
    for name in COMMAND_MODULES:
        listed = COMMANDS.get(name)
        if not _module_exists(name):
            continue  # that front end is not built yet
        if listed is None or argv is None or wanted in listed:
            importlib.import_module(name).register(sub)
        else:
            for command, help_text in listed.items():
                sub.add_parser(command, help=help_text)
    return parser


_frozen = False


def _build_parser_uncollected(argv: list[str]) -> argparse.ArgumentParser:
    """:func:`build_parser` with Python's cycle collector paused. Importing a command's
    modules makes some 45,000 objects that live as long as the process; the collector
    walking them again and again while they were made cost a console ``map`` 20-40 ms of
    its 300. Once imported they are set aside (``gc.freeze``, once a process), so that
    later collections skip them; a caller that turned the collector off keeps it off."""
    global _frozen
    if not gc.isenabled():
        return build_parser(argv)
    gc.disable()
    try:
        return build_parser(argv)
    finally:
        if not _frozen:
            gc.freeze()
            _frozen = True
        gc.enable()


def _command_word(argv: list[str]) -> str | None:
    """The sub-command named in ``argv`` (its first word that is not an option)."""
    return next((word for word in argv if not word.startswith("-")), None)


def _module_exists(name: str) -> bool:
    """Whether module ``name`` is there, found without importing it or its packages."""
    top, *rest = name.split(".")
    spec = importlib.util.find_spec(top)
    if spec is None:
        return False
    places = [Path(p) for p in (spec.submodule_search_locations or [])]
    for i, part in enumerate(rest):
        last = i == len(rest) - 1
        found = [p / part for p in places if (p / part / "__init__.py").is_file()]
        if last and any((p / f"{part}.py").is_file() for p in places):
            return True
        if not found:
            return False
        places = found
    return True


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    parser = _build_parser_uncollected(argv)
    args, extra = parser.parse_known_args(argv)
    # a command whose trailing words may follow its options (`orders GAME --as axis 10pz`)
    # names the argument they belong to in `more_words`
    into = getattr(args, "more_words", None)
    if extra and (into is None or any(word.startswith("-") for word in extra)):
        parser.error(f"unrecognized arguments: {' '.join(extra)}")
    if extra:
        setattr(args, into, [*getattr(args, into), *extra])
    if args.command is None:
        # Bare `umpire`: the Discord bot when a token is configured, else a console game.
        default = "play" if "play" in _commands(parser) else None
        if "bot" in _commands(parser):
            from bot.discord.cli import token_configured

            if token_configured():
                default = "bot"
            else:
                print(
                    "No DISCORD_TOKEN is configured, so this is a console game of Patton's First "
                    "Victory. To run the Discord bot, see 'Running the Discord bot' in the README."
                )
        if default is None:
            parser.print_help()
            return 0
        args = build_parser([default]).parse_args([default])
    _log_to_file()
    try:
        return int(args.func(args) or 0)
    except UserError as exc:
        print(f"umpire: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (`umpire list | head`): not an error worth a word
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as exc:
        from engine.core.registry import GameLoadError

        if isinstance(exc, GameLoadError):
            # a broken game is the installation's fault, but it is one clear sentence
            print(f"umpire: {exc}", file=sys.stderr)
            return 70
        # no traceback reaches a player: it goes to a log file with a reference to quote
        if os.environ.get("UMPIRE_DEBUG"):
            raise
        ref = os.urandom(4).hex()  # (not uuid: importing it costs every command 2 ms)
        path = Path(os.environ.get("UMPIRE_ERROR_LOG", "umpire-errors.log"))
        try:
            with path.open("a", encoding="utf-8") as log:
                log.write(
                    f"--- {ref} {time.strftime('%Y-%m-%d %H:%M:%S')} umpire {' '.join(argv or sys.argv[1:])}\n"
                )
                log.write(traceback.format_exc())
        except OSError:
            path = Path("(the log could not be written)")
        print(
            f"umpire: something went wrong inside Umpire (reference {ref}); the details are in {path}. "
            "Nothing was changed by the failed command.",
            file=sys.stderr,
        )
        return 70


def _commands(parser: argparse.ArgumentParser) -> set[str]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return set(action.choices)
    return set()


def _log_to_file() -> None:
    """Send what Umpire logs as a warning or error (a rules-engine bug behind a refused
    order, say) to the error log file: with no handler at all, Python would print it on
    the terminal, traceback and all. A process that set up logging itself is left alone."""
    import logging

    root = logging.getLogger()
    if root.handlers:
        return

    class _Quiet(logging.FileHandler):
        def handleError(self, record: logging.LogRecord) -> None:
            pass  # a log that cannot be written must not print a traceback either

    path = os.environ.get("UMPIRE_ERROR_LOG", "umpire-errors.log")
    handler = _Quiet(path, encoding="utf-8", delay=True)
    handler.setLevel(logging.WARNING)
    handler.setFormatter(logging.Formatter("--- %(asctime)s %(name)s: %(message)s"))
    root.addHandler(handler)


if __name__ == "__main__":
    # run as ``python -m bot.cli``: this file is then ``__main__``, and the commands raise
    # ``bot.cli.UserError``, a class of the module imported under its own name; that
    # module's ``main`` is the one that knows it
    from bot.cli import main as imported_main

    sys.exit(imported_main())
