"""Maps as PNG files for Discord: rendered off the event loop, shrunk to fit the upload
limit, kept once finished, with a close-up of the turn's action beside the full map.

ARCHITECTURE: Rendering runs off the event loop. Heavy work (drawing, odds) goes to a
pool of :data:`WORKERS` threads (:func:`off_loop`): a burst of requests queues there
instead of crowding the interpreter, so the event loop keeps answering. A picture larger
than the guild's upload limit is drawn again narrower until it fits (text stays crisp,
unlike scaling a bitmap down). A finished picture is kept (:data:`PICTURES`) by what it
shows and how: the view's content (which changes with every action of the game and
differs between the public and each role) and the width, so the same map asked for again
is not drawn again, and an undo or rollback can never bring back a stale one.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import hashlib
import json
import logging
import math
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

log = logging.getLogger(__name__)

MIN_WIDTH = 480
ATTEMPTS = 4
#: worker threads for drawing and odds; more only make a burst fight over the interpreter
WORKERS = max(1, int(os.environ.get("UMPIRE_RENDER_WORKERS", "2") or 2))
#: bytes of finished pictures kept
CACHE_BYTES = 64 * 1024 * 1024

Renderer = Callable[[Any, int], bytes]
T = TypeVar("T")

_pool = ThreadPoolExecutor(max_workers=WORKERS, thread_name_prefix="umpire-heavy")


async def off_loop(fn: Callable[..., T], *args: Any) -> T:
    """``fn(*args)`` on the bounded worker pool, awaited from the event loop."""
    loop = asyncio.get_running_loop()
    call = functools.partial(contextvars.copy_context().run, fn, *args)
    return await loop.run_in_executor(_pool, call)


class PngCache:
    """Finished pictures, the least recently used dropped first beyond ``max_bytes``."""

    def __init__(self, max_bytes: int = CACHE_BYTES) -> None:
        self.max_bytes = max_bytes
        self.size = 0
        self.hits = 0
        self.misses = 0
        self._items: OrderedDict[Hashable, tuple[Any, int]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> Any | None:
        with self._lock:
            found = self._items.get(key)
            if found is None:
                self.misses += 1
                return None
            self._items.move_to_end(key)
            self.hits += 1
            return found[0]

    def put(self, key: Hashable, value: Any, size: int) -> None:
        with self._lock:
            old = self._items.pop(key, None)
            if old is not None:
                self.size -= old[1]
            self._items[key] = (value, size)
            self.size += size
            while self.size > self.max_bytes and len(self._items) > 1:
                _, (_, dropped) = self._items.popitem(last=False)
                self.size -= dropped

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self.size = self.hits = self.misses = 0


#: the finished pictures of this process
PICTURES = PngCache()


def view_key(view: Any) -> str:
    """A digest of everything a view shows: equal views, equal pictures."""
    if hasattr(view, "model_dump_json"):
        data = view.model_dump_json()
    else:
        try:
            data = json.dumps(view, sort_keys=True, default=str)
        except (TypeError, ValueError):
            data = repr(view)
    return hashlib.blake2b(data.encode(), digest_size=16).hexdigest()


def default_renderer() -> Renderer | None:
    """The project's renderer, or None where it is not installed."""
    try:
        from renderer import render_png
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.split(".")[0] == "renderer":
            return None
        raise
    return render_png


def drawable(view: Any) -> bool:
    """Whether the renderer knows how to draw this kind of view (a hex or an area map)."""
    try:
        from renderer.views import can_draw
    except ModuleNotFoundError:
        return False
    return can_draw(view)


def fit_png(draw: Renderer, view: Any, width: int, limit: int) -> tuple[bytes, int] | None:
    """The view drawn at ``width``, or narrower until it is at most ``limit`` bytes; with
    the width used. None if even the narrowest picture is too large."""
    for _ in range(ATTEMPTS):
        png = draw(view, width)
        if len(png) <= limit:
            return png, width
        if width <= MIN_WIDTH:
            break
        # PNG size grows with area: shrink both sides by the square root of the excess.
        width = max(MIN_WIDTH, int(width * math.sqrt(limit / len(png)) * 0.9))
    return None


async def render(
    view: Any, width: int, limit: int, draw: Renderer | None = None
) -> tuple[bytes | None, str]:
    """The map as PNG bytes, and a note for the reader when there is no picture or it was
    shrunk. Never raises: a failing renderer is logged and the message goes without map.
    A picture drawn before for the same view, width and limit is not drawn again."""
    draw = draw or default_renderer()
    if draw is None or not drawable(view):
        return None, ""
    key = ("map", view_key(view), width, limit, draw)
    fitted = PICTURES.get(key)
    try:
        if fitted is None:
            fitted = await off_loop(fit_png, draw, view, width, limit)
            if fitted is not None:
                PICTURES.put(key, fitted, len(fitted[0]))
    except Exception:
        log.exception("the renderer failed on the view of game %s", getattr(view, "game", "?"))
        return None, "(The map could not be drawn this time; the error is logged.)"
    if fitted is None:
        return None, f"(The map is larger than this server's upload limit of {limit} bytes.)"
    png, used = fitted
    note = (
        "" if used == width else f"(The map was drawn {used} pixels wide to fit the upload limit.)"
    )
    return png, note


# -- the close-up -------------------------------------------------------------------------

#: a line of a turn's log as posted (``formatting.log_lines``): its order, as the reader reads it
_LOG_LINE = re.compile(r"^`\d+` [\w-]+: `([^`]*)`", re.M)


def logged_orders(text: str) -> list[str]:
    """The orders of the log lines a post carries (undone ones, struck through, left
    out). The orders name the places moved through, attacked, retreated to; the events'
    prose names powers and pieces as well, which would pull the close-up astray."""
    return _LOG_LINE.findall(text)


def _closeup(view: Any, places: tuple[str, ...]) -> tuple[bytes, list[str]] | None:
    from renderer.closeup import closeup as cut

    found = cut(view, places)
    return (found.png(), list(found.places)) if found is not None else None


async def closeup(view: Any, texts: Iterable[str], limit: int) -> tuple[bytes | None, list[str]]:
    """A close-up of the places ``texts`` name on the view's map (a turn's orders),
    legible at Discord's inline width, and the places it shows (the busiest part, when
    they spread too far); (None, []) when they name none or the renderer is not
    installed. Cut from ``view`` only: the reader's own view, so nothing hidden from
    them appears. Never raises."""
    try:
        from renderer.closeup import places_named
    except ModuleNotFoundError:
        return None, []
    if not drawable(view):
        return None, []
    try:
        places = tuple(places_named(view, texts))
        if not places:
            return None, []
        key = ("closeup", view_key(view), places)
        found = PICTURES.get(key)
        if found is None:
            found = await off_loop(_closeup, view, places)
            if found is None:
                return None, []
            PICTURES.put(key, found, len(found[0]))
    except Exception:
        log.exception("the close-up failed on the view of game %s", getattr(view, "game", "?"))
        return None, []
    png, shown = found
    return (png, shown) if len(png) <= limit else (None, [])


# -- captions: what players read ------------------------------------------------------------


def role_title(ruleset_id: str, role: str) -> str:
    """A role as players read it: ``"Allied"`` for ``allied`` in Patton's First Victory,
    ``"Soviet Union and United States"`` for ``ussr-usa`` in Axis & Allies.

    The rules contract has no display name for a role, so this takes the ruleset's own
    ``role_title(role)`` where it has one, else the names its rules module gives its sides
    and powers (``SIDE_NAME``, ``POWER_NAME``, the ones its prompts use), a role that
    holds several powers (``a-b``) naming each; else the id itself.

    >>> role_title("pfv", "axis"), role_title("aa-revised", "ussr-usa")
    ('Axis', 'Soviet Union and United States')
    >>> role_title("no-such-game", "north")
    'north'
    """
    import sys

    from engine.core import registry

    try:
        rs = registry.ruleset(ruleset_id)
    except Exception:  # noqa: BLE001 - an unknown game keeps its ids
        return role
    own = getattr(rs, "role_title", None)
    if callable(own):
        try:
            found = own(role)
        except Exception:  # noqa: BLE001 - a hook that does not know the role
            found = None
        if isinstance(found, str) and found:
            return found
    module = sys.modules.get(type(rs).__module__)
    names: dict[str, str] = {}
    for table in ("SIDE_NAME", "POWER_NAME"):
        found_names = getattr(module, table, None)
        if isinstance(found_names, dict):
            names.update({str(k): str(v) for k, v in found_names.items()})
    if role in names:
        return names[role]
    parts = role.split("-")
    if len(parts) > 1 and all(p in names for p in parts):
        shown = [names[p] for p in parts]
        return ", ".join(shown[:-1]) + " and " + shown[-1]
    return role


def game_caption(title: str, game: str) -> str:
    """A game as a caption names it: its title first, the id (what commands take) after.

    >>> game_caption("Patton's First Victory", "ab12")
    "**Patton's First Victory** (game `ab12`)"
    """
    return f"**{title}** (game `{game}`)" if title else f"game `{game}`"


def places_caption(places: list[str], shown: int = 6) -> str:
    """The places a close-up shows, the first ``shown`` of them.

    >>> places_caption(["a", "b"]), places_caption(list("abcdefgh"))
    ('a, b', 'a, b, c, d, e, f, ...')
    """
    return ", ".join(places[:shown]) + (", ..." if len(places) > shown else "")
