"""SQLite storage for games (ARCHITECTURE: Storage and the service).

The only module that speaks SQL. A :class:`Store` owns one aiosqlite connection in WAL
mode; every command of the service runs in one transaction, opened with
``async with store.write() as tx`` (``BEGIN IMMEDIATE``: the writer lock is taken at the
start, so two processes never both think they may write) or ``store.read()`` for a
consistent view. Transactions on one store are serialised by an asyncio lock, because a
SQLite connection has only one transaction at a time.

:class:`StoreLike` is what the service needs of a store; :func:`open_store` opens the
one ``UMPIRE_DB`` (or ``--db``) names: this SQLite store for a file, the PostgreSQL store
of ``bot/store_pg.py`` for a ``postgresql://`` URL (issue 16), which reuses the queries
of :class:`Tx`. Snapshots are stored compressed, as key frames and differences (see
"compact snapshots" below), and a finished game keeps few of them; a log entry's order,
rolls, events, role, user and phase are compressed into one ``body`` with a dictionary
of its ruleset's vocabulary (``bot/logdicts``, migration 0008), and only every
``CHAIN_EVERY``-th entry stores its dice chain, the others deriving it from the entry
before (migration 0009); a game's notices nobody will read again go when it ends, and
its log, final then, moves into chunks of ``SEAL_EVERY`` entries compressed together
(``Tx.seal_log``, migration 0010), which every query of the log reads for a game that
has no rows left.

The schema lives in ``migrations/NNNN_name.sql``. At open, the files numbered above
``PRAGMA user_version`` are applied in order, each in its own transaction that also sets
``user_version``, so a crash during a migration leaves the database as it was.

>>> import asyncio, tempfile, os
>>> async def demo(path):
...     store = await Store.open(path)
...     async with store.read() as tx:
...         games = await tx.list_games()
...     await store.close()
...     return games
>>> asyncio.run(demo(os.path.join(tempfile.mkdtemp(), "doc.db")))
[]
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import os
import re
import sqlite3
import zlib
from collections.abc import AsyncIterator, Iterable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, NamedTuple, Protocol

import aiosqlite

from bot import logdicts
from engine.core.dice import CHAIN_START, chain_next

DEFAULT_DB = "umpire.db"
BUSY_TIMEOUT_MS = 2_000  # a console command says "busy" after this; ms


def default_db_path() -> str:
    """The database: ``UMPIRE_DB`` (a file, or a ``postgresql://`` URL), or ``./umpire.db``."""
    return os.environ.get("UMPIRE_DB") or DEFAULT_DB


class StoreLike(Protocol):
    """What the service needs of a store (issue 16): :class:`Store` on an SQLite file,
    :class:`bot.store_pg.PgStore` on a PostgreSQL server. ``write()`` and ``read()``
    yield a :class:`Tx` (all its queries); one command is one transaction."""

    path: str

    def write(self) -> AbstractAsyncContextManager[Tx]: ...

    def read(self) -> AbstractAsyncContextManager[Tx]: ...

    async def game_and_seats(self, game_id: str) -> tuple[GameRow, list[SeatRow]] | None: ...

    async def schema_version(self) -> int: ...

    async def close(self) -> None: ...


async def open_store(target: str | None = None, **options: Any) -> StoreLike:
    """The store ``target`` names (default ``UMPIRE_DB``): a ``postgresql://`` URL opens
    PostgreSQL, anything else an SQLite file. ``options`` go to the SQLite store
    (``synchronous``, ``busy_timeout_ms``); PostgreSQL ignores them."""
    target = target or default_db_path()
    if target.split("://", 1)[0] in ("postgresql", "postgres"):
        from bot.store_pg import PgStore

        return await PgStore.open(target)
    return await Store.open(target, **options)


class StoreError(Exception):
    """The database cannot be used (too new, unreadable); the message is for a person."""


def _dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), sort_keys=True)


# -- rows ------------------------------------------------------------------------------


@dataclass
class GameRow:
    id: str
    ruleset: str
    scenario: str
    options: dict[str, Any]
    commitment: str
    secret: bytes
    created_by: str
    created_at: float
    status: str = "open"
    datapack_version: str | None = None
    channel: str | None = None
    revealed_at: float | None = None
    setup_rolls: list[dict[str, Any]] = field(default_factory=list)
    head: int = 0
    entries: int = 0
    version: int = 0
    result: dict[str, Any] | None = None
    ended_at: float | None = None
    deadline_policy: dict[str, Any] | None = None
    dice_scheme: str = "plain"  # ARCHITECTURE: Dice; games created now use "chain-v1"
    #: the Discord server the game is played in (issue 15; None: not known, or not Discord)
    guild: str | None = None


@dataclass
class SeatRow:
    game: str
    role: str
    user: str | None = None
    timezone: str | None = None
    standing_orders: dict[str, Any] = field(default_factory=dict)


@dataclass
class ActionRow:
    """One log entry. ``seq`` is the action number in play; ``entry`` its place in the log."""

    game: str
    entry: int
    seq: int
    role: str
    user: str
    order: dict[str, Any]
    rolls: list[dict[str, Any]]
    events: list[dict[str, Any]]
    turn: int
    phase: str
    created_at: float
    undone_by: int | None = None
    chain: str | None = None  # h_seq of the dice chain (hex); None under the plain scheme


@dataclass
class SnapshotRow:
    game: str
    entry: int
    seq: int
    turn: int
    player: str
    phase: str
    state: dict[str, Any]


@dataclass
class AuditRow:
    id: int
    game: str
    user: str
    act: str
    detail: dict[str, Any]
    why: str
    created_at: float


@dataclass
class DeadlineRow:
    id: int
    game: str
    role: str | None
    due_at: float
    turn: int
    player: str
    phase: str
    set_by: str
    created_at: float
    fired_at: float | None = None
    cleared_at: float | None = None
    cleared_by: str | None = None
    #: the scheduler holding it and until when (migration 0007; bot/deadlines.py)
    claimed_by: str | None = None
    claimed_until: float | None = None


@dataclass
class NotificationRow:
    id: int
    game: str
    role: str | None
    user: str | None
    kind: str
    text: str
    due_at: float
    deadline: int | None
    created_at: float
    sent_at: float | None = None
    cancelled_at: float | None = None
    #: the scheduler holding it and until when (migration 0007; bot/deadlines.py)
    claimed_by: str | None = None
    claimed_until: float | None = None


@dataclass
class UserSettingsRow:
    """A Discord member's own settings (issue 15): "your move" direct messages (opt-in)
    and the time zone deadlines are written in when the bot writes to them alone."""

    user: str
    dms: bool = False
    timezone: str | None = None
    #: the channel has been told once that this member's direct messages are closed
    dm_closed_told: bool = False
    updated_at: float = 0.0


@dataclass
class GuildSettingsRow:
    """A Discord server's settings (``/gm config``); None: the bot's default."""

    guild: str
    moderator_role: str | None = None
    deadline_hours: float | None = None
    reply_hours: float | None = None
    reminders: list[float] | None = None
    map_width: int | None = None
    updated_by: str = ""
    updated_at: float = 0.0


_GAME_JSON = {"options", "setup_rolls", "result", "deadline_policy"}
_GAME_UPDATABLE = {
    "deadline_policy",
    "status",
    "channel",
    "revealed_at",
    "head",
    "entries",
    "version",
    "result",
    "ended_at",
    "datapack_version",
    "guild",
}


def _game_changes(changes: dict[str, Any]) -> tuple[str, list[Any]]:
    unknown = set(changes) - _GAME_UPDATABLE
    if unknown:
        raise ValueError(f"games columns that may not change: {sorted(unknown)}")
    cols = ", ".join(f"{k} = ?" for k in changes)
    values = [_dumps(v) if k in _GAME_JSON and v is not None else v for k, v in changes.items()]
    return cols, values


def _json(text: Any, what: str) -> Any:
    """A JSON column read back; a :class:`_BadRow` if it is not JSON any more."""
    if not isinstance(text, str):
        raise _BadRow(f"{what} holds {type(text).__name__} where JSON text belongs")
    try:
        return json.loads(text)
    except ValueError:
        raise _BadRow(f"{what} holds text that is not JSON") from None


#: the type each column of a row must have when read back: a flipped byte can turn a
#: number into text, and the service must not meet that as a crash later
_KINDS: dict[str, tuple[type, ...]] = {
    "ruleset": (str,), "scenario": (str,), "commitment": (str,),
    "secret": (bytes,), "created_by": (str,), "created_at": (int, float), "status": (str,),
    "head": (int,), "entries": (int,), "version": (int,), "dice_scheme": (str,),
    "game": (str,), "entry": (int,), "seq": (int,), "role": (str,), "user": (str,),
    "turn": (int,), "phase": (str,), "player": (str,),
}  # fmt: skip
_JSON_KINDS = {
    "options": dict, "setup_rolls": list, "order": dict, "rolls": list, "events": list,
    "state": dict, "standing_orders": dict, "detail": dict,
}  # fmt: skip


def _row(cls: type, d: dict[str, Any], what: str, json_keys: Iterable[str] = ()) -> Any:
    """``cls(**d)`` after decoding ``json_keys`` and checking the types of known columns."""
    for key in json_keys:
        if d.get(key) is not None:
            d[key] = _json(d[key], f"{what}.{key}")
    for key, value in d.items():
        kinds = _KINDS.get(key)
        if (
            kinds
            and value is not None
            and (not isinstance(value, kinds) or isinstance(value, bool))
        ):
            raise _BadRow(f"{what}.{key} holds {type(value).__name__} {value!r:.40}")
        kind = _JSON_KINDS.get(key)
        if kind and value is not None and not isinstance(value, kind):
            raise _BadRow(f"{what}.{key} holds JSON of the wrong shape")
    try:
        return cls(**d)
    except TypeError as exc:
        raise _BadRow(f"{what} has other columns than expected ({exc})") from None


def _game(row: sqlite3.Row | dict[str, Any]) -> GameRow:
    g: GameRow = _row(GameRow, dict(row), "games", _GAME_JSON)
    if not isinstance(g.id, str):
        raise _BadRow(f"a game has the id {g.id!r:.40}")
    if g.status not in ("open", "active", "paused", "finished"):
        raise _BadRow(f"game {g.id!r} has the status {g.status!r:.20}")
    if g.dice_scheme not in ("plain", "chain-v1"):
        raise _BadRow(f"game {g.id!r} has the dice scheme {g.dice_scheme!r:.20}")
    _check_rolls(g.setup_rolls, f"the set-up of game {g.id!r}")
    return g


#: the fields of a log entry its body holds (migration 0008), in order
_BODY_FIELDS = ("order", "rolls", "events", "role", "user", "phase")


def _action(row: sqlite3.Row) -> ActionRow:
    """A log entry read back, in either form (migration 0008): its order, rolls, events,
    role, user and phase in the compressed ``body``, or (rows written before) in columns
    of their own, JSON text for the first three; its chain as 32 bytes or as hex."""
    d = dict(row)
    body = d.pop("body", None)
    chain = d.get("chain")
    if isinstance(chain, (bytes, memoryview)):
        # no bytes at all: the chain follows from the entry before (``_derive_chains``)
        d["chain"] = bytes(chain).hex() if len(chain) else _DERIVED
    json_keys: tuple[str, ...] = ("order", "rolls", "events")
    if body is not None:
        if not isinstance(body, (bytes, memoryview)):
            raise _BadRow(f"actions.body holds {type(body).__name__}")
        try:
            fields = logdicts.unpack(bytes(body), len(_BODY_FIELDS))
            d.update(zip(_BODY_FIELDS, fields, strict=True))
        except logdicts.BadBody as exc:
            raise _BadRow(f"actions.body holds {exc}") from None
        json_keys = ()
    elif any(d.get(name) is None for name in _BODY_FIELDS):
        raise _BadRow("an action has neither a body nor its order, rolls and events")
    return _checked_action(d, json_keys)


def _checked_action(d: dict[str, Any], json_keys: Iterable[str] = ()) -> ActionRow:
    """``ActionRow(**d)`` once its columns, rolls and events are checked."""
    a: ActionRow = _row(ActionRow, d, "actions", json_keys)
    where = f"action {a.seq} of game {a.game!r}"
    _check_rolls(a.rolls, where)
    for event in a.events:
        if not (
            isinstance(event, dict)
            and isinstance(event.get("kind"), str)
            and isinstance(event.get("text"), str)
            and isinstance(event.get("data", {}), dict)
            and isinstance(event.get("seen_by") or [], list)
            and isinstance(event.get("others") or "", str)
        ):
            raise _BadRow(f"{where} has an event that is not one")
    return a


_HEX_CHAIN = re.compile(r"^[0-9a-f]{64}$")

#: the dice chain ``h_seq`` of a log entry is written out only for every entry whose
#: action number is a multiple of this (and for any entry whose chain does not follow
#: from the entry before it); the others store no bytes and read it back derived. Part
#: of the stored format (a reader starts deriving at such a multiple): never change it
CHAIN_EVERY = 4
#: what ``_action`` puts in ``chain`` for such a row, until ``_derive_chains`` fills it
_DERIVED = "<derived>"


def _chain_bytes(chain: str | None) -> bytes | str | None:
    """A dice chain as stored (migration 0008): the 32 bytes of a hex ``h_seq``; anything
    else as the text it is."""
    if chain is not None and _HEX_CHAIN.match(chain):
        return bytes.fromhex(chain)
    return chain


#: a finished game's log is sealed (``Tx.seal_log``, migration 0010) in runs of up to
#: this many consecutive entries, one ``action_chunks`` row a run. Each row names its
#: first and last entry, so a reader does not depend on this number
SEAL_EVERY = 16
#: the fields of one entry in a sealed chunk's body, in order
_SEALED_FIELDS = ("entry", "seq", "turn", "created_at", "undone_by", "chain", *_BODY_FIELDS)


def seal_chunks(entries: list[ActionRow], ruleset: str | None) -> list[tuple[int, int, bytes]]:
    """``(first entry, last entry, body)`` of each chunk holding ``entries`` (one game's,
    in order, chains as ``_action`` reads them): runs of up to :data:`SEAL_EVERY`
    consecutive entries, each run's body the JSON list of its entries (the fields of
    :data:`_SEALED_FIELDS`; a derived chain as ``""``) compressed by ``logdicts.pack``."""
    runs: list[list[ActionRow]] = []
    for a in entries:
        if runs and len(runs[-1]) < SEAL_EVERY and runs[-1][-1].entry + 1 == a.entry:
            runs[-1].append(a)
        else:
            runs.append([a])
    chunks = []
    for run in runs:
        items = [
            [
                *(getattr(a, name) for name in _SEALED_FIELDS[:5]),
                "" if a.chain is _DERIVED else a.chain,
                *(getattr(a, name) for name in _BODY_FIELDS),
            ]
            for a in run
        ]
        chunks.append((run[0].entry, run[-1].entry, logdicts.pack(items, ruleset)))
    return chunks


def unseal_chunks(game_id: str, chunks: Iterable[tuple[Any, Any, Any]]) -> list[ActionRow]:
    """The entries of a sealed log, from its chunks ``(first entry, last entry, body)`` in
    order; a derived chain reads as ``_DERIVED`` (``Tx._derive_chains`` fills it in)."""
    return [_checked_action({"game": game_id, **d}) for d in _sealed_items(game_id, chunks)]


def _sealed_items(game_id: str, chunks: Iterable[tuple[Any, Any, Any]]) -> list[dict[str, Any]]:
    """The fields of every entry of a sealed log, in order, their numbers, chain and
    ``undone_by`` checked (``_checked_action`` checks the rest of those it returns)."""
    found: list[dict[str, Any]] = []
    for first, last, body in chunks:
        if not (type(first) is int and type(last) is int and 1 <= first <= last):
            raise _BadRow(f"a chunk of the log of game {game_id!r} names no run of entries")
        if not isinstance(body, (bytes, memoryview)):
            raise _BadRow(f"action_chunks.body holds {type(body).__name__}")
        try:
            items = logdicts.unpack(bytes(body), last - first + 1)
        except logdicts.BadBody as exc:
            raise _BadRow(f"action_chunks.body holds {exc}") from None
        for entry, item in enumerate(items, start=first):
            if not (isinstance(item, list) and len(item) == len(_SEALED_FIELDS)):
                raise _BadRow(f"a chunk of the log of game {game_id!r} holds no entry {entry}")
            d = dict(zip(_SEALED_FIELDS, item, strict=True))
            if d["entry"] != entry or (found and found[-1]["entry"] >= entry):
                raise _BadRow(f"the chunks of the log of game {game_id!r} are out of order")
            if not (type(d["seq"]) is int and type(d["turn"]) is int):
                raise _BadRow(f"entry {entry} of the log of game {game_id!r} is damaged")
            if d["chain"] == "":
                d["chain"] = _DERIVED
            elif d["chain"] is not None and not isinstance(d["chain"], str):
                raise _BadRow(f"action {d['seq']} of game {game_id!r} has a damaged dice chain")
            if d["undone_by"] is not None and type(d["undone_by"]) is not int:
                raise _BadRow(f"action {d['seq']} of game {game_id!r} is undone by no audit entry")
            found.append(d)
    return found


#: ``Tx._sealed_turns`` of the last few sealed logs read, by a digest of their bytes
_SEALED_TURNS: dict[bytes, list[tuple[int, int]]] = {}


def _check_rolls(rolls: list[Any], where: str) -> None:
    for roll in rolls:
        if not (
            isinstance(roll, dict)
            and type(roll.get("sides")) is int
            and type(roll.get("value")) is int
            and isinstance(roll.get("purpose", ""), str)
        ):
            raise _BadRow(f"{where} has a roll that is not one")


def _seat(row: sqlite3.Row) -> SeatRow:
    return _row(SeatRow, dict(row), "seats", ("standing_orders",))


def _seat_row(d: Any) -> SeatRow:
    if not isinstance(d, dict):
        raise _BadRow("seats hold something that is not a seat")
    return _row(SeatRow, d, "seats")


# -- compact snapshots (issue 16, item 4) -----------------------------------------------
#
# A snapshot's state is stored as zlib-compressed JSON (a BLOB; ``bytea`` in PostgreSQL):
# either the whole state, ``{"s": state}`` (a key frame), or what changed since the
# game's previous snapshot, ``{"k": entry of the key frame, "n": place after it, "d":
# difference}``. Reading one reads the rows from its key frame on (at most
# ``KEYFRAME_EVERY``) in one query. A key frame is written every ``KEYFRAME_EVERY``
# snapshots, or when a difference would not be much smaller than the whole. Rows written
# as JSON text before this are key frames, read as they are. While a game is played its
# snapshots are never deleted or changed (a rollback only marks actions undone), so a
# chain stays whole; when it ends, ``Tx.prune_snapshots`` keeps a few and writes them
# again as one whole chain, in the same transaction.

#: the longest run of differences after a key frame
KEYFRAME_EVERY = 16
#: a difference longer than this share of a key frame makes a new key frame
KEYFRAME_SHARE = 1 / 2
#: a finished game keeps a snapshot about every this many actions (``prune_snapshots``),
#: so that a past turn's map is at most this many actions of replay away
FINISHED_SNAPSHOT_EVERY = 250


def snapshot_diff(old: Any, new: Any) -> Any:
    """What turns ``old`` into ``new``: ``{"d": {key: change}}`` for two dicts (a change
    is a difference again, ``[value]`` for a new value, ``[]`` for a key gone); else
    ``[new]``."""
    if not (isinstance(old, dict) and isinstance(new, dict)):
        return [new]
    changes: dict[str, Any] = {}
    for key, value in new.items():
        if key not in old:
            changes[key] = [value]
        elif old[key] != value:
            changes[key] = snapshot_diff(old[key], value)
    for key in old.keys() - new.keys():
        changes[key] = []
    return {"d": changes}


def snapshot_patch(old: Any, diff: Any) -> Any:
    """``old`` changed by ``diff`` (from :func:`snapshot_diff`); ``old`` is left alone."""
    if isinstance(diff, list):
        if len(diff) != 1:
            raise _BadRow("a snapshot difference replaces a value with nothing")
        return diff[0]
    if not (isinstance(diff, dict) and isinstance(diff.get("d"), dict) and isinstance(old, dict)):
        raise _BadRow("a snapshot difference is not one")
    out = dict(old)
    for key, change in diff["d"].items():
        if change == []:
            out.pop(key, None)
        else:
            out[key] = snapshot_patch(out.get(key), change)
    return out


def _pack(value: Any) -> bytes:
    return zlib.compress(_dumps(value).encode("utf-8"), 6)


def snapshot_unpack(stored: Any) -> dict[str, Any]:
    """A stored snapshot state as ``{"s": state}`` or ``{"k": entry, "n": n, "d": diff}``."""
    if isinstance(stored, memoryview):
        stored = bytes(stored)
    if isinstance(stored, str):  # written before compression: a key frame in JSON text
        return {"s": _json(stored, "snapshots.state")}
    if not isinstance(stored, bytes):
        raise _BadRow(f"snapshots.state holds {type(stored).__name__}")
    try:
        value = json.loads(zlib.decompress(stored))
    except (zlib.error, ValueError):
        raise _BadRow("snapshots.state holds bytes that are not a compressed state") from None
    if isinstance(value, dict) and isinstance(value.get("s"), dict):
        return value
    if (
        isinstance(value, dict)
        and type(value.get("k")) is int
        and type(value.get("n")) is int
        and "d" in value
    ):
        return value
    raise _BadRow("snapshots.state holds JSON of the wrong shape")


def snapshot_pack(
    state: dict[str, Any], previous: tuple[int, int, dict[str, Any]] | None
) -> bytes:
    """The bytes to store for ``state``. ``previous`` is the game's previous snapshot as
    (entry of its key frame, its place after the key frame, its state); None: a key frame."""
    return _snapshot_bytes(state, previous)[0]


def _snapshot_bytes(
    state: dict[str, Any], previous: tuple[int, int, dict[str, Any]] | None
) -> tuple[bytes, bytes]:
    """(what :func:`snapshot_pack` gives, ``state`` packed as a key frame): the same object
    twice when the key frame is what is stored."""
    whole = _pack({"s": state})
    if previous is None or previous[1] + 1 >= KEYFRAME_EVERY:
        return whole, whole
    key, n, old = previous
    delta = _pack({"k": key, "n": n + 1, "d": snapshot_diff(old, state)})
    return (delta if len(delta) <= len(whole) * KEYFRAME_SHARE else whole), whole


class SnapshotTip(NamedTuple):
    """A game's latest snapshot as the next one is packed against it (issue 16: the
    service keeps it with the game in memory, saving the reads of ``Tx._pack``)."""

    #: the log entry it was taken at
    entry: int
    #: the entry of its key frame, and its place after it (0: it is one)
    key: int
    n: int
    #: its state, packed as a key frame (compressed: a few KB)
    whole: bytes


def snapshot_rebuild(game_id: str, rows: list[tuple[int, Any]]) -> tuple[int, int, dict[str, Any]]:
    """The state of the last of ``rows`` (``(entry, stored)`` from its key frame on, in
    order), with its key frame's entry and its place after it."""
    if not rows:
        raise _BadRow(f"a snapshot of game {game_id!r} has lost its key frame")
    first = snapshot_unpack(rows[0][1])
    if "s" not in first:
        raise _BadRow(f"a snapshot of game {game_id!r} has lost its key frame")
    key, state = rows[0][0], first["s"]
    for n, (_, stored) in enumerate(rows[1:], start=1):
        step = snapshot_unpack(stored)
        if step.get("k") != key or step.get("n") != n:
            raise _BadRow(f"the snapshots of game {game_id!r} do not follow each other")
        state = snapshot_patch(state, step["d"])
    return key, len(rows) - 1, state


# -- migrations ------------------------------------------------------------------------

_MIGRATION_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


def migrations() -> list[tuple[int, str, str]]:
    """``(number, file name, sql)`` of every migration shipped, in order."""
    found = []
    for item in resources.files("migrations").iterdir():
        match = _MIGRATION_NAME.match(item.name)
        if match:
            found.append((int(match.group(1)), item.name, item.read_text(encoding="utf-8")))
    found.sort()
    numbers = [n for n, _, _ in found]
    if numbers != list(range(1, len(found) + 1)):
        raise StoreError(f"the migrations are not numbered 1, 2, 3...: {numbers}")
    return found


#: ``PRAGMA application_id`` of an Umpire database ("UMPI"), set by migration 0003
APPLICATION_ID = 0x554D5049


def _expected_columns() -> dict[str, set[str]]:
    """Every table of the shipped schema and its columns (from a scratch database)."""
    global _EXPECTED
    if _EXPECTED is None:
        db = sqlite3.connect(":memory:")
        try:
            for _, _, sql in migrations():
                db.executescript(sql)
            tables = [
                r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            ]
            _EXPECTED = {t: {r[1] for r in db.execute(f'PRAGMA table_info("{t}")')} for t in tables}
        finally:
            db.close()
    return _EXPECTED


_EXPECTED: dict[str, set[str]] | None = None


class _BadRow(Exception):
    """A row whose stored data cannot be read back: the database is damaged."""


#: what reading a damaged database raises: SQLite's errors, a row that is not what was
#: written, text that is no longer UTF-8
_UNREADABLE = (sqlite3.Error, _BadRow, UnicodeDecodeError)


def _explain(path: str, exc: BaseException) -> StoreError:
    """One sentence for a person about an SQLite failure on the database at ``path``."""
    text = str(exc)
    low = text.lower()
    if isinstance(exc, _BadRow):
        return StoreError(
            f"the database {path} is damaged ({text}), so Umpire cannot use it; nothing was "
            "changed: restore it from a backup"
        )
    if "locked" in low or "busy" in low:
        return StoreError(
            f"the database {path} is busy (locked by another process); nothing was changed: "
            "try again in a moment"
        )
    if "readonly" in low or "read-only" in low:
        return StoreError(
            f"the database {path} is read-only, so nothing was changed (commands that only "
            "read still work)"
        )
    if "not a database" in low or "file is encrypted" in low:
        return StoreError(f"{path} is not an SQLite database, so Umpire cannot use it")
    if "no such column" in low or "no such table" in low or "has no column" in low:
        return StoreError(
            f"the database {path} is not in the shape this Umpire expects ({text}): it was "
            "damaged or changed by another program"
        )
    if "unable to open" in low or "disk i/o" in low or "cannot open" in low:
        return StoreError(f"the database {path} cannot be opened or written ({text})")
    if "full" in low:
        return StoreError(f"the disk holding {path} is full; nothing was changed")
    return StoreError(
        f"the database {path} is damaged ({text}), so Umpire cannot use it; nothing was "
        "changed: restore it from a backup"
    )


# -- the store -------------------------------------------------------------------------


class Store:
    """One SQLite database. Open with ``await Store.open(path)``; close when done.

    Every SQLite failure reaches the caller as a :class:`StoreError` whose message says
    what is wrong with the file (damaged, busy, read-only, another program's) in words.
    A database that does not exist yet is created only by the first write: a command
    that only reads sees an empty database and leaves nothing behind at a mistyped path.
    """

    def __init__(
        self,
        db: aiosqlite.Connection,
        path: str,
        *,
        synchronous: str = "FULL",
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
        absent: bool = False,
    ) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        self._synchronous = synchronous
        self._busy_timeout_ms = busy_timeout_ms
        #: the file does not exist yet: ``_db`` is an empty scratch database until a write
        self._absent = absent

    @classmethod
    async def open(
        cls,
        path: str | None = None,
        *,
        synchronous: str = "FULL",
        busy_timeout_ms: int = BUSY_TIMEOUT_MS,
    ) -> Store:
        """Open and migrate the database at ``path`` (created by the first write).

        ``synchronous`` is SQLite's durability setting: ``FULL`` syncs every commit to
        disk, ``NORMAL`` only at checkpoints (safe against a crashed process, not against
        a power cut). ``busy_timeout_ms`` is how long a command waits for another
        process's write to finish before it says the database is busy.
        """
        path = path or default_db_path()
        if path.split("://", 1)[0] in ("postgresql", "postgres"):
            from bot.store_pg import safe_url

            raise StoreError(
                f"{safe_url(path)} names a PostgreSQL database, which this part of Umpire "
                "cannot use yet: it needs an SQLite file"
            )
        if synchronous not in ("FULL", "NORMAL"):
            raise ValueError("synchronous is FULL or NORMAL")
        absent = path != ":memory:" and not os.path.lexists(path)
        if absent:
            db = await cls._connect(":memory:", busy_timeout_ms)
        else:
            if os.path.isdir(path):
                raise StoreError(f"{path} is a folder, not a database file")
            db = await cls._connect(path, busy_timeout_ms)
        store = cls(
            db, path, synchronous=synchronous, busy_timeout_ms=busy_timeout_ms, absent=absent
        )
        try:
            await store._prepare(wal=not absent)
        except BaseException:
            await db.close()
            raise
        return store

    @staticmethod
    async def _connect(path: str, busy_timeout_ms: int) -> aiosqlite.Connection:
        try:
            db = await aiosqlite.connect(path, isolation_level=None)
        except sqlite3.Error as exc:
            raise _explain(path, exc) from None
        db.row_factory = sqlite3.Row
        try:
            await db.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        except sqlite3.Error as exc:
            await db.close()
            raise _explain(path, exc) from None
        return db

    async def _prepare(self, *, wal: bool) -> None:
        """Refuse another program's database untouched; then WAL, migrations, a check
        that every table and column is there."""
        db, path = self._db, self.path
        try:
            objects = (await db.execute_fetchall("SELECT count(*) FROM sqlite_master"))[0][0]
            version = (await db.execute_fetchall("PRAGMA user_version"))[0][0]
            app = (await db.execute_fetchall("PRAGMA application_id"))[0][0]
            games = await db.execute_fetchall(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'games'"
            )
            # Umpire's files carry its application id (since migration 0003) or, older,
            # a schema version with Umpire's games table; an empty file becomes Umpire's.
            if (
                app not in (0, APPLICATION_ID)
                or (version == 0 and objects > 0)
                or (app == 0 and 0 < version <= len(migrations()) and not games)
            ):
                raise StoreError(
                    f"{path} is a database written by another program, not by Umpire; Umpire "
                    "left it untouched (name another file with --db or UMPIRE_DB)"
                )
            # before anything changes the file (the WAL switch rewrites its header)
            await self._backup_before_migrating(version)
            if wal:
                mode = await db.execute_fetchall("PRAGMA journal_mode = WAL")
                if mode[0][0].lower() != "wal":
                    raise StoreError(f"the database {path} cannot use write-ahead logging")
            await db.execute(f"PRAGMA synchronous = {self._synchronous}")
            await db.execute("PRAGMA foreign_keys = ON")
            await self._migrate()
            await self._check_shape()
        except _UNREADABLE as exc:
            raise _explain(path, exc) from None

    async def _backup_before_migrating(self, version: int) -> None:
        """A database that holds Umpire data and is about to be migrated is first copied to
        ``<db>.before-v<N>.bak`` (issue 15; :func:`bot.backup.copy_before_migration`).
        No copy, no migration: the database is then left as it was."""
        target = len(migrations())
        if self._absent or self.path == ":memory:" or not 0 < version < target:
            return
        from bot.backup import BackupError, copy_before_migration

        # what a crashed process left in the write-ahead log goes into the file first
        await self._db.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
        await self._db.execute("BEGIN IMMEDIATE")  # nobody writes while the copy is taken
        try:
            made = await asyncio.to_thread(copy_before_migration, self.path, target)
        except (OSError, sqlite3.Error, BackupError) as exc:
            reason = getattr(exc, "strerror", None) or exc
            raise StoreError(
                f"Umpire did not upgrade {self.path} to schema version {target}: the backup "
                f"it takes first could not be written ({reason}); the database is unchanged"
            ) from None
        finally:
            await self._db.execute("ROLLBACK")
        logging.getLogger("umpire.store").info(
            "upgrading %s from schema version %d to %d; the old database is in %s",
            self.path, version, target, made,
        )

    async def _check_shape(self) -> None:
        rows = await self._db.execute_fetchall(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
        )
        have = {r[0] for r in rows}
        for table, columns in _expected_columns().items():
            if table not in have:
                raise StoreError(
                    f"the database {self.path} has no table {table}: it was damaged or changed "
                    "by another program, so Umpire will not use it"
                )
            info = await self._db.execute_fetchall(f'PRAGMA table_info("{table}")')
            missing = sorted(columns - {r[1] for r in info})
            if missing:
                raise StoreError(
                    f"the database {self.path} has no column {table}.{missing[0]}: it was "
                    "damaged or changed by another program, so Umpire will not use it"
                )

    async def close(self) -> None:
        await self._db.close()

    async def _migrate(self) -> None:
        shipped = migrations()
        current = (await self._db.execute_fetchall("PRAGMA user_version"))[0][0]
        if current > len(shipped):
            raise StoreError(
                f"the database {self.path} is at schema version {current}, newer than this "
                f"Umpire knows ({len(shipped)}); upgrade Umpire to use it"
            )
        for number, name, sql in shipped[current:]:
            try:
                await self._db.executescript(
                    f"BEGIN IMMEDIATE;\n{sql}\n;PRAGMA user_version = {number};\nCOMMIT;"
                )
            except sqlite3.Error as exc:
                if self._db.in_transaction:
                    await self._db.execute("ROLLBACK")
                problem = _explain(self.path, exc)
                if "damaged" in str(problem):
                    problem = StoreError(f"migration {name} failed on {self.path}: {exc}")
                raise problem from None

    async def _materialise(self) -> None:
        """Use the file from now on: at the first write to a database that did not exist
        (which creates it), or once someone else has created it."""
        db = await self._connect(self.path, self._busy_timeout_ms)
        old, self._db = self._db, db
        try:
            await self._prepare(wal=True)
        except BaseException:
            self._db = old
            await db.close()
            raise
        self._absent = False
        await old.close()

    async def schema_version(self) -> int:
        async with self._lock:
            await self._look_again()
            try:
                return (await self._db.execute_fetchall("PRAGMA user_version"))[0][0]
            except sqlite3.Error as exc:
                raise _explain(self.path, exc) from None

    async def warm_connections(self) -> int:
        """Connections open for commands once warmed (:meth:`bot.service.Service.warm`):
        SQLite has its one, open since :meth:`open`."""
        return 1

    async def game_and_seats(self, game_id: str) -> tuple[GameRow, list[SeatRow]] | None:
        """A game and its seats in one statement: consistent without a transaction of its
        own, and one round trip to the database thread (the start of every command)."""
        async with self._lock:
            await self._look_again()
            try:
                rows = await self._db.execute_fetchall(
                    "SELECT g.*, (SELECT json_group_array(json_object("
                    " 'game', s.game, 'role', s.role, 'user', s.user, 'timezone', s.timezone,"
                    " 'standing_orders', json(s.standing_orders)))"
                    " FROM (SELECT * FROM seats WHERE game = g.id ORDER BY rowid) s)"
                    " AS seats_json FROM games g WHERE g.id = ?",
                    (game_id,),
                )
                if not rows:
                    return None
                d = dict(rows[0])
                seats = [_seat_row(seat) for seat in _json(d.pop("seats_json"), "seats")]
                return _game(d), seats
            except _UNREADABLE as exc:
                raise _explain(self.path, exc) from None

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        """One write transaction: committed on leaving, rolled back on an exception."""
        async with self._lock:
            if self._absent:
                await self._materialise()
            async with self._transaction("BEGIN IMMEDIATE") as tx:
                yield tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A consistent read of several tables (writes are refused by nobody; do not)."""
        async with self._lock:
            await self._look_again()
            async with self._transaction("BEGIN") as tx:
                yield tx

    async def _look_again(self) -> None:
        """A store opened before its file existed reads the file once another process
        (or another store) has created it."""
        if self._absent and os.path.exists(self.path):
            await self._materialise()

    @asynccontextmanager
    async def _transaction(self, begin: str) -> AsyncIterator[Tx]:
        """A transaction; an SQLite failure or an unreadable row becomes a StoreError."""
        try:
            await self._db.execute(begin)
        except sqlite3.Error as exc:
            raise _explain(self.path, exc) from None
        try:
            yield Tx(self._db)
        except sqlite3.IntegrityError:
            # a broken rule of the schema (append-only log, one live action per number):
            # the caller's mistake, not the file's, so it stays what it is
            await self._rollback()
            raise
        except _UNREADABLE as exc:
            await self._rollback()
            raise _explain(self.path, exc) from None
        except BaseException:
            await self._rollback()
            raise
        try:
            await self._db.execute("COMMIT")
        except sqlite3.Error as exc:
            await self._rollback()
            raise _explain(self.path, exc) from None

    async def _rollback(self) -> None:
        try:
            if self._db.in_transaction:
                await self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass  # SQLite rolls back by itself when it cannot: the first failure is the news


class Tx:
    """The queries, valid inside one transaction of a :class:`Store`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def _all(self, sql: str, params: Iterable[Any] = ()) -> list[sqlite3.Row]:
        return list(await self._db.execute_fetchall(sql, tuple(params)))

    async def _one(self, sql: str, params: Iterable[Any] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    async def _run(self, sql: str, params: Iterable[Any] = ()) -> None:
        await self._db.execute(sql, tuple(params))

    async def _insert(self, sql: str, params: Iterable[Any] = ()) -> int:
        row = await self._db.execute_insert(sql, tuple(params))
        assert row is not None
        return int(row[0])

    # -- games ---------------------------------------------------------------------

    async def game(self, game_id: str) -> GameRow | None:
        row = await self._one("SELECT * FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def list_games(
        self, *, user: str | None = None, channel: str | None = None, status: str | None = None
    ) -> list[GameRow]:
        sql = "SELECT * FROM games WHERE 1"
        params: list[Any] = []
        if user is not None:
            sql += " AND (created_by = ? OR id IN (SELECT game FROM seats WHERE user = ?))"
            params += [user, user]
        if channel is not None:
            sql += " AND channel = ?"
            params.append(channel)
        if status is not None:
            sql += " AND status = ?"
            params.append(status)
        return [_game(r) for r in await self._all(sql + " ORDER BY created_at, id", params)]

    async def active_games_by_activity(self) -> list[tuple[str, str | None]]:
        """Every active game as ``(id, guild)``, the one whose latest log entry is the most
        recent first (a game without one yet by when it was created): the games most
        likely to get the next orders (:meth:`bot.service.Service.warm`, issue 16)."""
        rows = await self._all(
            "SELECT g.id, g.guild FROM games g WHERE g.status = 'active' ORDER BY COALESCE("
            "(SELECT a.created_at FROM actions a WHERE a.game = g.id AND a.entry = g.entries),"
            " g.created_at) DESC, g.id"
        )
        return [(r[0], r[1]) for r in rows]

    async def insert_game(self, g: GameRow) -> None:
        await self._run(
            "INSERT INTO games (id, ruleset, scenario, options, datapack_version, channel,"
            " status, commitment, secret, revealed_at, setup_rolls, head, entries, version,"
            " result, created_by, created_at, ended_at, dice_scheme, guild)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                g.id,
                g.ruleset,
                g.scenario,
                _dumps(g.options),
                g.datapack_version,
                g.channel,
                g.status,
                g.commitment,
                g.secret,
                g.revealed_at,
                _dumps(g.setup_rolls),
                g.head,
                g.entries,
                g.version,
                None if g.result is None else _dumps(g.result),
                g.created_by,
                g.created_at,
                g.ended_at,
                g.dice_scheme,
                g.guild,
            ),
        )

    async def update_game(self, game_id: str, **changes: Any) -> None:
        cols, values = _game_changes(changes)
        await self._run(f"UPDATE games SET {cols} WHERE id = ?", [*values, game_id])

    async def update_game_at_version(self, game_id: str, expected: int, **changes: Any) -> bool:
        """Apply ``changes`` only if the game's version is still ``expected``; whether it was.

        This is the optimistic-concurrency check: a writer that loaded the game at a
        version learns here, inside its transaction, whether anyone changed it since.
        """
        cols, values = _game_changes(changes) if changes else ("version = version", [])
        cursor = await self._db.execute(
            f"UPDATE games SET {cols} WHERE id = ? AND version = ?", (*values, game_id, expected)
        )
        return cursor.rowcount == 1

    async def fill_guild(self, channel: str, guild: str) -> list[str]:
        """Games played in ``channel`` that did not know their server now do (issue 15: games
        made before the column learn it when Discord next sees their channel); their ids."""
        rows = await self._all(
            "UPDATE games SET guild = ? WHERE channel = ? AND guild IS NULL RETURNING id",
            (guild, channel),
        )
        return [r[0] for r in rows]

    async def game_list(
        self, guild: str | None, user: str, *, limit: int, offset: int = 0
    ) -> tuple[int, list[tuple[GameRow, bool]]]:
        """One page of ``/game list`` in SQL (issue 15 item 6): the games of server
        ``guild`` and every game ``user`` created or holds a seat in, oldest first; how many
        there are in all, and each game of the page with whether it is the user's."""
        shown = (
            "SELECT id FROM games WHERE guild = ? UNION SELECT id FROM games WHERE created_by = ?"
            " UNION SELECT game FROM seats WHERE user = ?"
        )
        total = await self._one(f"SELECT count(*) FROM ({shown}) AS shown", (guild, user, user))
        rows = await self._all(
            "SELECT g.*, (g.created_by = ? OR g.id IN (SELECT game FROM seats WHERE user = ?))"
            f" AS mine FROM games g WHERE g.id IN ({shown})"
            " ORDER BY g.created_at, g.id LIMIT ? OFFSET ?",
            (user, user, guild, user, user, limit, offset),
        )
        page = []
        for r in rows:
            d = dict(r)
            mine = bool(d.pop("mine"))
            page.append((_game(d), mine))
        return int(total[0]) if total else 0, page

    # -- settings of Discord users and servers (issue 15) ------------------------------

    async def user_settings(self, user: str) -> UserSettingsRow | None:
        row = await self._one("SELECT * FROM user_settings WHERE user = ?", (user,))
        if row is None:
            return None
        d = dict(row)
        if d["timezone"] is not None and not isinstance(d["timezone"], str):
            raise _BadRow(f"user_settings.timezone holds {type(d['timezone']).__name__}")
        return UserSettingsRow(
            d["user"], bool(d["dms"]), d["timezone"], bool(d["dm_closed_told"]), d["updated_at"]
        )

    async def put_user_settings(self, s: UserSettingsRow) -> None:
        await self._run(
            "INSERT INTO user_settings (user, dms, timezone, dm_closed_told, updated_at)"
            " VALUES (?, ?, ?, ?, ?) ON CONFLICT (user) DO UPDATE SET dms = excluded.dms,"
            " timezone = excluded.timezone, dm_closed_told = excluded.dm_closed_told,"
            " updated_at = excluded.updated_at",
            (s.user, s.dms, s.timezone, s.dm_closed_told, s.updated_at),
        )

    async def guild_settings(self, guild: str) -> GuildSettingsRow | None:
        row = await self._one("SELECT * FROM guild_settings WHERE guild = ?", (guild,))
        if row is None:
            return None
        d = dict(row)
        if d["reminders"] is not None:
            d["reminders"] = _json(d["reminders"], "guild_settings.reminders")
            if not isinstance(d["reminders"], list) or not all(
                isinstance(x, int | float) for x in d["reminders"]
            ):
                raise _BadRow("guild_settings.reminders holds JSON of the wrong shape")
        return _row(GuildSettingsRow, d, "guild_settings")

    async def put_guild_settings(self, s: GuildSettingsRow) -> None:
        await self._run(
            "INSERT INTO guild_settings (guild, moderator_role, deadline_hours, reply_hours,"
            " reminders, map_width, updated_by, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild) DO UPDATE SET moderator_role = excluded.moderator_role,"
            " deadline_hours = excluded.deadline_hours, reply_hours = excluded.reply_hours,"
            " reminders = excluded.reminders, map_width = excluded.map_width,"
            " updated_by = excluded.updated_by, updated_at = excluded.updated_at",
            (
                s.guild,
                s.moderator_role,
                s.deadline_hours,
                s.reply_hours,
                None if s.reminders is None else _dumps(s.reminders),
                s.map_width,
                s.updated_by,
                s.updated_at,
            ),
        )

    # -- seats ---------------------------------------------------------------------

    async def seats(self, game_id: str) -> list[SeatRow]:
        rows = await self._all("SELECT * FROM seats WHERE game = ? ORDER BY rowid", (game_id,))
        return [_seat(r) for r in rows]

    async def insert_seat(self, s: SeatRow) -> None:
        await self._run(
            "INSERT INTO seats (game, role, user, timezone, standing_orders) VALUES (?, ?, ?, ?, ?)",
            (s.game, s.role, s.user, s.timezone, _dumps(s.standing_orders)),
        )

    async def set_seat_user(self, game_id: str, role: str, user: str | None) -> None:
        await self._run(
            "UPDATE seats SET user = ? WHERE game = ? AND role = ?", (user, game_id, role)
        )

    async def set_seat_preferences(
        self,
        game_id: str,
        role: str,
        *,
        timezone: str | None = None,
        standing_orders: dict[str, Any] | None = None,
    ) -> None:
        if timezone is not None:
            await self._run(
                "UPDATE seats SET timezone = ? WHERE game = ? AND role = ?",
                (timezone, game_id, role),
            )
        if standing_orders is not None:
            await self._run(
                "UPDATE seats SET standing_orders = ? WHERE game = ? AND role = ?",
                (_dumps(standing_orders), game_id, role),
            )

    # -- the action log --------------------------------------------------------------

    async def append_action(
        self, a: ActionRow, *, ruleset: str | None = None, previous: str | None = None
    ) -> None:
        """Write a log entry once, compact (migration 0008): its order, rolls, events,
        role, user and phase compressed into ``body`` with its ruleset's dictionary
        (``bot.logdicts``; their own columns stay NULL), its dice chain as 32 bytes, or
        as no bytes at all (migration 0009) when the action's number is not a multiple of
        :data:`CHAIN_EVERY` and the chain is ``chain_next`` of the chain of the entry it
        follows (the latest entry before it numbered one less) and its order, as the
        dice chain always is (ARCHITECTURE: Dice): the reader derives it again.

        A caller that knows them (the service's order path, issue 16) passes the game's
        ``ruleset`` and, for a live entry, the ``previous`` chain (that of live action
        ``a.seq - 1``, which its dice were built on), saving a query for each."""
        if ruleset is None:
            found = await self._one("SELECT ruleset FROM games WHERE id = ?", (a.game,))
            ruleset = found[0] if found else None
        body = logdicts.pack([getattr(a, name) for name in _BODY_FIELDS], ruleset)
        chain = _chain_bytes(a.chain)
        if isinstance(chain, bytes) and a.seq % CHAIN_EVERY:
            if a.seq == 1:
                previous = CHAIN_START
            elif a.undone_by is not None:  # an undone entry being imported
                previous = await self._chain_before(a.game, a.seq, a.entry)
            elif previous is None:  # the live line: the entry before is live action seq - 1
                line = await self._live_rows(a.game, a.seq - 1, a.seq - 1)
                previous = line[0].chain if line and line[0].entry < a.entry else None
            if previous is not None and chain_next(previous, a.order) == a.chain:
                chain = b""
        await self._run(
            "INSERT INTO actions (game, entry, seq, turn, created_at, undone_by, chain, body)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                a.game,
                a.entry,
                a.seq,
                a.turn,
                a.created_at,
                a.undone_by,
                chain,
                body,
            ),
        )

    async def _chain_before(self, game_id: str, seq: int, entry: int) -> str | None:
        """The chain of the entry that log entry ``entry`` (action ``seq``) follows: the
        latest entry before it numbered ``seq - 1``; None if there is none or it has no
        chain."""
        row = await self._one(
            "SELECT * FROM actions WHERE game = ? AND seq = ? AND entry < ?"
            " ORDER BY entry DESC LIMIT 1",
            (game_id, seq - 1, entry),
        )
        if row is None:
            return None
        found = _action(row)
        await self._derive_chains(game_id, [found])
        return found.chain

    async def _live_rows(
        self, game_id: str, low: int, high: int | None = None, *, last: bool = False
    ) -> list[ActionRow]:
        """The live entries numbered ``low`` to ``high`` (None: to the end), in order,
        their chains derived where stored without one, in one query: it starts at the
        multiple of :data:`CHAIN_EVERY` at or below ``low``, whose chain is stored. On the
        live line the entry a live entry follows is the live one numbered one less.
        ``last``: only the last live entry (``low`` is then ignored)."""
        if last:
            rows = [
                _action(r)
                for r in await self._all(
                    "SELECT * FROM actions WHERE game = ? AND undone_by IS NULL"
                    " ORDER BY seq DESC LIMIT ?",
                    (game_id, CHAIN_EVERY),
                )
            ][::-1]
            if not rows:  # a sealed log, or none
                rows = await self._sealed_live(game_id, last=CHAIN_EVERY)
                if not rows:
                    return []
            low = rows[-1].seq
            base = low - low % CHAIN_EVERY
            rows = [r for r in rows if r.seq >= base]
        else:
            base = low - low % CHAIN_EVERY
            sql = "SELECT * FROM actions WHERE game = ? AND undone_by IS NULL AND seq >= ?"
            params: list[Any] = [game_id, base]
            if high is not None:
                sql += " AND seq <= ?"
                params.append(high)
            rows = [_action(r) for r in await self._all(sql + " ORDER BY seq", params)]
            if not rows:  # a sealed log, or none in that range
                rows = await self._sealed_live(game_id, base, high)
        previous: str | None = CHAIN_START if base == 0 else None
        before = base
        for r in rows:
            if r.chain is _DERIVED:
                if previous is None or r.seq != before + 1:
                    raise _BadRow(f"action {r.seq} of game {game_id!r} has lost its dice chain")
                r.chain = chain_next(previous, r.order)
            previous, before = r.chain, r.seq
        return [r for r in rows if r.seq >= low]

    async def _derive_chains(
        self, game_id: str, rows: list[ActionRow], *, whole: bool = False
    ) -> None:
        """Fill in the chains of ``rows`` stored without one (migration 0009). Such an
        entry's chain is ``chain_next`` of the chain of the entry it follows (the latest
        entry before it numbered one less; ``h_0`` for action 1) and its own order; that
        one's is stored or derived in turn, down to a multiple of :data:`CHAIN_EVERY`,
        which is always stored. ``whole``: ``rows`` are every entry of the game in order."""
        need = [r for r in rows if r.chain is _DERIVED]
        if not need:
            return
        if whole:
            chain_rows = rows
        else:
            low = min(r.seq for r in need)
            chain_rows = [
                _action(r)
                for r in await self._all(
                    "SELECT * FROM actions WHERE game = ? AND seq >= ? AND seq <= ?"
                    " AND entry <= ? ORDER BY entry",
                    (
                        game_id,
                        low - low % CHAIN_EVERY,
                        max(r.seq for r in need),
                        max(r.entry for r in need),
                    ),
                )
            ]
        last: dict[int, str | None] = {0: CHAIN_START}
        found: dict[int, str | None] = {}
        for r in chain_rows:
            chain = r.chain
            if chain is _DERIVED:
                previous = last.get(r.seq - 1)
                if previous is None:
                    raise _BadRow(f"action {r.seq} of game {game_id!r} has lost its dice chain")
                chain = chain_next(previous, r.order)
            last[r.seq] = found[r.entry] = chain
        for r in need:
            if r.entry not in found:
                raise _BadRow(f"action {r.seq} of game {game_id!r} has lost its dice chain")
            r.chain = found[r.entry]

    async def live_chain(self, game_id: str, seq: int) -> str | None:
        """The dice chain ``h_seq`` stored with live action ``seq`` (None if it has none)."""
        row = await self._one(
            "SELECT chain FROM actions WHERE game = ? AND seq = ? AND undone_by IS NULL",
            (game_id, seq),
        )
        if row is None:  # a sealed log, or no such action
            found = await self._live_rows(game_id, seq, seq)
            return found[0].chain if found else None
        if row[0] is None:
            return None
        if isinstance(row[0], (bytes, memoryview)) and len(row[0]) == 0:  # derived
            found = await self._live_rows(game_id, seq, seq)
            return found[0].chain if found else None
        return bytes(row[0]).hex() if isinstance(row[0], (bytes, memoryview)) else row[0]

    async def live_actions(
        self, game_id: str, *, after: int = 0, upto: int | None = None
    ) -> list[ActionRow]:
        """Live actions with ``after < seq <= upto``, in order."""
        return await self._live_rows(game_id, max(after, 0) + 1, upto)

    async def log_entries(self, game_id: str) -> list[ActionRow]:
        """Every entry of the log, undone ones included, in the order written."""
        rows = await self._all("SELECT * FROM actions WHERE game = ? ORDER BY entry", (game_id,))
        if not rows:
            sealed = await self._sealed(game_id)
            if sealed:
                await self._derive_chains(game_id, sealed, whole=True)
            return sealed or []
        found = [_action(r) for r in rows]
        await self._derive_chains(game_id, found, whole=True)
        return found

    async def _sealed_chunks(self, game_id: str) -> list[tuple[Any, Any, Any]]:
        """``(first entry, last entry, body)`` of each chunk of the game's sealed log."""
        rows = await self._all(
            "SELECT first_entry, last_entry, body FROM action_chunks WHERE game = ?"
            " ORDER BY first_entry",
            (game_id,),
        )
        return [(r[0], r[1], r[2]) for r in rows]

    async def _sealed(self, game_id: str) -> list[ActionRow] | None:
        """Every entry of a sealed log (a finished game's, migration 0010), in order, a
        derived chain as ``_DERIVED``; None if the game's log is not sealed. A game's log
        is either in ``actions`` or in ``action_chunks``, never in both: each query of the
        log reads ``actions`` first and comes here only when that holds none of the
        game's rows."""
        chunks = await self._sealed_chunks(game_id)
        return unseal_chunks(game_id, chunks) if chunks else None

    async def _sealed_turns(self, game_id: str) -> list[tuple[int, int]]:
        """(action number, turn) of each live entry of a sealed log, in order; [] if not
        sealed. A sealed log never changes, so this is kept for the last few logs read
        (by their bytes): a past turn's map asks it twice before it replays."""
        chunks = await self._sealed_chunks(game_id)
        if not chunks:
            return []
        key = hashlib.blake2b(game_id.encode(), digest_size=16)
        for first, last, body in chunks:
            key.update(f"|{first}:{last}:{len(body)}|".encode())
            key.update(body)
        digest = key.digest()
        found = _SEALED_TURNS.pop(digest, None)
        if found is None:
            items = _sealed_items(game_id, chunks)
            found = sorted((d["seq"], d["turn"]) for d in items if d["undone_by"] is None)
        _SEALED_TURNS[digest] = found
        while len(_SEALED_TURNS) > 16:
            del _SEALED_TURNS[next(iter(_SEALED_TURNS))]
        return list(found)

    async def _sealed_live_items(self, game_id: str) -> list[dict[str, Any]]:
        """The fields of the live entries of a sealed log, by number; [] if not sealed."""
        items = _sealed_items(game_id, await self._sealed_chunks(game_id))
        return sorted((d for d in items if d["undone_by"] is None), key=lambda d: d["seq"])

    async def _sealed_live(
        self, game_id: str, low: int = 0, high: int | None = None, *, last: int = 0
    ) -> list[ActionRow]:
        """The live entries of a sealed log numbered ``low`` to ``high`` (None: to the
        end; ``last``: only the last so many), in order, chains not derived; [] if the
        log is not sealed. Only those are checked and made rows: a finished game's map
        at a past turn reads a few hundred of its entries."""
        items = await self._sealed_live_items(game_id)
        if last:
            items = items[-last:]
        return [
            _checked_action({"game": game_id, **d})
            for d in items
            if d["seq"] >= low and (high is None or d["seq"] <= high)
        ]

    async def seal_log(self, game_id: str, ruleset: str | None = None) -> int:
        """Seal the log of a game that has just ended (issue 16, item 4; migration 0010):
        its entries, final now, move into chunks of up to :data:`SEAL_EVERY` (see
        :func:`seal_chunks`) and their rows go; the number of chunks written. Called in
        the transaction that ends the game, after ``prune_snapshots``. The chunks are
        read back and compared with the rows before any row goes: a game whose rows would
        not read back the same keeps them, as does one with a snapshot left at an undone
        entry (``latest_snapshot`` tells such a snapshot by its entry's row); both are
        read as before. A sealed log is sealed once: it has no rows left."""
        rows = await self._all("SELECT * FROM actions WHERE game = ? ORDER BY entry", (game_id,))
        if not rows:
            return 0
        undone_snapshot = await self._one(
            "SELECT 1 FROM snapshots s JOIN actions a ON a.game = s.game AND a.entry = s.entry"
            " WHERE s.game = ? AND a.undone_by IS NOT NULL LIMIT 1",
            (game_id,),
        )
        if undone_snapshot is not None:
            return 0
        if ruleset is None:
            found = await self._one("SELECT ruleset FROM games WHERE id = ?", (game_id,))
            ruleset = found[0] if found else None
        entries = [_action(r) for r in rows]
        chunks = seal_chunks(entries, ruleset)
        if unseal_chunks(game_id, chunks) != entries:  # a value JSON cannot carry: keep rows
            return 0
        for first, last, body in chunks:
            await self._run(
                "INSERT INTO action_chunks (game, first_entry, last_entry, body)"
                " VALUES (?, ?, ?, ?)",
                (game_id, first, last, body),
            )
        await self._run("DELETE FROM actions WHERE game = ?", (game_id,))
        return len(chunks)

    async def last_live_action(self, game_id: str) -> ActionRow | None:
        found = await self._live_rows(game_id, 0, last=True)
        return found[-1] if found else None

    async def mark_undone(self, game_id: str, after: int, audit_id: int) -> list[int]:
        """Mark every live action numbered above ``after`` as undone; their entries."""
        rows = await self._all(
            "UPDATE actions SET undone_by = ? WHERE game = ? AND undone_by IS NULL AND seq > ?"
            " RETURNING entry",
            (audit_id, game_id, after),
        )
        return sorted(r[0] for r in rows)

    async def turns_reached(self, game_id: str) -> list[int]:
        """The turns in which live orders were given, for "roll back to turn N"."""
        rows = await self._all(
            "SELECT DISTINCT turn FROM actions WHERE game = ? AND undone_by IS NULL ORDER BY turn",
            (game_id,),
        )
        if not rows:
            return sorted({turn for _, turn in await self._sealed_turns(game_id)})
        return [r[0] for r in rows]

    async def last_seq_before_turn(self, game_id: str, turn: int) -> int:
        """The number of the last live order given before ``turn``; 0 if none."""
        row = await self._one(
            "SELECT MAX(seq) FROM actions WHERE game = ? AND undone_by IS NULL AND turn < ?",
            (game_id, turn),
        )
        if row is None or row[0] is None:
            before = [seq for seq, t in await self._sealed_turns(game_id) if t < turn]
            return max(before, default=0)
        return row[0]

    # -- snapshots -------------------------------------------------------------------

    async def insert_snapshot(
        self, s: SnapshotRow, *, tip: SnapshotTip | None = None
    ) -> SnapshotTip:
        """Write a snapshot as a compressed key frame or difference (see ``snapshot_pack``);
        the new tip. ``tip``: the game's latest snapshot before ``s``, when the caller holds
        it (the service's order path, under the game's version check, issue 16): it is
        packed against that instead of the one read from the database."""
        if tip is not None and tip.entry < s.entry:
            previous = (tip.key, tip.n, snapshot_unpack(tip.whole)["s"])
        else:
            previous = await self._previous_snapshot(s)
        stored, whole = _snapshot_bytes(s.state, previous)
        await self._run(
            "INSERT INTO snapshots (game, entry, seq, turn, player, phase, state)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (s.game, s.entry, s.seq, s.turn, s.player, s.phase, stored),
        )
        if stored is whole or previous is None:
            return SnapshotTip(s.entry, s.entry, 0, whole)
        return SnapshotTip(s.entry, previous[0], previous[1] + 1, whole)

    async def _pack(self, s: SnapshotRow) -> bytes:
        return snapshot_pack(s.state, await self._previous_snapshot(s))

    async def _previous_snapshot(self, s: SnapshotRow) -> tuple[int, int, dict] | None:
        """(key frame, place after it, state) of the game's latest snapshot before ``s``."""
        prev = await self._one(
            "SELECT entry, state FROM snapshots WHERE game = ? AND entry < ?"
            " ORDER BY entry DESC LIMIT 1",
            (s.game, s.entry),
        )
        if prev is None:
            return None
        return await self._chain(s.game, prev[0], prev[1])

    async def _chain(self, game_id: str, entry: int, stored: Any) -> tuple[int, int, dict]:
        """(key frame, place after it, state) of the snapshot at ``entry``."""
        head = snapshot_unpack(stored)
        if "s" in head:
            return entry, 0, head["s"]
        rows = await self._all(
            "SELECT entry, state FROM snapshots WHERE game = ? AND entry >= ? AND entry <= ?"
            " ORDER BY entry",
            (game_id, head["k"], entry),
        )
        return snapshot_rebuild(game_id, [(r[0], r[1]) for r in rows])

    async def _snapshot(self, row: Any) -> SnapshotRow:
        d = dict(row)
        d["state"] = (await self._chain(d["game"], d["entry"], d["state"]))[2]
        return _row(SnapshotRow, d, "snapshots")

    async def latest_snapshot(self, game_id: str, upto: int) -> SnapshotRow | None:
        """The live snapshot with the highest action number not above ``upto``."""
        row = await self._one(
            "SELECT s.* FROM snapshots s LEFT JOIN actions a"
            " ON a.game = s.game AND a.entry = s.entry"
            " WHERE s.game = ? AND s.seq <= ? AND (s.entry = 0 OR a.undone_by IS NULL)"
            " ORDER BY s.seq DESC LIMIT 1",
            (game_id, upto),
        )
        if row is None:
            return None
        return await self._snapshot(row)

    async def prune_snapshots(self, game_id: str) -> int:
        """Keep only the snapshots a finished game still reads (issue 16, item 4); the
        number deleted. A finished game is neither played on nor rolled back, so it keeps
        its set-up (entry 0: the first turn, and the start of a replay to any past
        state), the first live snapshot after every ``FINISHED_SNAPSHOT_EVERY`` actions
        (a past turn's map replays at most about that many), its last live snapshot
        (loading it), and the run of snapshots of the player turn before that (the turn
        its final order ended, whose log the front ends post). The kept ones are written
        again as one chain from the set-up; undone ones go too. Called in the
        transaction that ends the game."""
        rows = await self._all(
            "SELECT s.entry, s.seq, s.turn, s.player FROM snapshots s LEFT JOIN actions a"
            " ON a.game = s.game AND a.entry = s.entry"
            " WHERE s.game = ? AND (s.entry = 0 OR a.undone_by IS NULL) ORDER BY s.seq",
            (game_id,),
        )
        if not rows or rows[0][0] != 0:
            return 0  # no set-up snapshot: leave the game as it is
        keep = [rows[0][0], rows[-1][0]]
        mark = FINISHED_SNAPSHOT_EVERY
        for r in rows:  # the first after every FINISHED_SNAPSHOT_EVERY actions
            if r[1] >= mark:
                keep.append(r[0])
                mark = (r[1] // FINISHED_SNAPSHOT_EVERY + 1) * FINISHED_SNAPSHOT_EVERY
        if len(rows) > 2:
            turn = (rows[-2][2], rows[-2][3])
            for r in reversed(rows[1:-1]):
                if (r[2], r[3]) != turn:
                    break
                keep.append(r[0])
        keep = sorted(set(keep))
        states = {}
        for entry in keep:
            stored = await self._one(
                "SELECT state FROM snapshots WHERE game = ? AND entry = ?", (game_id, entry)
            )
            assert stored is not None
            states[entry] = (await self._chain(game_id, entry, stored[0]))[2]
        marks = ",".join("?" * len(keep))
        gone = await self._all(
            f"DELETE FROM snapshots WHERE game = ? AND entry NOT IN ({marks}) RETURNING entry",
            (game_id, *keep),
        )
        previous = (0, 0, states[0])
        for entry in keep[1:]:
            packed = snapshot_pack(states[entry], previous)
            await self._run(
                "UPDATE snapshots SET state = ? WHERE game = ? AND entry = ?",
                (packed, game_id, entry),
            )
            head = snapshot_unpack(packed)
            key, n = (entry, 0) if "s" in head else (head["k"], head["n"])
            previous = (key, n, states[entry])
        return len(gone)

    async def prune_notifications(self, game_id: str) -> int:
        """Delete the notices of a game that has just ended which nobody will read again
        (issue 16, item 4); the number deleted. Called in the transaction that ends the
        game, before its "ended" notice is queued. A notice is transient state, not
        history (the log and the audit trail are the history), so these go:

        - every "your move" (``prompt``) and ``reminder`` notice, delivered or not: the
          decision it was about is over (the Discord table already drops such a notice
          unposted once the game is not active, and the mail desk mails the end, with
          the log since its last mail, instead of a hand-over);
        - every other notice already delivered (``sent_at``) or cancelled, unless the
          mail desk may still owe it to an email seat of the game (numbered above its
          ``notifications`` cursor).

        A rollback notice nobody has delivered yet stays, to be delivered. The notice
        numbered highest in the table stays too, whatever it is: SQLite numbers a new row
        one above the highest there, and the mail desk reads notices by number, so a
        number must never be given twice."""
        rows = await self._all(
            "DELETE FROM notifications WHERE game = ?"
            " AND id < (SELECT MAX(id) FROM notifications) AND (kind IN ('prompt', 'reminder')"
            " OR ((sent_at IS NOT NULL OR cancelled_at IS NOT NULL)"
            " AND (NOT EXISTS (SELECT 1 FROM email_seats WHERE game = ?)"
            " OR id <= (SELECT value FROM email_cursors WHERE name = 'notifications'))))"
            " RETURNING id",
            (game_id, game_id),
        )
        return len(rows)

    # -- audit -----------------------------------------------------------------------

    async def insert_audit(
        self, game_id: str, user: str, act: str, detail: dict[str, Any], why: str, now: float
    ) -> int:
        return await self._insert(
            "INSERT INTO audit (game, user, act, detail, why, created_at) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, user, act, _dumps(detail), why, now),
        )

    async def audit(self, game_id: str) -> list[AuditRow]:
        rows = await self._all("SELECT * FROM audit WHERE game = ? ORDER BY id", (game_id,))
        out = []
        for r in rows:
            out.append(_row(AuditRow, dict(r), "audit", ("detail",)))
        return out

    # -- deadlines and notifications ---------------------------------------------------

    async def insert_deadline(
        self,
        game_id: str,
        role: str | None,
        due_at: float,
        turn: int,
        player: str,
        phase: str,
        set_by: str,
        now: float,
    ) -> int:
        return await self._insert(
            "INSERT INTO deadlines (game, role, due_at, turn, player, phase, set_by, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, role, due_at, turn, player, phase, set_by, now),
        )

    async def open_deadlines(self, game_id: str | None = None) -> list[DeadlineRow]:
        sql = "SELECT * FROM deadlines WHERE fired_at IS NULL AND cleared_at IS NULL"
        params: list[Any] = []
        if game_id is not None:
            sql += " AND game = ?"
            params.append(game_id)
        return [DeadlineRow(**dict(r)) for r in await self._all(sql + " ORDER BY due_at", params)]

    async def clear_deadlines(
        self,
        game_id: str,
        by: str,
        now: float,
        *,
        role: str | None = None,
        except_phase: tuple[int, str, str] | None = None,
    ) -> list[int]:
        """Clear open deadlines of a game (of one role, or all but those of one phase).

        Their pending reminders are cancelled too. Returns the ids cleared.
        """
        sql = (
            "UPDATE deadlines SET cleared_at = ?, cleared_by = ?"
            " WHERE game = ? AND fired_at IS NULL AND cleared_at IS NULL"
        )
        params: list[Any] = [now, by, game_id]
        if role is not None:
            sql += " AND role IS ?"
            params.append(role)
        if except_phase is not None:
            sql += " AND NOT (turn = ? AND player = ? AND phase = ?)"
            params += list(except_phase)
        ids = [r[0] for r in await self._all(sql + " RETURNING id", params)]
        if ids:
            marks = ",".join("?" * len(ids))
            await self._run(
                f"UPDATE notifications SET cancelled_at = ? WHERE deadline IN ({marks})"
                " AND sent_at IS NULL AND cancelled_at IS NULL",
                [now, *ids],
            )
        return sorted(ids)

    async def due_deadlines(self, now: float) -> list[DeadlineRow]:
        rows = await self._all(
            "SELECT * FROM deadlines WHERE fired_at IS NULL AND cleared_at IS NULL"
            " AND due_at <= ? ORDER BY due_at, id",
            (now,),
        )
        return [DeadlineRow(**dict(r)) for r in rows]

    async def mark_deadlines_fired(self, ids: list[int], now: float) -> None:
        if ids:
            marks = ",".join("?" * len(ids))
            await self._run(
                f"UPDATE deadlines SET fired_at = ? WHERE id IN ({marks}) AND fired_at IS NULL",
                [now, *ids],
            )

    async def insert_notification(
        self,
        game_id: str,
        kind: str,
        text: str,
        due_at: float,
        now: float,
        *,
        role: str | None = None,
        user: str | None = None,
        deadline: int | None = None,
    ) -> int:
        return await self._insert(
            "INSERT INTO notifications (game, role, user, kind, text, due_at, deadline,"
            " created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (game_id, role, user, kind, text, due_at, deadline, now),
        )

    async def due_notifications(self, now: float) -> list[NotificationRow]:
        rows = await self._all(
            "SELECT * FROM notifications WHERE sent_at IS NULL AND cancelled_at IS NULL"
            " AND due_at <= ? ORDER BY due_at, id",
            (now,),
        )
        return [NotificationRow(**dict(r)) for r in rows]

    async def notifications(self, game_id: str) -> list[NotificationRow]:
        rows = await self._all("SELECT * FROM notifications WHERE game = ? ORDER BY id", (game_id,))
        return [NotificationRow(**dict(r)) for r in rows]

    async def mark_notifications_sent(self, ids: list[int], now: float) -> None:
        if ids:
            marks = ",".join("?" * len(ids))
            await self._run(
                f"UPDATE notifications SET sent_at = ? WHERE id IN ({marks}) AND sent_at IS NULL",
                [now, *ids],
            )

    async def next_due_at(self) -> float | None:
        row = await self._one(
            "SELECT MIN(t) FROM ("
            " SELECT MIN(due_at) AS t FROM deadlines WHERE fired_at IS NULL AND cleared_at IS NULL"
            " UNION ALL"
            " SELECT MIN(due_at) FROM notifications WHERE sent_at IS NULL AND cancelled_at IS NULL)"
        )
        return row[0] if row else None

    # -- claims of the deadline scheduler (issue 16; bot/deadlines.py, migration 0007) --

    #: how a claim skips rows another transaction is claiming: nothing on SQLite, where
    #: one writer at a time does it; ``FOR UPDATE SKIP LOCKED`` on PostgreSQL
    _SKIP_LOCKED = ""

    @staticmethod
    def _claim_filter(
        with_channel: bool | None, skip_kinds: Iterable[str] = ()
    ) -> tuple[str, list[Any]]:
        sql, params = "", []
        if with_channel is not None:
            has = "IS NOT NULL" if with_channel else "IS NULL"
            sql += f" AND game IN (SELECT id FROM games WHERE channel {has})"
        kinds = sorted(set(skip_kinds))
        if kinds:
            sql += f" AND kind NOT IN ({','.join('?' * len(kinds))})"
            params += kinds
        return sql, params

    async def claim_deadlines(
        self,
        now: float,
        holder: str,
        until: float,
        *,
        with_channel: bool | None = None,
        limit: int = 100,
    ) -> list[DeadlineRow]:
        """Take for ``holder`` until ``until`` up to ``limit`` deadlines passed at ``now``
        that are neither fired nor cleared and that nobody holds (or whose holder's lease
        has run out). ``with_channel``: only those of games with (True) or without (False)
        a Discord channel; None: every game."""
        extra, params = self._claim_filter(with_channel)
        rows = await self._all(
            "UPDATE deadlines SET claimed_by = ?, claimed_until = ? WHERE id IN ("
            " SELECT id FROM deadlines WHERE fired_at IS NULL AND cleared_at IS NULL"
            " AND due_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)"
            f"{extra} ORDER BY due_at, id LIMIT ?{self._SKIP_LOCKED}) RETURNING *",
            (holder, until, now, now, *params, limit),
        )
        return sorted((DeadlineRow(**dict(r)) for r in rows), key=lambda d: (d.due_at, d.id))

    async def claim_notifications(
        self,
        now: float,
        holder: str,
        until: float,
        *,
        with_channel: bool | None = None,
        skip_kinds: Iterable[str] = (),
        limit: int = 100,
    ) -> list[NotificationRow]:
        """As :meth:`claim_deadlines`, for notices due and neither sent nor cancelled;
        notices of a kind in ``skip_kinds`` are left to another process."""
        extra, params = self._claim_filter(with_channel, skip_kinds)
        rows = await self._all(
            "UPDATE notifications SET claimed_by = ?, claimed_until = ? WHERE id IN ("
            " SELECT id FROM notifications WHERE sent_at IS NULL AND cancelled_at IS NULL"
            " AND due_at <= ? AND (claimed_until IS NULL OR claimed_until <= ?)"
            f"{extra} ORDER BY due_at, id LIMIT ?{self._SKIP_LOCKED}) RETURNING *",
            (holder, until, now, now, *params, limit),
        )
        return sorted((NotificationRow(**dict(r)) for r in rows), key=lambda n: (n.due_at, n.id))

    async def hold_claims(
        self,
        holder: str,
        until: float,
        *,
        deadlines: Iterable[int] = (),
        notifications: Iterable[int] = (),
    ) -> int:
        """Move the lease of rows ``holder`` still holds to ``until`` (longer while it
        acts; later to try a refused notice again); how many rows it still held."""
        held = 0
        for table, done, ids in (
            ("deadlines", "fired_at", sorted(set(deadlines))),
            ("notifications", "sent_at", sorted(set(notifications))),
        ):
            if ids:
                marks = ",".join("?" * len(ids))
                rows = await self._all(
                    f"UPDATE {table} SET claimed_until = ? WHERE id IN ({marks})"
                    f" AND claimed_by = ? AND {done} IS NULL RETURNING id",
                    (until, *ids, holder),
                )
                held += len(rows)
        return held

    async def next_claim_at(
        self,
        *,
        notices: bool = True,
        with_channel: bool | None = None,
        skip_kinds: Iterable[str] = (),
    ) -> float | None:
        """When the next row falls due that a scheduler with these filters could claim:
        its due time, or the end of the lease another holds on it."""
        at = "MIN(CASE WHEN claimed_until > due_at THEN claimed_until ELSE due_at END)"
        extra, _ = self._claim_filter(with_channel)
        row = await self._one(
            f"SELECT {at} FROM deadlines WHERE fired_at IS NULL AND cleared_at IS NULL{extra}"
        )
        found = [row[0]] if row and row[0] is not None else []
        if notices:
            extra, params = self._claim_filter(with_channel, skip_kinds)
            row = await self._one(
                f"SELECT {at} FROM notifications WHERE sent_at IS NULL"
                f" AND cancelled_at IS NULL{extra}",
                params,
            )
            if row and row[0] is not None:
                found.append(row[0])
        return min(found) if found else None

    # -- play by email (bot/email; migration 0004) ------------------------------------

    async def email_seats(self, game_id: str | None = None) -> list[EmailSeatRow]:
        sql, params = "SELECT * FROM email_seats", ()
        if game_id is not None:
            sql, params = sql + " WHERE game = ?", (game_id,)
        return [EmailSeatRow(**dict(r)) for r in await self._all(sql + " ORDER BY rowid", params)]

    async def email_seat_by_token(self, token_hash: str) -> EmailSeatRow | None:
        row = await self._one("SELECT * FROM email_seats WHERE token_hash = ?", (token_hash,))
        return EmailSeatRow(**dict(row)) if row else None

    async def put_email_seat(
        self, game_id: str, role: str, address: str, token_hash: str, nonce: str, now: float
    ) -> None:
        """Seat ``address`` in ``role`` by mail, or give the seat a new address or token."""
        await self._run(
            "INSERT INTO email_seats (game, role, address, token_hash, nonce, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game, role) DO UPDATE SET"
            " address = excluded.address, token_hash = excluded.token_hash,"
            " nonce = excluded.nonce",
            (game_id, role, address, token_hash, nonce, now),
        )

    async def drop_email_seat(self, game_id: str, role: str) -> None:
        await self._run("DELETE FROM email_seats WHERE game = ? AND role = ?", (game_id, role))

    async def set_email_mailed(self, game_id: str, role: str, seq: int) -> None:
        await self._run(
            "UPDATE email_seats SET mailed_seq = ? WHERE game = ? AND role = ?",
            (seq, game_id, role),
        )

    async def email_message(self, message_id: str) -> MailRow | None:
        row = await self._one("SELECT * FROM email_messages WHERE message_id = ?", (message_id,))
        if row is None:
            return None
        d = dict(row)
        d["results"] = json.loads(d["results"])
        return MailRow(**d)

    async def put_email_message(self, m: MailRow) -> None:
        """Record a mail or its progress (insert or replace by Message-ID)."""
        await self._run(
            "INSERT INTO email_messages (message_id, sender, game, role, status, why,"
            " lines_done, results, received_at, handled_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (message_id) DO UPDATE SET game = excluded.game,"
            " role = excluded.role, status = excluded.status, why = excluded.why,"
            " lines_done = excluded.lines_done, results = excluded.results,"
            " handled_at = excluded.handled_at",
            (
                m.message_id,
                m.sender,
                m.game,
                m.role,
                m.status,
                m.why,
                m.lines_done,
                _dumps(m.results),
                m.received_at,
                m.handled_at,
            ),
        )

    async def email_messages_from(self, sender: str, since: float) -> int:
        row = await self._one(
            "SELECT COUNT(*) FROM email_messages WHERE sender = ? AND received_at >= ?",
            (sender, since),
        )
        return int(row[0]) if row else 0

    async def queue_email(self, recipient: str, message: bytes, now: float) -> int:
        return await self._insert(
            "INSERT INTO email_outbox (recipient, message, created_at) VALUES (?, ?, ?)",
            (recipient, message, now),
        )

    async def unsent_email(self, limit: int = 100) -> list[tuple[int, str, bytes, int]]:
        """``(id, recipient, message, attempts)`` of mail not yet taken by the SMTP server."""
        rows = await self._all(
            "SELECT id, recipient, message, attempts FROM email_outbox WHERE sent_at IS NULL"
            " ORDER BY id LIMIT ?",
            (limit,),
        )
        return [(r[0], r[1], bytes(r[2]), r[3]) for r in rows]

    async def mark_email_sent(self, outbox_id: int, now: float) -> None:
        await self._run("UPDATE email_outbox SET sent_at = ? WHERE id = ?", (now, outbox_id))

    async def mark_email_failed(self, outbox_id: int, error: str) -> None:
        await self._run(
            "UPDATE email_outbox SET attempts = attempts + 1, last_error = ? WHERE id = ?",
            (error, outbox_id),
        )

    async def email_cursor(self, name: str) -> int:
        row = await self._one("SELECT value FROM email_cursors WHERE name = ?", (name,))
        return int(row[0]) if row else 0

    async def set_email_cursor(self, name: str, value: int) -> None:
        await self._run(
            "INSERT INTO email_cursors (name, value) VALUES (?, ?)"
            " ON CONFLICT (name) DO UPDATE SET value = excluded.value",
            (name, value),
        )

    async def notifications_after(self, after: int) -> list[NotificationRow]:
        """Every notification numbered above ``after``, sent or not, in order."""
        rows = await self._all("SELECT * FROM notifications WHERE id > ? ORDER BY id", (after,))
        return [NotificationRow(**dict(r)) for r in rows]

    async def reminders_due(
        self, after_ms: int, floor: int, now: float
    ) -> list[NotificationRow]:
        """Reminders numbered above ``floor``, not cancelled, due after ``after_ms``
        (milliseconds) and by ``now``."""
        rows = await self._all(
            "SELECT * FROM notifications WHERE kind = 'reminder' AND cancelled_at IS NULL"
            " AND id > ? AND due_at * 1000 > ? AND due_at <= ? ORDER BY due_at, id",
            (floor, after_ms, now),
        )
        return [NotificationRow(**dict(r)) for r in rows]

    async def audit_after(self, after: int) -> list[AuditRow]:
        rows = await self._all("SELECT * FROM audit WHERE id > ? ORDER BY id", (after,))
        out = []
        for r in rows:
            out.append(_row(AuditRow, dict(r), "audit", ("detail",)))
        return out


@dataclass
class EmailSeatRow:
    """A seat played by mail (migration 0004)."""

    game: str
    role: str
    address: str
    token_hash: str
    nonce: str
    mailed_seq: int
    created_at: float


@dataclass
class MailRow:
    """An incoming mail, by Message-ID, and how far it has been handled."""

    message_id: str
    sender: str
    status: str
    received_at: float
    game: str | None = None
    role: str | None = None
    why: str = ""
    lines_done: int = 0
    results: list[str] = field(default_factory=list)
    handled_at: float | None = None
