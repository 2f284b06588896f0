"""Answering an interaction: defer first, then follow up, within Discord's limits.

Discord wants an answer within 3 seconds; every command that reads the database or draws
a map calls :func:`defer` before anything else, and answers with :func:`reply` once the
work is done. A refusal or failure goes to the caller alone (:func:`answer_privately`),
even when the command was to answer publicly.

A command's posts to the game's channel can fail (Discord refuses a picture, or the
bot lost a permission there): :func:`tell_caller` notes it, and :func:`reply` adds the
note to the answer, so the member who acted learns that the channel did not hear it.
:func:`permission_gaps` checks, before a game is created or started in a channel, that
the bot may post there what a game needs.
"""

from __future__ import annotations

import io
from contextvars import ContextVar

import discord

from bot.discord.formatting import split_message

NO_PINGS = discord.AllowedMentions.none()

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


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Acknowledge now ("thinking..."), before any database work or rendering."""
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
