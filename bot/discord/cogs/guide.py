"""``/help``: how to play with the bot, and a short guide per game with where its
rulings are written (issue 15 item 4). The guides are the bot's own few lines; the
rules are the rulebook's and the engine's, and the rulings file says how the engine
reads each place where the rulebook is unclear."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord.respond import defer, reply
from engine.core import registry

#: a few lines per game: who plays, how a turn goes with the bot
GUIDES: dict[str, str] = {
    "pfv": (
        "Two players, Allied and Axis, in Tunisia, 1943. Set-up first (`/place`, or "
        "`/order text:auto` for the default hexes), then each player turn moves "
        "(`/move`), fights (`/attack`; the defender picks air support and each side its "
        "losses from the menu under the turn notice, or with `/order`, then `/retreat` "
        "and `/advance`), and ends with `/done`. Rebasing, rebuilding and replacing go "
        "through `/order`. Enemy stacks show only their top piece unless you are adjacent."
    ),
    "aa-revised": (
        "Two to five players, one or more powers each, spring 1942. Each power's turn: "
        "buy, combat moves, battles (choose your casualties when asked), non-combat moves "
        "and landing, then place what you bought; `/order` with its autocomplete gives "
        "every order of the turn, `/done` ends a phase. `/odds` estimates a battle."
    ),
    "tac": (
        "Two players, Allied and Axis, in Libya and Egypt, December 1940 to December 1942: "
        "fifty half-month turns, each side's player turn in order: reinforcements (and "
        "Allied withdrawals: `donor`/`substitute` when asked, or `standing withdraw "
        "engine`), minefields (`call`), movement (`move` with the hexes entered, or just "
        "the destination; `strategic`, `land` at Tobruk, `replace`, `sail`, `interdict`), "
        "then combat (`attack` every adjacent enemy, `resolve` each battle, then losses, "
        "retreats and advances when asked); `done` ends a phase. Axis units spend Fuel; the "
        "map's panel shows the turn and fuel tracks. `/odds` gives an attack's column and "
        "every result's chance, by totals (`12, 2 air` against `4, ridge`) or by units "
        "(`ge_21pz 7-7, ge_90` against `1128: uk_2armd`). The optional rules of section 18 "
        "are chosen when the game is created."
    ),
}

GENERAL = (
    "**Playing with Umpire**\n"
    "- `/game create` sets up a game in a channel (or a new thread); join with the "
    "**Join** buttons or `/game join`, then **Start** or `/game start`.\n"
    "- When it is your move the bot mentions you with buttons: **My view** (your private "
    "map, to you alone), **Orders** (your legal orders; a menu when they are few), "
    "**Undo**, **Done**. Every order can also be typed: `/order text:` offers the legal "
    "ones as you type.\n"
    "- `/game mine` lists your games in every server; `/game status`, `/game map`, "
    "`/game log` show the game of the channel; `/game export` gives the file that "
    "`umpire verify` checks (the dice secret once the game is over).\n"
    "- Deadlines show in your own time zone; `/standing` says what to do for you if one "
    "passes. Moderators use `/gm`.\n"
    "`/help game:` gives a short guide to one game: "
)


def rulings_path(ruleset_id: str) -> str | None:
    """Where the game's rulings are written in the bot's repository, if it has them."""
    module = registry.KNOWN.get(ruleset_id)
    if module is None:
        return None
    return module.replace(".", "/") + "/RULINGS.md"


def guide(ruleset_id: str) -> str:
    """The guide to one game: its title, its few lines, and its rulings file."""
    ruleset = registry.ruleset(ruleset_id)
    lines = [f"**{ruleset.title}** (`{ruleset_id}`)"]
    lines.append(GUIDES.get(ruleset_id, "Give its orders with `/order`; autocomplete lists them."))
    scenarios = ", ".join(f"`{s.id}`" for s in ruleset.scenarios())
    lines.append(f"Scenarios: {scenarios}.")
    path = rulings_path(ruleset_id)
    if path:
        lines.append(
            f"Where the rulebook is unclear, the bot follows the rulings in `{path}` of its "
            "repository (each names the rulebook lines it rests on); some are options to "
            "set when the game is created."
        )
    return "\n".join(lines)


class GuideCog(commands.Cog):
    async def complete_game(self, interaction: discord.Interaction, current: str):
        return [
            app_commands.Choice(name=registry.ruleset(r).title[:100], value=r)
            for r in registry.available()
            if current.lower() in r or current.lower() in registry.ruleset(r).title.lower()
        ][:25]

    @app_commands.command(
        name="help", description="How to play with the bot, and a guide per game."
    )
    @app_commands.describe(game="a game, for its short guide and where its rulings are")
    @app_commands.autocomplete(game=complete_game)
    async def help(self, interaction: discord.Interaction, game: str | None = None) -> None:
        await defer(interaction, ephemeral=True)
        if game is None:
            games = ", ".join(f"`{r}`" for r in registry.available())
            await reply(interaction, GENERAL + games + ".")
            return
        if game not in registry.available():
            games = ", ".join(f"`{r}`" for r in registry.available())
            await reply(interaction, f"There is no game {game!r} here; the games are {games}.")
            return
        await reply(interaction, guide(game))
