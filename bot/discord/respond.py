"""Answering an interaction: defer first, then follow up, within Discord's limits.

Discord wants an answer within 3 seconds; every command that reads the database or draws
a map calls :func:`defer` before anything else, and answers with :func:`reply` once the
work is done. A refusal or failure goes to the caller alone (:func:`answer_privately`),
even when the command was to answer publicly.
"""

from __future__ import annotations

import io

import discord

from bot.discord.formatting import split_message

NO_PINGS = discord.AllowedMentions.none()


async def defer(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Acknowledge now ("thinking..."), before any database work or rendering."""
    interaction.extras["public"] = not ephemeral
    await interaction.response.defer(ephemeral=ephemeral, thinking=True)


async def reply(
    interaction: discord.Interaction,
    text: str,
    *,
    png: bytes | None = None,
    filename: str = "map.png",
) -> None:
    """Follow up a deferred interaction (privately if it was deferred privately), split
    into messages Discord accepts, the picture with the last one, pinging nobody."""
    ephemeral = not interaction.extras.get("public", False)
    parts = split_message(text) or ["\u200b"]
    for i, part in enumerate(parts):
        file = (
            discord.File(io.BytesIO(png), filename=filename)
            if png and i == len(parts) - 1
            else None
        )
        await interaction.followup.send(
            part, ephemeral=ephemeral, allowed_mentions=NO_PINGS, **({"file": file} if file else {})
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
