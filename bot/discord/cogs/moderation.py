"""``/gm``: the moderators' commands for the game of this channel (ARCHITECTURE: Undo).

Discord shows the group only to members with Manage Messages unless a server changes
that (Server Settings, Integrations); every command also checks at run time that the
caller moderates this game: a server administrator, a member who may manage the server,
a member with the server's moderator role (``/gm config``, else ``UMPIRE_MODERATOR_ROLE``),
or the game's creator while they hold no seat in it (issue 10 item 5: a player is not
their own moderator; the service checks that again). Every act is audited by the service
and announced in the channel. ``/gm config`` sets the server's own settings (issue 15
item 5) and is for the server's moderators alone.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import formatting as fmt
from bot.discord.config import (
    ServerSettings,
    duration_text,
    hours_problem,
    in_zone,
    map_width_problem,
    reminders_problem,
)
from bot.discord.confirm import confirmed
from bot.discord.respond import defer, reply
from bot.discord.table import GameTable, Refusal, moderators, server_moderator
from bot.service import GameSummary, ServiceError

#: what /gm config reset: puts back to the bot's default, and the columns it clears
RESETS = {
    "all": ("moderator_role", "deadline_hours", "reply_hours", "reminders", "map_width"),
    "moderator_role": ("moderator_role",),
    "deadlines": ("deadline_hours", "reply_hours"),
    "reminders": ("reminders",),
    "map_width": ("map_width",),
}


def config_text(s: ServerSettings) -> str:
    """A server's settings, each marked as its own or the bot's default."""

    def whose(*names: str) -> str:
        return " (this server)" if any(n in s.own for n in names) else " (the bot's default)"

    role = s.moderator_role
    shown = "none" if not role else (f"<@&{role}>" if role.isdigit() else f"{role!r}")
    hours = [f"{h:g} h" if h > 0 else "no deadline" for h in (s.deadline_hours, s.reply_hours)]
    return "\n".join(
        [
            f"Moderator role: {shown}{whose('moderator_role')}.",
            f"New games: {hours[0]} a phase, {hours[1]} for a reply mid-turn"
            f"{whose('deadline_hours', 'reply_hours')}.",
            f"Reminders: {duration_text(s.reminders)} before a deadline{whose('reminders')}.",
            f"Map width: {s.map_width} px{whose('map_width')}.",
        ]
    )


class ModerationCog(commands.Cog):
    gm = app_commands.Group(
        name="gm",
        description="Moderate the game of this channel.",
        guild_only=True,
        default_permissions=discord.Permissions(manage_messages=True),
    )

    def __init__(self, table: GameTable) -> None:
        self.table = table

    async def _game(self, interaction: discord.Interaction) -> tuple[GameSummary, bool]:
        """The channel's game, and whether the caller moderates it only as its creator."""
        return await self.table.moderated(
            interaction.channel_id, interaction.user, interaction.permissions
        )

    async def complete_role(self, interaction: discord.Interaction, current: str):
        try:
            game = await self.table.game_in(interaction.channel_id)
            status = await self.table.service.status(game.game)
        except (ServiceError, Refusal):
            return []
        return [
            app_commands.Choice(
                name=fmt.clip(f"{s.role} (now {s.user or 'free'})", 100), value=s.role
            )
            for s in status.seats
            if current.lower() in s.role.lower()
        ][:25]

    @gm.command(
        name="rollback", description="Take the game back to an action, or to the start of a turn."
    )
    @app_commands.describe(
        reason="why: the channel is told",
        to="the action number to go back to (it stays; later ones are undone)",
        turn="go back to the start of this turn instead",
    )
    async def rollback(
        self,
        interaction: discord.Interaction,
        reason: str,
        to: app_commands.Range[int, 0] | None = None,
        turn: app_commands.Range[int, 0] | None = None,
    ) -> None:
        await defer(interaction, ephemeral=True)
        game, as_creator = await self._game(interaction)

        async def act() -> str:
            result = await self.table.rollback(
                game.game, str(interaction.user.id), reason, to, turn, as_creator=as_creator
            )
            return f"Rolled game `{game.game}` back to action {result.to_seq}."

        target = f"the start of turn {turn}" if turn is not None else f"action {to}"
        question = (
            f"Roll game `{game.game}` (now at action {game.seq}) back to {target}? Every "
            f"later action is undone.\nWhy: {reason}"
        )
        await confirmed(interaction, self.table.settings.confirm_moderation, question, act)

    @gm.command(name="pause", description="Pause the game: no orders, deadlines wait.")
    @app_commands.describe(reason="why: the channel is told")
    async def pause(self, interaction: discord.Interaction, reason: str) -> None:
        await defer(interaction, ephemeral=True)
        game, as_creator = await self._game(interaction)
        await self.table.pause(game.game, str(interaction.user.id), reason, as_creator=as_creator)
        await reply(interaction, f"Paused game `{game.game}`.")

    @gm.command(
        name="resume",
        description="Resume a paused game; the pending decision gets a fresh deadline.",
    )
    @app_commands.describe(reason="a word for the channel, if you like")
    async def resume(self, interaction: discord.Interaction, reason: str | None = None) -> None:
        await defer(interaction, ephemeral=True)
        game, as_creator = await self._game(interaction)
        await self.table.resume(
            game.game, str(interaction.user.id), reason or "", as_creator=as_creator
        )
        await reply(interaction, f"Resumed game `{game.game}`.")

    @gm.command(
        name="deadline",
        description="Set the current decision's deadline, or the game's default deadlines.",
    )
    @app_commands.describe(
        hours="the current decision is due this many hours from now",
        default_hours="from now on, hours for each phase (0: no deadline)",
        reply_hours="from now on, hours for a reply mid-turn (0: no deadline)",
        clear="remove the current decision's deadline",
    )
    async def deadline(
        self,
        interaction: discord.Interaction,
        hours: app_commands.Range[float, 0, 24 * 60] | None = None,
        default_hours: app_commands.Range[float, 0, 24 * 60] | None = None,
        reply_hours: app_commands.Range[float, 0, 24 * 60] | None = None,
        clear: bool = False,
    ) -> None:
        await defer(interaction, ephemeral=True)
        game, _ = await self._game(interaction)
        text = await self.table.set_deadline(
            game.game, str(interaction.user.id), hours, default_hours, reply_hours, clear
        )
        zone = (await self.table.service.user_settings(str(interaction.user.id))).timezone
        await reply(interaction, in_zone(text, zone))  # the channel keeps Discord's stamps

    @gm.command(name="seat", description="Seat a member in a role, replacing whoever holds it.")
    @app_commands.describe(
        role="the role",
        user="who plays it (a member of this server)",
        email="or: the mail address of a player who plays by email",
        reason="why, for the audit trail",
    )
    @app_commands.autocomplete(role=complete_role)
    async def seat(
        self,
        interaction: discord.Interaction,
        role: str,
        user: discord.Member | None = None,
        email: str | None = None,
        reason: str | None = None,
    ) -> None:
        await defer(interaction, ephemeral=True)
        game, as_creator = await self._game(interaction)
        if (user is None) == (email is None):
            raise Refusal("Name either a member (`user:`) or a mail address (`email:`), not both.")
        if email is not None:
            text = await self.table.seat_email(
                game.game, str(interaction.user.id), role, email, reason or "",
                as_creator=as_creator,
            )
            await reply(interaction, text)
            return
        if user.bot:
            raise Refusal("A bot cannot hold a seat.")
        text = await self.table.seat(
            game.game,
            str(interaction.user.id),
            role,
            str(user.id),
            reason or "",
            as_creator=as_creator,
        )
        await reply(interaction, text)

    @gm.command(name="kick", description="Remove a player from the game; their seats become free.")
    @app_commands.describe(user="the player", reason="why: the channel is told")
    async def kick(
        self, interaction: discord.Interaction, user: discord.Member, reason: str
    ) -> None:
        await defer(interaction, ephemeral=True)
        game, as_creator = await self._game(interaction)

        async def act() -> str:
            return await self.table.kick(
                game.game, str(interaction.user.id), str(user.id), reason, as_creator=as_creator
            )

        question = (
            f"Remove {fmt.user(str(user.id))} from game `{game.game}`, freeing their seats?"
            f"\nWhy: {reason}"
        )
        await confirmed(interaction, self.table.settings.confirm_moderation, question, act)

    @gm.command(name="config", description="Show or change this server's settings for games.")
    @app_commands.describe(
        moderator_role="members with this role moderate games here",
        deadline_hours="default hours for each phase in new games (0: no deadline)",
        reply_hours="default hours for a reply mid-turn in new games (0: no deadline)",
        reminders="lead times before a deadline, such as 12h, 1h (or none)",
        map_width="width in pixels of the maps posted here",
        reset="put a setting back to the bot's default",
    )
    @app_commands.choices(
        reset=[app_commands.Choice(name=name.replace("_", " "), value=name) for name in RESETS]
    )
    async def config(
        self,
        interaction: discord.Interaction,
        moderator_role: discord.Role | None = None,
        deadline_hours: app_commands.Range[float, 0, 24 * 60] | None = None,
        reply_hours: app_commands.Range[float, 0, 24 * 60] | None = None,
        reminders: str | None = None,
        map_width: app_commands.Range[int, 400, 4000] | None = None,
        reset: str | None = None,
    ) -> None:
        """The server's moderator role, default deadlines and reminders for new games, and
        map width (issue 15 item 5); without options, what is in force. Every value is
        checked before anything changes: a bad one is refused in one sentence."""
        await defer(interaction, ephemeral=True)
        if interaction.guild_id is None:
            raise Refusal("Server settings are set in a server.")
        now = await self.table.server(interaction.guild_id)
        if not server_moderator(interaction.user, interaction.permissions, now.moderator_role):
            raise Refusal(
                f"Only the server's moderators may see or change its settings: "
                f"{moderators(now.moderator_role)}."
            )
        changes: dict[str, object] = {}
        if reset is not None:
            if reset not in RESETS:
                raise Refusal(f"reset is one of {', '.join(RESETS)}, not {reset!r}.")
            changes.update(dict.fromkeys(RESETS[reset]))
        problem = None
        if deadline_hours is not None:
            problem = problem or hours_problem("deadline_hours", deadline_hours)
            changes["deadline_hours"] = deadline_hours
        if reply_hours is not None:
            problem = problem or hours_problem("reply_hours", reply_hours)
            changes["reply_hours"] = reply_hours
        if reminders is not None:
            leads, why = reminders_problem(reminders)
            problem = problem or why
            changes["reminders"] = list(leads)
        if map_width is not None:
            problem = problem or map_width_problem(map_width)
            changes["map_width"] = map_width
        if moderator_role is not None:
            if moderator_role.is_default():
                problem = problem or "@everyone cannot be the moderator role: name a role."
            changes["moderator_role"] = str(moderator_role.id)
        if problem:
            raise Refusal(problem)  # checked before anything changed
        if not changes:
            await reply(interaction, "This server's settings:\n" + config_text(now))
            return
        new = await self.table.configure_server(
            interaction.guild_id, str(interaction.user.id), **changes
        )
        await reply(interaction, "Changed. This server's settings now:\n" + config_text(new))

    @gm.command(name="end", description="End the game now; the dice secret is revealed.")
    @app_commands.describe(reason="why: the channel is told")
    async def end(self, interaction: discord.Interaction, reason: str) -> None:
        await defer(interaction, ephemeral=True)
        game, as_creator = await self._game(interaction)

        async def act() -> str:
            await self.table.end(game.game, str(interaction.user.id), reason, as_creator=as_creator)
            return f"Ended game `{game.game}`."

        question = (
            f"End game `{game.game}` now? It cannot be resumed, and its dice secret is "
            f"revealed.\nWhy: {reason}"
        )
        await confirmed(interaction, self.table.settings.confirm_moderation, question, act)
