"""A confirmation step for the moderators' acts that cannot be taken back by a click:
``/gm rollback``, ``/gm end`` and ``/gm kick`` (issue 15 item 1).

The command checks who may act, then answers privately with what it is about to do and
two buttons; only the member who asked can press them, and only for a few minutes (the
buttons live in the bot's memory: after a restart the command is given again). Confirm
does the act and announces it as the command did; Cancel changes nothing. A server that
wants the one-step commands back sets ``confirm_moderation`` off (the settings).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import discord

from bot.discord.buttons import _answer
from bot.discord.respond import answer_privately, reply

#: seconds a confirmation waits for its click
CONFIRM_SECONDS = 300.0


class Confirm(discord.ui.View):
    """Confirm and Cancel for one act of ``owner``; the first click settles it."""

    def __init__(self, owner: int, act: Callable[[], Awaitable[str]]) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.owner = owner
        self.act = act
        self.settled = False

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.user.id != self.owner:
            await answer_privately(
                interaction, "Only the moderator who gave the command can confirm it."
            )
            return False
        return True

    @discord.ui.button(label="Confirm", style=discord.ButtonStyle.danger)
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        async def work() -> None:
            if self.settled:
                await reply(interaction, "This was already settled; nothing more was done.")
                return
            self.settled = True
            self.stop()
            await reply(interaction, await self.act())

        await _answer(interaction, work)

    @discord.ui.button(label="Cancel", style=discord.ButtonStyle.secondary)
    async def cancel(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        async def work() -> None:
            if not self.settled:
                self.settled = True
                self.stop()
            await reply(interaction, "Cancelled; nothing changed.")

        await _answer(interaction, work)


async def confirmed(
    interaction: discord.Interaction,
    ask: bool,
    question: str,
    act: Callable[[], Awaitable[str]],
) -> None:
    """Do ``act`` now (``ask`` off) or after the caller confirms ``question``; either way
    the caller is answered privately with what ``act`` returns. The interaction must have
    been deferred privately."""
    if not ask:
        await reply(interaction, await act())
        return
    minutes = int(CONFIRM_SECONDS // 60)
    text = f"{question}\nPress **Confirm** within {minutes} minutes to do it, or **Cancel**."
    await reply(interaction, text, view=Confirm(interaction.user.id, act))
