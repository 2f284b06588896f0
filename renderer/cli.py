"""``umpire render``: a game's map as a PNG file.

    umpire render GAME [--as ROLE] [--turn N] --out FILE [--db F] [--width PX]
    umpire render --new pfv [--as ROLE] --out FILE

``GAME`` is a game stored in the service's database (``--db``, default ``UMPIRE_DB`` or
``./umpire.db``); ``--as`` draws what that role may see (default: the public view);
``--turn`` draws the map as it stood when turn N began, rebuilt from the game's log.
``--new`` draws a freshly set up game of a ruleset instead, with no database.

The service is imported only when a stored game is asked for, so the renderer itself
does not depend on the bot.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path
from typing import Any


class RenderError(Exception):
    """Something the user asked for that cannot be drawn; the message says what and why."""


def register(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    p = sub.add_parser(
        "render",
        help="draw a game's map to a PNG file",
        description="Draw the map of a stored game (or of a new one, with --new) to a PNG file.",
    )
    p.add_argument("game", nargs="?", help="the id of a game stored in the database")
    p.add_argument(
        "--new", metavar="RULESET", help="draw a freshly set up game of RULESET (e.g. pfv)"
    )
    p.add_argument(
        "--as", dest="role", metavar="ROLE", help="draw what ROLE may see (default: public)"
    )
    p.add_argument("--turn", type=int, metavar="N", help="the map as it stood when turn N began")
    p.add_argument("--out", required=True, metavar="FILE", help="where to write the PNG")
    p.add_argument("--db", help="the database file (default: UMPIRE_DB or ./umpire.db)")
    p.add_argument(
        "--width", type=int, default=1600, metavar="PX", help="image width (default 1600)"
    )
    p.set_defaults(func=cmd_render)


def cmd_render(args: argparse.Namespace) -> int:
    try:
        view = _view_for(args)
        png = _draw(view, args.width)
    except RenderError as exc:
        print(f"umpire: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    try:
        out.write_bytes(png)
    except OSError as exc:
        print(f"umpire: cannot write {out}: {exc.strerror}.", file=sys.stderr)
        return 2
    print(f"Map saved to {out} ({len(png) // 1024} KB).")
    return 0


def _draw(view: Any, width: int) -> bytes:
    from engine.core.errors import DataPackError
    from renderer.style import StyleError
    from renderer.views import UnknownView, render_png

    if not 400 <= width <= 6000:
        raise RenderError(f"A width of {width} pixels cannot be drawn; give one from 400 to 6000.")
    try:
        return render_png(view, width)
    except UnknownView:
        raise RenderError("This game has no map the renderer can draw yet.") from None
    except (StyleError, DataPackError) as exc:
        raise RenderError(str(exc).splitlines()[0]) from None


def _view_for(args: argparse.Namespace) -> Any:
    if args.new and args.game:
        raise RenderError("Give either a stored game's id or --new RULESET, not both.")
    if args.new:
        if args.turn is not None:
            raise RenderError("A new game has only its set-up to draw; leave out --turn.")
        return new_game_view(args.new, args.role)
    if not args.game:
        raise RenderError("Say which game to draw: a stored game's id, or --new RULESET.")
    return asyncio.run(stored_game_view(args.db, args.game, args.role, args.turn))


def new_game_view(ruleset_id: str, role: str | None) -> Any:
    """The view of a freshly set up game of ``ruleset_id``."""
    import engine

    try:
        game = engine.Game.new(ruleset_id)
    except KeyError as exc:
        raise RenderError(f"{exc.args[0][0].upper()}{exc.args[0][1:]}.") from None
    _check_role(game.ruleset.roles(game.scenario), role)
    return game.view(role)


def _check_role(roles: list[str], role: str | None) -> None:
    if role is not None and role not in roles:
        raise RenderError(
            f"There is no role {role!r} in this game; the roles are: {', '.join(roles)}."
        )


async def stored_game_view(db: str | None, game_id: str, role: str | None, turn: int | None) -> Any:
    """What ``role`` sees of a stored game, now or when turn ``turn`` began."""
    from bot.service import Service, ServiceError
    from bot.store import StoreError, default_db_path

    path = db or default_db_path()
    if not Path(path).exists():
        raise RenderError(f"There is no database at {path}; give one with --db.")
    try:
        service = await Service.open(path)
    except StoreError as exc:
        raise RenderError(str(exc)) from None
    try:
        if turn is None:
            return (await service.view(game_id, "console", role, moderator=True)).view
        return view_at_turn(await service.export(game_id, with_secret=True), role, turn)
    except ServiceError as exc:
        raise RenderError(str(exc)) from None
    finally:
        await service.close()


def view_at_turn(export: dict[str, Any], role: str | None, turn: int) -> Any:
    """The view when ``turn`` began, replayed from a game export's live actions.

    A turn begins with the order that moved the game into it, so the state drawn is the
    one right after that order (or the set-up, for the first turn).
    """
    from engine.core import registry
    from engine.core.dice import order_dice, setup_dice

    g = export["game"]
    rs = registry.ruleset(g["ruleset"])
    _check_role(rs.roles(g["scenario"]), role)
    secret = bytes.fromhex(export["secret"])
    scheme = g.get("dice_scheme", "plain")  # ARCHITECTURE: Dice
    state = rs.setup(g["scenario"], g["options"], setup_dice(secret, g["id"], scheme))
    chain = None
    first = last = rs.progress(state).turn
    live = sorted(
        (a for a in export["actions"] if a.get("undone_by") is None), key=lambda a: a["seq"]
    )
    for action in live:
        if rs.progress(state).turn >= turn:
            break
        order = rs.load_order(action["order"])
        dice = order_dice(secret, g["id"], scheme, action["seq"], chain, action["order"])
        chain = dice.chain
        state, _ = rs.apply(state, action["role"], order, dice)
        last = rs.progress(state).turn
    if not first <= turn <= last:
        raise RenderError(f"Game {g['id']} has been in turns {first} to {last}, not turn {turn}.")
    return rs.view(state, role)


def main(argv: list[str] | None = None) -> int:
    """``python -m renderer.cli ...``: the same command without the rest of ``umpire``."""
    parser = argparse.ArgumentParser(prog="umpire")
    register(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(argv)
    started = time.perf_counter()
    code = int(args.func(args))
    if code == 0:
        print(f"Drawn in {time.perf_counter() - started:.2f} s.")
    return code


if __name__ == "__main__":
    sys.exit(main())
