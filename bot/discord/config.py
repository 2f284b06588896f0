"""The bot's settings: the environment, and a ``.env`` file read without any extra package.

``.env`` holds ``KEY=VALUE`` lines (``#`` comments, blank lines, an optional ``export``
and quotes around the value are allowed). A variable already set in the environment wins
over the file, so a deployment can override one line without editing it.
"""

from __future__ import annotations

import functools
import logging
import os
import re
from collections.abc import Iterable, Mapping, MutableMapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

from bot.store import GuildSettingsRow, default_db_path

HOUR = 3600.0
#: the map widths a server may choose, in pixels (Discord previews about 550 px inline)
MAP_WIDTH_RANGE = (400, 4000)
#: the longest deadline a server may set as its default, in hours (as /gm deadline)
MAX_HOURS = 24 * 60
#: names UMPIRE_LOG_LEVEL may take
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")

_LINE = re.compile(r"^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([dhms]?)\s*$")
_UNIT = {"d": 86400.0, "h": HOUR, "m": 60.0, "s": 1.0, "": HOUR}


def read_env_file(path: str | os.PathLike[str] = ".env") -> dict[str, str]:
    """The variables a ``.env`` file sets; an absent file sets none.

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / ".env"
    >>> _ = p.write_text('# token\\nexport DISCORD_TOKEN="abc"\\nUMPIRE_DB=x.db # local\\n')
    >>> read_env_file(p)
    {'DISCORD_TOKEN': 'abc', 'UMPIRE_DB': 'x.db'}
    """
    try:
        text = Path(path).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    out: dict[str, str] = {}
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        m = _LINE.match(line)
        if m is None:
            continue
        key, value = m.group(1), m.group(2)
        if value[:1] in ("'", '"') and value.count(value[0]) >= 2:
            value = value[1 : value.index(value[0], 1)]
        else:
            value = value.split(" #", 1)[0].strip()
        out[key] = value
    return out


def load_env_file(
    path: str | os.PathLike[str] = ".env", environ: MutableMapping[str, str] | None = None
) -> dict[str, str]:
    """Copy a ``.env`` file into the environment, never overriding a variable already set."""
    environ = os.environ if environ is None else environ
    values = read_env_file(path)
    for key, value in values.items():
        environ.setdefault(key, value)
    return values


def parse_durations(text: str) -> tuple[float, ...]:
    """``"12h, 1h, 30m"`` as seconds, longest first; a bare number counts hours.

    >>> parse_durations("1h, 2d,30m")
    (172800.0, 3600.0, 1800.0)
    """
    out = []
    for part in text.split(","):
        if not part.strip():
            continue
        m = _DURATION.match(part)
        if m is None:
            raise ValueError(f"{part.strip()!r} is not a duration such as 12h, 30m or 2d")
        out.append(float(m.group(1)) * _UNIT[m.group(2)])
    return tuple(sorted(set(out), reverse=True))


@dataclass
class Settings:
    """What the bot needs to know besides its code.

    ``deadline_hours`` is the default time for a phase, ``reply_hours`` for a decision the
    player who is not moving makes mid-turn (air support, losses, retreats); ``0`` means no
    deadline. ``reminders`` are lead times before a deadline, in seconds.
    """

    token: str | None = None
    db_path: str = field(default_factory=default_db_path)
    moderator_role: str | None = "Umpire Moderator"
    deadline_hours: float = 48.0
    reply_hours: float = 12.0
    reminders: tuple[float, ...] = (12 * HOUR, 1 * HOUR)
    map_width: int = 1600
    #: a notice the service queued is sent by the scheduler only if no command announced
    #: it within this many seconds (a crash between the commit and the post)
    notice_grace: float = 60.0
    #: /gm rollback, /gm end and /gm kick ask the moderator to press Confirm first
    confirm_moderation: bool = True
    #: what the bot and the mail loop log (UMPIRE_LOG_LEVEL)
    log_level: int = logging.INFO

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> Settings:
        env = os.environ if environ is None else environ

        def number(name: str, default: float) -> float:
            raw = env.get(name, "").strip()
            if not raw:
                return default
            try:
                return float(raw)
            except ValueError:
                raise ValueError(f"{name} must be a number, not {raw!r}") from None

        reminders = env.get("UMPIRE_REMINDERS", "").strip()
        return cls(
            token=(env.get("DISCORD_TOKEN") or "").strip() or None,
            db_path=env.get("UMPIRE_DB") or default_db_path(),
            moderator_role=(env.get("UMPIRE_MODERATOR_ROLE", "Umpire Moderator").strip() or None),
            deadline_hours=number("UMPIRE_DEADLINE_HOURS", 48.0),
            reply_hours=number("UMPIRE_REPLY_HOURS", 12.0),
            reminders=parse_durations(reminders) if reminders else (12 * HOUR, 1 * HOUR),
            map_width=int(number("UMPIRE_MAP_WIDTH", 1600)),
            log_level=log_level(env),
        )


def log_level(environ: Mapping[str, str] | None = None) -> int:
    """``UMPIRE_LOG_LEVEL`` (default INFO) as a :mod:`logging` level; a ValueError with
    one sentence for anything else.

    >>> log_level({"UMPIRE_LOG_LEVEL": "debug"}) == logging.DEBUG
    True
    """
    env = os.environ if environ is None else environ
    raw = (env.get("UMPIRE_LOG_LEVEL") or "INFO").strip().upper()
    if raw not in LOG_LEVELS:
        raise ValueError(
            f"UMPIRE_LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}, not {raw.lower()!r}"
        )
    return logging.getLevelName(raw)


# -- a server's settings (/gm config) over the bot's -------------------------------------


@dataclass(frozen=True)
class ServerSettings:
    """The settings in force in one Discord server (issue 15 item 5): what its
    moderators set with ``/gm config``, else the bot's environment. ``own`` names the
    ones the server set itself."""

    moderator_role: str | None
    deadline_hours: float
    reply_hours: float
    reminders: tuple[float, ...]
    map_width: int
    own: frozenset[str] = frozenset()


def server_settings(bot: Settings, row: GuildSettingsRow | None) -> ServerSettings:
    """The server's row (None: it set nothing) over the bot's settings."""
    own = {
        name
        for name in ("moderator_role", "deadline_hours", "reply_hours", "reminders", "map_width")
        if row is not None and getattr(row, name) is not None
    }

    def pick(name: str, default: object) -> object:
        return getattr(row, name) if name in own else default

    return ServerSettings(
        moderator_role=pick("moderator_role", bot.moderator_role),  # type: ignore[arg-type]
        deadline_hours=float(pick("deadline_hours", bot.deadline_hours)),  # type: ignore[arg-type]
        reply_hours=float(pick("reply_hours", bot.reply_hours)),  # type: ignore[arg-type]
        reminders=tuple(pick("reminders", bot.reminders)),  # type: ignore[arg-type]
        map_width=int(pick("map_width", bot.map_width)),  # type: ignore[call-overload]
        own=frozenset(own),
    )


def hours_problem(name: str, value: float) -> str | None:
    """Why ``value`` cannot be a default deadline in hours, or None."""
    if not 0 <= value <= MAX_HOURS:
        return f"{name} is between 0 (no deadline) and {MAX_HOURS:g} hours, not {value:g}."
    return None


def map_width_problem(value: int) -> str | None:
    low, high = MAP_WIDTH_RANGE
    if not low <= value <= high:
        return f"The map width is between {low} and {high} pixels, not {value}."
    return None


def reminders_problem(text: str) -> tuple[tuple[float, ...], str | None]:
    """``"12h, 1h"`` as lead times in seconds, or why not; ``none`` for no reminders."""
    if text.strip().lower() in ("none", "off", "0"):
        return (), None
    try:
        found = parse_durations(text)
    except ValueError as exc:
        return (), f"{exc}, or `none` for no reminders."
    if not found:
        return (), "Give lead times such as `12h, 1h`, or `none`."
    if found[0] > MAX_HOURS * HOUR or found[-1] <= 0:
        return (), f"A reminder comes between 1 second and {MAX_HOURS:g} hours before a deadline."
    return found, None


def duration_text(seconds: Iterable[float]) -> str:
    """``"12 h, 30 min"``; ``none`` for no lead time at all."""
    parts = [f"{s / HOUR:g} h" if s >= HOUR else f"{s / 60:g} min" for s in seconds]
    return ", ".join(parts) or "none"


# -- time zones (a member's own, for what the bot writes to them alone) ------------------

#: a Discord timestamp pair as the bot writes a moment (bot.discord.formatting.when)
_STAMPS = re.compile(r"<t:(\d+):F> \(<t:\1:R>\)")


@functools.cache
def zone_names() -> tuple[str, ...]:
    """Every IANA time zone this machine knows, sorted (for autocomplete)."""
    return tuple(sorted(available_timezones()))


def zone_problem(name: str) -> str | None:
    """Why ``name`` is not a time zone, in one sentence, or None."""
    if name.upper() == "UTC":
        return None
    try:
        if name not in zone_names():
            raise ZoneInfoNotFoundError(name)
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return (
            f"{name!r} is not a time zone I know; give an IANA name such as Europe/Paris or "
            "America/New_York (the list offers them as you type)."
        )
    return None


def local_time(ts: float, zone: str | None) -> str:
    """A moment as text in ``zone`` (UTC when none or unknown).

    >>> local_time(1700000000, "Europe/Paris")
    'Tue 14 Nov 2023 23:13 CET'
    """
    try:
        tz = ZoneInfo(zone) if zone and zone.upper() != "UTC" else UTC
    except (ZoneInfoNotFoundError, ValueError):
        tz = UTC
    return datetime.fromtimestamp(ts, tz).strftime("%a %d %b %Y %H:%M %Z")


def in_zone(text: str, zone: str | None) -> str:
    """``text`` (written for one member) with every moment the bot wrote as Discord
    timestamps given in the member's own ``zone`` instead, the relative stamp kept; the
    text unchanged when they set no zone (Discord then shows their device's zone).

    >>> in_zone("Due <t:1700000000:F> (<t:1700000000:R>).", "Asia/Tokyo")
    'Due Wed 15 Nov 2023 07:13 JST (<t:1700000000:R>).'
    """
    if not zone:
        return text
    return _STAMPS.sub(lambda m: f"{local_time(int(m.group(1)), zone)} (<t:{m.group(1)}:R>)", text)
