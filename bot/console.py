"""The console front end: the game service driven from a terminal (ARCHITECTURE: Front ends).

``umpire play`` is hot-seat play: the prompt shows whose decision it is and the console
acts as that role. The one-shot commands (``new``, ``list``, ``order``, ``show``, ``log``,
``undo``, ``rollback``, ``end``, ``verify``, ``export``, ``import``) serve moderators and
scripts. Every command takes ``--db`` (default ``UMPIRE_DB`` or ``./umpire.db``); the
person at the console is the local user ``console``, who holds every seat of the games
it creates and acts as a moderator. A refusal is one sentence on stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from bot.cli import UserError
from bot.service import (
    GameStatus,
    LogLine,
    OrderResult,
    PromptInfo,
    Service,
    ServiceError,
    VerifyReport,
    find_ruleset,
    verify_export,
)
from bot.store import StoreError, default_db_path

USER = "console"
DEFAULT_GAME = "pfv"

HELP = """\
Type an order as the game writes it (e.g. "move 1arm 8113 8114"), or:
  orders   list the legal orders now        undo   take back your last order
  log      the game so far                  show   the position, as the player to move
  map      save the map as a PNG            help   this text
  quit     leave (the game is saved after every order)"""


def register(sub: argparse._SubParsersAction) -> None:
    def command(
        name: str, func: Callable[[argparse.Namespace], int], help: str
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help)
        p.add_argument("--db", help="the database file (default: UMPIRE_DB or ./umpire.db)")
        p.set_defaults(func=func)
        return p

    p = command("new", cmd_new, "create a game; prints its id and dice commitment")
    p.add_argument("ruleset", help="the game, e.g. pfv")
    p.add_argument("--scenario", help="the scenario (default: the first)")
    p.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option"
    )

    p = command("play", cmd_play, "play a game at this terminal (hot-seat)")
    p.add_argument("game", nargs="?", help=f"the game id (default: a new {DEFAULT_GAME} game)")

    command("list", cmd_list, "list the games, one a line, id first")

    p = command("order", cmd_order, "give one order")
    p.add_argument("game")
    p.add_argument("--as", dest="role", required=True, help="the role giving the order")
    p.add_argument(
        "--seen", type=int, help="refuse the order if the game has moved past this action"
    )
    p.add_argument("text", nargs="+", help='the order, e.g. "move 1arm 8113 8114"')

    p = command("show", cmd_show, "show a game's status and what a role (or the public) sees")
    p.add_argument("game")
    p.add_argument("--as", dest="role", help="the role whose view to show (default: public)")

    p = command("log", cmd_log, "print a game's log")
    p.add_argument("game")
    p.add_argument("--all", action="store_true", help="include undone actions")

    p = command("undo", cmd_undo, "take back a role's last order")
    p.add_argument("game")
    p.add_argument("--as", dest="role", required=True)

    p = command("rollback", cmd_rollback, "moderator: roll a game back")
    p.add_argument("game")
    target = p.add_mutually_exclusive_group(required=True)
    target.add_argument("--to", type=int, help="the action number to go back to")
    target.add_argument("--turn", type=int, help="go back to the start of this turn")
    p.add_argument("--why", required=True, help="the reason, shown to the players")

    p = command("end", cmd_end, "moderator: end a game now and reveal its dice secret")
    p.add_argument("game")
    p.add_argument("--why", required=True)

    p = command("verify", cmd_verify, "check every roll and action of a finished game")
    p.add_argument("game", help="a game id, or an exported JSON file")

    p = command("export", cmd_export, "print a game as JSON")
    p.add_argument("game")
    p.add_argument("--out", help="write to this file instead of standard output")
    p.add_argument(
        "--with-secret",
        action="store_true",
        help="include the dice secret of an unfinished game (to move it; spoils the dice)",
    )

    p = command("import", cmd_import, "store a game from an export file")
    p.add_argument("file")


# -- plumbing --------------------------------------------------------------------------


def _run(args: argparse.Namespace, work: Callable[[Service], Awaitable[int]]) -> int:
    """Open the database, run ``work``, close; refusals become one-sentence errors."""

    async def main() -> int:
        try:
            service = await Service.open(args.db or default_db_path())
        except StoreError as exc:
            raise UserError(str(exc)) from None
        try:
            return await work(service)
        finally:
            await service.close()

    try:
        return asyncio.run(main())
    except ServiceError as exc:
        raise UserError(str(exc)) from None


def _when(ts: float | None) -> str:
    if ts is None:
        return "-"
    return datetime.fromtimestamp(ts, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _prompt_line(p: PromptInfo) -> str:
    if p.role is None:
        return f"[action {p.seq}] {p.text}"
    where = f"turn {p.turn} {p.phase}".strip() if p.turn or p.phase else ""
    return f"[action {p.seq}] {where + ': ' if where else ''}{p.text}"


def _log_lines(lines: list[LogLine]) -> list[str]:
    out = []
    for line in lines:
        mark = " (undone)" if line.undone else ""
        out.append(f"{line.seq:>4}. {line.role}: {line.order}{mark}")
        out.extend(f"        {text}" for text in line.events)
    return out


def _result_lines(r: OrderResult) -> list[str]:
    out = [f"  {text}" for text in r.events]
    if r.result is not None:
        out.append(f"Game over: {r.result.text}")
    if r.secret is not None:
        out.append(f"The dice secret is now public: {r.secret}")
    return out


def format_view(view: Any) -> list[str]:
    """A view as text: hex maps as one line per stack, anything else as JSON."""
    from engine.core.view import HexMapView

    if isinstance(view, HexMapView):
        out = [f"{view.title}: {view.turn_label}, {view.phase}", view.prompt]
        for stack in view.stacks:
            names = ", ".join(_counter_text(c) for c in stack.counters)
            more = stack.count - len(stack.counters)
            hidden = f" and {more} hidden" if more > 0 else ""
            out.append(f"  {stack.hex} {stack.side}: {names}{hidden}")
        for box in view.boxes:
            if box.counters:
                out.append(f"  {box.title}: {', '.join(_counter_text(c) for c in box.counters)}")
        out.extend(f"  {note}" for note in view.notes)
        return out
    if isinstance(view, BaseModel):
        view = view.model_dump(mode="json")
    return json.dumps(view, indent=2, sort_keys=True, default=str).splitlines()


def _counter_text(c: Any) -> str:
    values = "-".join(str(v) for v in (c.combat, c.move) if v is not None)
    return f"{c.name}{f' {values}' if values else ''}{' (reduced)' if c.reduced else ''}"


def _status_lines(s: GameStatus) -> list[str]:
    seats = ", ".join(f"{seat.role}: {seat.user or '(free)'}" for seat in s.seats)
    out = [
        f"Game {s.game}: {s.title}, scenario {s.scenario}, {s.status}, action {s.seq}",
        f"Seats: {seats}",
        f"Dice commitment: {s.commitment}",
        _prompt_line(s.prompt),
    ]
    if s.result is not None:
        out.append(f"Result: {s.result.text}")
    if s.secret is not None:
        out.append(f"Dice secret: {s.secret}")
    return out


def _print(lines: list[str]) -> None:
    for line in lines:
        print(line)


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise UserError(f"the option {text!r} is not written KEY=VALUE")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


async def _new_game(
    service: Service, ruleset_id: str, scenario: str | None, options: dict[str, Any]
) -> str:
    ruleset = find_ruleset(ruleset_id)
    scenario = scenario or ruleset.scenarios()[0].id
    roles = ruleset.roles(scenario) if scenario in [s.id for s in ruleset.scenarios()] else []
    created = await service.create(
        ruleset_id,
        created_by=USER,
        scenario=scenario,
        options=options,
        seats={role: USER for role in roles},
    )
    await service.start(created.game, USER)
    print(f"{created.game} {ruleset.title}, scenario {created.scenario}")
    print(f"Dice commitment (sha256 of the secret): {created.commitment}")
    return created.game


# -- commands --------------------------------------------------------------------------


def cmd_new(args: argparse.Namespace) -> int:
    options = dict(_option(o) for o in args.option)

    async def work(service: Service) -> int:
        await _new_game(service, args.ruleset, args.scenario, options)
        return 0

    return _run(args, work)


def cmd_play(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        game = args.game or await _new_game(service, DEFAULT_GAME, None, {})
        return await repl(service, game)

    return _run(args, work)


async def repl(
    service: Service,
    game: str,
    read: Callable[[str], str] | None = None,
    write: Callable[[str], None] | None = None,
) -> int:
    """Hot-seat play of ``game``: each line is an order for whoever must decide, or a command."""
    read = read or input
    write = write or print
    status = await service.status(game)
    write(f"Game {game}: {status.title}. Type help for the commands.")
    while True:
        status = await service.status(game)
        prompt = status.prompt
        write(_prompt_line(prompt))
        if status.status == "finished" or prompt.role is None:
            if status.result is not None:
                write(f"Game over: {status.result.text}")
            if status.secret is not None:
                write(f"Dice secret: {status.secret}")
            return 0
        try:
            line = read(f"{prompt.role}> ").strip()
        except EOFError:
            write("")
            return 0
        if not line:
            continue
        word = line.split()[0].lower()
        try:
            if word in ("quit", "exit"):
                return 0
            if word == "help":
                write(HELP)
            elif word == "log":
                for text in _log_lines(await service.game_log(game)):
                    write(text)
            elif word == "orders":
                ruleset, state, _ = await service.live_state(game)
                orders = [o.text() for o in ruleset.legal_orders(state, prompt.role)]
                write(
                    ", ".join(orders[:60])
                    + (f" ... ({len(orders)} in all)" if len(orders) > 60 else "")
                )
            elif word == "show":
                view = await service.view(game, USER, prompt.role, moderator=True)
                for text in format_view(view.view):
                    write(text)
            elif word == "map":
                write(await save_map(service, game, prompt.role))
            elif word == "undo":
                undone = await service.undo(game, USER, seen=prompt.seq)
                write(f"Took back action {undone.seq} ({undone.role}: {undone.order}).")
            else:
                result = await service.submit(game, USER, line, role=prompt.role, seen=prompt.seq)
                for text in _result_lines(result):
                    write(text)
        except ServiceError as exc:
            write(str(exc))


async def save_map(service: Service, game: str, role: str | None, folder: str = ".") -> str:
    """Render what ``role`` sees to a PNG file; a sentence saying where, or why not."""
    try:
        from renderer import render_png
    except ModuleNotFoundError:
        return "The map renderer is not installed, so there is no map to show."
    from engine.core.view import HexMapView

    view = await service.view(game, USER, role, moderator=True)
    if not isinstance(view.view, HexMapView):
        return "This game has no map to draw."
    png = await asyncio.to_thread(render_png, view.view)
    path = Path(folder) / f"{game}-{view.seq:04d}-{role or 'public'}.png"
    path.write_bytes(png)
    return f"Map saved to {path}."


def cmd_list(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        for g in await service.list_games():
            print(
                f"{g.game}  {g.ruleset}  {g.scenario}  {g.status}  action {g.seq}  {_when(g.created_at)}"
            )
        return 0

    return _run(args, work)


def cmd_order(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        result = await service.submit(
            args.game, USER, " ".join(args.text), role=args.role, seen=args.seen
        )
        print(f"{result.seq}. {result.role}: {result.order}")
        _print(_result_lines(result))
        print(_prompt_line(result.prompt))
        return 0

    return _run(args, work)


def cmd_show(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        status = await service.status(args.game)
        view = await service.view(args.game, USER, args.role, moderator=True)
        _print(_status_lines(status))
        _print(format_view(view.view))
        return 0

    return _run(args, work)


def cmd_log(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        _print(_log_lines(await service.game_log(args.game, include_undone=args.all)))
        return 0

    return _run(args, work)


def cmd_undo(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        undone = await service.undo(args.game, USER, role=args.role)
        print(f"Took back action {undone.seq} ({undone.role}: {undone.order}).")
        print(_prompt_line(undone.prompt))
        return 0

    return _run(args, work)


def cmd_rollback(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        r = await service.rollback(args.game, USER, why=args.why, to=args.to, turn=args.turn)
        print(f"Rolled game {r.game} back from action {r.from_seq} to {r.to_seq}: {r.why}")
        print(_prompt_line(r.prompt))
        return 0

    return _run(args, work)


def cmd_end(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        _print(_status_lines(await service.end(args.game, USER, args.why)))
        return 0

    return _run(args, work)


def _report(report: VerifyReport) -> int:
    if report.ok:
        print(
            f"Game {report.game} checks out: {report.actions} log entries replayed and "
            f"{report.rolls} rolls recomputed from the secret."
        )
        return 0
    for problem in report.problems:
        print(problem)
    raise UserError(f"game {report.game} does not check out: {len(report.problems)} problem(s)")


def _read_export(path: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise UserError(f"cannot read {path}: {exc.strerror}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise UserError(f"{path} is not JSON (line {exc.lineno}: {exc.msg})") from None


def cmd_verify(args: argparse.Namespace) -> int:
    if os.path.isfile(args.game):
        try:
            return _report(verify_export(_read_export(args.game)))
        except ServiceError as exc:
            raise UserError(str(exc)) from None

    async def work(service: Service) -> int:
        return _report(await service.verify(args.game))

    return _run(args, work)


def cmd_export(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        data = await service.export(args.game, with_secret=args.with_secret)
        text = json.dumps(data, indent=1, sort_keys=True)
        if args.out:
            Path(args.out).write_text(text + "\n", encoding="utf-8")
        else:
            sys.stdout.write(text + "\n")
        return 0

    return _run(args, work)


def cmd_import(args: argparse.Namespace) -> int:
    data = _read_export(args.file)

    async def work(service: Service) -> int:
        created = await service.import_game(data, by=USER)
        print(f"{created.game} imported ({created.ruleset}, {created.status})")
        return 0

    return _run(args, work)
