"""The console front end: the game service driven from a terminal (ARCHITECTURE: Front ends).

``umpire play`` is hot-seat play: the prompt shows whose decision it is and the console
acts as that role; without a game id it goes on with the last game made or played here.
The one-shot commands (``new``, ``list``, ``order``, ``show``, ``orders``, ``log``,
``undo``, ``rollback``, ``end``, ``verify``, ``export``, ``import``) serve moderators and
scripts. Pieces may be named as ``show`` prints them (``bot/console_text.py``). Every
command takes ``--db`` (default ``UMPIRE_DB`` or ``./umpire.db``); the person at the
console is the local user ``console``, who holds every seat of the games it creates and
acts as a moderator. A refusal is one sentence on stderr with exit code 2.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bot.cli import UserError
from bot.console_text import (
    as_typed,
    format_view,
    games_help,
    grammar,
    json_lines,
    matching,
    order_page,
    piece_names,
    with_ids,
)
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
Type an order as the game writes it, naming pieces by id or by name as 'show' prints them,
or one of these:
  orders [WORD ...]  the legal orders now, those with every WORD; 'more' for the next page
  show     the position, as the player to move      map    save the map as a PNG
  log      the game so far, as the player to move   undo   take back your last order
  help     this text                                quit   leave (saved after every order)
The orders of this game (* = accepted now):"""


def register(sub: argparse._SubParsersAction) -> None:
    def command(
        name: str, func: Callable[[argparse.Namespace], int], help: str
    ) -> argparse.ArgumentParser:
        p = sub.add_parser(name, help=help)
        p.add_argument(
            "--db",
            help="the database: a file, or a postgresql:// URL (default: UMPIRE_DB or ./umpire.db)",
        )
        p.set_defaults(func=func)
        return p

    p = command("new", cmd_new, "create a game; prints its id and dice commitment")
    p.formatter_class = _GamesHelp  # the games, scenarios and options: loaded for --help only
    p.epilog = GAMES_EPILOG
    p.add_argument("ruleset", help="the game, e.g. pfv")
    p.add_argument("--scenario", help="the scenario (default: the first)")
    p.add_argument(
        "--option", action="append", default=[], metavar="KEY=VALUE", help="a game option"
    )

    p = command("play", cmd_play, "play a game at this terminal (hot-seat)")
    p.add_argument(
        "game",
        nargs="?",
        help=f"the game id (default: the last game played here, else a new {DEFAULT_GAME} game)",
    )

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
    p.add_argument("--json", action="store_true", help="the view as the engine gives it, as JSON")

    p = command("orders", cmd_orders, "list the legal orders now, filtered and by page")
    p.add_argument("game")
    p.add_argument("--as", dest="role", help="whose orders (default: whoever must decide)")
    p.add_argument("--page", type=int, default=1, help="the page to show (default 1)")
    p.add_argument("words", nargs="*", help="only orders holding every word (ids or names)")
    p.set_defaults(more_words="words")

    p = command("log", cmd_log, "print a game's log (as the public reads it, unless --as)")
    p.add_argument("game")
    p.add_argument("--all", action="store_true", help="include undone actions")
    p.add_argument(
        "--as",
        dest="audience",
        metavar="ROLE",
        help="the log as this role reads it ('*' for everything: a moderator's audit)",
    )

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
    except (ServiceError, StoreError) as exc:  # StoreError: the database file failed mid-command
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
        game = await _new_game(service, args.ruleset, args.scenario, options)
        remember_game(args.db or default_db_path(), game)  # `umpire play` goes on with it
        return 0

    return _run(args, work)


def cmd_play(args: argparse.Namespace) -> int:
    db = args.db or default_db_path()

    async def work(service: Service) -> int:
        game = args.game or await _last_game(service, db)
        if game is None:
            game = await _new_game(service, DEFAULT_GAME, None, {})
        else:
            await service.status(game)  # a game that is not there is refused here
        remember_game(db, game)
        with line_editing():
            return await repl(service, game)

    return _run(args, work)


async def _last_game(service: Service, db: str) -> str | None:
    """The game ``umpire play`` resumes without an id: the last one played or created
    at this console with this database, if it is still going, else the newest game the
    console created that is still going (never a game of the Discord bot's); ``None``
    when there is none."""
    games = {g.game: g for g in await service.list_games()}
    going = [g for g in games.values() if g.status != "finished" and g.created_by == USER]
    last = _remembered().get(_db_key(db))
    if last in games and games[last].status != "finished":
        return last
    return going[-1].game if going else None


# -- the console's own files: line history and the last game, under XDG_STATE_HOME ---------


def state_dir() -> Path:
    """Where the console keeps its history and last game: ``$XDG_STATE_HOME/umpire``,
    else ``~/.local/state/umpire``."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "umpire"


def _db_key(db: str) -> str:
    """The database as the console's state files name it: a file's full path, or a
    PostgreSQL URL without its password."""
    if db.split("://", 1)[0] not in ("postgresql", "postgres"):  # as store_pg.is_pg_url
        return str(Path(db).resolve())  # (store_pg imports psycopg: 0.1 s a command)
    from bot.store_pg import safe_url

    return safe_url(db)


def _remembered() -> dict[str, str]:
    try:
        data = json.loads((state_dir() / "last-games.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def remember_game(db: str, game: str) -> None:
    """Note ``game`` as the last one played with ``db``; a state folder that cannot be
    written only means ``play`` will not know it."""
    games = _remembered()
    games[_db_key(db)] = game
    try:
        state_dir().mkdir(parents=True, exist_ok=True)
        (state_dir() / "last-games.json").write_text(json.dumps(games, indent=1), "utf-8")
    except OSError:
        pass


HISTORY_LINES = 1000


@contextmanager
def line_editing() -> Iterator[None]:
    """Line editing and a history kept between sessions at the prompt, where Python has
    ``readline``; without it (or without a terminal) the prompt works as plain input."""
    try:
        import readline
    except ImportError:
        yield
        return
    path = state_dir() / "history"
    try:
        readline.read_history_file(path)
    except OSError:
        pass
    readline.set_history_length(HISTORY_LINES)
    try:
        yield
    finally:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            readline.write_history_file(path)
        except OSError:
            pass


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
    listing: list[str] = []  # the last 'orders' listing, paged by 'more'
    page = 1
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
        word, _, rest = line.partition(" ")
        word = word.lower()
        try:
            if word in ("quit", "exit"):
                return 0
            if word == "help":
                ruleset, _, _ = await service.live_state(game)
                write(HELP)
                write("\n".join(grammar(ruleset, prompt.verbs)))
            elif word == "log":
                lines = await service.game_log(game, audience=prompt.role)
                for text in _log_lines(lines):
                    write(text)
            elif word == "orders":
                listing, total = await _legal(service, game, prompt.role, rest.split())
                page = 1
                write("\n".join(order_page(listing, page, total=total)))
            elif word == "more":
                page += 1
                write("\n".join(order_page(listing, page)) if listing else "Type 'orders' first.")
            elif word == "show":
                view = await service.view(game, USER, prompt.role, moderator=True)
                shown = json_lines if rest.strip() == "--json" else format_view
                for text in shown(view.view):
                    write(text)
            elif word == "map":
                write(await save_map(service, game, prompt.role))
            elif word == "undo":
                undone = await service.undo(game, USER, seen=prompt.seq)
                write(f"Took back action {undone.seq} ({undone.role}: {undone.order}).")
            else:
                view = await service.view(game, USER, prompt.role, moderator=True)
                order = as_typed(line, view.view)
                result = await service.submit(game, USER, order, role=prompt.role, seen=prompt.seq)
                for text in _result_lines(result):
                    write(text)
        except ServiceError as exc:
            write(str(exc))


async def _legal(
    service: Service, game: str, role: str | None, words: list[str]
) -> tuple[list[str], int]:
    """The legal orders of ``role`` (default: whoever must decide) holding every one of
    ``words`` (names as ``show`` prints them count as the ids), and how many there are
    in all. The orders come as the role may read them."""
    ruleset, state, _ = await service.live_state(game)
    role = role or ruleset.prompt(state).role
    if role is None:
        return [], 0
    orders = [o.text() for o in ruleset.legal_orders(state, role)]
    if not words:
        return orders, len(orders)
    view = await service.view(game, USER, role, moderator=True)
    wanted = with_ids(" ".join(words), piece_names(view.view)).split()
    return matching(orders, wanted), len(orders)


async def save_map(service: Service, game: str, role: str | None, folder: str = ".") -> str:
    """Render what ``role`` sees to a PNG file, for any game the renderer draws (hex maps
    and the Axis & Allies board); a sentence saying where, or why not."""
    try:
        from renderer.views import can_draw, render_png
    except ModuleNotFoundError:
        return "The map renderer is not installed, so there is no map to show."

    view = await service.view(game, USER, role, moderator=True)
    if not can_draw(view.view):
        return "This game has no map to draw."
    png = await asyncio.to_thread(render_png, view.view)
    path = Path(folder) / _png_name(game, view.seq, role)
    path.write_bytes(png)
    return f"Map saved to {path}."


def _png_name(game: str, seq: int, role: str | None) -> str:
    """The file name of a saved map: only letters, digits, '-' and '_' from the game id
    and role, so that no id (``../../tmp/x``, from a database made before ids were
    checked) can put the file outside its folder."""
    return f"{_safe(game)}-{seq:04d}-{_safe(role or 'public')}.png"


def _safe(text: str) -> str:
    return "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "_" for ch in text)[:64]


def _shown(text: str) -> str:
    """A name from the database as one line of a listing: control characters (a newline
    would forge a line) written as escapes, and no more than 64 characters."""
    text = text if len(text) <= 64 else text[:63] + "…"
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def _listed_when(ts: float | None) -> str:
    """``_when`` for one line of ``umpire list``: a time out of range reads as '?'."""
    try:
        return _when(ts)
    except (OverflowError, OSError, ValueError):
        return "?"


def cmd_list(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        for g in await service.list_games():
            print(
                f"{_shown(g.game)}  {_shown(g.ruleset)}  {_shown(g.scenario)}  {g.status}  "
                f"action {g.seq}  {_listed_when(g.created_at)}"
            )
        return 0

    return _run(args, work)


def cmd_order(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        view = await service.view(args.game, USER, args.role, moderator=True)
        order = as_typed(" ".join(args.text), view.view)
        result = await service.submit(args.game, USER, order, role=args.role, seen=args.seen)
        print(f"{result.seq}. {result.role}: {result.order}")
        _print(_result_lines(result))
        print(_prompt_line(result.prompt))
        return 0

    return _run(args, work)


def cmd_show(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        status = await service.status(args.game)
        view = await service.view(args.game, USER, args.role, moderator=True)
        if args.json:
            _print(json_lines(view.view))
            return 0
        _print(_status_lines(status))
        _print(format_view(view.view))
        return 0

    return _run(args, work)


def cmd_orders(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        listing, total = await _legal(service, args.game, args.role, args.words)
        _print(order_page(listing, args.page, total=total))
        return 0

    return _run(args, work)


GAMES_EPILOG = "(the games, their scenarios and options)"


class _GamesHelp(argparse.RawDescriptionHelpFormatter):
    """``umpire new --help``: the games and their scenarios and options are listed by
    loading every game, which only this help does (every other command stays fast)."""

    def add_text(self, text: str | None) -> None:
        if text == GAMES_EPILOG:
            from engine.core import registry

            text = games_help(registry)
        super().add_text(text)


def cmd_log(args: argparse.Namespace) -> int:
    async def work(service: Service) -> int:
        lines = await service.game_log(args.game, audience=args.audience, include_undone=args.all)
        _print(_log_lines(lines))
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
    """An export file read as untrusted input (bounded; one sentence if it cannot be)."""
    from bot.exportfile import ExportFileError, read_export

    try:
        return read_export(path)
    except ExportFileError as exc:
        raise UserError(str(exc)) from None


def cmd_verify(args: argparse.Namespace) -> int:
    # A path (anything with a slash, or a file that is there) is an export file: a game
    # id never holds a slash, and /dev/zero must be refused as a file, not looked up.
    if "/" in args.game or os.path.exists(args.game):
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
    data = _read_export(args.file)  # every failure to read is one sentence, before the db opens

    async def work(service: Service) -> int:
        created = await service.import_game(data, by=USER)
        print(f"{created.game} imported ({created.ruleset}, {created.status})")
        return 0

    return _run(args, work)
