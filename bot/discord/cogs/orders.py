"""The order commands, shared by every game: each is dispatched to the game of the
channel it is used in (ARCHITECTURE: Front ends).

``/order text:`` takes any order of any game in the console's text grammar, and its
autocomplete offers the caller's whole legal orders; the verbs several games share
(:data:`~bot.discord.choices.VERBS`: move, attack, retreat, advance, place, done) also
have a command of their own with an option per word. ``/undo`` takes back your last
order under the service's rules; ``/standing`` sets what to do for you when a deadline
passes.
"""

from __future__ import annotations

import logging

import discord
from discord import app_commands
from discord.ext import commands

from bot.discord import formatting as fmt
from bot.discord.choices import VERBS, order_choices, seen_of, slot_choices, text_of, unstamp
from bot.discord.respond import defer, reply
from bot.discord.standing import STANDING_VERBS, parse_preferences
from bot.discord.table import GameTable, Refusal
from bot.service import OrderResult, ServiceError

log = logging.getLogger(__name__)

Choices = list[app_commands.Choice[str]]


def _focused(options: list[dict]) -> str | None:
    for option in options:
        if option.get("focused"):
            return option["name"]
        found = _focused(option.get("options", []))
        if found:
            return found
    return None


def _ack(result: OrderResult) -> str:
    text = fmt.order_report(result, audience=result.role)  # a reply to the player alone
    if result.prompt.role is None:
        return text + "\nThe game is over."
    if result.prompt.user == result.user:
        mine = fmt.prompt_line(result.prompt, audience=result.prompt.role)
        return f"{text}\n\nStill yours: {mine}"
    return f"{text}\n\nNow waiting for **{result.prompt.role}**."


class OrderCog(commands.Cog):
    def __init__(self, table: GameTable) -> None:
        self.table = table

    # -- autocomplete ------------------------------------------------------------------

    async def complete_slot(self, interaction: discord.Interaction, current: str) -> Choices:
        """Values legal orders of the caller's prompt have in the focused option."""
        try:
            verb = VERBS[interaction.command.name]  # type: ignore[union-attr]
            focused = _focused((interaction.data or {}).get("options", []))  # type: ignore[arg-type]
            index = [s.name for s in verb.slots].index(focused)
            menu = await self._menu(interaction)
            if menu is None:
                return []
            chosen = [getattr(interaction.namespace, s.name, None) for s in verb.slots]
            pairs = slot_choices(menu, verb, index, chosen, current)
        except (ServiceError, Refusal):
            return []  # no game here, or none the caller may order in: nothing to offer
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [app_commands.Choice(name=n, value=v) for n, v in pairs]

    async def complete_order(self, interaction: discord.Interaction, current: str) -> Choices:
        try:
            menu = await self._menu(interaction)
            pairs = order_choices(menu, current) if menu else []
        except (ServiceError, Refusal):
            return []
        except Exception:
            log.exception("autocomplete failed")
            return []
        return [app_commands.Choice(name=n, value=v) for n, v in pairs]

    async def _menu(self, interaction: discord.Interaction):
        game = await self.table.game_in(interaction.channel_id)
        return await self.table.menus.for_user(game.game, str(interaction.user.id))

    # -- the one path every order takes -------------------------------------------------

    async def _order(
        self, interaction: discord.Interaction, verb: str, values: list[str | None]
    ) -> None:
        await defer(interaction, ephemeral=True)
        plain, seen = seen_of(values)
        text = text_of(VERBS[verb], plain)
        await self._play(interaction, text, seen)

    async def _play(self, interaction: discord.Interaction, text: str, seen: int | None) -> None:
        game = await self.table.game_in(interaction.channel_id)
        result = await self.table.play(game.game, str(interaction.user.id), text, seen)
        await reply(interaction, _ack(result))

    # -- the commands -------------------------------------------------------------------

    @app_commands.command(name="move", description=VERBS["move"].description)
    @app_commands.describe(
        piece=VERBS["move"].slots[0].description, to=VERBS["move"].slots[1].description
    )
    @app_commands.autocomplete(piece=complete_slot, to=complete_slot)
    @app_commands.guild_only()
    async def move(self, interaction: discord.Interaction, piece: str, to: str) -> None:
        await self._order(interaction, "move", [piece, to])

    @app_commands.command(name="attack", description=VERBS["attack"].description)
    @app_commands.describe(
        unit=VERBS["attack"].slots[0].description,
        target=VERBS["attack"].slots[1].description,
        air=VERBS["attack"].slots[2].description,
    )
    @app_commands.autocomplete(unit=complete_slot, target=complete_slot, air=complete_slot)
    @app_commands.guild_only()
    async def attack(
        self,
        interaction: discord.Interaction,
        unit: str,
        target: str | None = None,
        air: str | None = None,
    ) -> None:
        await self._order(interaction, "attack", [unit, target, air])

    @app_commands.command(name="retreat", description=VERBS["retreat"].description)
    @app_commands.describe(
        piece=VERBS["retreat"].slots[0].description, to=VERBS["retreat"].slots[1].description
    )
    @app_commands.autocomplete(piece=complete_slot, to=complete_slot)
    @app_commands.guild_only()
    async def retreat(
        self, interaction: discord.Interaction, piece: str, to: str | None = None
    ) -> None:
        await self._order(interaction, "retreat", [piece, to])

    @app_commands.command(name="advance", description=VERBS["advance"].description)
    @app_commands.describe(pieces=VERBS["advance"].slots[0].description)
    @app_commands.autocomplete(pieces=complete_slot)
    @app_commands.guild_only()
    async def advance(self, interaction: discord.Interaction, pieces: str) -> None:
        await self._order(interaction, "advance", [pieces])

    @app_commands.command(name="place", description=VERBS["place"].description)
    @app_commands.describe(
        piece=VERBS["place"].slots[0].description, hex=VERBS["place"].slots[1].description
    )
    @app_commands.autocomplete(piece=complete_slot, hex=complete_slot)
    @app_commands.guild_only()
    async def place(self, interaction: discord.Interaction, piece: str, hex: str) -> None:
        await self._order(interaction, "place", [piece, hex])

    @app_commands.command(name="done", description=VERBS["done"].description)
    @app_commands.describe(confirm=VERBS["done"].slots[0].description)
    @app_commands.autocomplete(confirm=complete_slot)
    @app_commands.guild_only()
    async def done(self, interaction: discord.Interaction, confirm: str | None = None) -> None:
        await self._order(interaction, "done", [confirm])

    @app_commands.command(
        name="order", description="Give any order in the game's text form, as the console takes it."
    )
    @app_commands.describe(
        text="the order, e.g. move 1arm 8113 8114 (start typing to see the legal ones)"
    )
    @app_commands.autocomplete(text=complete_order)
    @app_commands.guild_only()
    async def order(
        self, interaction: discord.Interaction, text: app_commands.Range[str, 1, 200]
    ) -> None:
        await defer(interaction, ephemeral=True)
        plain, seen = unstamp(text)
        await self._play(interaction, plain, seen)

    @app_commands.command(
        name="undo",
        description="Take back your last order, if no dice were rolled and nobody acted since.",
    )
    @app_commands.guild_only()
    async def undo(self, interaction: discord.Interaction) -> None:
        await defer(interaction, ephemeral=True)
        game = await self.table.game_in(interaction.channel_id)
        result = await self.table.undo(game.game, str(interaction.user.id))
        await reply(
            interaction,
            f"Took back action {result.seq} (`{result.order}`). "
            f"Now: {result.prompt.text_for(result.role)}",
        )

    @app_commands.command(
        name="standing",
        description="What to choose for you when a deadline passes while others wait.",
    )
    @app_commands.describe(
        loss=STANDING_VERBS["loss"],
        air=STANDING_VERBS["air"],
        retreat=STANDING_VERBS["retreat"],
        advance=STANDING_VERBS["advance"],
        clear="forget your standing orders first",
        role="which of your roles, if you hold several",
    )
    @app_commands.guild_only()
    async def standing(
        self,
        interaction: discord.Interaction,
        loss: str | None = None,
        air: str | None = None,
        retreat: str | None = None,
        advance: str | None = None,
        clear: bool = False,
        role: str | None = None,
    ) -> None:
        await defer(interaction, ephemeral=True)
        game = await self.table.game_in(interaction.channel_id)
        given = {"loss": loss, "air": air, "retreat": retreat, "advance": advance}
        changes = {verb: parse_preferences(text) for verb, text in given.items() if text}
        text = await self.table.set_standing(
            game.game, str(interaction.user.id), role, changes, clear
        )
        await reply(interaction, text)
