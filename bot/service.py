"""The game service: every command a front end can give, over the store and the engine.

ARCHITECTURE: Storage and the service. The action log is the truth and state is derived
from it: a game's state is its latest live snapshot plus a replay of the live actions
after it, cached in memory. Each command is one database transaction, and a per-game
asyncio lock lets only one command change a game at a time, while commands for other
games interleave with it.

Action numbers (``seq``) count the live actions: the first order of a game is action 1,
and after a rollback to action N the next order is action N+1 again. Dice are derived
from the game id, the seq and the chain of live orders up to and including this one, so
the same order redone at the same place rolls the same dice, any other order or history
rolls fresh ones, and a replay of the live actions in order reproduces the game
(ARCHITECTURE: Dice; games created before the chain keep the plain scheme).

Results are plain dataclasses; a refusal is a :class:`ServiceError` whose message is one
sentence for the player (the rules engine's :class:`~engine.IllegalOrder` text passes
through unchanged). The service trusts its caller on who moderates the server: the front
end checks that before calling ``rollback``, ``assign_seat``, ``pause`` and the like. A
caller whose only claim is having created the game passes ``as_creator=True``, and the
service refuses if that creator plays in the game; nobody is seated in two roles of one
game (issue 10 item 5).

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
import gc
import hashlib
import json
import logging
import math
import re
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import asdict, dataclass, field, replace
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from bot.store import (
    ActionRow,
    AuditRow,
    DeadlineRow,
    EmailSeatRow,
    GameRow,
    GuildSettingsRow,
    MailRow,
    NotificationRow,
    SeatRow,
    SnapshotRow,
    SnapshotTip,
    Store,
    StoreError,
    Tx,
    UserSettingsRow,
    open_store,
)
from engine.core import registry
from engine.core.dice import (
    CHAIN_V1,
    MAX_SIDES,
    ActionDice,
    commitment,
    derive_roll,
    new_secret,
    order_dice,
    setup_dice,
)
from engine.core.errors import IllegalOrder
from engine.core.events import EVERYONE, ORDER, Event, order_line
from engine.core.orders import Order, excerpt
from engine.core.ruleset import Progress, Prompt, Ruleset

log = logging.getLogger(__name__)

#: games each service keeps in memory between commands (least recently used dropped). A
#: game missing from it is rebuilt from its latest snapshot and the actions after it (3
#: statements and a replay): with 1,000 games ordering at once over 4 processes, 128 made
#: nearly every order a miss (issue 16). A game in memory costs about 7-16 KiB (PFV, TAC,
#: BIA, AA-NA) and 40-50 KiB (A&A Revised's units), so 1,024 of them 10-50 MiB a process.
CACHE_SIZE = 1024

#: seconds a process spends at most loading games into its cache before it takes commands
#: (:meth:`Service.warm`); what is left loads at the first command, as without warming
WARM_SECONDS = 30.0

#: seconds between two full passes of Python's cycle collector (see _settle_garbage)
GC_SWEEP_SECONDS = 600.0
_gc_swept = time.monotonic()


def _settle_garbage() -> None:
    """After each order, set what survived it aside from the cycle collector (``gc.freeze``,
    a constant-time splice), and run a full pass only every ``GC_SWEEP_SECONDS``.

    A busy process keeps a thousand games' states in memory and replaces one with every
    order; left to itself the collector kept re-examining all of them for cycles, in full
    passes of 200-320 ms that found nothing (the engines make no cycles per order), and
    those stalls were the load bench's latency tail (issue 16: settled p99 780 ms, 21 ms
    with this). What the collector then sees is only what one order allocates; objects set
    aside are still freed by reference counting the moment nothing holds them. Cyclic
    garbage set aside (an exception's traceback, say) waits for the periodic full pass."""
    global _gc_swept
    now = time.monotonic()
    if now - _gc_swept >= GC_SWEEP_SECONDS:
        _gc_swept = now
        gc.unfreeze()
        gc.collect()
    gc.freeze()
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
    #: what everyone but ``role`` reads, where ``text`` names pieces hidden from them
    public: str | None = None

    def text_for(self, audience: str | None) -> str:
        """The prompt as ``audience`` (a role, None for the public, or "*") may read it."""
        if (
            self.public is None
            or audience == EVERYONE
            or (audience is not None and audience == self.role)
        ):
            return self.text
        return self.public


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
    #: the Discord server it is played in, when known (issue 15)
    guild: str | None = None


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
    #: the Discord server it is played in, when known (issue 15)
    guild: str | None = None


@dataclass
class RollInfo:
    sides: int
    value: int
    purpose: str = ""


@dataclass
class OrderResult:
    """What an order did. ``order``, ``events`` and ``rolls`` are as the acting role reads
    them (the reply to the player); :meth:`order_for`, :meth:`events_for` and
    :meth:`rolls_for` give them as another audience may read them (the channel: None)."""

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
    #: the events as stored (with who may read them), for the per-audience views
    raw_events: list[dict[str, Any]] = field(default_factory=list, repr=False)

    def order_for(self, audience: str | None) -> str:
        return _order_for(self.order, self.raw_events, audience)

    def events_for(self, audience: str | None) -> list[str]:
        return _event_lines(self.raw_events, audience)

    def rolls_for(self, audience: str | None) -> list[RollInfo]:
        return _rolls_for(self.rolls, self.raw_events, audience)


@dataclass
class UndoResult:
    game: str
    seq: int  # the action taken back
    order: str  # as its own role reads it
    role: str
    prompt: PromptInfo
    #: the order as everyone else reads it (the channel's notice)
    public_order: str = ""


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
    # how the dice derive (ARCHITECTURE: Dice); an export without it predates the chain
    dice_scheme: Literal["plain", "chain-v1"] = "plain"


class GameExport(_Strict):
    """A whole game as JSON: set-up, every log entry with its dice, the audit trail.

    ``secret`` is present once the game has ended (or when a moderator exports it to move
    the game); ``final_state_sha256`` too, since before the end a hash of the state could
    give hidden information away. Without the secret the export is the public's
    (``public``): an order that names hidden pieces reads as the public reads it, and each
    event as the public reads it (or not at all), so such an export cannot be replayed.
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
    public: bool = False


# -- helpers ---------------------------------------------------------------------------


def _event_lines(events: Iterable[dict[str, Any]], audience: str | None) -> list[str]:
    """The lines ``audience`` reads of an action's stored events; the order's own text
    (an ``ORDER`` event) is the action's order, not a line of what it did."""
    out = []
    for d in events:
        if d.get("kind") == ORDER:
            continue
        line = Event.from_dict(d).text_for(audience)
        if line is not None:
            out.append(line)
    return out


def _order_for(text: str, events: Iterable[dict[str, Any]], audience: str | None) -> str:
    """The order of an action as ``audience`` reads it (ARCHITECTURE: the log is a view)."""
    shown = order_line(text, list(events), audience)
    return shown if shown is not None else "(a hidden order)"


def _whole_to(events: Iterable[dict[str, Any]], audience: str | None) -> bool:
    """Whether ``audience`` reads every event of an action whole."""
    return all(Event.from_dict(d).sees_whole(audience) for d in events)


def _rolls_for(
    rolls: list[RollInfo], events: Iterable[dict[str, Any]], audience: str | None
) -> list[RollInfo]:
    """The dice of an action: values always (anyone may check them once the secret is
    out), but what each was for only to an audience that reads the whole action, since a
    roll's purpose may name the piece it was rolled for."""
    if _whole_to(events, audience):
        return rolls
    return [RollInfo(r.sides, r.value) for r in rolls]


def _export_action(a: ActionRow) -> ExportAction:
    """A log entry as the export holds it, read field by field (``dataclasses.asdict``
    deep-copies every order and event, a fifth of a second on a 1,000-action game; the
    rows are fresh from the store, so nothing else holds them). Its game id and dice-chain
    link stay out, as they always have."""
    return ExportAction(
        entry=a.entry,
        seq=a.seq,
        role=a.role,
        user=a.user,
        order=a.order,
        rolls=a.rolls,  # type: ignore[arg-type]  # validated into ExportRoll
        events=a.events,
        turn=a.turn,
        phase=a.phase,
        created_at=a.created_at,
        undone_by=a.undone_by,
    )


def _public_export(data: GameExport) -> GameExport:
    """The export as the public may read it, for a game whose secret is still hidden:
    private orders and events as the public reads them, an undo's order likewise."""
    audit = []
    for a in data.audit:
        if "public_order" in a.detail:
            detail = {**a.detail, "order": a.detail["public_order"]}
            a = a.model_copy(update={"detail": detail})
        audit.append(a)
    return data.model_copy(
        update={
            "actions": [_public_action(a) for a in data.actions],
            "audit": audit,
            "public": True,
        }
    )


def _public_action(a: ExportAction) -> ExportAction:
    """An exported log entry as the public reads it (see :class:`GameExport`)."""
    events = [Event.from_dict(d) for d in a.events]
    public_events = []
    for e in events:
        if e.kind == ORDER:
            continue
        line = e.text_for(None)
        if line is None:
            continue
        out: dict[str, Any] = {"kind": e.kind, "text": line}
        if e.is_public and e.data:
            out["data"] = e.data
        public_events.append(out)
    private = any(e.kind == ORDER for e in events)
    order = (
        {"verb": a.order.get("verb"), "public": order_line("", events, None) or ""}
        if private
        else a.order
    )
    whole = all(e.is_public for e in events)
    rolls = a.rolls if whole else [ExportRoll(sides=r.sides, value=r.value) for r in a.rolls]
    return a.model_copy(update={"order": order, "events": public_events, "rolls": rolls})


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
    ruleset: Ruleset,
    game_id: str,
    secret: bytes,
    state: Any,
    action: ActionRow | ExportAction,
    chain: str | None = None,
) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """Apply a logged action again: the new state, and the rolls and events it gives now.

    ``chain`` is the action's ``h_seq`` under the chain-v1 dice scheme, None under plain
    (ARCHITECTURE: Dice).
    """
    dice = ActionDice(secret, game_id, action.seq, chain)
    order = ruleset.load_order(action.order)
    new_state, events = ruleset.apply(state, action.role, order, dice)
    return new_state, _rolls(dice), [e.to_dict() for e in events]


def replay(
    ruleset: Ruleset, game_id: str, secret: bytes, state: Any, actions: Iterable[ActionRow]
) -> Any:
    """The state after applying ``actions`` (live, in order) to ``state``, each with the
    dice chain stored with it."""
    for action in actions:
        state = apply_logged(ruleset, game_id, secret, state, action, action.chain)[0]
    return state


@dataclass
class _Live:
    """A game as the service holds it in memory between commands."""

    row: GameRow
    seats: list[SeatRow]
    ruleset: Ruleset
    state: Any
    #: the dice chain ``h_head`` stored with live action ``row.head``, when known (the
    #: command that wrote it, or the load that replayed it): the next order's dice build
    #: on it without asking the database again (issue 16). None: read it when needed
    chain: str | None = None
    #: ``ruleset.prompt(state)``, when already worked out (the command that made ``state``)
    prompt: Prompt | None = None
    #: the game's latest snapshot, when the command that wrote it is the last to have
    #: changed the log: the next snapshot is packed against it without reading it back
    tip: SnapshotTip | None = None

    def holder(self, role: str | None) -> str | None:
        return next((s.user for s in self.seats if s.role == role), None)

    def roles_of(self, user: str) -> list[str]:
        return [s.role for s in self.seats if s.user == user]

    def prompt_info(self, prompt: Prompt | None = None) -> PromptInfo:
        p = prompt or (self.prompt if self.prompt is not None else self.ruleset.prompt(self.state))
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
            public=p.public,
        )


@dataclass
class WarmReport:
    """What :meth:`Service.warm` did."""

    #: games loaded into memory
    games: int = 0
    #: the active games it meant to load: those this process serves, the most recently
    #: played first, as many as the cache holds (or the limit asked)
    candidates: int = 0
    #: games that could not be rebuilt (each logged; its commands will say why)
    skipped: int = 0
    #: database connections open and used before the loads
    connections: int = 0
    #: the rulesets of the games loaded (each one's code and data now in use)
    rulesets: tuple[str, ...] = ()
    seconds: float = 0.0
    #: why it stopped before loading every candidate, else None
    stopped: str | None = None

    def line(self) -> str:
        rulesets = f" ({', '.join(self.rulesets)})" if self.rulesets else ""
        skipped = f", {self.skipped} that cannot be rebuilt skipped" if self.skipped else ""
        stopped = f"; stopped: {self.stopped}" if self.stopped else ""
        return (
            f"warmed {self.games} of {self.candidates} games{rulesets} over "
            f"{self.connections} database connection{'s' if self.connections != 1 else ''} "
            f"in {self.seconds:.2f} s{skipped}{stopped}"
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
        """The service over ``path``: an SQLite file or a ``postgresql://`` URL (issue 16)."""
        return cls(await open_store(path, synchronous=synchronous), clock)  # type: ignore[arg-type]

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

    async def warm(
        self,
        *,
        serves: Callable[[str | None], bool] | None = None,
        limit: int | None = None,
        budget: float = WARM_SECONDS,
    ) -> WarmReport:
        """Before taking commands, load into memory the games most likely to get the next
        orders (issue 16: a process starting cold under load had every first order load
        its game, five statements and a rebuild more than an order of a game in memory,
        all in the same first seconds; the orders queued for the database connections
        those loads held).

        First every connection of the store is opened and used
        (``store.warm_connections``). The candidates are the active games whose guild
        ``serves`` accepts (all when None; a bot process passes its shards' test), the
        one with the most recent log entry first, at most ``limit`` and never more than
        the cache holds, so none pushes out another. Each is loaded as a command loads
        it (:meth:`_live`, under the game's lock), with its prompt worked out; as many
        load at once as there are connections. No load starts once ``budget`` seconds
        have passed; the rest load at their first command, as without warming. A game
        that cannot be rebuilt is logged and skipped. Finally the cache is ordered so
        that the most recently played games are the last it would drop, and what was
        loaded is set aside from the cycle collector as after an order."""
        start = time.monotonic()
        report = WarmReport(connections=await self.store.warm_connections())
        async with self.store.read() as tx:
            ranked = await tx.active_games_by_activity()
        room = CACHE_SIZE if limit is None else max(0, min(limit, CACHE_SIZE))
        todo = [game for game, guild in ranked if serves is None or serves(guild)][:room]
        report.candidates = len(todo)
        pending = iter(todo)
        rulesets: set[str] = set()

        async def loader() -> None:
            for game_id in pending:
                if time.monotonic() - start >= budget:
                    report.stopped = f"its time budget of {budget:g} s ran out"
                    return
                try:
                    async with self._locked(game_id):
                        live = await self._live(game_id)
                        if live.prompt is None:
                            live.prompt = live.ruleset.prompt(live.state)
                except (ServiceError, StoreError) as exc:  # damaged: its commands say so
                    report.skipped += 1
                    log.warning("warming the game cache, %s skipped: %s", game_id, exc)
                    continue
                except Exception:  # an engine's fault on one game must not stop a start
                    report.skipped += 1
                    log.exception("warming the game cache, %s skipped", game_id)
                    continue
                report.games += 1
                rulesets.add(live.row.ruleset)

        await asyncio.gather(*(loader() for _ in range(max(1, report.connections))))
        for game_id in reversed(todo):  # the most recently played dropped last
            if game_id in self._cache:
                self._cache.move_to_end(game_id)
        _settle_garbage()
        report.rulesets = tuple(sorted(rulesets))
        report.seconds = time.monotonic() - start
        log.info("%s", report.line())
        return report

    async def _live(self, game_id: str) -> _Live:
        """The game as it stands in the database now (the cache when still current)."""
        found = await self.store.game_and_seats(game_id)
        if found is None:
            raise ServiceError(f"There is no game {game_id!r}.")
        row, seats = found
        cached = self._cache.get(game_id)
        if cached is not None and cached.row.version == row.version:
            # the same version is the same log, so the same head, chain and snapshots
            live = _Live(row, seats, cached.ruleset, cached.state, cached.chain, cached.prompt,
                         cached.tip)  # fmt: skip
            self._remember(live)
            return live
        ruleset = self._ruleset_of(row)
        async with self.store.read() as tx:
            row = await tx.game(game_id) or row  # again, inside the transaction that loads
            seats = await tx.seats(game_id)
            snapshot, actions = await self._line_upto(tx, row, row.head)
        state = self._rebuild(ruleset, row, snapshot, actions)
        chain = actions[-1].chain if actions and actions[-1].seq == row.head else None
        live = _Live(row, seats, ruleset, state, chain)
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
        try:
            state = ruleset.load_state(snapshot.state)
            return replay(ruleset, row.id, row.secret, state, actions)
        except Exception as exc:  # noqa: BLE001 - a damaged row, said in words
            raise ServiceError(
                f"Game {row.id} cannot be rebuilt from the database: the state saved at "
                f"action {snapshot.seq} or an action after it is damaged "
                f"({type(exc).__name__}: {str(exc)[:80]}); restore the database from a backup."
            ) from None

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
            f"{live.row.head}; nothing was changed. Now: {prompt.text_for(None)}",
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
        guild: str | None = None,
    ) -> Created:
        """Set up a new game and publish its dice commitment (ARCHITECTURE: Dice).

        ``seats`` maps roles to users; other roles stay free for :meth:`join`. ``guild``
        is the Discord server of ``channel``, for lists filtered by server.
        """
        ruleset = find_ruleset(ruleset_id)
        scenarios = [s.id for s in ruleset.scenarios()]
        scenario = scenario or scenarios[0]
        if scenario not in scenarios:
            # a game may say why a scenario it knows is not offered (BIA's naval ones)
            why = getattr(ruleset, "scenario_refusal", lambda _s: None)(scenario)
            raise ServiceError(
                why
                or f"{ruleset.title} has no scenario {scenario!r}; choose one of: {', '.join(scenarios)}."
            )
        roles = ruleset.roles(scenario)
        seats = dict(seats or {})
        unknown = sorted(set(seats) - set(roles))
        if unknown:
            raise ServiceError(
                f"{', '.join(unknown)} is not a role in {ruleset.title}; the roles are: {', '.join(roles)}."
            )
        problem = None if game_id is None else game_id_problem(game_id)
        if problem is not None:
            raise ServiceError(problem)
        game_id = game_id or uuid.uuid4().hex[:12]
        secret = secret or new_secret()
        options = dict(options or {})
        dice = setup_dice(secret, game_id, CHAIN_V1)
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
            dice_scheme=CHAIN_V1,
            guild=guild,
        )
        seat_rows = [SeatRow(game_id, role, seats.get(role)) for role in roles]
        async with self.store.write() as tx:
            if await tx.game(game_id) is not None:
                raise ServiceError(f"A game with the id {game_id!r} already exists.")
            await tx.insert_game(row)
            for seat in seat_rows:
                await tx.insert_seat(seat)
            tip = await tx.insert_snapshot(
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
        self._remember(_Live(row, seat_rows, ruleset, state, tip=tip))
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
            self._check_one_seat(live, user, role)
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
        self,
        game_id: str,
        by: str,
        role: str,
        user: str | None,
        why: str = "",
        *,
        as_creator: bool = False,
    ) -> SeatInfo:
        """A moderator seats ``user`` in ``role`` (or frees it with ``None``); audited.

        Nobody is seated in a second role of a game (:meth:`_check_one_seat`);
        ``as_creator``: see :meth:`_check_moderator`.
        """
        async with self._locked(game_id):
            live = await self._live(game_id)
            self._check_moderator(live, by, as_creator)
            self._require(live, "open", "active", "paused")
            self._check_role(live, role)
            if user is not None:
                self._check_one_seat(live, user, role)
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

    async def set_status(
        self, game_id: str, by: str, status: str, why: str = "", *, as_creator: bool = False
    ) -> str:
        """A moderator pauses (``"paused"``) or resumes (``"active"``) a game; audited."""
        if status not in ("paused", "active"):
            raise ServiceError("A game can be paused or resumed, nothing else.")
        async with self._locked(game_id):
            live = await self._live(game_id)
            self._check_moderator(live, by, as_creator)
            self._require(live, "active" if status == "paused" else "paused")
            async with self.store.write() as tx:
                await tx.update_game(game_id, status=status)
                await tx.insert_audit(
                    game_id, by, "pause" if status == "paused" else "resume", {}, why, self.clock()
                )
            live.row.status = status
            return status

    async def end(self, game_id: str, by: str, why: str, *, as_creator: bool = False) -> GameStatus:
        """A moderator ends a game before its rules do; the dice secret is revealed."""
        if not why.strip():
            raise ServiceError("Say why the game is being ended.")
        async with self._locked(game_id):
            live = await self._live(game_id)
            self._check_moderator(live, by, as_creator)
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
        await tx.prune_snapshots(live.row.id)  # only what a finished game reads (issue 16)
        await tx.prune_notifications(live.row.id)  # notices now moot (issue 16)
        await tx.seal_log(live.row.id, live.row.ruleset)  # the log in chunks (issue 16)
        for key, value in changes.items():
            setattr(live.row, key, value)

    @staticmethod
    def _check_moderator(live: _Live, by: str, as_creator: bool) -> None:
        """Issue 10 item 5: a player is not their own moderator.

        The front end vouches for the server's moderators (and the console's local
        owner); ``as_creator`` says that ``by`` claims the act only as the creator of the
        game, which counts only while they hold no seat in it.
        """
        if not as_creator:
            return
        game = live.row.id
        if by != live.row.created_by:
            raise ServiceError(
                f"Only a moderator of the server or the creator of game {game} may do that."
            )
        held = live.roles_of(by)
        if held:
            raise ServiceError(
                f"You play {', '.join(held)} in game {game}, so creating it does not make you "
                "its moderator; ask one of the server's moderators."
            )

    @staticmethod
    def _check_one_seat(live: _Live, user: str, role: str) -> None:
        """Nobody holds two seats of one game: each role of a scenario is one player (a
        scenario where one player leads several powers has one role for them, as A&A
        Revised's seatings do). The console's hot-seat games are seated at creation."""
        other = [r for r in live.roles_of(user) if r != role]
        if other:
            raise ServiceError(
                f"{user} already holds {', '.join(other)} in game {live.row.id}, and nobody "
                "may hold two seats of one game."
            )

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
        return [_summary(r) for r in rows]

    async def game_list(
        self, guild: str | None, user: str, *, limit: int, offset: int = 0
    ) -> tuple[int, list[tuple[GameSummary, bool]]]:
        """A page of the games of server ``guild`` and of ``user``'s own games, filtered
        and cut in the database (issue 15 item 6): the number in all, and each game of the
        page with whether ``user`` created it or holds a seat in it."""
        async with self.store.read() as tx:
            total, rows = await tx.game_list(guild, user, limit=limit, offset=offset)
        return total, [(_summary(r), mine) for r, mine in rows]

    async def fill_guild(self, channel: str, guild: str) -> list[str]:
        """Record the server of the games played in ``channel`` that did not know it (games
        made before the server was stored); their ids."""
        async with self.store.write() as tx:
            filled = await tx.fill_guild(channel, guild)
        for game_id in filled:
            self.forget(game_id)
        return filled

    # -- settings of Discord users and servers (issue 15) ------------------------------

    async def user_settings(self, user: str) -> UserSettingsRow:
        """A member's settings; the defaults (no direct messages, no time zone) if unset."""
        async with self.store.read() as tx:
            found = await tx.user_settings(user)
        return found or UserSettingsRow(user)

    async def set_user_settings(self, user: str, **changes: Any) -> UserSettingsRow:
        """Change some of a member's settings (``dms``, ``timezone``, ``dm_closed_told``);
        the front end has checked the values."""
        unknown = set(changes) - {"dms", "timezone", "dm_closed_told"}
        if unknown:
            raise ValueError(f"user settings that do not exist: {sorted(unknown)}")
        async with self.store.write() as tx:
            old = await tx.user_settings(user) or UserSettingsRow(user)
            new = replace(old, **changes, updated_at=self.clock())
            await tx.put_user_settings(new)
        return new

    async def guild_settings(self, guild: str) -> GuildSettingsRow:
        """A server's settings; every one None (the bot's default) if unset."""
        async with self.store.read() as tx:
            found = await tx.guild_settings(guild)
        return found or GuildSettingsRow(guild)

    async def set_guild_settings(self, guild: str, by: str, **changes: Any) -> GuildSettingsRow:
        """Change some of a server's settings (None: back to the bot's default); the front
        end has checked the values and that ``by`` moderates the server."""
        known = {"moderator_role", "deadline_hours", "reply_hours", "reminders", "map_width"}
        unknown = set(changes) - known
        if unknown:
            raise ValueError(f"server settings that do not exist: {sorted(unknown)}")
        async with self.store.write() as tx:
            old = await tx.guild_settings(guild) or GuildSettingsRow(guild)
            new = replace(old, **changes, updated_by=by, updated_at=self.clock())
            await tx.put_guild_settings(new)
        return new

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
            guild=r.guild,
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

    async def view_at_turn(
        self, game_id: str, turn: int, user: str | None = None, role: str | None = None
    ) -> ViewResult:
        """What ``role`` (``None``: the public) could see at the start of turn ``turn``,
        for ``/game map turn:`` (issue 15 item 4); ``seq`` is the action it follows. A
        role's view only for the member who holds that role now."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            if role is not None:
                self._check_role(live, role)
                if user is None or role not in live.roles_of(user):
                    raise ServiceError(self._not_seated(live, user or "", role))
            seq = await self._turn_start(live, turn)
            state = await self._state_at(live, seq)
            return ViewResult(game_id, role, seq, live.ruleset.view(state, role))

    async def game_log(
        self, game_id: str, *, audience: str | None = None, include_undone: bool = False
    ) -> list[LogLine]:
        """The log of a game as ``audience`` may read it: the public (``None``, the
        default), a role, or everything (``"*"``, a moderator's audit). Its live actions,
        or every entry with ``include_undone`` (ARCHITECTURE: the log is a view)."""
        async with self._locked(game_id):
            live = await self._live(game_id)
            if audience is not None and audience != EVERYONE:
                self._check_role(live, audience)
            async with self.store.read() as tx:
                rows = (
                    await tx.log_entries(game_id)
                    if include_undone
                    else await tx.live_actions(game_id)
                )
        return [self._log_line(live.ruleset, a, audience) for a in rows]

    @staticmethod
    def _order_text(ruleset: Ruleset, order: dict[str, Any]) -> str:
        try:
            return ruleset.load_order(order).text()
        except (IllegalOrder, ValueError):
            return json.dumps(order)

    def _log_line(self, ruleset: Ruleset, a: ActionRow, audience: str | None) -> LogLine:
        """One action as ``audience`` reads it: an event it may not see is left out, and a
        private order reads as the others' text of its ``ORDER`` event."""
        return LogLine(
            seq=a.seq,
            entry=a.entry,
            role=a.role,
            user=a.user,
            order=_order_for(self._order_text(ruleset, a.order), a.events, audience),
            events=_event_lines(a.events, audience),
            rolls=_rolls_for(_roll_infos(a.rolls), a.events, audience),
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
        try:
            async with self._locked(game_id):
                try:
                    return await self._submit(game_id, user, order, role, seen)
                except _Moved:
                    raise await self._stale(game_id, seen) from None
        finally:
            _settle_garbage()

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
        prompt = live.prompt if live.prompt is not None else rs.prompt(live.state)
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
        parsed: Order | None = None
        try:
            if isinstance(order, Order):
                parsed = order
            elif isinstance(order, dict):
                parsed = rs.load_order(order)
            else:
                parsed = rs.parse_order(order)
            # Apply exactly what the log will give back on replay: the stored form.
            parsed = rs.load_order(_canonical(parsed.to_dict()))
            refusal = ""
        except IllegalOrder as exc:
            parsed, refusal = None, exc.message
        except Exception:
            log.exception("the order parser failed on %r in game %s", order, game_id)
            parsed, refusal = None, f"{excerpt(str(order))} is not an order of {rs.title}: {prompt.text}"
        # another role's decision: only an order the game takes at any moment (a standing
        # order, set ahead of the decisions it answers: ``any_time_verbs``) goes on
        if role != prompt.role and (
            parsed is None or parsed.verb not in getattr(rs, "any_time_verbs", ())
        ):
            waiting = live.holder(prompt.role)
            raise ServiceError(
                f"It is {prompt.role}'s decision now{f' ({waiting})' if waiting else ''}, "
                f"not {role}'s: {prompt.text_for(role)}",
                live.prompt_info(prompt),
            )
        if parsed is None:
            raise ServiceError(refusal, live.prompt_info(prompt))
        seq = live.row.head + 1
        previous = await self._chain_at(live, seq - 1)
        dice = order_dice(
            live.row.secret, game_id, live.row.dice_scheme, seq, previous, parsed.to_dict()
        )
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
            chain=dice.chain,
        )
        new = _Live(_copy_row(live.row), live.seats, rs, state, dice.chain, next_prompt, live.tip)
        new.row.head, new.row.entries, new.row.version = seq, entry, live.row.version + 1
        # worked out before the write transaction, which holds the game's lock (SQLite's
        # file-wide writer lock) only for its statements
        dumped = rs.dump_state(state) if after != before or finished else None
        async with self._write(live, head=seq, entries=entry, version=new.row.version) as tx:
            await tx.append_action(action, ruleset=live.row.ruleset, previous=previous)
            if dumped is not None:
                new.tip = await tx.insert_snapshot(
                    SnapshotRow(
                        game_id, entry, seq, after.turn, after.player, after.phase, dumped
                    ),
                    tip=live.tip,
                )
            if finished:
                data = result.model_dump() if result is not None else None
                await self._finish(tx, new, data, now)
                new.tip = None  # ending prunes the snapshots
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
            events=_event_lines(action.events, role),
            rolls=_roll_infos(action.rolls),
            prompt=new.prompt_info(next_prompt),
            result=_result_info(new.row.result),
            secret=live.row.secret.hex() if finished else None,
            raw_events=action.events,
        )

    async def _chain_at(self, live: _Live, seq: int) -> str | None:
        """``h_seq`` of the live line, the chain the dice of action ``seq + 1`` build on
        (ARCHITECTURE: Dice); None at the start or under the plain scheme."""
        if live.row.dice_scheme != CHAIN_V1 or seq == 0:
            return None
        if seq == live.row.head and live.chain is not None:
            return live.chain
        async with self.store.read() as tx:
            chain = await tx.live_chain(live.row.id, seq)
        if chain is None:
            raise ServiceError(
                f"Game {live.row.id} has lost the dice chain of action {seq}; ask a moderator."
            )
        return chain

    async def _queue_prompt(self, tx: Tx, live: _Live, prompt: PromptInfo, now: float) -> None:
        """Queue the notice of a new decision. A notice may be posted where anyone reads
        it, so it carries the prompt as the public reads it."""
        if prompt.role is not None:
            await tx.insert_notification(
                live.row.id,
                "prompt",
                prompt.text_for(None),
                now,
                now,
                role=prompt.role,
                user=prompt.user,
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
            # the refusal goes to this user: quote the order as one of their roles reads it
            reader = last.role if last.role in held else (role or held[0])
            shown = _order_for(text, last.events, reader)
            what = f"the last order of game {game_id} (action {last.seq}, {last.role}: {shown})"
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
                    {
                        "seq": last.seq,
                        "entry": last.entry,
                        "order": text,
                        "public_order": _order_for(text, last.events, None),
                    },
                    "",
                    now,
                )
                await tx.mark_undone(game_id, target, audit_id)
            new = _Live(_copy_row(live.row), live.seats, live.ruleset, state)
            new.row.head, new.row.version = target, live.row.version + 1
            self._remember(new)
            return UndoResult(
                game_id,
                last.seq,
                text,
                last.role,
                new.prompt_info(),
                public_order=_order_for(text, last.events, None),
            )

    async def rollback(
        self,
        game_id: str,
        by: str,
        *,
        why: str,
        to: int | None = None,
        turn: int | None = None,
        as_creator: bool = False,
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
            self._check_moderator(live, by, as_creator)
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
                            f"{_duration(before)}: {prompt.text_for(None)}",
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

    async def claim_due(
        self,
        holder: str,
        lease: float,
        *,
        now: float | None = None,
        deadlines: bool = True,
        notices: bool = True,
        with_channel: bool | None = None,
        skip_kinds: Iterable[str] = (),
    ) -> Due:
        """Take what is due for ``holder`` for ``lease`` seconds, so that no other
        process acts on it meanwhile (issue 16; :mod:`bot.deadlines`): with ``deadlines``
        the passed deadlines, with ``notices`` the notices due but those of
        ``skip_kinds``; with ``with_channel`` True (False) only those of games with
        (without) a Discord channel. Mark each with :meth:`mark_handled` once acted on;
        one left unmarked is taken again when the lease runs out."""
        now = self.clock() if now is None else now
        until = now + lease
        async with self.store.write() as tx:
            passed = []
            if deadlines:
                passed = await tx.claim_deadlines(now, holder, until, with_channel=with_channel)
            notes = []
            if notices:
                notes = await tx.claim_notifications(
                    now, holder, until, with_channel=with_channel, skip_kinds=skip_kinds
                )
        # the seats are read after the claim's commit: a claim never waits for a game's lock
        seats: dict[str, list[SeatRow]] = {}
        if passed:
            async with self.store.read() as tx:
                seats = {g: await tx.seats(g) for g in {r.game for r in passed}}
        return Due(
            [self._deadline_info(r, seats[r.game]) for r in passed],
            [_notification_info(n) for n in notes],
        )

    async def hold(
        self,
        holder: str,
        until: float,
        *,
        deadlines: Iterable[int] = (),
        notifications: Iterable[int] = (),
    ) -> int:
        """Move the lease ``holder`` has on these rows to ``until``: longer while acting,
        or to the time a refused notice is tried again; how many it still held."""
        async with self.store.write() as tx:
            return await tx.hold_claims(
                holder, until, deadlines=deadlines, notifications=notifications
            )

    async def next_claim_at(
        self,
        *,
        notices: bool = True,
        with_channel: bool | None = None,
        skip_kinds: Iterable[str] = (),
    ) -> float | None:
        """When :meth:`claim_due` with the same filters may next find something: the
        next due time, or the end of a lease another process holds (None: nothing)."""
        async with self.store.read() as tx:
            return await tx.next_claim_at(
                notices=notices, with_channel=with_channel, skip_kinds=skip_kinds
            )

    async def notifications(self, game_id: str) -> list[NotificationInfo]:
        async with self.store.read() as tx:
            return [_notification_info(n) for n in await tx.notifications(game_id)]

    # -- seats by email (bot/email; ARCHITECTURE: Front ends) --------------------------

    async def seat_email(
        self,
        game_id: str,
        by: str,
        role: str,
        address: str,
        token_hash: str,
        nonce: str,
        why: str = "",
        *,
        as_creator: bool = False,
    ) -> SeatInfo:
        """A moderator seats the holder of a mail address in ``role``: the seat's user is
        ``mail:<address>`` (through :meth:`assign_seat`, so audited and checked alike, the
        creator's right to moderate included), and the seat's token is stored only as its
        hash. Seating again gives a new token."""
        address = address.strip().lower()
        seat = await self.assign_seat(
            game_id, by, role, f"mail:{address}", why, as_creator=as_creator
        )
        async with self.store.write() as tx:
            await tx.put_email_seat(game_id, role, address, token_hash, nonce, self.clock())
        return seat

    async def email_seats(self, game_id: str | None = None) -> list[EmailSeatRow]:
        """The seats played by mail (of one game, or all) that still hold their seat."""
        async with self.store.read() as tx:
            rows = await tx.email_seats(game_id)
            games = {r.game for r in rows}
            holders = {(s.game, s.role): s.user for g in games for s in await tx.seats(g)}
        return [r for r in rows if holders.get((r.game, r.role)) == f"mail:{r.address}"]

    async def email_seat_by_token(self, token_hash: str) -> EmailSeatRow | None:
        async with self.store.read() as tx:
            row = await tx.email_seat_by_token(token_hash)
            if row is None:
                return None
            seats = await tx.seats(row.game)
        held = any(s.role == row.role and s.user == f"mail:{row.address}" for s in seats)
        return row if held else None

    async def set_email_token(
        self, game_id: str, role: str, token_hash: str, nonce: str
    ) -> EmailSeatRow:
        """Give an email seat a new token (the old one stops working)."""
        seats = {r.role: r for r in await self.email_seats(game_id)}
        if role not in seats:
            raise ServiceError(f"{role} in game {game_id} is not played by email.")
        row = seats[role]
        async with self.store.write() as tx:
            await tx.put_email_seat(game_id, role, row.address, token_hash, nonce, self.clock())
        row.token_hash, row.nonce = token_hash, nonce
        return row

    async def set_email_mailed(self, game_id: str, role: str, seq: int) -> None:
        async with self.store.write() as tx:
            await tx.set_email_mailed(game_id, role, seq)

    async def email_message(self, message_id: str) -> MailRow | None:
        async with self.store.read() as tx:
            return await tx.email_message(message_id)

    async def record_email_message(
        self, mail: MailRow, outgoing: Iterable[tuple[str, bytes]] = ()
    ) -> None:
        """Record how far a mail is handled and queue the mail it causes, in one transaction."""
        async with self.store.write() as tx:
            await tx.put_email_message(mail)
            for recipient, message in outgoing:
                await tx.queue_email(recipient, message, self.clock())

    async def email_messages_from(self, sender: str, since: float) -> int:
        async with self.store.read() as tx:
            return await tx.email_messages_from(sender, since)

    async def queue_email(
        self,
        outgoing: Iterable[tuple[str, bytes]],
        *,
        cursors: dict[str, int] | None = None,
        mailed: Iterable[tuple[str, str, int]] = (),
        record: MailRow | None = None,
    ) -> None:
        """Queue mail, and in the same transaction move the notice cursors, the seats'
        last mailed action and the record of the mail being answered."""
        async with self.store.write() as tx:
            if record is not None:
                await tx.put_email_message(record)
            for recipient, message in outgoing:
                await tx.queue_email(recipient, message, self.clock())
            for name, value in (cursors or {}).items():
                await tx.set_email_cursor(name, value)
            for game_id, role, seq in mailed:
                await tx.set_email_mailed(game_id, role, seq)

    async def unsent_email(self, limit: int = 100) -> list[tuple[int, str, bytes, int]]:
        async with self.store.read() as tx:
            return await tx.unsent_email(limit)

    async def mark_email(self, outbox_id: int, error: str | None = None) -> None:
        """The SMTP server took the mail (``error`` None) or refused it."""
        async with self.store.write() as tx:
            if error is None:
                await tx.mark_email_sent(outbox_id, self.clock())
            else:
                await tx.mark_email_failed(outbox_id, error)

    async def email_notices(
        self,
    ) -> tuple[dict[str, int], list[NotificationRow], list[AuditRow]]:
        """The notice cursors, and the notifications and audit entries after them: every
        notification but reminders by number, and reminders once due, by due time."""
        async with self.store.read() as tx:
            names = ("notifications", "audit", "reminders")
            cursors = {n: await tx.email_cursor(n) for n in names}
            notes = [
                n
                for n in await tx.notifications_after(cursors["notifications"])
                if n.kind != "reminder"
            ]
            floor = await tx.email_cursor("reminder_floor")
            notes += await tx.reminders_due(cursors["reminders"], floor, self.clock())
            audit = await tx.audit_after(cursors["audit"])
        return cursors, notes, audit

    # -- export, verify, import ------------------------------------------------------

    async def export(self, game_id: str, *, with_secret: bool = False) -> dict[str, Any]:
        """The whole game as JSON data. The secret goes in once the game has ended, or
        with ``with_secret`` (a moderator moving a game: it spoils the dice for readers)."""
        async with self._locked(game_id):
            found = await self.store.game_and_seats(game_id)
            if found is None:
                raise ServiceError(f"There is no game {game_id!r}.")
            r, seats = found
            final_state = None
            if r.revealed_at is not None or with_secret:
                # only the final state's hash needs the game rebuilt (the ruleset imported
                # and the log replayed): the public's export is read straight from the rows
                live = await self._live(game_id)
                r, seats = live.row, live.seats
                final_state = state_sha256(live.ruleset, live.state)
            async with self.store.read() as tx:
                entries = await tx.log_entries(game_id)
                audit = await tx.audit(game_id)
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
                dice_scheme=r.dice_scheme,  # type: ignore[arg-type]
            ),
            secret=r.secret.hex() if revealed or with_secret else None,
            seats=[ExportSeat(**asdict(_seat_info(s))) for s in seats],
            setup_rolls=[ExportRoll(**x) for x in r.setup_rolls],
            actions=[_export_action(a) for a in entries],
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
            final_state_sha256=final_state,
        )
        if data.secret is None:
            data = _public_export(data)
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
        written if anything is wrong. The game keeps its id, since its dice depend on it.

        The export is untrusted input (issue 10): ``by`` becomes the game's creator (the
        creator the export names is kept in the audit trail), and the game keeps its
        Discord channel only if no game of this database is played there."""
        export = parse_export(data)
        if export.secret is None:
            raise ServiceError(
                "That export has no dice secret (the game had not ended): it is the public's "
                "export, with the orders that name hidden pieces left out, so it cannot be "
                "replayed or imported; export it with its secret."
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
            channel = g.channel
            if channel is not None and await tx.list_games(channel=channel):
                channel = None  # that channel holds a game here: the import does not take it
            finished = g.status == "finished"
            await tx.insert_game(
                GameRow(
                    id=g.id,
                    ruleset=g.ruleset,
                    scenario=g.scenario,
                    options=g.options,
                    commitment=g.commitment,
                    secret=secret,
                    created_by=by,
                    created_at=g.created_at,
                    status=g.status,
                    datapack_version=g.datapack_version,
                    channel=channel,
                    revealed_at=(g.ended_at or now) if finished else None,
                    setup_rolls=[r.model_dump() for r in export.setup_rolls],
                    head=g.head,
                    entries=len(export.actions),
                    version=0,
                    result=g.result,
                    ended_at=g.ended_at if finished else None,
                    dice_scheme=g.dice_scheme,
                )
            )
            for seat in export.seats:
                await tx.insert_seat(SeatRow(g.id, **seat.model_dump()))
            audit_ids: dict[int, int] = {}
            for a in export.audit:
                audit_ids[a.id] = await tx.insert_audit(
                    g.id, a.user, a.act, a.detail, a.why, a.created_at
                )
            detail: dict[str, Any] = {
                "entries": len(export.actions),
                "head": g.head,
                "created_by": g.created_by,
            }
            if channel != g.channel:
                detail["channel_not_taken"] = g.channel
            await tx.insert_audit(g.id, by, "import", detail, "", now)
            for a in export.actions:
                row = ActionRow(game=g.id, **a.model_dump())
                row.chain = checked.chains.get(a.entry)  # recomputed, never taken on trust
                row.undone_by = audit_ids[a.undone_by] if a.undone_by is not None else None
                await tx.append_action(row)
            for snap in checked.snapshots:
                await tx.insert_snapshot(snap)
            if finished:
                await tx.prune_snapshots(g.id)  # as ending it did (issue 16)
                await tx.seal_log(g.id, g.ruleset)
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


def _summary(r: GameRow) -> GameSummary:
    return GameSummary(
        r.id, r.ruleset, r.scenario, r.status, r.head, r.channel, r.created_by, r.created_at,
        r.guild,
    )  # fmt: skip


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
    problem = _json_problem(data)
    if problem is None:
        try:
            export = GameExport.model_validate(data)
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(excerpt(str(p)) if isinstance(p, str) else str(p) for p in err["loc"])
            raise ServiceError(f"The export is damaged at {where}: {err['msg']}.") from None
        problem = _export_problem(export)
    if problem is not None:
        raise ServiceError(f"The export is damaged: {problem}")
    return export


#: a game id: letters, digits, '-' and '_', starting with a letter or digit (it names files
#: and lines of `umpire list`, so nothing else may be in it)
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")
#: times an export may record: from 2000 to 2100 (seconds since the epoch)
EARLIEST, LATEST = 946_684_800.0, 4_102_444_800.0
#: the largest integer an export may hold (JSON's safe integers, well inside SQLite's)
MAX_INT = 2**53
#: the longest user or time zone name an export may give (an e-mail address fits)
MAX_NAME = 320
#: the longest text anywhere in an export (an event's text is a line or two)
MAX_TEXT = 10_000
#: the most log entries an import replays (a long game has about 10,000)
MAX_LOG_ENTRIES = 200_000


def game_id_problem(game_id: Any) -> str | None:
    """Why ``game_id`` cannot name a game (one sentence), or None if it can."""
    if isinstance(game_id, str) and GAME_ID.fullmatch(game_id):
        return None
    return (
        f"The game id {excerpt(str(game_id))} is not allowed: a game id is 1 to 64 letters, "
        "digits, '-' or '_', starting with a letter or digit."
    )


def _json_problem(data: Any) -> str | None:
    """What makes JSON ``data`` unsafe to store, walked without recursion: an integer
    beyond ``MAX_INT``, a number that is not finite, text that is not valid Unicode."""
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, bool) or item is None:
            continue
        if isinstance(item, int):
            if not -MAX_INT <= item <= MAX_INT:
                return "it holds an integer too large for any field of an export."
        elif isinstance(item, float):
            if not math.isfinite(item):
                return f"it holds {item}, which is not a finite number."
        elif isinstance(item, str):
            if len(item) > MAX_TEXT:
                return f"it holds a text of {len(item):,} characters; none needs over {MAX_TEXT:,}."
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return f"it holds text that is not valid Unicode ({ascii(item[:24])})."
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
        else:
            return f"it holds a {type(item).__name__}, which JSON has not."
    return None


def _export_problem(export: GameExport) -> str | None:
    """What in a well-formed export cannot be true of a game (one sentence), or None:
    checked before anything is replayed or stored (issue 10, item 2)."""
    g = export.game
    problem = game_id_problem(g.id)
    if problem is not None:
        return problem
    try:
        ruleset = registry.ruleset(g.ruleset)
    except KeyError:
        return f"{excerpt(g.ruleset)} is not a game this Umpire knows."
    scenarios = [s.id for s in ruleset.scenarios()]
    if g.scenario not in scenarios:
        return f"{ruleset.title} has no scenario {excerpt(g.scenario)}."
    roles = ruleset.roles(g.scenario)
    seated = [s.role for s in export.seats]
    if sorted(seated) != sorted(roles):
        return (
            f"its seats are {', '.join(excerpt(r) for r in seated) or 'none'}; "
            f"the scenario's roles are {', '.join(roles)}, each once."
        )
    for s in export.seats:
        for name in (s.user, s.timezone):
            if name is not None and not 0 < len(name) <= MAX_NAME:
                return f"the seat of {s.role} names {excerpt(name)}, which is not a name."
    if g.channel is not None and not (g.channel.isascii() and g.channel.isdigit()):
        return f"its channel {excerpt(g.channel)} is not a Discord channel id."
    if g.channel is not None and len(g.channel) > 20:
        return f"its channel {excerpt(g.channel)} is not a Discord channel id."
    if not 0 < len(g.created_by) <= MAX_NAME:
        return f"its creator {excerpt(g.created_by)} is not a name."
    for name, value in (
        ("commitment", g.commitment),
        ("dice secret", export.secret),
        ("final state hash", export.final_state_sha256),
    ):
        if value is not None and not re.fullmatch(r"[0-9a-f]{64}", value):
            return f"its {name} is not 64 hexadecimal digits."
    times = [("the game's creation", g.created_at), ("the game's end", g.ended_at)]
    times += [(f"log entry {a.entry}", a.created_at) for a in export.actions]
    times += [(f"audit entry {a.id}", a.created_at) for a in export.audit]
    for what, ts in times:
        if ts is not None and not EARLIEST <= ts <= LATEST:
            return f"the time of {what} ({ts}) is not between the years 2000 and 2100."
    if len(export.actions) > MAX_LOG_ENTRIES:
        return f"its log has {len(export.actions):,} entries; an import takes at most {MAX_LOG_ENTRIES:,}."
    if not 0 <= g.head <= len(export.actions):
        return f"it stands at action {g.head}, but its log has {len(export.actions)} entries."
    ids = [a.id for a in export.audit]
    if len(set(ids)) != len(ids):
        return "two entries of its audit trail have the same number."
    rolls = [("the set-up", r) for r in export.setup_rolls]
    rolls += [(f"log entry {a.entry}", r) for a in export.actions for r in a.rolls]
    for where, r in rolls:
        if not 2 <= r.sides <= MAX_SIDES:
            return f"{where} rolls a die of {r.sides} sides; a die has 2 to {MAX_SIDES}."
        if not 1 <= r.value <= r.sides:
            return f"{where} rolls {r.value} on a d{r.sides}."
    for a in export.actions:
        if a.role not in roles:
            return f"log entry {a.entry} is given by {excerpt(a.role)}, which is not a role."
        if not 0 < len(a.user) <= MAX_NAME:
            return f"log entry {a.entry} names {excerpt(a.user)}, which is not a user."
        if len(a.phase) > MAX_NAME:
            return f"log entry {a.entry} names the phase {excerpt(a.phase)}, which is not a phase."
    return None


@dataclass
class _Checked:
    report: VerifyReport
    ruleset: Ruleset
    snapshots: list[SnapshotRow]
    chains: dict[int, str | None] = field(default_factory=dict)  # entry: h_seq, recomputed


def verify_export(data: Any) -> VerifyReport:
    """Check an exported game that carries its secret: the commitment, every roll
    recomputed from the secret, and every log entry (undone ones too) replayed in the
    order written, with the same dice, events and final state."""
    export = parse_export(data)
    if export.secret is None:
        raise ServiceError(
            f"Game {export.game.id} has not ended, so the export has no dice secret to verify "
            "with; it is the public's export, in which orders that name hidden pieces read as "
            "the public reads them, so it cannot be replayed. Verify the export made after "
            "the end, or one a moderator made with the secret."
        )
    return _check_export(export).report


#: how many of the latest states verification keeps (see ``_check_export``)
RECENT = 64


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
        where: str,
        seq: int,
        logged: list[ExportRoll],
        now: list[dict[str, Any]],
        chain: str | None,
    ) -> None:
        for k, roll in enumerate(logged):
            report.rolls += 1
            if roll.sides < 2:
                problems.append(f"{where}: roll {k + 1} is on a die of {roll.sides} sides.")
                continue
            fair = derive_roll(secret, g.id, seq, k, roll.sides, chain)
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

    chains = checked.chains  # entry: h_seq, recomputed from the orders (ARCHITECTURE: Dice)
    dice = setup_dice(secret, g.id, g.dice_scheme)
    try:
        state = ruleset.setup(g.scenario, g.options, dice)
    except Exception as exc:  # noqa: BLE001 - any failure is a verification finding
        problems.append(f"The set-up cannot be replayed: {_clip(str(exc))}.")
        return checked
    check_rolls("The set-up", 0, export.setup_rolls, _rolls(dice), dice.chain)

    def snapshot(entry: int, seq: int, st: Any) -> SnapshotRow:
        p = ruleset.progress(st)
        return SnapshotRow(g.id, entry, seq, p.turn, p.player, p.phase, ruleset.dump_state(st))

    checked.snapshots.append(snapshot(0, 0, state))
    # The line of play as it stood when each entry was written; rollbacks cut it back.
    line: list[ExportAction] = []
    # States after some actions of the line, by action number (keys in increasing order):
    # the last RECENT ones, so that an undo costs no replay, and one in 32 for good, so
    # that a deeper rollback replays at most 31 actions. Cutting back further than RECENT
    # needs as many new entries as the cut, so verification stays linear in the log
    # (issue 10: 5,000 order-and-undo cycles cost 13 times a normal log).
    states: dict[int, Any] = {0: state}

    def keep(seq: int, st: Any) -> None:
        states[seq] = st
        old = seq - RECENT
        if old > 0 and old % 32 and old in states:
            del states[old]

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
            while next(reversed(states)) > len(line):
                states.popitem()
            base = next(reversed(states))
            state = states[base]
            for b in line[base:]:
                state = apply_logged(ruleset, g.id, secret, state, b, chains[b.entry])[0]
                keep(b.seq, state)
        previous = chains[line[-1].entry] if line else None
        chains[a.entry] = order_dice(secret, g.id, g.dice_scheme, a.seq, previous, a.order).chain
        report.actions += 1
        before = ruleset.progress(state)
        if (before.turn, before.phase) != (a.turn, a.phase):
            problems.append(
                f"{where} was given in turn {before.turn} {before.phase} on replay, but the "
                f"log says turn {a.turn} {a.phase}."
            )
        try:
            state, rolls, events = apply_logged(ruleset, g.id, secret, state, a, chains[a.entry])
        except IllegalOrder as exc:
            problems.append(f"{where}: the rules refuse it on replay: {_clip(exc.message)}")
            return checked
        except Exception as exc:  # noqa: BLE001 - any failure is a verification finding
            problems.append(f"{where} cannot be replayed: {_clip(repr(exc))}.")
            return checked
        check_rolls(where, a.seq, a.rolls, rolls, chains[a.entry])
        if _canonical(events) != _canonical(a.events):
            problems.append(f"{where}: replaying it gives other events than the log records.")
        after = ruleset.progress(state)
        line.append(a)
        if after != before or ruleset.result(state) is not None:
            checked.snapshots.append(snapshot(a.entry, a.seq, state))
        keep(a.seq, state)
    if 0 <= g.head < len(line):
        # The log ends with orders taken back (an undo or a rollback with nothing after).
        cut.update(b.entry for b in line[g.head :])
        del line[g.head :]
        base = max(n for n in states if n <= g.head)
        state = states[base]
        for b in line[base:]:
            state = apply_logged(ruleset, g.id, secret, state, b, chains[b.entry])[0]
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


def _clip(text: str, limit: int = 300) -> str:
    """A message quoted in a finding, cut short: an export's text may be as long as it likes."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _dice_text(rolls: list[dict[str, Any]]) -> str:
    return ", ".join(f"{r['value']} on d{r['sides']}" for r in rolls) or "no dice"
