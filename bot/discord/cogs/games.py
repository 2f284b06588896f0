"""``/game``: create, join, start and follow the game of this channel."""

from __future__ import annotations

import json

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import formatting as fmt
from bot.discord.buttons import reply_own_map
from bot.discord.config import in_zone
from bot.discord.images import game_caption, places_caption, render, role_title
from bot.discord.respond import defer, permission_gaps, reply
from bot.discord.table import GameTable, Refusal
from bot.service import ServiceError, find_ruleset
from engine.core import registry

MAX_CHOICES = 25
#: games shown by one page of /game list, each line clipped so that a page is one message
LIST_PAGE = 15
LIST_LINE = 120
#: a line of /game mine holds a deadline and a jump link besides the game
MINE_LINE = 300


def list_page(lines: list[str], page: int, width: int = LIST_LINE) -> str:
    """Page ``page`` (from 1) of a game list, with a line saying where it stands; each
    line clipped to ``width`` characters.

    >>> list_page(["a", "b"], 1)
    'a\\nb'
    >>> list_page([str(n) for n in range(40)], 3).splitlines()[0]
    'Games 31-40 of 40 (page 3 of 3).'
    """
    pages = max(1, -(-len(lines) // LIST_PAGE))
    if len(lines) <= LIST_PAGE and page == 1:
        return "\n".join(fmt.clip(line, width) for line in lines)
    if page > pages:
        return f"The list has {pages} page{'s' if pages != 1 else ''}; there is no page {page}."
    first = (page - 1) * LIST_PAGE
    shown = lines[first : first + LIST_PAGE]
    head = f"Games {first + 1}-{first + len(shown)} of {len(lines)} (page {page} of {pages})."
    tail = [f"Next: `/game list page:{page + 1}`."] if page < pages else []
    return "\n".join([head, *(fmt.clip(line, width) for line in shown), *tail])


def sql_page(lines: list[str], total: int, page: int) -> str:
    """Page ``page`` of a list the database cut (``lines`` are that page's, of ``total``
    in all), with the same heading and pointer as :func:`list_page`."""
    pages = max(1, -(-total // LIST_PAGE))
    if page > pages:
        return f"The list has {pages} page{'s' if pages != 1 else ''}; there is no page {page}."
    if total <= LIST_PAGE:
        return "\n".join(fmt.clip(line, LIST_LINE) for line in lines)
    first = (page - 1) * LIST_PAGE
    head = f"Games {first + 1}-{first + len(lines)} of {total} (page {page} of {pages})."
    tail = [f"Next: `/game list page:{page + 1}`."] if page < pages else []
    return "\n".join([head, *(fmt.clip(line, LIST_LINE) for line in lines), *tail])


def _choices(values: list[tuple[str, str]], current: str) -> list[app_commands.Choice[str]]:
    current = current.lower()
    return [
        app_commands.Choice(name=fmt.clip(name, 100), value=value)
        for name, value in values
        if current in name.lower() or current in value.lower()
    ][:MAX_CHOICES]


class GameCog(commands.Cog):
    game = app_commands.Group(
        name="game",
        description="Create, join and follow the game of this channel.",
        guild_only=True,
    )

    def __init__(self, table: GameTable) -> None:
        self.table = table

    # -- autocomplete ------------------------------------------------------------------

    async def complete_ruleset(self, interaction: discord.Interaction, current: str):
        names = []
        for rid in registry.available():
            names.append((f"{registry.ruleset(rid).title} ({rid})", rid))
        return _choices(names, current)

    async def complete_scenario(self, interaction: discord.Interaction, current: str):
        try:
            rs = find_ruleset(interaction.namespace.game or "")
        except ServiceError:
            return []  # not a game (yet): the player is still typing its name
        return _choices([(f"{s.title} ({s.id})", s.id) for s in rs.scenarios()], current)

    async def complete_new_role(self, interaction: discord.Interaction, current: str):
        try:
            rs = find_ruleset(interaction.namespace.game or "")
            scenario = interaction.namespace.scenario or rs.scenarios()[0].id
            roles = rs.roles(scenario)
        except (ServiceError, KeyError, ValueError):
            return []
        return _choices([(r, r) for r in roles], current)

    async def complete_free_role(self, interaction: discord.Interaction, current: str):
        try:
            game = await self.table.game_in(interaction.channel_id)
            status = await self.table.service.status(game.game)
        except (ServiceError, Refusal):
            return []  # no game in this channel
        return _choices([(s.role, s.role) for s in status.seats if s.user is None], current)

    # -- commands ---------------------------------------------------------------------

    @game.command(
        name="create", description="Set up a new game in this channel, or in a new thread."
    )
    @app_commands.describe(
        game="which game (ruleset)",
        scenario="the scenario (default: the first)",
        options="rule options as name=value, comma-separated",
        thread="start the game in a new thread of this channel",
        role="take this role yourself at once",
        deadline_hours="hours for each phase (default from the bot's settings; 0: none)",
        reply_hours="hours for a reply mid-turn, like air support or losses (0: none)",
    )
    @app_commands.autocomplete(
        game=complete_ruleset, scenario=complete_scenario, role=complete_new_role
    )
    async def create(
        self,
        interaction: discord.Interaction,
        game: str,
        scenario: str | None = None,
        options: str | None = None,
        thread: bool = False,
        role: str | None = None,
        deadline_hours: app_commands.Range[float, 0, 24 * 60] | None = None,
        reply_hours: app_commands.Range[float, 0, 24 * 60] | None = None,
    ) -> None:
        await defer(interaction, ephemeral=True)
        gaps = permission_gaps(interaction, new_thread=thread)
        if gaps:
            raise Refusal(gaps)  # before anything is created: a game nobody would hear of
        created, channel_id = await self.table.create(
            user=str(interaction.user.id),
            channel=interaction.channel,
            channel_id=interaction.channel_id,
            ruleset=game,
            scenario=scenario,
            options=options,
            in_thread=thread,
            role=role,
            deadline_hours=deadline_hours,
            reply_hours=reply_hours,
            guild=interaction.guild_id,
        )
        await reply(interaction, f"Created game `{created.game}` in <#{channel_id}>.")

    @game.command(name="join", description="Take a free seat in this channel's game.")
    @app_commands.describe(role="the role to play (default: the first free one)")
    @app_commands.autocomplete(role=complete_free_role)
    async def join(self, interaction: discord.Interaction, role: str | None = None) -> None:
        await defer(interaction, ephemeral=True)
        game = await self.table.game_in(interaction.channel_id)
        await reply(interaction, await self.table.join(game.game, str(interaction.user.id), role))

    @game.command(name="leave", description="Give up your seat in this channel's game.")
    async def leave(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        game = await self.table.game_in(interaction.channel_id)
        await reply(interaction, await self.table.leave(game.game, str(interaction.user.id)))

    @game.command(name="start", description="Begin play once every seat is taken.")
    async def start(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        game = await self.table.game_in(interaction.channel_id)
        gaps = permission_gaps(interaction)
        if gaps:
            raise Refusal(gaps)  # the first player would never hear it is their turn
        prompt = await self.table.start(game.game, str(interaction.user.id))
        await reply(interaction, f"Game `{game.game}` has started; {prompt.role} moves first.")

    @game.command(
        name="status", description="Whose decision it is, the deadline, the turn and phase."
    )
    async def status(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        game = await self.table.game_in(interaction.channel_id)
        status = await self.table.service.status(game.game)
        deadlines = await self.table.service.deadlines(game.game)
        zone = (await self.table.service.user_settings(str(interaction.user.id))).timezone
        await reply(interaction, in_zone(fmt.status_text(status, deadlines), zone))

    @game.command(
        name="map", description="The map: the public one, or what your side sees (privately)."
    )
    @app_commands.describe(
        private="show what your own role sees, to you alone",
        dm="send what your own role sees by direct message",
        role="which of your roles, if you hold several",
        turn="the map at the start of this past turn",
    )
    async def show_map(
        self,
        interaction: discord.Interaction,
        private: bool = False,
        dm: bool = False,
        role: str | None = None,
        turn: app_commands.Range[int, 0, 10_000] | None = None,
    ) -> None:
        own = private or dm or role is not None
        await defer(interaction, ephemeral=own)
        game = await self.table.game_in(interaction.channel_id)
        user = str(interaction.user.id)
        if turn is not None:
            await self._past_map(interaction, game.game, turn, own, dm, role)
            return
        if not own:
            status = await self.table.service.status(game.game)
            png, note = await self.table.public_map(status, interaction.filesize_limit)
            shown = status.prompt.text_for(None)  # a post in the channel: the public's text
            text = f"{game_caption(status.title, game.game)}, turn {status.progress.turn}: {shown}"
            await reply(interaction, text + (f"\n{note}" if note else ""), png=png)
            return
        own = await self.table.role_map(game.game, user, role, interaction.filesize_limit)
        if dm:
            seen = f"{own.caption} as **{own.role_title}** sees it"
            if own.closeup is not None:  # the close-up first, as in the channel
                await self.table.send_private(
                    interaction.user,
                    f"Close-up of the latest action in {seen}: {places_caption(own.places)}.",
                    own.closeup,
                )
            text = f"{seen} (only you can see this)." + (f"\n{own.note}" if own.note else "")
            await self.table.send_private(interaction.user, text, own.png)
            await reply(interaction, "Sent to your direct messages.")
        else:  # the close-up of the latest action first, as in the channel
            await reply_own_map(interaction, own)

    async def _past_map(
        self,
        interaction: discord.Interaction,
        game_id: str,
        turn: int,
        own: bool,
        dm: bool,
        role: str | None,
    ) -> None:
        """The map at the start of turn ``turn`` (issue 15 item 4): the public one, or,
        privately, what the caller's own role saw then."""
        user = str(interaction.user.id)
        seen_as = None
        if own:
            status = await self.table.service.status(game_id)
            held = [s.role for s in status.seats if s.user == user]
            if not held:
                raise Refusal(
                    f"You hold no seat in game {game_id}, so you have no private view; "
                    "leave out private, dm and role for the public map."
                )
            seen_as = role or (status.prompt.role if status.prompt.role in held else held[0])
        view = await self.table.service.view_at_turn(game_id, turn, user, seen_as)
        width = (await self.table.server(interaction.guild_id)).map_width
        png, note = await render(view.view, width, interaction.filesize_limit, self.table.draw)
        status = await self.table.service.status(game_id)
        text = (
            f"{game_caption(status.title, game_id)} at the start of turn {turn} "
            f"(after action {view.seq})"
        )
        if seen_as:
            text += (
                f", as **{role_title(status.ruleset, seen_as)}** saw it (only you can see this)."
            )
        else:
            text += "."
        text += f"\n{note}" if note else ""
        if dm:
            await self.table.send_private(interaction.user, text, png)
            await reply(interaction, "Sent to your direct messages.")
            return
        await reply(interaction, text, png=png)

    @game.command(name="log", description="The game's log: each order and what it did.")
    @app_commands.describe(
        last="how many actions (default 20)",
        all="include undone actions",
        mine="the log as your side reads it, with your own hidden pieces (only you see it)",
    )
    async def show_log(
        self,
        interaction: discord.Interaction,
        last: app_commands.Range[int, 1, 500] = 20,
        all: bool = False,
        mine: bool = False,
    ) -> None:
        """The public log (what the channel may read) or, with ``mine``, the caller's own
        role's log; the reply is private either way (ARCHITECTURE: the log is a view)."""
        await defer(interaction, ephemeral=True)
        game = await self.table.game_in(interaction.channel_id)
        audience, whose = None, "the public"
        if mine:
            status = await self.table.service.status(game.game)
            held = [s.role for s in status.seats if s.user == str(interaction.user.id)]
            if not held:
                await reply(
                    interaction,
                    f"You hold no seat in game `{game.game}`, so it has no log of yours; "
                    "leave out `mine` for the public log.",
                )
                return
            audience = status.prompt.role if status.prompt.role in held else held[0]
            whose = f"the {audience} player"
        lines = await self.table.service.game_log(game.game, audience=audience, include_undone=all)
        shown = fmt.log_lines(lines[-last:])
        head = (
            f"Game `{game.game}`, as {whose} reads it: the last {len(shown)} of "
            f"{len(lines)} log entries."
        )
        await reply(
            interaction, "\n".join([head, *shown]) if shown else "Nothing has happened yet."
        )

    @game.command(name="list", description="The games of this server, and yours.")
    @app_commands.describe(page=f"which page of the list ({LIST_PAGE} games a page; default 1)")
    async def list_games(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1] = 1
    ) -> None:
        """One message whatever the number of games: a page of the list, and how to see
        the next (issue 10: a user in 2,000 games was sent 84 messages). The database
        filters by server and user and cuts the page (issue 15 item 6)."""
        await defer(interaction, ephemeral=True)
        total, lines = await self.table.list_games(
            interaction.guild_id,
            str(interaction.user.id),
            limit=LIST_PAGE,
            offset=(page - 1) * LIST_PAGE,
        )
        if not total:
            await reply(interaction, "No games here yet: `/game create` sets one up.")
            return
        await reply(interaction, sql_page(lines, total, page))

    @game.command(
        name="mine", description="Your games in every server: whose move, deadlines, links."
    )
    @app_commands.describe(page=f"which page of the list ({LIST_PAGE} games a page; default 1)")
    async def mine(
        self, interaction: discord.Interaction, page: app_commands.Range[int, 1] = 1
    ) -> None:
        """The caller's games under way, wherever they are played (issue 15 item 3): the
        ones waiting for the caller first, each with its deadline and a link to its
        channel. Only the caller sees the list; it names only what the channel shows."""
        await defer(interaction, ephemeral=True)
        user = str(interaction.user.id)
        games = [
            g for g in await self.table.service.list_games(user=user) if g.status != "finished"
        ]
        if not games:
            await reply(
                interaction,
                "You play in no game under way; `/game list` shows this server's games.",
            )
            return
        lines: list[tuple[bool, str]] = []
        for g in games:
            status = await self.table.service.status(g.game)
            held = ", ".join(s.role for s in status.seats if s.user == user)
            yours = status.status == "active" and status.prompt.user == user
            if status.status == "open":
                free = [s.role for s in status.seats if s.user is None]
                state = "waiting for players" + (f" ({', '.join(free)} free)" if free else "")
            elif status.status == "paused":
                state = "paused"
            elif yours:
                state = f"**your move** as {status.prompt.role}"
            else:
                state = f"{status.prompt.role}'s move"
            deadline = None
            if status.status == "active":
                deadline = await self.table.current_deadline(g.game, status.prompt.role)
            due = f", due {fmt.when(deadline.due_at)}" if deadline else ""
            link = self.table.jump_link(g.channel, g.guild)
            line = f"`{g.game}` {status.title}, you: {held}; {state}{due}. {link}"
            lines.append((yours, line))
        ordered = [line for _, line in sorted(lines, key=lambda x: not x[0])]
        # deadlines in the caller's own time zone, when they set one (/me settings)
        zone = (await self.table.service.user_settings(user)).timezone
        await reply(interaction, in_zone(list_page(ordered, page, width=MINE_LINE), zone))

    @game.command(
        name="export", description="The game as the file `umpire verify` reads (secret at the end)."
    )
    async def export(self, interaction: discord.Interaction) -> None:
        """The channel's game as an export file, to the caller (issue 15 item 4). Until
        the game ends the export is the public one (the service leaves the dice secret
        and what only one side may see out of it); after, it carries the secret, so
        anyone can check every roll with ``umpire verify``."""
        await defer(interaction, ephemeral=True)
        game = await self.table.game_in(interaction.channel_id)
        data = await self.table.service.export(game.game)
        blob = json.dumps(data, indent=1, sort_keys=True).encode()
        if len(blob) > interaction.filesize_limit:
            await reply(
                interaction,
                f"The export of game `{game.game}` is {len(blob) // 1024} KiB, more than this "
                "server lets me upload; the bot's host can write it with `umpire export`.",
            )
            return
        secret = data.get("secret") is not None
        text = f"Game `{game.game}`, exported at action {data['game']['head']}. " + (
            "It carries the dice secret: `umpire verify` checks every roll."
            if secret
            else "The dice secret is left out until the game ends."
        )
        await reply(interaction, text, png=blob, filename=f"umpire-{game.game}.json")
