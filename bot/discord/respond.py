"""Answering an interaction: defer first, then follow up, within Discord's limits.

Discord wants an answer within 3 seconds; every command that reads the database or draws
a map calls :func:`defer` before anything else, and answers with :func:`reply` once the
work is done. A refusal or failure goes to the caller alone (:func:`answer_privately`),
even when the command was to answer publicly.

Commands that draw maps, work out odds or read every game of a server are limited per
member (:data:`COOLDOWNS`, checked by :func:`defer`): one used too often is refused in a
sentence saying how many seconds to wait. A button that does the work of such a command
counts against that command's limit (the My view button draws what ``/game map
private:True`` draws, so the two share one allowance).

A command's posts to the game's channel can fail (Discord refuses a picture, or the
bot lost a permission there): :func:`tell_caller` notes it, and :func:`reply` adds the
note to the answer, so the member who acted learns that the channel did not hear it.
:func:`permission_gaps` checks, before a game is created or started in a channel, that
the bot may post there what a game needs.
"""

from __future__ import annotations

import io
import math
import time
import weakref
from collections.abc import Callable
from contextvars import ContextVar

import discord
from discord import app_commands

from bot.discord.formatting import split_message

NO_PINGS = discord.AllowedMentions.none()

#: commands whose work is heavy (a map drawn, odds worked out, every game of a server
#: read), as (uses, per seconds) for each member: a player looking twice or thrice is
#: served at once, a member repeating it in a loop is told how long to wait
COOLDOWNS: dict[str, tuple[int, float]] = {
    "odds": (5, 60.0),
    "game map": (5, 60.0),
    "game list": (5, 60.0),
}
#: how a refusal names a cooldown whose allowance a button shares with the command
COOLDOWN_NAMES = {"game map": "/game map or the My view button"}

#: sentences for the reply of the command being answered; each command runs in its own
#: task, which copies the context, so a note never reaches another member's reply
_notes: ContextVar[list[str] | None] = ContextVar("umpire_reply_notes", default=None)

#: Discord's names for the channel permissions a game needs, by discord.py's attribute
PERMISSION_NAMES = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "send_messages_in_threads": "Send Messages in Threads",
    "create_public_threads": "Create Public Threads",
    "attach_files": "Attach Files",
}
THREAD_TYPES = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


class Cooldowns:
    """The recent uses of the cooled-down commands (:data:`COOLDOWNS`), per member."""

    def __init__(
        self,
        clock: Callable[[], float] = time.monotonic,
        limits: dict[str, tuple[int, float]] | None = None,
    ) -> None:
        self.clock = clock
        self.limits = COOLDOWNS if limits is None else limits
        self._buckets: dict[tuple[str, int], app_commands.Cooldown] = {}

    def wait(self, command: str, user: int) -> float:
        """Seconds ``user`` must wait before using ``command`` again (0: go ahead, and the
        use is counted)."""
        limit = self.limits.get(command)
        if limit is None:
            return 0.0
        now = self.clock()
        bucket = self._buckets.get((command, user))
        if bucket is None:
            if len(self._buckets) >= 10_000:  # forget the members who are quiet again
                for key in [k for k, b in self._buckets.items() if b.get_tokens(now) == b.rate]:
                    del self._buckets[key]
            bucket = self._buckets[(command, user)] = app_commands.Cooldown(*limit)
        return bucket.update_rate_limit(now) or 0.0


_cooldowns: weakref.WeakKeyDictionary[discord.Client, Cooldowns] = weakref.WeakKeyDictionary()


def cooldowns(client: discord.Client) -> Cooldowns:
    """The cooldowns of one bot, on its service's clock (the tests' clock in tests)."""
    found = _cooldowns.get(client)
    if found is None:
        clock = getattr(getattr(client, "service", None), "clock", None) or time.monotonic
        found = _cooldowns[client] = Cooldowns(clock)
    return found


def check_cooldown(interaction: discord.Interaction, counts_as: str | None = None) -> None:
    """Refuse a cooled-down command used too often, in one sentence with the wait;
    ``counts_as``: the command whose allowance a button's click uses."""
    command = counts_as or (interaction.command.qualified_name if interaction.command else None)
    if command is None or command not in COOLDOWNS:
        return
    wait = cooldowns(interaction.client).wait(command, interaction.user.id)
    if wait > 0:
        from bot.discord.table import Refusal  # the table imports this module

        uses, per = COOLDOWNS[command]
        seconds = max(1, math.ceil(wait))
        shown = COOLDOWN_NAMES.get(command, f"/{command}")
        raise Refusal(
            f"You have used {shown} {uses} times in the last {per:g} seconds; please "
            f"wait {seconds} second{'s' if seconds != 1 else ''} before using it again."
        )


async def defer(
    interaction: discord.Interaction, *, ephemeral: bool, counts_as: str | None = None
) -> None:
    """Acknowledge now ("thinking..."), before any database work or rendering; a command
    used too often (:data:`COOLDOWNS`) is refused here instead, before any work.
    ``counts_as``: for a button, the command whose allowance its click uses."""
    check_cooldown(interaction, counts_as)
    interaction.extras["public"] = not ephemeral
    _notes.set([])
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)


def tell_caller(sentence: str) -> None:
    """Have the reply to the command being answered say ``sentence`` (once); nothing
    when no command is being answered (the scheduler posting a notice)."""
    notes = _notes.get()
    if notes is not None and sentence not in notes:
        notes.append(sentence)


def permission_gaps(interaction: discord.Interaction, *, new_thread: bool = False) -> str | None:
    """What the bot lacks in the interaction's channel to run a game there, as a sentence
    for the member, or None. A game posts its announcements and pings (Send Messages, or
    Send Messages in Threads in a thread) with the map as a picture (Attach Files);
    ``new_thread``: it is to be played in a new thread of this channel. The bot sends
    no embeds, so Embed Links is not needed."""
    perms = interaction.app_permissions
    channel_type = getattr(interaction.channel, "type", None)
    needed = ["view_channel"]
    if new_thread:
        needed += ["create_public_threads", "send_messages_in_threads"]
    elif channel_type in THREAD_TYPES:
        needed.append("send_messages_in_threads")
    else:
        needed.append("send_messages")
    needed.append("attach_files")
    missing = [PERMISSION_NAMES[p] for p in needed if not getattr(perms, p)]
    if not missing:
        return None
    where = "this channel" if not new_thread else "this channel (for a game in a new thread)"
    listed = missing[0] if len(missing) == 1 else ", ".join(missing[:-1]) + " and " + missing[-1]
    return (
        f"I cannot run a game in {where}: I lack the permission{'s' if len(missing) > 1 else ''} "
        f"{listed} here, so players would not hear of their turns. A server manager can grant "
        "them to me in the channel's settings (Permissions); then try again."
    )


async def reply(
    interaction: discord.Interaction,
    text: str,
    *,
    png: bytes | None = None,
    filename: str = "map.png",
    view: discord.ui.View | None = None,
) -> None:
    """Follow up a deferred interaction (privately if it was deferred privately), split
    into messages Discord accepts, the picture and the buttons (``view``) with the last
    one, pinging nobody."""
    ephemeral = not interaction.extras.get("public", False)
    notes = _notes.get()
    if notes:
        text = "\n\n".join([text, *notes])
        notes.clear()
    parts = split_message(text) or ["\u200b"]
    for i, part in enumerate(parts):
        file = (
            discord.File(io.BytesIO(png), filename=filename)
            if png and i == len(parts) - 1
            else None
        )
        extra: dict = {"file": file} if file else {}
        if view is not None and i == len(parts) - 1:
            extra["view"] = view
        await interaction.followup.send(
            part, ephemeral=ephemeral, allowed_mentions=NO_PINGS, **extra
        )


async def answer_privately(interaction: discord.Interaction, text: str) -> None:
    """Tell only the caller, whatever state the interaction is in."""
    parts = split_message(text) or ["\u200b"]
    if not interaction.response.is_done():
        await interaction.response.send_message(parts[0], ephemeral=True, allowed_mentions=NO_PINGS)
        parts = parts[1:]
    elif interaction.extras.get("public"):
        # The public "thinking..." placeholder would otherwise carry the refusal.
        try:
            await interaction.delete_original_response()
        except discord.HTTPException:
            pass
        interaction.extras["public"] = False
    for part in parts:
        await interaction.followup.send(part, ephemeral=True, allowed_mentions=NO_PINGS)
