"""The game table: what happens around each command besides parsing and replying.

The cogs parse an interaction and call one method here; this module calls the service,
then tells the channel what happened (ARCHITECTURE: Front ends): a battle's dice and
results as they happen, the public map and the turn's log when a player turn ends, and a
mention of the player whose decision it now is, pinging nobody else. It also arms the
next deadline, and applies standing orders or defaults when one passes.

Everything it needs beyond the service's API is kept thin and says so: the start of a
player turn is found from the snapshots the service writes at every change of phase.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import discord

from bot.deadlines import UMPIRE, Applied, apply_passed
from bot.discord import formatting as fmt
from bot.discord.buttons import lobby_view, turn_view
from bot.discord.choices import Menus
from bot.discord.config import (
    HOUR,
    ServerSettings,
    Settings,
    in_zone,
    server_settings,
)
from bot.discord.images import (
    Renderer,
    closeup,
    game_caption,
    logged_orders,
    places_caption,
    render,
    role_title,
)
from bot.discord.respond import tell_caller
from bot.discord.standing import describe
from bot.service import (
    Created,
    DeadlineInfo,
    GameStatus,
    GameSummary,
    NotificationInfo,
    OrderResult,
    PromptInfo,
    RollbackResult,
    SeatInfo,
    Service,
    ServiceError,
    UndoResult,
    ViewResult,
)
from bot.store import StoreError
from engine.core.ruleset import Progress

log = logging.getLogger(__name__)

#: notices the table posts itself right after the command; the scheduler only sends
#: the ones a crash kept from being posted
ANNOUNCED_INLINE = {"prompt", "rollback", "ended"}
#: minutes before Discord archives a quiet game thread: the longest it offers
THREAD_ARCHIVE_MINUTES = 10080
#: seconds a server's settings are kept in memory (another process may change them)
SERVER_SETTINGS_TTL = 30.0


class Refusal(Exception):
    """A command the bot itself refuses (not the service); the text is for the user."""


@dataclass(frozen=True)
class OwnMap:
    """A role's own pictures of a game (:meth:`GameTable.role_map`), with what their
    captions name: the game by its title and the role by the name players read."""

    png: bytes | None
    note: str
    role: str
    role_title: str
    caption: str
    closeup: bytes | None = None
    places: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Policy:
    """How long each decision may take in a game: a phase of the moving player, and a
    reply of the other player mid-turn; ``0`` for no deadline. ``reminders`` are lead
    times before a deadline, in seconds."""

    phase_seconds: float
    reply_seconds: float
    reminders: tuple[float, ...]

    def text(self) -> str:
        def hours(s: float) -> str:
            return "none" if s <= 0 else f"{s / HOUR:g} h"

        before = ", ".join(f"{r / HOUR:g} h" for r in self.reminders) or "none"
        return (
            f"deadlines: {hours(self.phase_seconds)} a phase, {hours(self.reply_seconds)} "
            f"for a reply mid-turn; reminders {before} before"
        )


def parse_options(text: str | None) -> dict[str, Any]:
    """``"last_turn=6, open_information=true"`` as a dict; values are JSON where they
    parse (numbers, true/false, null), otherwise text.

    >>> parse_options("last_turn=6, airfield_use=own_silhouette")
    {'last_turn': 6, 'airfield_use': 'own_silhouette'}
    """
    out: dict[str, Any] = {}
    for part in (text or "").replace(";", ",").split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise Refusal(f"The option {part.strip()!r} is not written as name=value.")
        try:
            out[key.strip()] = json.loads(value.strip())
        except json.JSONDecodeError:
            out[key.strip()] = value.strip()
    return out


def server_moderator(
    member: discord.abc.User, permissions: discord.Permissions, role: str | None
) -> bool:
    """A moderator of the server: an administrator, a member who may manage the server,
    or a member with the configured moderator role (by name or id)."""
    if permissions.administrator or permissions.manage_guild:
        return True
    if role is None or not isinstance(member, discord.Member):
        return False
    return any(r.name == role or str(r.id) == role for r in member.roles)


def moderators(role: str | None) -> str:
    """Who moderates a server, in words, given its moderator role (a name or an id)."""
    if role and role.isdigit():
        who = f"members with the <@&{role}> role, "
    else:
        who = f"members with the {role!r} role, " if role else ""
    return f"{who}server administrators and members who may manage the server"


class GameTable:
    def __init__(
        self,
        client: discord.Client,
        service: Service,
        settings: Settings,
        draw: Renderer | None = None,
    ) -> None:
        self.client = client
        self.service = service
        self.settings = settings
        self.draw = draw
        self.menus = Menus(service)
        self._upload_limits: dict[str, int] = {}
        #: called whenever a deadline is set, so the scheduler looks again (set by the bot)
        self.wake: Callable[[], None] = lambda: None
        #: the mail loop running beside the bot (bot.email.transport.Beside), when play by
        #: email is configured: /gm seat seats players by address through it
        self.mail: Any | None = None
        #: server id -> (its settings, when read): /gm config over the environment
        self._servers: dict[str, tuple[ServerSettings, float]] = {}
        #: channels whose games are known to carry their server (issue 15)
        self._guild_known: set[str] = set()

    # -- where games are -----------------------------------------------------------

    def learn(self, interaction: discord.Interaction) -> None:
        """Remember the upload limit Discord gives for this channel (for later posts)."""
        if interaction.channel_id is not None:
            self._upload_limits[str(interaction.channel_id)] = interaction.filesize_limit

    async def seen(self, interaction: discord.Interaction) -> None:
        """Games made before the server was stored learn it the first time their channel
        is used (issue 15); once per channel and process."""
        channel, guild = interaction.channel_id, interaction.guild_id
        if channel is None or guild is None or str(channel) in self._guild_known:
            return
        self._guild_known.add(str(channel))
        try:
            await self.service.fill_guild(str(channel), str(guild))
        except StoreError as exc:  # read-only or busy: the command itself will say so
            log.warning("could not record the server of channel %s: %s", channel, exc)

    # -- a server's settings (/gm config) -------------------------------------------------

    async def server(self, guild_id: int | str | None) -> ServerSettings:
        """The settings in force in a server: its own (``/gm config``) over the bot's
        environment; the environment's alone for no server."""
        if guild_id is None:
            return server_settings(self.settings, None)
        key = str(guild_id)
        now = asyncio.get_running_loop().time()
        cached = self._servers.get(key)
        if cached is not None and now - cached[1] < SERVER_SETTINGS_TTL:
            return cached[0]
        row = await self.service.guild_settings(key)
        found = server_settings(self.settings, row)
        self._servers[key] = (found, now)
        return found

    async def configure_server(self, guild_id: int, by: str, **changes: Any) -> ServerSettings:
        """Change a server's settings (the cog has checked the values and the moderator)."""
        await self.service.set_guild_settings(str(guild_id), by, **changes)
        self._servers.pop(str(guild_id), None)
        return await self.server(guild_id)

    def upload_limit(self, channel_id: str | None) -> int:
        return self._upload_limits.get(
            channel_id or "", discord.utils.DEFAULT_FILE_SIZE_LIMIT_BYTES
        )

    async def game_in(self, channel_id: int | None) -> GameSummary:
        """The game played in a channel: the one under way, else the last one finished."""
        games = await self.service.list_games(channel=str(channel_id)) if channel_id else []
        going = [g for g in games if g.status != "finished"]
        if going:
            return going[-1]
        if games:
            return games[-1]
        raise Refusal(
            "No game is played in this channel; start one with /game create, or go to the "
            "channel (or thread) of your game."
        )

    async def moderated(
        self, channel_id: int | None, member: discord.abc.User, permissions: discord.Permissions
    ) -> tuple[GameSummary, bool]:
        """The channel's game and whether ``member`` moderates it only as its creator
        (issue 10 item 5: a creator who plays in the game does not moderate it); a
        refusal if they may not moderate it."""
        game = await self.game_in(channel_id)
        guild = getattr(getattr(member, "guild", None), "id", None) or game.guild
        role = (await self.server(guild)).moderator_role
        if server_moderator(member, permissions, role):
            return game, False
        if str(member.id) == game.created_by:
            status = await self.service.status(game.game)
            held = [s.role for s in status.seats if s.user == game.created_by]
            if not held:
                return game, True
            raise Refusal(
                f"You play {', '.join(held)} in game `{game.game}`, so creating it does not "
                f"make you its moderator; ask a server moderator ({moderators(role)})."
            )
        raise Refusal(
            f"Only moderators may do that: {moderators(role)}, and the game's creator "
            f"({fmt.user(game.created_by)}) when not playing in it."
        )

    # -- the deadline policy ------------------------------------------------------------

    def default_policy(self, server: ServerSettings | None = None) -> Policy:
        """A new game's deadlines: the server's settings, else the bot's."""
        s = server or server_settings(self.settings, None)
        return Policy(s.deadline_hours * HOUR, s.reply_hours * HOUR, tuple(s.reminders))

    async def policy(self, game_id: str) -> Policy:
        d = await self.service.deadline_policy(game_id)
        if d is None:
            guild = (await self.service.status(game_id)).guild
            return self.default_policy(await self.server(guild))
        return Policy(d["phase_seconds"], d["reply_seconds"], tuple(d["reminders"]))

    async def set_policy(self, game_id: str, by: str, policy: Policy, why: str = "") -> None:
        await self.service.set_deadline_policy(game_id, by, asdict(policy), why)

    async def ensure_deadline(self, game_id: str) -> DeadlineInfo | None:
        """Give the current decision its deadline, unless it has one (ARCHITECTURE:
        Asynchronous play); None when the game sets none or is not under way."""
        status = await self.service.status(game_id)
        prompt, p = status.prompt, status.progress
        if status.status != "active" or prompt.role is None:
            return None
        open_ = await self.service.deadlines(game_id)
        phase = (p.turn, p.player, p.phase)
        for d in open_:
            if d.role == prompt.role and (d.turn, d.player, d.phase) == phase:
                return d
        policy = await self.policy(game_id)
        seconds = policy.phase_seconds if prompt.role == p.player else policy.reply_seconds
        if seconds <= 0:
            return None
        due = self.service.clock() + seconds
        deadline = await self.service.set_deadline(
            game_id, UMPIRE, due, role=prompt.role, remind_before=policy.reminders
        )
        self.wake()
        return deadline

    async def current_deadline(self, game_id: str, role: str | None) -> DeadlineInfo | None:
        return fmt.deadline_for(await self.service.deadlines(game_id), role)

    # -- games and seats ------------------------------------------------------------

    async def create(
        self,
        *,
        user: str,
        channel: discord.abc.Messageable | None,
        channel_id: int | None,
        ruleset: str,
        scenario: str | None,
        options: str | None,
        in_thread: bool,
        role: str | None,
        deadline_hours: float | None,
        reply_hours: float | None,
        guild: int | None = None,
    ) -> tuple[Created, int]:
        """A new game in this channel, or in a new thread of it; one game per channel. Its
        deadlines default to the server's settings (``/gm config``), else the bot's."""
        if channel_id is None:
            raise Refusal("Games are played in a server's text channels.")
        opts = parse_options(options)
        if not in_thread:
            going = [
                g
                for g in await self.service.list_games(channel=str(channel_id))
                if g.status != "finished"
            ]
            if going:
                raise Refusal(
                    f"This channel already holds game {going[-1].game} ({going[-1].status}); a "
                    "channel holds one game. Use thread:True to start another in a new thread."
                )
        default = self.default_policy(await self.server(guild))
        policy = Policy(
            default.phase_seconds if deadline_hours is None else deadline_hours * HOUR,
            default.reply_seconds if reply_hours is None else reply_hours * HOUR,
            default.reminders,
        )
        if policy.phase_seconds < 0 or policy.reply_seconds < 0:
            raise Refusal("A deadline cannot be negative; 0 means no deadline.")
        thread = None
        target = channel_id
        if in_thread:
            if not isinstance(channel, discord.TextChannel):
                raise Refusal(
                    "A new thread can be started only from a text channel (not a thread)."
                )
            thread = await channel.create_thread(
                name=fmt.clip(f"{ruleset} game", 100),
                type=discord.ChannelType.public_thread,
                # the longest Discord offers (a week): a slow game's thread stays in view
                auto_archive_duration=THREAD_ARCHIVE_MINUTES,
            )
            target = thread.id
        try:
            created = await self.service.create(
                ruleset,
                created_by=user,
                scenario=scenario,
                options=opts,
                seats={role: user} if role else None,
                channel=str(target),
                guild=None if guild is None else str(guild),
            )
        except ServiceError:
            if thread is not None:
                await _quietly(thread.delete())
            raise
        await self.set_policy(created.game, user, policy, "set at creation")
        status = await self.service.status(created.game)
        seats = ", ".join(f"{s.role} ({fmt.user(s.user)})" for s in created.seats)
        text = (
            f"{fmt.user(user)} created game `{created.game}`: **{status.title}**, scenario "
            f"{created.scenario}.\nSeats: {seats}. Take one with `/game join`; then `/game start`.\n"
            f"{fmt.sentence(policy.text())}.\n"
            f"Dice commitment (sha256 of the secret, revealed at the end): `{created.commitment}`"
        )
        free = [s.role for s in status.seats if s.user is None]
        await self.post(str(target), text, view=lobby_view(created.game, free))
        return created, target

    async def join(self, game_id: str, user: str, role: str | None) -> str:
        seat = await self.service.join(game_id, user, role)
        status = await self.service.status(game_id)
        free = [s.role for s in status.seats if s.user is None]
        text = f"{fmt.user(user)} joins game `{game_id}` as **{seat.role}**."
        if not free and status.status == "open":
            text += " Every seat is taken: `/game start` begins play."
        await self.post(status.channel, text, view=lobby_view(game_id, free))
        return text

    async def leave(self, game_id: str, user: str) -> str:
        seat = await self.service.leave(game_id, user)
        status = await self.service.status(game_id)
        text = f"{fmt.user(user)} leaves **{seat.role}** in game `{game_id}`; the seat is free (`/game join`)."
        free = [s.role for s in status.seats if s.user is None]
        lobby = lobby_view(game_id, free) if status.status == "open" else None
        await self.post(status.channel, text, view=lobby)
        return text

    async def start(self, game_id: str, by: str) -> PromptInfo:
        prompt = await self.service.start(game_id, by)
        deadline = await self.ensure_deadline(game_id)
        status = await self.service.status(game_id)
        text = f"{game_caption(status.title, game_id)} begins.\n\n"
        text += fmt.prompt_line(prompt, deadline)
        ping, dm_note = await self.reach_mover(status, prompt.user, deadline)
        text += dm_note
        if await self.post_with_map(status, text, ping=ping, view=turn_view(game_id)):
            await self.mark_announced(game_id)  # else the scheduler tells them later
        return prompt

    # -- orders -----------------------------------------------------------------------

    async def play(self, game_id: str, user: str, text: str, seen: int | None) -> OrderResult:
        """Give an order as ``user`` and tell the channel what it changed."""
        before = (await self.service.status(game_id)).progress
        result = await self.service.submit(game_id, user, text, seen=seen)
        await self.after_order(result, before, actor=user)
        return result

    async def after_order(
        self, result: OrderResult, before: Progress, *, actor: str, note: str = ""
    ) -> None:
        """Battles post their dice; a finished player turn posts the map and its log; a
        decision passing to somebody else mentions them (and nobody else)."""
        game_id = result.game
        status = await self.service.status(game_id)
        channel = status.channel
        after = status.progress
        deadline = await self.ensure_deadline(game_id)
        prompt = result.prompt
        battle = bool(result.rolls)
        turn_over = (after.turn, after.player) != (before.turn, before.player)
        head = f"{note}\n" if note else ""
        if battle:
            await self.post(channel, head + fmt.order_report(result))
            head = ""
        #: whether the post that tells the next player (or the end) went out
        announced = True
        if result.result is not None or status.status == "finished":
            lines = await self.turn_log(game_id, before, result.seq)
            player = role_title(status.ruleset, before.player)  # as players read it
            title = f"**Turn {before.turn}, the last {player} player turn:**"
            text = "\n".join([head + title, *fmt.log_lines(lines), "", self._ending(status)])
            announced = await self.post_with_map(status, text)
        elif turn_over:
            lines = await self.turn_log(game_id, before, result.seq)
            player = role_title(status.ruleset, before.player)
            title = f"**Turn {before.turn}: the {player} player turn is over.**"
            body = "\n".join([title, *fmt.log_lines(lines)])
            text = f"{head}{body}\n\nNow: {fmt.prompt_line(prompt, deadline)}"
            ping, dm_note = await self.reach_mover(status, prompt.user, deadline)
            announced = await self.post_with_map(
                status, text + dm_note, ping=ping, view=turn_view(game_id)
            )
        elif prompt.user != actor and prompt.role is not None:
            text = f"{head}{fmt.order_report(result) if not battle else ''}".strip()
            text += ("\n\n" if text else "") + "Now: " + fmt.prompt_line(prompt, deadline)
            ping, dm_note = await self.reach_mover(status, prompt.user, deadline)
            announced = await self.post(channel, text + dm_note, ping=ping, view=turn_view(game_id))
        elif head:
            await self.post(channel, head + fmt.order_report(result))
        if announced:
            await self.mark_announced(game_id)  # else the scheduler posts the notice later

    def _ending(self, status: GameStatus) -> str:
        result = status.result
        text = f"**Game `{status.game}` is over.**"
        if result is not None:
            text += f" {result.text}"
            if result.winner:
                text += f" Winner: **{result.winner}** ({result.level})."
        if status.secret:
            text += (
                f"\nThe dice secret is now public: `{status.secret}` (its sha256 is the "
                f"commitment `{status.commitment}`); anyone can check every roll with `umpire verify`."
            )
        return text

    async def turn_log(self, game_id: str, turn: Progress, upto: int) -> list[Any]:
        """The log lines of the player turn ``turn`` that ended with action ``upto``.

        The turn began after the action whose snapshot first shows that turn and player;
        the service writes a snapshot at every change of phase, so a few reads find it.
        """
        start = 0
        async with self.service.store.read() as tx:
            seq = upto - 1
            while seq >= 0:
                snap = await tx.latest_snapshot(game_id, seq)
                if snap is None or (snap.turn, snap.player) != (turn.turn, turn.player):
                    break
                start = snap.seq
                seq = snap.seq - 1
        lines = await self.service.game_log(game_id)
        return [line for line in lines if start < line.seq <= upto]

    async def latest_orders(self, game_id: str, role: str) -> list[str]:
        """The orders of the latest player turn that has any action (the one under way,
        else the one before it), as ``role`` reads them: what a private close-up shows.
        Its start is found from the snapshots, as in :meth:`turn_log`."""
        lines = await self.service.game_log(game_id, audience=role)
        if not lines:
            return []
        last, start = lines[-1].seq, 0
        async with self.service.store.read() as tx:
            snap = await tx.latest_snapshot(game_id, last - 1)  # the turn action `last` was in
            turn = None if snap is None else (snap.turn, snap.player)
            while snap is not None and (snap.turn, snap.player) == turn:
                start = snap.seq
                snap = await tx.latest_snapshot(game_id, snap.seq - 1) if snap.seq > 0 else None
        return [line.order for line in lines if start < line.seq <= last]

    async def undo(self, game_id: str, user: str) -> UndoResult:
        result = await self.service.undo(game_id, user)
        status = await self.service.status(game_id)
        deadline = await self.ensure_deadline(game_id)
        text = (
            f"{fmt.user(user)} took back action {result.seq} "
            f"({result.role}: `{result.public_order}`).\n"
            f"Now: {fmt.prompt_line(result.prompt, deadline)}"
        )
        ping, dm_note = await self.reach_mover(
            status, result.prompt.user if result.prompt.user != user else None, deadline
        )
        await self.post(
            status.channel,
            text + dm_note,
            ping=ping,
            view=turn_view(game_id) if result.prompt.role is not None else None,
        )
        return result

    async def set_standing(
        self, game_id: str, user: str, role: str | None, changes: dict[str, list[str]], clear: bool
    ) -> str:
        status = await self.service.status(game_id)
        held = [s for s in status.seats if s.user == user]
        if role is not None:
            held = [s for s in held if s.role == role]
        if not held:
            raise Refusal(f"You hold no seat in game {game_id}" + (f" as {role}." if role else "."))
        if len(held) > 1:
            raise Refusal(f"You hold {', '.join(s.role for s in held)}; say which with role:.")
        seat = held[0]
        standing = {} if clear else dict(seat.standing_orders)
        standing.update({k: v for k, v in changes.items() if v})
        if clear or changes:
            seat = await self.service.set_seat_preferences(
                game_id, user, seat.role, standing_orders=standing
            )
        return f"Standing orders for **{seat.role}** in game `{game_id}`: {describe(seat.standing_orders)}."

    # -- moderators ---------------------------------------------------------------------

    async def rollback(
        self,
        game_id: str,
        by: str,
        why: str,
        to: int | None,
        turn: int | None,
        *,
        as_creator: bool = False,
    ) -> RollbackResult:
        result = await self.service.rollback(
            game_id, by, why=why, to=to, turn=turn, as_creator=as_creator
        )
        deadline = await self.ensure_deadline(game_id)
        status = await self.service.status(game_id)
        target = (
            f"the start of turn {turn} (action {result.to_seq})"
            if turn is not None
            else f"action {result.to_seq}"
        )
        undone = (
            f"actions {result.undone[0]}-{result.undone[-1]}"
            if len(result.undone) > 1
            else f"action {result.undone[0]}"
        )
        text = (
            f"**Rollback.** {fmt.user(by)} rolled game `{game_id}` back from action "
            f"{result.from_seq} to {target}.\nWhy: {why}\n{fmt.sentence(undone)} "
            f"{'are' if len(result.undone) > 1 else 'is'} undone; undone actions stay "
            "in the log, struck through (`/game log all:True`).\n\n"
        )
        if result.prompt.role is not None and status.status == "active":
            text += "Now: " + fmt.prompt_line(result.prompt, deadline)
        buttons = turn_view(game_id) if status.status == "active" else None
        ping, dm_note = await self.reach_mover(status, result.prompt.user, deadline)
        if await self.post_with_map(status, text + dm_note, ping=ping, view=buttons):
            await self.mark_announced(game_id)
        return result

    async def pause(self, game_id: str, by: str, why: str, *, as_creator: bool = False) -> None:
        await self.service.set_status(game_id, by, "paused", why, as_creator=as_creator)
        status = await self.service.status(game_id)
        await self.post(
            status.channel,
            f"{fmt.user(by)} paused game `{game_id}`: {why}\nDeadlines wait until it resumes.",
        )

    async def resume(self, game_id: str, by: str, why: str, *, as_creator: bool = False) -> None:
        await self.service.set_status(game_id, by, "active", why, as_creator=as_creator)
        # The clock restarts: the decision pending gets a whole deadline again.
        await self.service.clear_deadline(game_id, by)
        deadline = await self.ensure_deadline(game_id)
        status = await self.service.status(game_id)
        text = f"{fmt.user(by)} resumed game `{game_id}`{': ' + why if why else '.'}\n\n"
        text += "Now: " + fmt.prompt_line(status.prompt, deadline)
        ping, dm_note = await self.reach_mover(status, status.prompt.user, deadline)
        await self.post(status.channel, text + dm_note, ping=ping, view=turn_view(game_id))

    async def set_deadline(
        self,
        game_id: str,
        by: str,
        hours: float | None,
        default_hours: float | None,
        reply_hours: float | None,
        clear: bool,
    ) -> str:
        parts: list[str] = []
        if default_hours is not None or reply_hours is not None:
            old = await self.policy(game_id)
            if (default_hours or 0) < 0 or (reply_hours or 0) < 0:
                raise Refusal("A deadline cannot be negative; 0 means no deadline.")
            new = Policy(
                old.phase_seconds if default_hours is None else default_hours * HOUR,
                old.reply_seconds if reply_hours is None else reply_hours * HOUR,
                old.reminders,
            )
            await self.set_policy(game_id, by, new, "changed by a moderator")
            parts.append(f"From now on, {new.text()}.")
        status = await self.service.status(game_id)
        role = status.prompt.role
        if clear:
            n = await self.service.clear_deadline(game_id, by, role=role)
            parts.append(f"Cleared {n} deadline(s) of {role}." if n else f"{role} had no deadline.")
        if hours is not None:
            if hours <= 0:
                raise Refusal("Give the hours from now until the deadline (more than 0).")
            policy = await self.policy(game_id)
            d = await self.service.set_deadline(
                game_id,
                by,
                self.service.clock() + hours * HOUR,
                role=role,
                remind_before=policy.reminders,
            )
            parts.append(f"The decision of **{role}** is due {fmt.when(d.due_at)}.")
            self.wake()
        if not parts:
            d = await self.current_deadline(game_id, role)
            return f"{fmt.sentence((await self.policy(game_id)).text())}. " + (
                f"{role} is due {fmt.when(d.due_at)}." if d else f"{role} has no deadline now."
            )
        text = f"{fmt.user(by)} changed the deadlines of game `{game_id}`. " + " ".join(parts)
        await self.post(status.channel, text)
        return text

    async def seat_email(
        self, game_id: str, by: str, role: str, address: str, why: str, *, as_creator: bool = False
    ) -> str:
        """Seat a player by mail address (issue 14 item 2): the welcome mail goes out at
        once, or with the mail loop's next pass."""
        if self.mail is None:
            raise Refusal(
                "Play by email is not set up for this bot: its owner sets UMPIRE_IMAP_*, "
                "UMPIRE_SMTP_* and UMPIRE_MAIL_FROM (README: Play by email)."
            )
        box = self.mail.box
        await box.desk.seat(game_id, role, address, by, why, as_creator=as_creator)
        sent = await box.outbox.flush()
        shown = address.strip().lower()
        text = (
            f"{fmt.user(by)} seated `{shown}` (by email) as **{role}** in game `{game_id}`. "
            + ("The welcome mail was sent." if sent else "The welcome mail is queued.")
        )
        return text + (f"\nWhy: {why}" if why else "")

    async def seat(
        self,
        game_id: str,
        by: str,
        role: str,
        user: str | None,
        why: str,
        *,
        as_creator: bool = False,
    ) -> str:
        status = await self.service.status(game_id)
        old = next((s.user for s in status.seats if s.role == role), None)
        await self.service.assign_seat(game_id, by, role, user, why, as_creator=as_creator)
        if user is None:
            text = f"{fmt.user(by)} freed **{role}** (was {fmt.user(old)}) in game `{game_id}`."
        else:
            was = f", replacing {fmt.user(old)}" if old and old != user else ""
            text = f"{fmt.user(by)} seated {fmt.user(user)} as **{role}** in game `{game_id}`{was}."
        if why:
            text += f"\nWhy: {why}"
        status = await self.service.status(game_id)
        ping = None
        if status.status == "active" and status.prompt.role == role and user is not None:
            deadline = await self.ensure_deadline(game_id)
            text += "\n\nNow: " + fmt.prompt_line(status.prompt, deadline)
            ping = user
        buttons = turn_view(game_id) if ping else None
        if ping is not None:
            ping, dm_note = await self.reach_mover(status, ping, deadline)
            text += dm_note
        await self.post(status.channel, text, ping=ping, view=buttons)
        return text

    async def kick(
        self, game_id: str, by: str, user: str, why: str, *, as_creator: bool = False
    ) -> str:
        status = await self.service.status(game_id)
        roles = [s.role for s in status.seats if s.user == user]
        if not roles:
            raise Refusal(f"{fmt.user(user)} holds no seat in game {game_id}.")
        for role in roles:
            await self.service.assign_seat(game_id, by, role, None, why, as_creator=as_creator)
        text = (
            f"{fmt.user(by)} removed {fmt.user(user)} from game `{game_id}` "
            f"({', '.join(roles)} now free: `/game join`, or `/gm seat`).\nWhy: {why}"
        )
        await self.post(status.channel, text)
        return text

    async def end(self, game_id: str, by: str, why: str, *, as_creator: bool = False) -> GameStatus:
        status = await self.service.end(game_id, by, why, as_creator=as_creator)
        text = f"{fmt.user(by)} ended game `{game_id}`.\nWhy: {why}\n" + self._ending(status)
        if await self.post_with_map(status, text):
            await self.mark_announced(game_id)
        return status

    # -- deadlines and notices (called by the scheduler) ------------------------------------

    async def deadline_passed(self, d: DeadlineInfo) -> None:
        """Apply the player's standing orders, or the defined default, for the decision
        whose deadline passed (:func:`bot.deadlines.apply_passed`); each order applied is
        announced as such in the channel."""

        async def announce(applied: Applied, holder: SeatInfo) -> None:
            # the order as the public reads it (apply_passed keeps private preferences out)
            note = (
                f"The deadline for **{holder.role}** ({fmt.user(holder.user or '')}) passed "
                f"(it was {fmt.when(d.due_at)}): {applied.reason} applied, `{applied.shown}`."
            )
            await self.after_order(applied.result, applied.before, actor=holder.user, note=note)

        passed = await apply_passed(self.service, d, announce)
        if passed.outcome == "unseated":
            status = await self.service.status(d.game)
            await self.post(
                status.channel,
                f"The deadline for **{status.prompt.role}** in game `{d.game}` passed, but the "
                "seat has no player: a moderator can seat one with `/gm seat`.",
            )

    async def deliver(self, n: NotificationInfo) -> bool:
        """Post a notice the service queued: a reminder, or one no command announced.
        False if the channel did not take it (to be tried again); True once it is
        posted, or when there is nothing left to say (no channel, the decision is over)."""
        status = await self.service.status(n.game)
        if status.channel is None:
            return True
        if n.kind in ("reminder", "prompt"):
            if status.status != "active" or status.prompt.role != n.role:
                return True  # the decision it was about is over
            deadline = await self.current_deadline(n.game, n.role)
            lead = "Reminder: " if n.kind == "reminder" else "Now: "
            ping, dm_note = await self.reach_mover(
                status, status.prompt.user, deadline, reminder=n.kind == "reminder"
            )
            return await self.post(
                status.channel,
                lead + fmt.prompt_line(status.prompt, deadline) + dm_note,
                ping=ping,
                view=turn_view(n.game),
            )
        return await self.post(status.channel, n.text)

    async def mark_announced(self, game_id: str) -> None:
        due = await self.service.due()
        ids = [n.id for n in due.notifications if n.game == game_id and n.kind in ANNOUNCED_INLINE]
        if ids:
            await self.service.mark_handled(notifications=ids)

    # -- posting ------------------------------------------------------------------------------

    async def public_map(
        self, status: GameStatus, limit: int, view: ViewResult | None = None
    ) -> tuple[bytes | None, str]:
        """The public map (``view``: the public view, when the caller has it already)."""
        view = view or await self.service.view(status.game, None)
        width = (await self.server(status.guild)).map_width
        return await render(view.view, width, limit, self.draw)

    async def role_map(self, game_id: str, user: str, role: str | None, limit: int) -> OwnMap:
        """What ``user``'s role (``role``, else the one deciding now, else their first)
        sees: its map, and the close-up of the places the orders of the latest player
        turn name, as that role reads them (issue 15 item 4: the close-up the channel's
        turn post has, for one side); both drawn from that role's view alone, never the
        full state."""
        status = await self.service.status(game_id)
        held = [s.role for s in status.seats if s.user == user]
        if role is None:
            if not held:
                raise Refusal(
                    f"You hold no seat in game {game_id}, so you have no private view; the public map is /game map."
                )
            role = status.prompt.role if status.prompt.role in held else held[0]
        view = await self.service.view(game_id, user, role)
        width = (await self.server(status.guild)).map_width
        png, note = await render(view.view, width, limit, self.draw)
        close, places = (None, [])
        if png is not None:  # as in the channel: no close-up without its map
            close, places = await closeup(view.view, await self.latest_orders(game_id, role), limit)
        return OwnMap(
            png=png,
            note=note,
            role=role,
            role_title=role_title(status.ruleset, role),
            caption=game_caption(status.title, game_id),
            closeup=close,
            places=places,
        )

    async def send_private(self, member: discord.abc.User, text: str, png: bytes | None) -> None:
        """A direct message: for what only one role may see."""
        file = discord.File(io.BytesIO(png), filename="map.png") if png else None
        try:
            channel = await member.create_dm()
            await channel.send(
                text,
                allowed_mentions=discord.AllowedMentions.none(),
                **({"file": file} if file else {}),
            )
        except discord.Forbidden:
            raise Refusal(
                "Discord does not let me send you direct messages (they are closed for this "
                "server); use /game map private:True instead."
            ) from None

    async def list_games(
        self, guild_id: int | None, user: str, *, limit: int, offset: int = 0
    ) -> tuple[int, list[str]]:
        """The games of this server and the caller's own games, a page at a time, filtered
        and cut by the database (issue 15 item 6): how many in all, and the page's lines."""
        total, page = await self.service.game_list(
            None if guild_id is None else str(guild_id), user, limit=limit, offset=offset
        )
        lines = []
        for g, mine in page:
            where = f"<#{g.channel}>" if (g.channel or "").isdigit() else "no channel"
            you = " (yours)" if mine else ""
            lines.append(
                f"`{g.game}` {g.ruleset} {g.scenario}, {g.status}, action {g.seq}, {where}{you}"
            )
        return total, lines

    # -- "your move" direct messages (issue 15 item 3) ------------------------------------

    def jump_link(self, channel_id: str | None, guild: str | None = None) -> str:
        """A link to a game's channel (any server the bot is in), else its mention."""
        if not channel_id or not channel_id.isdigit():
            return "(no channel)"
        if guild is None:
            channel = self.client.get_channel(int(channel_id))
            found = getattr(channel, "guild", None)
            guild = None if found is None else str(found.id)
        if guild is None:
            return f"<#{channel_id}>"
        return f"https://discord.com/channels/{guild}/{channel_id}"

    async def reach_mover(
        self,
        status: GameStatus,
        ping: str | None,
        deadline: DeadlineInfo | None,
        *,
        reminder: bool = False,
    ) -> tuple[str | None, str]:
        """Tell ``ping``, whose decision it now is in ``status``'s game, by direct message
        if they asked for that (``/me settings``); whom the channel post is then to ping,
        and a note for it.

        A member who asked for direct messages and got one is named in the channel but not
        pinged twice. When Discord refuses the message (their direct messages are closed),
        the channel pings them instead, and says why the first time only."""
        prompt = status.prompt
        if ping is None or not ping.isdigit() or prompt.role is None or prompt.user != ping:
            return ping, ""
        wanted = await self.service.user_settings(ping)
        if not wanted.dms:
            return ping, ""
        lead = "Reminder: your move" if reminder else "Your move"
        text = (
            f"{lead} in game `{status.game}` (**{status.title}**), as **{prompt.role}**: "
            f"{prompt.text_for(prompt.role)}"
        )
        if deadline is not None:
            text += f"\nDue {fmt.when(deadline.due_at)}."
        text = in_zone(text, wanted.timezone)
        text += f"\n{self.jump_link(status.channel, status.guild)}"
        try:
            dm = await self.client.create_dm(discord.Object(int(ping)))
            for part in fmt.split_message(text):
                await dm.send(part, allowed_mentions=discord.AllowedMentions.none())
        except discord.Forbidden:
            if wanted.dm_closed_told:
                return ping, ""
            await self.service.set_user_settings(ping, dm_closed_told=True)
            return ping, (
                f"\n({fmt.user(ping)}: Discord does not let me send you direct messages, so I "
                "mention you here; open them for this server, or turn them off with "
                "`/me settings dms:False`.)"
            )
        except discord.HTTPException as exc:
            log.warning("could not send %s a direct message: %s", ping, exc)
            return ping, ""
        if wanted.dm_closed_told:  # open again: a later refusal is news again
            await self.service.set_user_settings(ping, dm_closed_told=False)
        return None, ""

    async def post_with_map(
        self,
        status: GameStatus,
        text: str,
        *,
        ping: str | None = None,
        view: discord.ui.View | None = None,
    ) -> bool:
        """:meth:`post` with the public map: whether the text went out. When the text
        carries a turn's log, a close-up of the places its orders name goes just before
        (issue 15 item 4), on its own so that Discord shows it at full preview width; it
        is cut from the public view, like the map. A close-up the channel refuses is
        left out quietly: the map and the text still go."""
        limit = self.upload_limit(status.channel)
        shown = await self.service.view(status.game, None)
        png, note = await self.public_map(status, limit, shown)
        close, places = (None, [])
        if png is not None and status.channel is not None:
            close, places = await closeup(shown.view, logged_orders(text), limit)
        if close is not None:
            where = places_caption(places)
            channel = self.client.get_channel(
                int(status.channel)  # type: ignore[arg-type]
            ) or self.client.get_partial_messageable(int(status.channel))  # type: ignore[arg-type]
            try:
                await channel.send(  # type: ignore[union-attr]
                    f"Close-up of the action in {game_caption(status.title, status.game)}: "
                    f"{where}.",
                    file=discord.File(io.BytesIO(close), filename="closeup.png"),
                    allowed_mentions=discord.AllowedMentions.none(),
                )
            except discord.HTTPException as exc:
                log.info("channel %s refused the close-up: %s", status.channel, exc)
        return await self.post(
            status.channel, text + (f"\n{note}" if note else ""), ping=ping, png=png, view=view
        )

    async def post(
        self,
        channel_id: str | None,
        text: str,
        *,
        ping: str | None = None,
        png: bytes | None = None,
        view: discord.ui.View | None = None,
    ) -> bool:
        """Send to a game's channel, split to Discord's limits; only ``ping`` is pinged, and
        only in the part that mentions them. Whether all of the text went out. ``view``
        (buttons, :mod:`bot.discord.buttons`) goes with the last part.

        A picture the channel refuses (no Attach Files, too large) costs the picture, not
        the text: the part is sent again without it. Whatever could not be posted is
        logged and told to the member whose command posted it (:func:`tell_caller`); the
        game has moved on either way, and a caller that announced a decision leaves its
        notice for the scheduler to post again."""
        if channel_id is None:
            return True
        channel = self.client.get_channel(int(channel_id)) or self.client.get_partial_messageable(
            int(channel_id)
        )
        parts = fmt.split_message(text) or [""]
        try:
            for i, part in enumerate(parts):
                last = i == len(parts) - 1
                users: Sequence[discord.abc.Snowflake] | bool = (
                    [discord.Object(int(ping))]
                    if ping and ping.isdigit() and f"<@{ping}>" in part
                    else False
                )
                mentions = discord.AllowedMentions(everyone=False, roles=False, users=users)
                buttons: dict[str, Any] = {"view": view} if view is not None and last else {}
                if not (png and last):
                    await channel.send(part or "\u200b", allowed_mentions=mentions, **buttons)  # type: ignore[union-attr]
                    continue
                try:
                    await channel.send(  # type: ignore[union-attr]
                        part or "\u200b",
                        allowed_mentions=mentions,
                        file=discord.File(io.BytesIO(png), filename="map.png"),
                        **buttons,
                    )
                except discord.HTTPException as exc:
                    log.warning(
                        "channel %s refused the map (%s); posting without it", channel_id, exc
                    )
                    tell_caller(
                        f"The map could not be posted in <#{channel_id}> ({_why(exc)}), so the "
                        "announcement went without it; a server manager can give me Attach "
                        "Files there."
                    )
                    note = "\n(The map could not be attached in this channel.)"
                    if len(part) + len(note) > fmt.MESSAGE_LIMIT:
                        note = ""
                    await channel.send(part + note, allowed_mentions=mentions, **buttons)  # type: ignore[union-attr]
        except discord.HTTPException as exc:
            log.warning("could not post to channel %s: %s", channel_id, exc)
            tell_caller(
                f"I could not post in <#{channel_id}> ({_why(exc)}), so the channel did not "
                "hear of this; I will try again to tell whoever must decide next. A server "
                "manager can check my permissions there (Send Messages, Attach Files)."
            )
            return False
        return True


def _why(exc: discord.HTTPException) -> str:
    """Discord's reason for refusing a post, in a few words."""
    if isinstance(exc, discord.Forbidden):
        return "Discord said the bot is missing permissions there"
    return f"Discord answered {exc.status} {exc.text}".strip()


async def _quietly(coro: Any) -> None:
    try:
        await coro
    except discord.HTTPException as exc:
        log.warning("cleanup failed: %s", exc)
