"""The ``umpire`` command. Each front end or tool adds its sub-commands from its own module.

A module in ``COMMAND_MODULES`` exposes ``register(subparsers)``; each sub-command it adds
sets ``func`` to a callable taking the parsed arguments and returning an exit code.
Errors meant for a person are printed as one sentence with a non-zero exit, never a
traceback.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import time
import traceback
import uuid
from pathlib import Path

COMMAND_MODULES = [
    "bot.commands_engine",  # fuzz, datapack
    "bot.console",  # new, play, list, order, show, log, undo, rollback, verify, export, import
    "renderer.cli",  # render
    "bot.commands_odds",  # odds
    "bot.discord.cli",  # bot, sync
]


class UserError(Exception):
    """A problem with what the user asked for: printed as one sentence, exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="umpire", description="Umpire: an adjudicator for wargames."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and (exc.name == name or name.startswith(exc.name + ".")):
                continue  # that front end is not built yet
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
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
        args = parser.parse_args([default])
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
    except Exception:
        # no traceback reaches a player: it goes to a log file with a reference to quote
        if os.environ.get("UMPIRE_DEBUG"):
            raise
        ref = uuid.uuid4().hex[:8]
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


if __name__ == "__main__":
    sys.exit(main())
