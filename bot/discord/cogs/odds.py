"""``/odds``: exact battle odds for the games that have them (issue 6, issue 15 item 2),
worked out off the event loop.

One command serves every game: it is dispatched on the ruleset of the game named in
``game:``, else of the game played in the channel, else Axis & Allies Revised's.
Axis & Allies Revised has them (the same parser and report as ``umpire odds``), and
North Africa for land battles (forces as chart rows, ``3 ger.infantry, 1 ger.tank flank``),
The African Campaign for one roll on its table (totals: attacker ``12, 2 air``, defender
``4, ridge``); the parsing and reports of the last two are :mod:`bot.odds_games`, shared
with ``umpire odds``; a game without odds is told so in one sentence. The answer is private unless ``share`` is set,
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
    #: the order units are lost in, first lost first, as typed (North Africa only)
    losses: str = ""


def aa_revised(q: BattleQuestion) -> str:
    """Axis & Allies Revised (Revised: Conduct Combat): the text report, or
    :class:`UserError` with one sentence on bad input."""
    from bot.commands_odds import _is_ship, parse_force, summary
    from engine.core.errors import IllegalOrder
    from engine.games.aa_revised.odds import battle_odds

    _no_losses(q, "Revised's odds take the casualties cheapest first")
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


def aa_na(q: BattleQuestion) -> str:
    """Axis & Allies: North Africa (North Africa: Land Combat, L760-860): exact odds of a
    land battle (:func:`bot.odds_games.na_odds`, as ``umpire odds aa-na``), or
    :class:`UserError` with one sentence on bad input."""
    from bot.odds_games import na_odds

    if q.sea or q.rounds is not None or q.retreat is not None:
        raise UserError(
            "North Africa's odds are for land battles fought to the end: leave sea, rounds and retreat unset."
        )
    return na_odds(q.attacker, q.defender, order=q.losses).text()


def _no_losses(q: BattleQuestion, why: str) -> None:
    if q.losses:
        raise UserError(f"losses: is for North Africa's odds; {why}.")


def tac(q: BattleQuestion) -> str:
    """The African Campaign (TAC 9.0 L457-467, 9.3-9.7 L483-509): the CRT column and the
    chance of each result (:func:`bot.odds_games.tac_typed`: attacker ``12, 2 air, die +2``,
    defender ``4, ridge``), or :class:`UserError` with one sentence on bad input."""
    from bot.odds_games import tac_typed

    _no_losses(q, "a TAC attack is one roll on the table")
    if q.sea or q.rounds is not None or q.retreat is not None:
        raise UserError(
            "The African Campaign's odds are one roll on the table: leave sea, rounds and retreat unset."
        )
    return tac_typed(q.attacker, q.defender).text()


#: the games with odds, by ruleset id: each takes the question and returns the report
ODDS: dict[str, Callable[[BattleQuestion], str]] = {
    "aa-revised": aa_revised,
    "aa-na": aa_na,
    "tac": tac,
}
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
        name="odds", description="Exact battle odds (A&A Revised, A&A North Africa, TAC)."
    )
    @app_commands.describe(
        attacker="the attacking units, e.g. 3 infantry, 1 artillery, 1 tank (TAC: 12, 2 air)",
        defender="the defending units, e.g. 2 infantry, 1 fighter (TAC: 4, ridge)",
        sea="a sea battle (default: on land)",
        rounds="fight at most this many rounds",
        retreat="the attacker retreats when it has this many units or fewer",
        share="post the answer in the channel instead of only to you",
        game="which game's rules (default: the game of this channel)",
        losses="North Africa: the order units are lost in, first lost first, e.g. tank, infantry",
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
        losses: str | None = None,
    ) -> None:
        await defer(interaction, ephemeral=not share)
        try:
            ruleset = await self._ruleset(interaction, game)
            if ruleset not in registry.available():
                raise UserError(f"There is no game {ruleset!r}; /odds works for {with_odds()}.")
            solve = ODDS.get(ruleset)
            if solve is None:
                raise UserError(no_odds(ruleset))
            question = BattleQuestion(attacker, defender, sea, rounds, retreat, losses or "")
            text = await off_loop(solve, question)
        except (UserError, ServiceError) as exc:
            await answer_privately(interaction, str(exc))
            return
        await reply(interaction, f"```\n{text}\n```")
