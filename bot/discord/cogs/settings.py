"""``/me settings``: a member's own settings (issue 15 items 3 and 4), the same in every
server: "your move" direct messages (opt-in, off until asked for) and the time zone in
which the bot writes deadlines to them alone (private replies, ``/game mine``, direct
messages). Posts in a game's channel keep Discord's timestamps, which every reader's
own app shows in their zone.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.config import local_time, zone_names, zone_problem
from bot.discord.respond import defer, reply
from bot.discord.table import GameTable, Refusal

MAX_CHOICES = 25
#: what clears the time zone (deadlines then shown as Discord timestamps)
NO_ZONE = ("none", "clear", "off")


class SettingsCog(commands.Cog):
    me = app_commands.Group(name="me", description="Your own settings for Umpire.")

    def __init__(self, table: GameTable) -> None:
        self.table = table

    async def complete_zone(self, interaction: discord.Interaction, current: str):
        """IANA zone names containing what was typed (``paris``, ``America/``)."""
        typed = current.strip().lower().replace(" ", "_")
        found = [z for z in zone_names() if typed in z.lower()]
        found.sort(key=lambda z: (not z.lower().startswith(typed), "/" not in z, z))
        return [app_commands.Choice(name=z, value=z) for z in found[:MAX_CHOICES]]

    @me.command(name="settings", description="Your move by direct message; your time zone.")
    @app_commands.describe(
        dms="a direct message when it is your move in any game (off unless you turn it on)",
        timezone="your time zone for deadlines written to you, e.g. Europe/Paris (none: clear)",
    )
    @app_commands.autocomplete(timezone=complete_zone)
    async def settings(
        self,
        interaction: discord.Interaction,
        dms: bool | None = None,
        timezone: str | None = None,
    ) -> None:
        """Show or change the caller's settings; a zone that is not a real IANA name is
        refused in one sentence and nothing changes."""
        await defer(interaction, ephemeral=True)
        user = str(interaction.user.id)
        changes: dict[str, object] = {}
        if timezone is not None:
            name = timezone.strip()
            if name.lower() in NO_ZONE:
                changes["timezone"] = None
            else:
                problem = zone_problem(name)
                if problem:
                    raise Refusal(problem)
                changes["timezone"] = "UTC" if name.upper() == "UTC" else name
        note = ""
        if dms is not None:
            changes["dms"] = dms
            changes["dm_closed_told"] = False
            if dms:
                note = await self._try_dm(interaction.user)
        if changes:
            now = await self.table.service.set_user_settings(user, **changes)
            head = "Saved."
        else:
            now = await self.table.service.user_settings(user)
            head = "Your settings:"
        clock = self.table.service.clock()
        zone = (
            f"{now.timezone} (it is {local_time(clock, now.timezone)} there)"
            if now.timezone
            else "not set (deadlines appear as Discord timestamps, in your device's zone)"
        )
        lines = [
            head,
            "Your move by direct message: " + ("on." if now.dms else "off."),
            f"Time zone: {zone}.",
        ]
        await reply(interaction, "\n".join(lines) + note)

    async def _try_dm(self, member: discord.abc.User) -> str:
        """A first direct message when they turn them on: whether Discord lets it through."""
        try:
            dm = await member.create_dm()
            await dm.send(
                "You will get a message here when it is your move in a game of Umpire "
                "(`/me settings dms:False` stops them).",
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.Forbidden:
            return (
                "\nDiscord does not let me send you direct messages now "
                "(they are closed for this server); until you open them, I mention you in "
                "the game's channel instead."
            )
        except discord.HTTPException:
            return (
                "\nI could not send you a first direct message just now; I will try again "
                "at your next move."
            )
        return "\nI sent you a first direct message."
