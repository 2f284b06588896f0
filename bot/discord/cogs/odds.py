"""``/odds``: exact Axis & Allies Revised battle odds (issue 6), computed off the event loop.

The same parser and report as ``umpire odds``; the answer is private unless ``share`` is
set, so a player can weigh an attack without telling the table.
"""

from __future__ import annotations

import asyncio

import discord
from discord import app_commands
from discord.ext import commands

from bot.cli import UserError
from bot.discord.respond import answer_privately, defer, reply


def compute(
    attacker: str, defender: str, sea: bool, rounds: int | None, retreat: int | None
) -> str:
    """The text report, or :class:`UserError` with one sentence on bad input."""
    from bot.commands_odds import _is_ship, parse_force, summary
    from engine.core.errors import IllegalOrder
    from engine.games.aa_revised.odds import battle_odds

    attackers = parse_force(attacker, "attacker")
    defenders = parse_force(defender, "defender")
    if not any(attackers.values()):
        raise UserError("attacker: name at least one attacking unit, as in '1 infantry'.")
    if not sea and any(_is_ship(t) for t in (*attackers, *defenders)):
        raise UserError("Ships fight only in sea zones: set sea to True for a sea battle.")
    try:
        result = battle_odds(attackers, defenders, sea=sea, rounds=rounds, retreat_when=retreat)
    except IllegalOrder as exc:
        raise UserError(str(exc)) from None
    return summary(attackers, defenders, {}, sea, result)


class OddsCog(commands.Cog):
    @app_commands.command(
        name="odds", description="Exact Axis & Allies battle odds, worked out round by round."
    )
    @app_commands.describe(
        attacker="the attacking units, e.g. 3 infantry, 1 artillery, 1 tank",
        defender="the defending units, e.g. 2 infantry, 1 fighter",
        sea="a sea battle (default: on land)",
        rounds="fight at most this many rounds",
        retreat="the attacker retreats when it has this many units or fewer",
        share="post the answer in the channel instead of only to you",
    )
    async def odds(
        self,
        interaction: discord.Interaction,
        attacker: str,
        defender: str,
        sea: bool = False,
        rounds: app_commands.Range[int, 1, 50] | None = None,
        retreat: app_commands.Range[int, 0, 60] | None = None,
        share: bool = False,
    ) -> None:
        await defer(interaction, ephemeral=not share)
        try:
            text = await asyncio.to_thread(compute, attacker, defender, sea, rounds, retreat)
        except UserError as exc:
            await answer_privately(interaction, str(exc))
            return
        await reply(interaction, f"```\n{text}\n```")
