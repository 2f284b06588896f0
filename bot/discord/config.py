"""The bot's settings: the environment, and a ``.env`` file read without any extra package.

``.env`` holds ``KEY=VALUE`` lines (``#`` comments, blank lines, an optional ``export``
and quotes around the value are allowed). A variable already set in the environment wins
over the file, so a deployment can override one line without editing it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, MutableMapping
from dataclasses import dataclass, field
from pathlib import Path

from bot.store import default_db_path

HOUR = 3600.0

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
        )
