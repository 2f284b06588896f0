"""The game service: every command a front end can give, over the store and the engine.

ARCHITECTURE: Storage and the service. The action log is the truth and state is derived
from it: a game's state is its latest live snapshot plus a replay of the live actions
after it, cached in memory. Each command is one database transaction, and a per-game
asyncio lock lets only one command change a game at a time, while commands for other
games interleave with it.

Action numbers (``seq``) count the live actions: the first order of a game is action 1,
and after a rollback to action N the next order is action N+1 again. Dice are derived
from ``(game id, seq)``, so an order redone at the same place rolls the same dice, and a
replay of the live actions in order reproduces the game (ARCHITECTURE: Dice).

Results are plain dataclasses; a refusal is a :class:`ServiceError` whose message is one
sentence for the player (the rules engine's :class:`~engine.IllegalOrder` text passes
through unchanged). The service trusts its caller on who is a moderator: the front end
checks that before calling ``rollback``, ``assign_seat``, ``pause`` and the like.

>>> import asyncio, tempfile, os, engine
>>> async def demo(path):
...     service = await Service.open(path)
...     try:
...         return await service.list_games()
...     finally:
...         await service.close()
>>> asyncio.run(demo(os.path.join(tempfile.mkdtemp(), "doc.db")))
[]
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from bot.store import (
    ActionRow,
    DeadlineRow,
    GameRow,
    NotificationRow,
    SeatRow,
    SnapshotRow,
    Store,
    Tx,
)
from engine.core import registry
from engine.core.dice import ActionDice, commitment, derive_roll, new_secret
from engine.core.errors import IllegalOrder
from engine.core.orders import Order
from engine.core.ruleset import Progress, Prompt, Ruleset

log = logging.getLogger(__name__)

CACHE_SIZE = 128
EXPORT_FORMAT = "umpire-game"


class ServiceError(Exception):
    """A command the service refuses; ``str()`` is one sentence for the player.

    ``prompt`` is the game's current prompt when it helps the player try again.
    """

    def __init__(self, message: str, prompt: PromptInfo | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.prompt = prompt

    def __str__(self) -> str:
        return self.message


class StaleOrder(ServiceError):
    """The order was written for an earlier action number than the game's current one."""


# -- results ---------------------------------------------------------------------------


@dataclass
class PromptInfo:
    """Whose decision it is, after action ``seq``. ``role`` is None once the game is over."""

    game: str
    seq: int
    role: str | None
    user: str | None
    kind: str
    text: str
    verbs: list[str]
    turn: int
    phase: str


@dataclass
class SeatInfo:
    role: str
    user: str | None
    timezone: str | None = None
    standing_orders: dict[str, Any] = field(default_factory=dict)


@dataclass
class Created:
    game: str
    ruleset: str
    scenario: str
    commitment: str
    status: str
    seats: list[SeatInfo]


@dataclass
class GameSummary:
    """One line of a game list."""

    game: str
    ruleset: str
    scenario: str
    status: str
    seq: int
    channel: str | None
    created_by: str
    created_at: float


@dataclass
class ResultInfo:
    winner: str | None
    level: str
    text: str


@dataclass
class GameStatus:
    game: str
    ruleset: str
    title: str
    scenario: str
    options: dict[str, Any]
    datapack_version: str | None
    channel: str | None
    status: str
    seq: int
    commitment: str
    secret: str | None  # hex, once the game has ended
    seats: list[SeatInfo]
    prompt: PromptInfo
    progress: Progress
    result: ResultInfo | None
    created_by: str
    created_at: float
    ended_at: float | None


@dataclass
class RollInfo:
    sides: int
    value: int
    purpose: str = ""


@dataclass
class OrderResult:
    game: str
    seq: int
    role: str
    user: str
    order: str
    events: list[str]
    rolls: list[RollInfo]
    prompt: PromptInfo
    result: ResultInfo | None = None
    secret: str | None = None  # revealed when this order ended the game


@dataclass
class UndoResult:
    game: str
    seq: int  # the action taken back
    order: str
    role: str
    prompt: PromptInfo


@dataclass
class RollbackResult:
    game: str
    from_seq: int
    to_seq: int
    undone: list[int]  # the action numbers taken back
    by: str
    why: str
    prompt: PromptInfo


@dataclass
class LogLine:
    seq: int
    entry: int
    role: str
    user: str
    order: str
    events: list[str]
    rolls: list[RollInfo]
    turn: int
    phase: str
    created_at: float
    undone: bool


@dataclass
class ViewResult:
    game: str
    role: str | None
    seq: int
    view: Any


@dataclass
class DeadlineInfo:
    id: int
    game: str
    role: str | None
    user: str | None
    due_at: float
    turn: int
    player: str
    phase: str
    set_by: str


@dataclass
class NotificationInfo:
    id: int
    game: str
    role: str | None
    user: str | None
    kind: str
    text: str
    due_at: float


@dataclass
class Due:
    """What a scheduler must act on now: passed deadlines and messages to send."""

    deadlines: list[DeadlineInfo]
    notifications: list[NotificationInfo]


@dataclass
class VerifyReport:
    game: str
    problems: list[str]
    actions: int  # log entries replayed
    rolls: int  # rolls recomputed from the secret

    @property
    def ok(self) -> bool:
        return not self.problems


# -- the export format -----------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ExportRoll(_Strict):
    sides: int
    value: int
    purpose: str = ""


class ExportAction(_Strict):
    entry: int
    seq: int
    role: str
    user: str
    order: dict[str, Any]
    rolls: list[ExportRoll]
    events: list[dict[str, Any]]
    turn: int
    phase: str
    created_at: float
    undone_by: int | None = None


class ExportAudit(_Strict):
    id: int
    user: str
    act: str
    detail: dict[str, Any]
    why: str
    created_at: float


class ExportSeat(_Strict):
    role: str
    user: str | None
    timezone: str | None = None
    standing_orders: dict[str, Any] = {}


class ExportGame(_Strict):
    id: str
    ruleset: str
    scenario: str
    options: dict[str, Any]
    datapack_version: str | None
    channel: str | None
    status: Literal["open", "active", "paused", "finished"]
    commitment: str
    head: int
    result: dict[str, Any] | None
    created_by: str
    created_at: float
    ended_at: float | None


class GameExport(_Strict):
    """A whole game as JSON: set-up, every log entry with its dice, the audit trail.

    ``secret`` is present once the game has ended (or when a moderator exports it to move
    the game); ``final_state_sha256`` too, since before the end a hash of the state could
    give hidden information away.
    """

    format: Literal["umpire-game"]
    format_version: Literal[1]
    game: ExportGame
    secret: str | None
    seats: list[ExportSeat]
    setup_rolls: list[ExportRoll]
    actions: list[ExportAction]
    audit: list[ExportAudit]
    final_state_sha256: str | None = None


# -- helpers ---------------------------------------------------------------------------


def _canonical(value: Any) -> Any:
    """``value`` as it comes back from JSON, so stored and recomputed data compare equal."""
    return json.loads(json.dumps(value, sort_keys=True))


def state_sha256(ruleset: Ruleset, state: Any) -> str:
    text = json.dumps(ruleset.dump_state(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def _rolls(dice: ActionDice) -> list[dict[str, Any]]:
    return [{"sides": r.sides, "value": r.value, "purpose": r.purpose} for r in dice.rolls]


def _roll_infos(rolls: Iterable[dict[str, Any]]) -> list[RollInfo]:
    return [RollInfo(r["sides"], r["value"], r.get("purpose", "")) for r in rolls]


def _result_info(data: dict[str, Any] | None) -> ResultInfo | None:
    if data is None:
        return None
    return ResultInfo(data.get("winner"), data.get("level", "victory"), data.get("text", ""))


def _seat_info(s: SeatRow) -> SeatInfo:
    return SeatInfo(s.role, s.user, s.timezone, dict(s.standing_orders))


def _datapack_version(ruleset: Ruleset) -> str | None:
    """The version of the data pack a ruleset plays with, if it says (ARCHITECTURE: Data packs)."""
    value = getattr(ruleset, "datapack_version", None)
    if callable(value):
        value = value()
    return None if value is None else str(value)


def find_ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered as ``ruleset_id``, or a ServiceError naming the ones there are."""
    try:
        return registry.ruleset(ruleset_id)
    except KeyError as exc:
        raise ServiceError(f"{exc.args[0][0].upper()}{exc.args[0][1:]}.") from None


def apply_logged(
    ruleset: Ruleset, game_id: str, secret: bytes, state: Any, action: ActionRow | ExportAction
) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply a logged action again: the new state, and the rolls and events it gives now."""
    dice = ActionDice(secret, game_id, action.seq)
    order = ruleset.load_order(action.order)
    new_state, events = ruleset.apply(state, action.role, order, dice)
    return new_state, _rolls(dice), [e.to_dict() for e in events]


def replay(
    ruleset: Ruleset, game_id: str, secret: bytes, state: Any, actions: Iterable[ActionRow]
) -> Any:
    """The state after applying ``actions`` (live, in order) to ``state``."""
    for action in actions:
        state = apply_logged(ruleset, game_id, secret, state, action)[0]
    return state


@dataclass
class _Live:
    """A game as the service holds it in memory between commands."""

    row: GameRow
    seats: list[SeatRow]
    ruleset: Ruleset
    state: Any

    def holder(self, role: str | None) -> str | None:
        return next((s.user for s in self.seats if s.role == role), None)

    def roles_of(self, user: str) -> list[str]:
        return [s.role for s in self.seats if s.user == user]

    def prompt_info(self, prompt: Prompt | None = None) -> PromptInfo:
        p = prompt or self.ruleset.prompt(self.state)
        return PromptInfo(
            game=self.row.id,
            seq=self.row.head,
            role=p.role,
            user=self.holder(p.role),
            kind=p.kind,
            text=p.text,
            verbs=list(p.verbs),
            turn=p.turn,
            phase=p.phase,
        )


# -- the service -----------------------------------------------------------------------


class Service:
    """The commands of Umpire. Open with ``await Service.open(path)``; close when done.

    ``clock`` gives the time in seconds since the epoch; tests inject a fake one.
    """

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.clock = clock
        self._locks: dict[str, asyncio.Lock] = {}
        self._cache: OrderedDict[str, _Live] = OrderedDict()

    @classmethod
    async def open(
        cls,
        path: str | None = None,
        *,
        clock: Callable[[], float] = time.time,
        synchronous: str = "FULL",
    ) -> Service:
        return cls(await Store.open(path, synchronous=synchronous), clock)

    async def close(self) -> None:
        await self.store.close()

    # -- plumbing ------------------------------------------------------------------

    @asynccontextmanager
    async def _locked(self, game_id: str) -> AsyncIterator[None]:
        lock = self._locks.setdefault(game_id, asyncio.Lock())
        async with lock:
            yield

    def _remember(self, live: _Live) -> None:
        self._cache[live.row.id] = live
        self._cache.move_to_end(live.row.id)
        while len(self._cache) > CACHE_SIZE:
            self._cache.popitem(last=False)

    def forget(self, game_id: str) -> None:
        """Drop a game from the memory cache; the next command loads it from the database."""
        self._cache.pop(game_id, None)

    async def _live(self, game_id: str) -> _Live:
        """The game as it stands in the database now (the cache when still current)."""
        found = await self.store.game_and_seats(game_id)
        if found is None:
            raise ServiceError(f"There is no game {game_id!r}.")
        row, seats = found
        cached = self._cache.get(game_id)
        if cached is not None and cached.row.version == row.version:
            live = _Live(row, seats, cached.ruleset, cached.state)
            self._remember(live)
            return live
        ruleset = self._ruleset_of(row)
        async with self.store.read() as tx:
            row = await tx.game(game_id) or row  # again, inside the transaction that loads
            seats = await tx.seats(game_id)
            snapshot, actions = await self._line_upto(tx, row, row.head)
        state = self._rebuild(ruleset, row, snapshot, actions)
        live = _Live(row, seats, ruleset, state)
        self._remember(live)
        return live

    def _ruleset_of(self, row: GameRow) -> Ruleset:
        try:
            return registry.ruleset(row.ruleset)
        except KeyError:
            raise ServiceError(
                f"Game {row.id} is played with {row.ruleset!r}, which this Umpire does not have."
            ) from None

    async def _line_upto(
        self, tx: Tx, row: GameRow, seq: int
    ) -> tuple[SnapshotRow, list[ActionRow]]:
        snapshot = await tx.latest_snapshot(row.id, seq)
        if snapshot is None:
            raise ServiceError(f"Game {row.id} has lost its set-up snapshot; ask a moderator.")
        return snapshot, await tx.live_actions(row.id, after=snapshot.seq, upto=seq)

    def _rebuild(
        self, ruleset: Ruleset, row: GameRow, snapshot: SnapshotRow, actions: list[ActionRow]
    ) -> Any:
        state = ruleset.load_state(snapshot.state)
        return replay(ruleset, row.id, row.secret, state, actions)

    async def _state_at(self, live: _Live, seq: int) -> Any:
        """The state after live action ``seq`` (0: after set-up), from a snapshot and replay."""
        async with self.store.read() as tx:
            snapshot, actions = await self._line_upto(tx, live.row, seq)
        return self._rebuild(live.ruleset, live.row, snapshot, actions)

    @asynccontextmanager
    async def _write(self, live: _Live, **changes: Any) -> AsyncIterator[Tx]:
        """A write transaction that first makes ``changes`` to the game row, if nobody
        changed the game's log since ``live`` was loaded (else :class:`_Moved`)."""
        async with self.store.write() as tx:
            if not await tx.update_game_at_version(live.row.id, live.row.version, **changes):
                self.forget(live.row.id)
                raise _Moved()
            yield tx

    async def _stale(self, game_id: str, seen: int | None) -> StaleOrder:
        live = await self._live(game_id)
        prompt = live.prompt_info()
        wrote = f"action {seen}" if seen is not None else "an earlier position"
        return StaleOrder(
            f"That order was written at {wrote}, but game {game_id} has moved on to action "
            f"{live.row.head}; nothing was changed. Now: {prompt.text}",
            prompt,
        )

    @staticmethod
    def _require(live: _Live, *statuses: str) -> None:
        if live.row.status in statuses:
            return
        game = live.row.id
        why = {
            "open": f"Game {game} has not started yet.",
            "active": f"Game {game} is already under way.",
            "paused": f"Game {game} is paused by a moderator.",
            "finished": f"Game {game} is over.",
        }[live.row.status]
        raise ServiceError(why)

    # -- games and seats -------------------------------------------------------------

    async def create(
        self,
        ruleset_id: str,
        *,
        created_by: str,
        scenario: str | None = None,
        options: dict[str, Any] | None = None,
        seats: dict[str, str] | None = None,
        channel: str | None = None,
        game_id: str | None = None,
        secret: bytes | None = None,
    ) -> Created:
        """Set up a new game and publish its dice commitment (ARCHITECTURE: Dice).

        ``seats`` maps roles to users; other roles stay free for :meth:`join`.
        """
        ruleset = find_ruleset(ruleset_id)
        scenarios = [s.id for s in ruleset.scenarios()]
        scenario = scenario or scenarios[0]
        if scenario not in scenarios:
            raise ServiceError(
                f"{ruleset.title} has no scenario {scenario!r}; choose one of: {', '.join(scenarios)}."
            )
        roles = ruleset.roles(scenario)
        seats = dict(seats or {})
        unknown = sorted(set(seats) - set(roles))
        if unknown:
            raise ServiceError(
                f"{', '.join(unknown)} is not a role in {ruleset.title}; the roles are: {', '.join(roles)}."
            )
        game_id = game_id or uuid.uuid4().hex[:12]
        secret = secret or new_secret()
        options = dict(options or {})
        dice = ActionDice(secret, game_id, 0)
        try:
            state = ruleset.setup(scenario, options, dice)
        except IllegalOrder as exc:
            raise ServiceError(exc.message) from None
        except (ValueError, TypeError, KeyError) as exc:
            raise ServiceError(
                f"{ruleset.title} cannot be set up with those options: {exc}."
            ) from None
        progress = ruleset.progress(state)
        now = self.clock()
        row = GameRow(
            id=game_id,
            ruleset=ruleset.id,
            scenario=scenario,
            options=options,
            commitment=commitment(secret),
            secret=secret,
            created_by=created_by,
            created_at=now,
            datapack_version=_datapack_version(ruleset),
            channel=channel,
            setup_rolls=_rolls(dice),
        )
        seat_rows = [SeatRow(game_id, role, seats.get(role)) for role in roles]
        async with self.store.write() as tx:
            if await tx.game(game_id) is not None:
                raise ServiceError(f"A game with the id {game_id!r} already exists.")
            await tx.insert_game(row)
            for seat in seat_rows:
                await tx.insert_seat(seat)
            await tx.insert_snapshot(
                SnapshotRow(
                    game_id,
                    0,
                    0,
                    progress.turn,
                    progress.player,
                    progress.phase,
                    ruleset.dump_state(state),
                )
            )
        self._remember(_Live(row, seat_rows, ruleset, state))
        return Created(
            game_id,
            ruleset.id,
            scenario,
            row.commitment,
            row.status,
            [_seat_info(s) for s in seat_rows],
        )

    async def join(self, game_id: str, user: str, role: str | None = None) -> SeatInfo:
        """Take a free seat (the first free one if ``role`` is not given)."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            self._require(live, "open", "active", "paused")
            free = [s.role for s in live.seats if s.user is None]
            if role is None:
                if not free:
                    raise ServiceError(f"Every seat in game {game_id} is taken.")
                role = free[0]
            self._check_role(live, role)
            holder = live.holder(role)
            if holder == user:
                raise ServiceError(f"You already hold {role} in game {game_id}.")
            if holder is not None:
                others = f" Free seats: {', '.join(free)}." if free else ""
                raise ServiceError(f"{role} in game {game_id} is taken by {holder}.{others}")
            async with self.store.write() as tx:
                await tx.set_seat_user(game_id, role, user)
            self.forget(game_id)
            return SeatInfo(role, user)

    async def leave(self, game_id: str, user: str, role: str | None = None) -> SeatInfo:
        async with self._locked(game_id):
            live = await self._live(game_id)
            self._require(live, "open", "active", "paused")
            held = live.roles_of(user)
            if role is None and len(held) == 1:
                role = held[0]
            if role is None or role not in held:
                raise ServiceError(self._not_seated(live, user, role))
            async with self.store.write() as tx:
                await tx.set_seat_user(game_id, role, None)
            self.forget(game_id)
            return SeatInfo(role, None)

    async def assign_seat(
        self, game_id: str, by: str, role: str, user: str | None, why: str = ""
    ) -> SeatInfo:
        """A moderator seats ``user`` in ``role`` (or frees it with ``None``); audited."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            self._require(live, "open", "active", "paused")
            self._check_role(live, role)
            async with self.store.write() as tx:
                await tx.set_seat_user(game_id, role, user)
                await tx.insert_audit(
                    game_id,
                    by,
                    "seat",
                    {"role": role, "from": live.holder(role), "to": user},
                    why,
                    self.clock(),
                )
            self.forget(game_id)
            return SeatInfo(role, user)

    async def set_seat_preferences(
        self,
        game_id: str,
        user: str,
        role: str,
        *,
        timezone: str | None = None,
        standing_orders: dict[str, Any] | None = None,
    ) -> SeatInfo:
        """A player's time zone and standing orders (ARCHITECTURE: Asynchronous play)."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            if role not in live.roles_of(user):
                raise ServiceError(self._not_seated(live, user, role))
            async with self.store.write() as tx:
                await tx.set_seat_preferences(
                    game_id, role, timezone=timezone, standing_orders=standing_orders
                )
                seat = next(s for s in await tx.seats(game_id) if s.role == role)
            self.forget(game_id)
            return _seat_info(seat)

    async def start(self, game_id: str, by: str) -> PromptInfo:
        """Begin play once every seat is taken; the first player is told."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            self._require(live, "open")
            free = [s.role for s in live.seats if s.user is None]
            if free:
                raise ServiceError(
                    f"Game {game_id} cannot start while {', '.join(free)} has no player."
                )
            prompt = live.prompt_info()
            async with self.store.write() as tx:
                await tx.update_game(game_id, status="active")
                await self._queue_prompt(tx, live, prompt, self.clock())
            live.row.status = "active"
            self._remember(live)
            return prompt

    async def set_status(self, game_id: str, by: str, status: str, why: str = "") -> str:
        """A moderator pauses (``"paused"``) or resumes (``"active"``) a game; audited."""
        if status not in ("paused", "active"):
            raise ServiceError("A game can be paused or resumed, nothing else.")
        async with self._locked(game_id):
            live = await self._live(game_id)
            self._require(live, "active" if status == "paused" else "paused")
            async with self.store.write() as tx:
                await tx.update_game(game_id, status=status)
                await tx.insert_audit(
                    game_id, by, "pause" if status == "paused" else "resume", {}, why, self.clock()
                )
            live.row.status = status
            return status

    async def end(self, game_id: str, by: str, why: str) -> GameStatus:
        """A moderator ends a game before its rules do; the dice secret is revealed."""
        if not why.strip():
            raise ServiceError("Say why the game is being ended.")
        async with self._locked(game_id):
            live = await self._live(game_id)
            self._require(live, "open", "active", "paused")
            now = self.clock()
            new = _Live(_copy_row(live.row), live.seats, live.ruleset, live.state)
            async with self._guard(game_id), self._write(live) as tx:
                audit_id = await tx.insert_audit(
                    game_id, by, "end", {"seq": live.row.head}, why, now
                )
                await self._finish(tx, new, None, now)
                await tx.insert_notification(
                    game_id, "ended", f"{by} ended game {game_id}: {why}", now, now
                )
            self._remember(new)
            log.info("game %s ended by %s (audit %s)", game_id, by, audit_id)
            return self._status(new)

    async def _finish(self, tx: Tx, live: _Live, result: dict[str, Any] | None, now: float) -> None:
        """Mark the game over and reveal its secret; ``live`` must be a copy not yet cached."""
        changes = {"status": "finished", "ended_at": now, "revealed_at": now, "result": result}
        await tx.update_game(live.row.id, **changes)
        await tx.clear_deadlines(live.row.id, "end", now)
        for key, value in changes.items():
            setattr(live.row, key, value)

    def _check_role(self, live: _Live, role: str) -> None:
        roles = [s.role for s in live.seats]
        if role not in roles:
            raise ServiceError(
                f"{role!r} is not a role in game {live.row.id}; the roles are: {', '.join(roles)}."
            )

    def _not_seated(self, live: _Live, user: str, role: str | None) -> str:
        held = live.roles_of(user)
        if role is not None and role not in [s.role for s in live.seats]:
            roles = ", ".join(s.role for s in live.seats)
            return f"{role!r} is not a role in game {live.row.id}; the roles are: {roles}."
        if not held:
            return f"You hold no seat in game {live.row.id}."
        return f"You do not hold {role} in game {live.row.id}; you hold {', '.join(held)}."

    # -- reading ---------------------------------------------------------------------

    async def list_games(
        self, *, user: str | None = None, channel: str | None = None, status: str | None = None
    ) -> list[GameSummary]:
        async with self.store.read() as tx:
            rows = await tx.list_games(user=user, channel=channel, status=status)
        return [
            GameSummary(
                r.id, r.ruleset, r.scenario, r.status, r.head, r.channel, r.created_by, r.created_at
            )
            for r in rows
        ]

    async def status(self, game_id: str) -> GameStatus:
        async with self._locked(game_id):
            return self._status(await self._live(game_id))

    def _status(self, live: _Live) -> GameStatus:
        r = live.row
        revealed = r.revealed_at is not None
        return GameStatus(
            game=r.id,
            ruleset=r.ruleset,
            title=live.ruleset.title,
            scenario=r.scenario,
            options=dict(r.options),
            datapack_version=r.datapack_version,
            channel=r.channel,
            status=r.status,
            seq=r.head,
            commitment=r.commitment,
            secret=r.secret.hex() if revealed else None,
            seats=[_seat_info(s) for s in live.seats],
            prompt=live.prompt_info(),
            progress=live.ruleset.progress(live.state),
            result=_result_info(r.result),
            created_by=r.created_by,
            created_at=r.created_at,
            ended_at=r.ended_at,
        )

    async def view(
        self, game_id: str, user: str | None, role: str | None = None, *, moderator: bool = False
    ) -> ViewResult:
        """What ``role`` may see (``None``: the public view). Only its holder, or a moderator,
        may look through a role's eyes."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            if role is not None:
                self._check_role(live, role)
                if not moderator and (user is None or role not in live.roles_of(user)):
                    raise ServiceError(self._not_seated(live, user or "", role))
            view = live.ruleset.view(live.state, role)
            return ViewResult(game_id, role, live.row.head, view)

    async def live_state(self, game_id: str) -> tuple[Ruleset, Any, int]:
        """The ruleset, the current state and the action number: for tools and tests."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            return live.ruleset, live.state, live.row.head

    async def game_log(self, game_id: str, *, include_undone: bool = False) -> list[LogLine]:
        """The log of a game: its live actions, or every entry with ``include_undone``."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            async with self.store.read() as tx:
                rows = (
                    await tx.log_entries(game_id)
                    if include_undone
                    else await tx.live_actions(game_id)
                )
        return [self._log_line(live.ruleset, a) for a in rows]

    @staticmethod
    def _order_text(ruleset: Ruleset, order: dict[str, Any]) -> str:
        try:
            return ruleset.load_order(order).text()
        except (IllegalOrder, ValueError):
            return json.dumps(order)

    def _log_line(self, ruleset: Ruleset, a: ActionRow) -> LogLine:
        return LogLine(
            seq=a.seq,
            entry=a.entry,
            role=a.role,
            user=a.user,
            order=self._order_text(ruleset, a.order),
            events=[e["text"] for e in a.events],
            rolls=_roll_infos(a.rolls),
            turn=a.turn,
            phase=a.phase,
            created_at=a.created_at,
            undone=a.undone_by is not None,
        )

    async def record(
        self, game_id: str, by: str, act: str, detail: dict[str, Any], why: str = ""
    ) -> int:
        """Add a moderator act that the service does not perform itself (a front end's
        setting, say) to the game's audit trail; its audit id."""
        async with self._locked(game_id):
            await self._live(game_id)
            async with self.store.write() as tx:
                return await tx.insert_audit(game_id, by, act, detail, why, self.clock())

    async def set_deadline_policy(
        self, game_id: str, by: str, policy: dict[str, Any], why: str = ""
    ) -> None:
        """Store how long decisions may take in this game (ARCHITECTURE: Asynchronous play),
        in the same transaction as the audit entry that records who changed it and why."""
        async with self._locked(game_id):
            await self._live(game_id)
            async with self.store.write() as tx:
                await tx.update_game(game_id, deadline_policy=policy)
                await tx.insert_audit(game_id, by, "deadline-policy", policy, why, self.clock())

    async def deadline_policy(self, game_id: str) -> dict[str, Any] | None:
        """The game's deadline policy, or None where the front end's defaults apply."""
        async with self.store.read() as tx:
            game = await tx.game(game_id)
            if game is None:
                raise ServiceError(f"There is no game {game_id!r}.")
            return game.deadline_policy

    async def audit(self, game_id: str) -> list[dict[str, Any]]:
        async with self.store.read() as tx:
            if await tx.game(game_id) is None:
                raise ServiceError(f"There is no game {game_id!r}.")
            return [asdict(a) for a in await tx.audit(game_id)]

    # -- orders ----------------------------------------------------------------------

    async def submit(
        self,
        game_id: str,
        user: str,
        order: str | dict[str, Any] | Order,
        *,
        role: str | None = None,
        seen: int | None = None,
    ) -> OrderResult:
        """Apply ``order`` for ``user``.

        ``role`` defaults to the role whose decision it is, if the user holds it. ``seen``
        is the action number the player was looking at: if the game has moved since, the
        order is refused with :class:`StaleOrder` and the current prompt.
        """
        async with self._locked(game_id):
            try:
                return await self._submit(game_id, user, order, role, seen)
            except _Moved:
                raise await self._stale(game_id, seen) from None

    async def _submit(
        self,
        game_id: str,
        user: str,
        order: str | dict[str, Any] | Order,
        role: str | None,
        seen: int | None,
    ) -> OrderResult:
        live = await self._live(game_id)
        self._require(live, "active")
        rs = live.ruleset
        prompt = rs.prompt(live.state)
        if prompt.role is None:
            raise ServiceError(f"Game {game_id} is over; no more orders are taken.")
        held = live.roles_of(user)
        if role is None and held:
            # Someone else's turn is refused below, after the staleness check.
            role = prompt.role if prompt.role in held else held[0]
        if role is None or role not in held:
            raise ServiceError(self._not_seated(live, user, role), live.prompt_info(prompt))
        if seen is not None and seen != live.row.head:
            raise await self._stale(game_id, seen)
        if role != prompt.role:
            waiting = live.holder(prompt.role)
            raise ServiceError(
                f"It is {prompt.role}'s decision now{f' ({waiting})' if waiting else ''}, "
                f"not {role}'s: {prompt.text}",
                live.prompt_info(prompt),
            )
        try:
            if isinstance(order, Order):
                parsed = order
            elif isinstance(order, dict):
                parsed = rs.load_order(order)
            else:
                parsed = rs.parse_order(order)
        except IllegalOrder as exc:
            raise ServiceError(exc.message, live.prompt_info(prompt)) from None
        except Exception:
            log.exception("the order parser failed on %r in game %s", order, game_id)
            raise ServiceError(
                f"{order!r} is not an order of {rs.title}: {prompt.text}", live.prompt_info(prompt)
            ) from None
        seq = live.row.head + 1
        dice = ActionDice(live.row.secret, game_id, seq)
        try:
            state, events = rs.apply(live.state, role, parsed, dice)
        except IllegalOrder as exc:
            raise ServiceError(exc.message, live.prompt_info(prompt)) from None
        except Exception:
            log.exception("the rules engine failed on %r in game %s", parsed, game_id)
            raise ServiceError(
                "The rules engine failed on that order and nothing was changed; "
                "please tell a moderator."
            ) from None
        before, after = rs.progress(live.state), rs.progress(state)
        next_prompt = rs.prompt(state)
        result = rs.result(state)
        finished = result is not None or next_prompt.role is None
        now = self.clock()
        entry = live.row.entries + 1
        action = ActionRow(
            game=game_id,
            entry=entry,
            seq=seq,
            role=role,
            user=user,
            order=parsed.to_dict(),
            rolls=_rolls(dice),
            events=[e.to_dict() for e in events],
            turn=before.turn,
            phase=before.phase,
            created_at=now,
        )
        new = _Live(_copy_row(live.row), live.seats, rs, state)
        new.row.head, new.row.entries, new.row.version = seq, entry, live.row.version + 1
        async with self._write(live, head=seq, entries=entry, version=new.row.version) as tx:
            await tx.append_action(action)
            if after != before or finished:
                await tx.insert_snapshot(
                    SnapshotRow(
                        game_id,
                        entry,
                        seq,
                        after.turn,
                        after.player,
                        after.phase,
                        rs.dump_state(state),
                    )
                )
            if finished:
                data = result.model_dump() if result is not None else None
                await self._finish(tx, new, data, now)
                text = result.text if result is not None else "The game is over."
                await tx.insert_notification(game_id, "ended", text, now, now)
            else:
                if after != before:
                    await tx.clear_deadlines(
                        game_id, "met", now, except_phase=(after.turn, after.player, after.phase)
                    )
                if next_prompt.role != role:
                    await self._queue_prompt(tx, new, new.prompt_info(next_prompt), now)
        self._remember(new)
        return OrderResult(
            game=game_id,
            seq=seq,
            role=role,
            user=user,
            order=parsed.text(),
            events=[e.text for e in events],
            rolls=_roll_infos(action.rolls),
            prompt=new.prompt_info(next_prompt),
            result=_result_info(new.row.result),
            secret=live.row.secret.hex() if finished else None,
        )

    async def _queue_prompt(self, tx: Tx, live: _Live, prompt: PromptInfo, now: float) -> None:
        if prompt.role is not None:
            await tx.insert_notification(
                live.row.id, "prompt", prompt.text, now, now, role=prompt.role, user=prompt.user
            )

    @asynccontextmanager
    async def _guard(self, game_id: str) -> AsyncIterator[None]:
        """Turn a change by another process, seen at write time, into a stale refusal."""
        try:
            yield
        except _Moved:
            raise await self._stale(game_id, None) from None

    # -- taking back -----------------------------------------------------------------

    async def undo(
        self, game_id: str, user: str, *, role: str | None = None, seen: int | None = None
    ) -> UndoResult:
        """Take back one's own last order (ARCHITECTURE: Undo).

        Allowed only while it is the last action of the game (so no other role has acted
        since), it rolled no dice and it revealed no hidden information.
        """
        async with self._locked(game_id), self._guard(game_id):
            live = await self._live(game_id)
            self._require(live, "active")
            held = live.roles_of(user)
            if not held:
                raise ServiceError(self._not_seated(live, user, role))
            if role is not None and role not in held:
                raise ServiceError(self._not_seated(live, user, role))
            if seen is not None and seen != live.row.head:
                raise await self._stale(game_id, seen)
            async with self.store.read() as tx:
                last = await tx.last_live_action(game_id)
            if last is None:
                raise ServiceError(f"Game {game_id} has no order to take back yet.")
            text = self._order_text(live.ruleset, last.order)
            what = f"the last order of game {game_id} (action {last.seq}, {last.role}: {text})"
            if last.role not in held or (role is not None and last.role != role):
                raise ServiceError(
                    f"You can take back only your own last order, and {what} is not yours."
                )
            if last.rolls:
                raise ServiceError(
                    f"You cannot take back {what}, because it rolled dice; only a moderator's "
                    "rollback can (ARCHITECTURE: Undo)."
                )
            if any(e.get("reveals") for e in last.events):
                raise ServiceError(
                    f"You cannot take back {what}, because it showed hidden information; only a "
                    "moderator's rollback can (ARCHITECTURE: Undo)."
                )
            target = last.seq - 1
            state = await self._state_at(live, target)
            now = self.clock()
            async with self._write(live, head=target, version=live.row.version + 1) as tx:
                audit_id = await tx.insert_audit(
                    game_id,
                    user,
                    "undo",
                    {"seq": last.seq, "entry": last.entry, "order": text},
                    "",
                    now,
                )
                await tx.mark_undone(game_id, target, audit_id)
            new = _Live(_copy_row(live.row), live.seats, live.ruleset, state)
            new.row.head, new.row.version = target, live.row.version + 1
            self._remember(new)
            return UndoResult(game_id, last.seq, text, last.role, new.prompt_info())

    async def rollback(
        self,
        game_id: str,
        by: str,
        *,
        why: str,
        to: int | None = None,
        turn: int | None = None,
    ) -> RollbackResult:
        """A moderator takes the game back to action ``to`` or to the start of ``turn``.

        The undone actions stay in the log, marked with the audit entry that says who
        rolled back and why; the channel is told (ARCHITECTURE: Undo).
        """
        if not why.strip():
            raise ServiceError("Say why you roll the game back; players see the reason.")
        if (to is None) == (turn is None):
            raise ServiceError("Roll back either to an action number or to the start of a turn.")
        async with self._locked(game_id), self._guard(game_id):
            live = await self._live(game_id)
            if live.row.status == "finished":
                raise ServiceError(
                    f"Game {game_id} is over and its dice secret is public, so it cannot be rolled back."
                )
            head = live.row.head
            if turn is not None:
                to = await self._turn_start(live, turn)
            assert to is not None
            if to == head:
                raise ServiceError(
                    f"Game {game_id} is at action {head} already; nothing to roll back."
                )
            if not 0 <= to < head:
                raise ServiceError(
                    f"Game {game_id} can be rolled back to an action from 0 to {head - 1}, not {to}."
                    if head
                    else f"Game {game_id} has no actions to roll back."
                )
            state = await self._state_at(live, to)
            now = self.clock()
            async with self._write(live, head=to, version=live.row.version + 1) as tx:
                detail = {"from": head, "to": to, "turn": turn}
                audit_id = await tx.insert_audit(game_id, by, "rollback", detail, why, now)
                entries = await tx.mark_undone(game_id, to, audit_id)
                target = (
                    f"the start of turn {turn} (action {to})"
                    if turn is not None
                    else f"action {to}"
                )
                await tx.insert_notification(
                    game_id,
                    "rollback",
                    f"{by} rolled game {game_id} back from action {head} to {target}: {why}",
                    now,
                    now,
                )
            new = _Live(_copy_row(live.row), live.seats, live.ruleset, state)
            new.row.head, new.row.version = to, live.row.version + 1
            self.forget(game_id)
            self._remember(new)
            log.info("game %s rolled back by %s to %s (entries %s)", game_id, by, to, entries)
            return RollbackResult(
                game_id, head, to, list(range(to + 1, head + 1)), by, why, new.prompt_info()
            )

    async def _turn_start(self, live: _Live, turn: int) -> int:
        async with self.store.read() as tx:
            setup = await tx.latest_snapshot(live.row.id, 0)
            first = setup.turn if setup else 0
            now = live.ruleset.progress(live.state).turn
            reached = set(await tx.turns_reached(live.row.id)) | {first, now}
            if turn not in reached:
                raise ServiceError(
                    f"Game {live.row.id} has been in turns {min(reached)} to {max(reached)}, "
                    f"not turn {turn}."
                )
            # The last order given before the turn began is the one that began it.
            return 0 if turn <= first else await tx.last_seq_before_turn(live.row.id, turn)

    # -- deadlines and reminders ------------------------------------------------------

    async def set_deadline(
        self,
        game_id: str,
        by: str,
        due_at: float,
        *,
        role: str | None = None,
        remind_before: Iterable[float] = (),
    ) -> DeadlineInfo:
        """The current phase must be decided by ``due_at`` (ARCHITECTURE: Asynchronous play).

        ``role`` defaults to whoever must decide now. A deadline already set for that role
        is replaced. Reminders go out ``remind_before`` seconds before the deadline; the
        deadline is met (cleared) when the game moves to another phase.
        """
        async with self._locked(game_id):
            live = await self._live(game_id)
            self._require(live, "active", "paused")
            now = self.clock()
            if due_at <= now:
                raise ServiceError("A deadline must lie in the future.")
            prompt = live.ruleset.prompt(live.state)
            role = role or prompt.role
            if role is not None:
                self._check_role(live, role)
            progress = live.ruleset.progress(live.state)
            user = live.holder(role)
            async with self.store.write() as tx:
                await tx.clear_deadlines(game_id, by, now, role=role)
                deadline_id = await tx.insert_deadline(
                    game_id, role, due_at, progress.turn, progress.player, progress.phase, by, now
                )
                for before in sorted(set(remind_before), reverse=True):
                    at = due_at - before
                    if at > now:
                        await tx.insert_notification(
                            game_id,
                            "reminder",
                            f"{role or 'Your'} decision in game {game_id} is due in "
                            f"{_duration(before)}: {prompt.text}",
                            at,
                            now,
                            role=role,
                            user=user,
                            deadline=deadline_id,
                        )
            return DeadlineInfo(
                deadline_id,
                game_id,
                role,
                user,
                due_at,
                progress.turn,
                progress.player,
                progress.phase,
                by,
            )

    async def clear_deadline(self, game_id: str, by: str, *, role: str | None = None) -> int:
        """Clear the open deadlines of a game (of one role if given); how many were cleared."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            if role is not None:
                self._check_role(live, role)
            async with self.store.write() as tx:
                if role is None:
                    ids = await tx.clear_deadlines(game_id, by, self.clock())
                else:
                    ids = await tx.clear_deadlines(game_id, by, self.clock(), role=role)
            return len(ids)

    async def deadlines(self, game_id: str | None = None) -> list[DeadlineInfo]:
        async with self.store.read() as tx:
            rows = await tx.open_deadlines(game_id)
            seats = {g: await tx.seats(g) for g in {r.game for r in rows}}
        return [self._deadline_info(r, seats[r.game]) for r in rows]

    @staticmethod
    def _deadline_info(r: DeadlineRow, seats: list[SeatRow]) -> DeadlineInfo:
        user = next((s.user for s in seats if s.role == r.role), None)
        return DeadlineInfo(
            r.id, r.game, r.role, user, r.due_at, r.turn, r.player, r.phase, r.set_by
        )

    async def due(self, now: float | None = None) -> Due:
        """Deadlines passed and notifications due at ``now`` (default: the clock), not yet
        handled. Mark them with :meth:`mark_handled` once acted on."""
        now = self.clock() if now is None else now
        async with self.store.read() as tx:
            deadlines = await tx.due_deadlines(now)
            notes = await tx.due_notifications(now)
            seats = {g: await tx.seats(g) for g in {r.game for r in deadlines}}
        return Due(
            [self._deadline_info(r, seats[r.game]) for r in deadlines],
            [_notification_info(n) for n in notes],
        )

    async def mark_handled(
        self, *, deadlines: Iterable[int] = (), notifications: Iterable[int] = ()
    ) -> None:
        now = self.clock()
        async with self.store.write() as tx:
            await tx.mark_deadlines_fired(list(deadlines), now)
            await tx.mark_notifications_sent(list(notifications), now)

    async def next_due_at(self) -> float | None:
        """When the scheduler should wake next (None: nothing pending)."""
        async with self.store.read() as tx:
            return await tx.next_due_at()

    async def notifications(self, game_id: str) -> list[NotificationInfo]:
        async with self.store.read() as tx:
            return [_notification_info(n) for n in await tx.notifications(game_id)]

    # -- export, verify, import ------------------------------------------------------

    async def export(self, game_id: str, *, with_secret: bool = False) -> dict[str, Any]:
        """The whole game as JSON data. The secret goes in once the game has ended, or
        with ``with_secret`` (a moderator moving a game: it spoils the dice for readers)."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            async with self.store.read() as tx:
                entries = await tx.log_entries(game_id)
                audit = await tx.audit(game_id)
        r = live.row
        revealed = r.revealed_at is not None
        data = GameExport(
            format=EXPORT_FORMAT,
            format_version=1,
            game=ExportGame(
                id=r.id,
                ruleset=r.ruleset,
                scenario=r.scenario,
                options=r.options,
                datapack_version=r.datapack_version,
                channel=r.channel,
                status=r.status,  # type: ignore[arg-type]
                commitment=r.commitment,
                head=r.head,
                result=r.result,
                created_by=r.created_by,
                created_at=r.created_at,
                ended_at=r.ended_at,
            ),
            secret=r.secret.hex() if revealed or with_secret else None,
            seats=[ExportSeat(**asdict(_seat_info(s))) for s in live.seats],
            setup_rolls=[ExportRoll(**x) for x in r.setup_rolls],
            actions=[
                ExportAction(**{k: v for k, v in asdict(a).items() if k != "game"}) for a in entries
            ],
            audit=[
                ExportAudit(
                    id=a.id,
                    user=a.user,
                    act=a.act,
                    detail=a.detail,
                    why=a.why,
                    created_at=a.created_at,
                )
                for a in audit
            ],
            final_state_sha256=state_sha256(live.ruleset, live.state)
            if revealed or with_secret
            else None,
        )
        return data.model_dump(mode="json")

    async def verify(self, game_id: str) -> VerifyReport:
        """Check a finished game: every roll against the revealed secret, every entry by replay."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            if live.row.revealed_at is None:
                raise ServiceError(
                    f"Game {game_id} has not ended, so its dice secret is still hidden; "
                    "it can be verified once it ends."
                )
        return verify_export(await self.export(game_id))

    async def import_game(self, data: Any, *, by: str) -> Created:
        """Store a game from an export after checking it replays exactly; nothing is
        written if anything is wrong. The game keeps its id, since its dice depend on it."""
        export = parse_export(data)
        if export.secret is None:
            raise ServiceError(
                "That export has no dice secret (the game had not ended), so it cannot be "
                "imported; export it with its secret."
            )
        checked = _check_export(export)
        if checked.report.problems:
            raise ServiceError(f"The export does not check out: {checked.report.problems[0]}")
        g = export.game
        ruleset = checked.ruleset
        secret = bytes.fromhex(export.secret)
        now = self.clock()
        async with self._locked(g.id), self.store.write() as tx:
            if await tx.game(g.id) is not None:
                raise ServiceError(f"A game with the id {g.id!r} already exists in this database.")
            finished = g.status == "finished"
            await tx.insert_game(
                GameRow(
                    id=g.id,
                    ruleset=g.ruleset,
                    scenario=g.scenario,
                    options=g.options,
                    commitment=g.commitment,
                    secret=secret,
                    created_by=g.created_by,
                    created_at=g.created_at,
                    status=g.status,
                    datapack_version=g.datapack_version,
                    channel=g.channel,
                    revealed_at=(g.ended_at or now) if finished else None,
                    setup_rolls=[r.model_dump() for r in export.setup_rolls],
                    head=g.head,
                    entries=len(export.actions),
                    version=0,
                    result=g.result,
                    ended_at=g.ended_at if finished else None,
                )
            )
            for seat in export.seats:
                await tx.insert_seat(SeatRow(g.id, **seat.model_dump()))
            audit_ids: dict[int, int] = {}
            for a in export.audit:
                audit_ids[a.id] = await tx.insert_audit(
                    g.id, a.user, a.act, a.detail, a.why, a.created_at
                )
            await tx.insert_audit(
                g.id, by, "import", {"entries": len(export.actions), "head": g.head}, "", now
            )
            for a in export.actions:
                row = ActionRow(game=g.id, **a.model_dump())
                row.undone_by = audit_ids[a.undone_by] if a.undone_by is not None else None
                await tx.append_action(row)
            for snap in checked.snapshots:
                await tx.insert_snapshot(snap)
        self.forget(g.id)
        return Created(
            g.id,
            ruleset.id,
            g.scenario,
            g.commitment,
            g.status,
            [SeatInfo(s.role, s.user, s.timezone, s.standing_orders) for s in export.seats],
        )


class _Moved(Exception):
    """The game's log changed in the database since it was loaded (another process)."""


def _copy_row(row: GameRow) -> GameRow:
    return GameRow(**{k: getattr(row, k) for k in row.__dataclass_fields__})


def _notification_info(n: NotificationRow) -> NotificationInfo:
    return NotificationInfo(n.id, n.game, n.role, n.user, n.kind, n.text, n.due_at)


def _duration(seconds: float) -> str:
    if seconds >= 86400 and seconds % 86400 == 0:
        n, unit = int(seconds // 86400), "day"
    elif seconds >= 3600 and seconds % 3600 == 0:
        n, unit = int(seconds // 3600), "hour"
    elif seconds >= 60:
        n, unit = round(seconds / 60), "minute"
    else:
        n, unit = round(seconds), "second"
    return f"{n} {unit}{'' if n == 1 else 's'}"


# -- verification ----------------------------------------------------------------------


def parse_export(data: Any) -> GameExport:
    """Validate exported JSON data; a :class:`ServiceError` says what is wrong."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ServiceError("That is not an Umpire game export (its format is not umpire-game).")
    try:
        return GameExport.model_validate(data)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        raise ServiceError(f"The export is damaged at {where}: {err['msg']}.") from None


@dataclass
class _Checked:
    report: VerifyReport
    ruleset: Ruleset
    snapshots: list[SnapshotRow]


def verify_export(data: Any) -> VerifyReport:
    """Check an exported game that carries its secret: the commitment, every roll
    recomputed from the secret, and every log entry (undone ones too) replayed in the
    order written, with the same dice, events and final state."""
    export = parse_export(data)
    if export.secret is None:
        raise ServiceError(
            f"Game {export.game.id} has not ended, so the export has no dice secret to verify with."
        )
    return _check_export(export).report


def _check_export(export: GameExport) -> _Checked:
    g = export.game
    ruleset = find_ruleset(g.ruleset)
    problems: list[str] = []
    report = VerifyReport(g.id, problems, 0, 0)
    checked = _Checked(report, ruleset, [])
    try:
        secret = bytes.fromhex(export.secret or "")
    except ValueError:
        problems.append("The dice secret is not hexadecimal.")
        return checked
    if commitment(secret) != g.commitment:
        problems.append("The dice secret does not match the commitment published at the start.")
        return checked
    if (g.status == "finished") != (g.ended_at is not None):
        problems.append(f"The game is {g.status} but its end time says otherwise.")
        return checked

    def check_rolls(
        where: str, seq: int, logged: list[ExportRoll], now: list[dict[str, Any]]
    ) -> None:
        for k, roll in enumerate(logged):
            report.rolls += 1
            if roll.sides < 2:
                problems.append(f"{where}: roll {k + 1} is on a die of {roll.sides} sides.")
                continue
            fair = derive_roll(secret, g.id, seq, k, roll.sides)
            if fair != roll.value:
                problems.append(
                    f"{where}: roll {k + 1} (d{roll.sides}) is {roll.value} in the log, "
                    f"but the secret gives {fair}."
                )
        if [r.model_dump() for r in logged] != now:
            problems.append(
                f"{where}: replaying it rolls {_dice_text(now)}, the log says "
                f"{_dice_text([r.model_dump() for r in logged])}."
            )

    dice = ActionDice(secret, g.id, 0)
    try:
        state = ruleset.setup(g.scenario, g.options, dice)
    except Exception as exc:  # noqa: BLE001 - any failure is a verification finding
        problems.append(f"The set-up cannot be replayed: {exc}.")
        return checked
    check_rolls("The set-up", 0, export.setup_rolls, _rolls(dice))

    def snapshot(entry: int, seq: int, st: Any) -> SnapshotRow:
        p = ruleset.progress(st)
        return SnapshotRow(g.id, entry, seq, p.turn, p.player, p.phase, ruleset.dump_state(st))

    checked.snapshots.append(snapshot(0, 0, state))
    # The line of play as it stood when each entry was written; rollbacks cut it back.
    line: list[ExportAction] = []
    states: dict[int, Any] = {0: state}  # states at some action numbers of the line
    cut: set[int] = set()
    audit_ids = {a.id for a in export.audit}
    for i, a in enumerate(export.actions, start=1):
        where = f"Action {a.seq} (log entry {a.entry})"
        if a.entry != i:
            problems.append(f"Log entry {i} is missing or out of order (found entry {a.entry}).")
            return checked
        if not 1 <= a.seq <= len(line) + 1:
            problems.append(f"{where} does not follow action {len(line)}: the log has a gap.")
            return checked
        if a.undone_by is not None and a.undone_by not in audit_ids:
            problems.append(
                f"{where} is marked undone by audit entry {a.undone_by}, which is missing."
            )
        if a.seq <= len(line):
            cut.update(b.entry for b in line[a.seq - 1 :])
            del line[a.seq - 1 :]
            for n in [n for n in states if n > len(line)]:
                del states[n]
            base = max(states)
            state = states[base]
            for b in line[base:]:
                state = apply_logged(ruleset, g.id, secret, state, b)[0]
        report.actions += 1
        before = ruleset.progress(state)
        if (before.turn, before.phase) != (a.turn, a.phase):
            problems.append(
                f"{where} was given in turn {before.turn} {before.phase} on replay, but the "
                f"log says turn {a.turn} {a.phase}."
            )
        try:
            state, rolls, events = apply_logged(ruleset, g.id, secret, state, a)
        except IllegalOrder as exc:
            problems.append(f"{where}: the rules refuse it on replay: {exc.message}")
            return checked
        except Exception as exc:  # noqa: BLE001 - any failure is a verification finding
            problems.append(f"{where} cannot be replayed: {exc!r}.")
            return checked
        check_rolls(where, a.seq, a.rolls, rolls)
        if _canonical(events) != _canonical(a.events):
            problems.append(f"{where}: replaying it gives other events than the log records.")
        after = ruleset.progress(state)
        line.append(a)
        if after != before or ruleset.result(state) is not None:
            checked.snapshots.append(snapshot(a.entry, a.seq, state))
        if a.seq % 32 == 0:
            states[a.seq] = state
    marked = {a.entry for a in export.actions if a.undone_by is not None}
    for entry in sorted(cut - marked):
        problems.append(f"Log entry {entry} was rolled back but is not marked undone.")
    for entry in sorted(marked - cut):
        problems.append(f"Log entry {entry} is marked undone but is still in play.")
    if len(line) != g.head:
        problems.append(f"The game says it stands at action {g.head}, the log at {len(line)}.")
    result = ruleset.result(state)
    now = None if result is None else _canonical(result.model_dump())
    if g.status == "finished" and g.result is not None and now != _canonical(g.result):
        problems.append("The recorded result differs from the result of the replayed game.")
    if export.final_state_sha256 and state_sha256(ruleset, state) != export.final_state_sha256:
        problems.append("The replayed final state differs from the exported one.")
    return checked


def _dice_text(rolls: list[dict[str, Any]]) -> str:
    return ", ".join(f"{r['value']} on d{r['sides']}" for r in rolls) or "no dice"
