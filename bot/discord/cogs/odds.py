"""``/odds``: exact battle odds for the games that have them (issue 6, issue 15 item 2),
worked out off the event loop.

One command serves every game: it is dispatched on the ruleset of the game named in
``game:``, else of the game played in the channel, else Axis & Allies Revised's.
Axis & Allies Revised has them (the same parser and report as ``umpire odds``), and
North Africa for land battles (forces as chart rows, ``3 ger.infantry, 1 ger.tank flank``);
a game without odds is told so in one sentence. The answer is private unless ``share`` is set,
so a player can weigh an attack without telling the table.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import discord
from discord import app_commands
from discord.ext import commands

from bot.cli import UserError
from bot.discord.formatting import clip
from bot.discord.images import off_loop
from bot.discord.respond import answer_privately, defer, reply
from bot.service import ServiceError
from engine.core import registry


@dataclass(frozen=True)
class BattleQuestion:
    """What ``/odds`` was asked: the two forces as typed, and the battle's terms."""

    attacker: str
    defender: str
    sea: bool = False
    rounds: int | None = None
    retreat: int | None = None


def aa_revised(q: BattleQuestion) -> str:
    """Axis & Allies Revised (Revised: Conduct Combat): the text report, or
    :class:`UserError` with one sentence on bad input."""
    from bot.commands_odds import _is_ship, parse_force, summary
    from engine.core.errors import IllegalOrder
    from engine.games.aa_revised.odds import battle_odds

    attackers = parse_force(q.attacker, "attacker")
    defenders = parse_force(q.defender, "defender")
    if not any(attackers.values()):
        raise UserError("attacker: name at least one attacking unit, as in '1 infantry'.")
    if not q.sea and any(_is_ship(t) for t in (*attackers, *defenders)):
        raise UserError("Ships fight only in sea zones: set sea to True for a sea battle.")
    try:
        result = battle_odds(
            attackers, defenders, sea=q.sea, rounds=q.rounds, retreat_when=q.retreat
        )
    except IllegalOrder as exc:
        raise UserError(str(exc)) from None
    return summary(attackers, defenders, {}, q.sea, result)


def _na_force(text: str, what: str, flanking: bool) -> tuple[dict[str, int], dict[str, int]]:
    """A North Africa force typed as ``3 ger.infantry, 1 ger tank`` (count, chart row),
    an attacker's item ending in ``flank`` when it flanks: (main, flank), or
    :class:`UserError` naming the item that is not a unit."""
    from engine.games.aa_na.odds import chart

    rows = chart()
    main: dict[str, int] = {}
    flank: dict[str, int] = {}
    for item in (i.strip() for i in text.replace(";", ",").split(",")):
        if not item:
            continue
        words = item.lower().split()
        side = main
        if flanking and words and words[-1] in ("flank", "flanking"):
            words, side = words[:-1], flank
        count = int(words[0]) if words and words[0].isdigit() else 1
        words = words[1:] if words and words[0].isdigit() else words
        row = ".".join(words[:1] + ["_".join(words[1:])]) if len(words) > 1 else "".join(words)
        if row not in rows or count < 1:
            raise UserError(
                f"{what}: {item!r} is not a count and a unit of the charts, as in "
                f"'3 ger.infantry' or '2 uk tank'{' (add flank for a flanking unit)' if flanking else ''}."
            )
        side[row] = side.get(row, 0) + count
    return main, flank


#: the largest side North Africa's odds are worked out for (the board's stacking limits
#: keep battles smaller; 20 against 20 takes about a tenth of a second)
NA_MOST = 30


def aa_na(q: BattleQuestion) -> str:
    """Axis & Allies: North Africa (North Africa: Land Combat, L760-860): exact odds of a
    land battle, or :class:`UserError` with one sentence on bad input."""
    from engine.games.aa_na.odds import land_odds

    if q.sea or q.rounds is not None or q.retreat is not None:
        raise UserError(
            "North Africa's odds are for land battles fought to the end: leave sea, rounds and retreat unset."
        )
    main, flank = _na_force(q.attacker, "attacker", True)
    defenders, _ = _na_force(q.defender, "defender", False)
    if not main and not flank:
        raise UserError("attacker: name at least one attacking unit, as in '3 ger.infantry'.")
    if not defenders:
        raise UserError("defender: name at least one defending unit, as in '2 uk.infantry'.")
    if max(sum(main.values()) + sum(flank.values()), sum(defenders.values())) > NA_MOST:
        raise UserError(f"North Africa's odds take at most {NA_MOST} units a side.")
    try:
        r = land_odds(main, defenders, flank)
    except ValueError as exc:
        raise UserError(str(exc)) from None

    def force(counts: dict[str, float]) -> str:
        return ", ".join(f"{n:g} {row}" for row, n in counts.items() if n >= 0.005) or "none"

    return "\n".join(
        [
            f"attacker: {force(main)}" + (f"; flanking: {force(flank)}" if flank else ""),
            f"defender: {force(defenders)}",
            f"attacker wins    {100 * r.attacker:6.2f}%",
            f"defender holds   {100 * r.defender:6.2f}%",
            f"both destroyed   {100 * r.mutual:6.2f}%",
            f"territory taken  {100 * r.taken:6.2f}%",
            f"attackers left   {force({k: round(v, 2) for k, v in r.attacker_left.items()})}",
            f"defenders left   {force({k: round(v, 2) for k, v in r.defender_left.items()})}",
        ]
    )


#: the games with odds, by ruleset id: each takes the question and returns the report
ODDS: dict[str, Callable[[BattleQuestion], str]] = {"aa-revised": aa_revised, "aa-na": aa_na}
#: the game whose odds are given outside a game's channel when no game is named
DEFAULT_ODDS = "aa-revised"


def _title(ruleset_id: str) -> str:
    try:
        return registry.ruleset(ruleset_id).title
    except Exception:  # an unknown or broken game is named by its id
        return ruleset_id


def with_odds() -> str:
    """The games that have odds, for a sentence."""
    return ", ".join(f"{_title(r)} (`{r}`)" for r in ODDS)


def no_odds(ruleset_id: str) -> str:
    """The one sentence for a game without odds."""
    return f"{_title(ruleset_id)} has no odds calculator in Umpire; /odds works for {with_odds()}."


class OddsCog(commands.Cog):
    async def complete_game(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.lower()
        out = []
        for rid in registry.available():
            name = f"{_title(rid)} ({rid})" + ("" if rid in ODDS else ": no odds")
            if typed in name.lower():
                out.append(app_commands.Choice(name=clip(name, 100), value=rid))
        return out[:25]

    async def _ruleset(self, interaction: discord.Interaction, game: str | None) -> str:
        """Which game's odds: the one named, else the channel's, else the only one."""
        if game:
            return game.strip().lower()
        table = getattr(interaction.client, "table", None)
        if table is not None and interaction.channel_id is not None:
            games = await table.service.list_games(channel=str(interaction.channel_id))
            if games:
                going = [g for g in games if g.status != "finished"] or games
                return going[-1].ruleset
        if DEFAULT_ODDS in ODDS:
            return DEFAULT_ODDS
        raise UserError(f"Name the game with game: ({with_odds()}).")

    @app_commands.command(
        name="odds", description="Exact battle odds, worked out round by round (A&A)."
    )
    @app_commands.describe(
        attacker="the attacking units, e.g. 3 infantry, 1 artillery, 1 tank",
        defender="the defending units, e.g. 2 infantry, 1 fighter",
        sea="a sea battle (default: on land)",
        rounds="fight at most this many rounds",
        retreat="the attacker retreats when it has this many units or fewer",
        share="post the answer in the channel instead of only to you",
        game="which game's rules (default: the game of this channel)",
    )
    @app_commands.autocomplete(game=complete_game)
    async def odds(
        self,
        interaction: discord.Interaction,
        attacker: str,
        defender: str,
        sea: bool = False,
        rounds: app_commands.Range[int, 1, 50] | None = None,
        retreat: app_commands.Range[int, 0, 60] | None = None,
        share: bool = False,
        game: str | None = None,
    ) -> None:
        await defer(interaction, ephemeral=not share)
        try:
            ruleset = await self._ruleset(interaction, game)
            if ruleset not in registry.available():
                raise UserError(f"There is no game {ruleset!r}; /odds works for {with_odds()}.")
            solve = ODDS.get(ruleset)
            if solve is None:
                raise UserError(no_odds(ruleset))
            question = BattleQuestion(attacker, defender, sea, rounds, retreat)
            text = await off_loop(solve, question)
        except (UserError, ServiceError) as exc:
            await answer_privately(interaction, str(exc))
            return
        await reply(interaction, f"```\n{text}\n```")
