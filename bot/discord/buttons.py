"""Buttons and menus on the bot's posts (issue 15 item 1), so players can click instead
of type; every one of them does what a slash command does, and typing stays possible.

Each control is a :class:`discord.ui.DynamicItem` whose custom id carries the game id
(``umpire:join:<game>:<role>``): the bot registers the classes at start, so a button
posted before a restart still works after it, whatever the bot remembers in memory.
The answer to a click is private (ephemeral) and deferred before any database work,
as for a command; a refusal is one sentence to the clicker.

- the lobby post of a new game: a Join button per free role, and Start;
- every post that tells a player it is their turn: My view (their private map, to them
  alone), Orders (their legal orders, and a select menu when there are few), Undo, Done;
- the select menu of a small choice (which piece takes the loss, where to retreat,
  advance or not) holds the legal orders of that decision, stamped with the action
  number they were offered at, so a pick made after the game moved on is refused.

This module imports no cog and not the table (the table builds its views from here);
what a click does goes through ``interaction.client.table``.
"""

from __future__ import annotations

import logging
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import discord

from bot.discord.choices import Menu, _label
from bot.discord.images import places_caption
from bot.discord.respond import defer, permission_gaps, reply

log = logging.getLogger(__name__)

#: a game id or a role name inside a custom id (no colon, Discord's 100 characters)
_PART = r"[^:]{1,40}"
#: at most this many legal orders go into one select menu (Discord's limit is 25)
MENU_OPTIONS = 25
#: orders listed in the text answer of the Orders button
LISTED = 30


def _table(interaction: discord.Interaction) -> Any:
    return interaction.client.table  # type: ignore[attr-defined]


async def _answer(
    interaction: discord.Interaction,
    work: Callable[[], Awaitable[None]],
    counts_as: str | None = None,
) -> None:
    """Defer privately, then ``work``; a refusal or failure is told as for a command
    (the tree's error handler), to the clicker alone. ``counts_as``: the cooled-down
    command whose allowance the click uses (:data:`bot.discord.respond.COOLDOWNS`); a
    click over it is refused before anything is read or drawn."""
    try:
        await defer(interaction, ephemeral=True, counts_as=counts_as)
        await work()
    except Exception as exc:  # noqa: BLE001 - the tree's handler sorts refusals from bugs
        await interaction.client.tree.on_error(interaction, exc)  # type: ignore[attr-defined]


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=rf"umpire:join:(?P<game>{_PART}):(?P<role>{_PART})",
):  # noqa: E501
    """Take the seat ``role`` of game ``game`` (``/game join role:``)."""

    def __init__(self, game: str, role: str) -> None:
        self.game, self.role = game, role
        super().__init__(
            discord.ui.Button(
                label=f"Join as {role}"[:80],
                style=discord.ButtonStyle.primary,
                custom_id=f"umpire:join:{game}:{role}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> JoinButton:
        return cls(match["game"], match["role"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            await _table(interaction).join(self.game, str(interaction.user.id), self.role)
            await reply(interaction, f"You joined game `{self.game}` as **{self.role}**.")

        await _answer(interaction, work)


class StartButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"umpire:start:(?P<game>{_PART})"
):  # noqa: E501
    """Begin play (``/game start``)."""

    def __init__(self, game: str) -> None:
        self.game = game
        super().__init__(
            discord.ui.Button(
                label="Start", style=discord.ButtonStyle.success, custom_id=f"umpire:start:{game}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> StartButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            gaps = permission_gaps(interaction)
            if gaps:
                await reply(interaction, gaps)
                return
            prompt = await _table(interaction).start(self.game, str(interaction.user.id))
            await reply(interaction, f"Game `{self.game}` has started; {prompt.role} moves first.")

        await _answer(interaction, work)


class ViewButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"umpire:view:(?P<game>{_PART})"
):  # noqa: E501
    """The clicker's private map (``/game map private:True``), with the close-up of the
    latest action beside it, to them alone; it shares ``/game map``'s cooldown."""

    def __init__(self, game: str) -> None:
        self.game = game
        super().__init__(
            discord.ui.Button(
                label="My view",
                style=discord.ButtonStyle.secondary,
                custom_id=f"umpire:view:{game}",
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> ViewButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            own = await _table(interaction).role_map(
                self.game, str(interaction.user.id), None, interaction.filesize_limit
            )
            await reply_own_map(interaction, own)

        await _answer(interaction, work, counts_as="game map")


async def reply_own_map(interaction: discord.Interaction, own: Any) -> None:
    """Answer with a role's own map (``own``: :class:`bot.discord.table.OwnMap`): first
    the close-up of the latest action on its own, so that Discord shows it at full
    preview width as in the channel, then the whole map; both only to the caller (the
    interaction was deferred privately)."""
    seen = f"{own.caption} as **{own.role_title}** sees it"
    if own.closeup is not None:
        await reply(
            interaction,
            f"Close-up of the latest action in {seen}: {places_caption(own.places)}.",
            png=own.closeup,
            filename="closeup.png",
        )
    text = f"{seen} (only you can see this)." + (f"\n{own.note}" if own.note else "")
    await reply(interaction, text, png=own.png)


def orders_text(menu: Menu, with_menu: bool = False) -> str:
    """The caller's legal orders: how many of each kind, and the first few in full;
    ``with_menu``: a select menu of them goes with the text.

    >>> m = Menu("g", 3, "axis", ["loss 1arm", "loss 2arm", "done"])
    >>> print(orders_text(m))
    Your decision as **axis** (action 3): 3 legal orders (loss 2, done 1).
    - `loss 1arm`
    - `loss 2arm`
    - `done`
    Type one with `/order text:`, or the command of its kind.
    """
    kinds = Counter(o.split()[0] for o in menu.orders if o.split())
    summary = ", ".join(f"{k} {n}" for k, n in kinds.items())
    head = (
        f"Your decision as **{menu.role}** (action {menu.seq}): {len(menu.orders)} legal "
        f"order{'s' if len(menu.orders) != 1 else ''} ({summary})."
    )
    lines = [f"- `{_label(o, menu.names)}`" for o in menu.orders[:LISTED]]
    if len(menu.orders) > LISTED:
        lines.append(
            f"... and {len(menu.orders) - LISTED} more: type `/order text:` and the "
            "autocomplete offers them, filtered by what you type."
        )
    elif with_menu:
        lines.append("Pick one from the menu below, or type it.")
    else:
        lines.append("Type one with `/order text:`, or the command of its kind.")
    return "\n".join([head, *lines])


class OrdersButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"umpire:orders:(?P<game>{_PART})"
):  # noqa: E501
    """The clicker's legal orders, privately; a select menu of them when they are few."""

    def __init__(self, game: str) -> None:
        self.game = game
        super().__init__(
            discord.ui.Button(
                label="Orders", style=discord.ButtonStyle.primary, custom_id=f"umpire:orders:{game}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> OrdersButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            table = _table(interaction)
            menu = await table.menus.for_user(self.game, str(interaction.user.id))
            if menu is None:
                status = await table.service.status(self.game)
                whose = status.prompt.role
                await reply(
                    interaction,
                    f"The decision in game `{self.game}` is not yours now"
                    + (f"; it is **{whose}**'s." if whose else "; the game is over."),
                )
                return
            view = pick_view(menu)
            await reply(interaction, orders_text(menu, view is not None), view=view)

        await _answer(interaction, work)


class UndoButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"umpire:undo:(?P<game>{_PART})"
):  # noqa: E501
    """Take back the clicker's last order (``/undo``), under the service's rules."""

    def __init__(self, game: str) -> None:
        self.game = game
        super().__init__(
            discord.ui.Button(
                label="Undo", style=discord.ButtonStyle.secondary, custom_id=f"umpire:undo:{game}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> UndoButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        async def work() -> None:
            result = await _table(interaction).undo(self.game, str(interaction.user.id))
            await reply(
                interaction,
                f"Took back action {result.seq} (`{result.order}`). "
                f"Now: {result.prompt.text_for(result.role)}",
            )

        await _answer(interaction, work)


async def _play(interaction: discord.Interaction, game: str, text: str, seen: int | None) -> None:
    from bot.discord.cogs.orders import _ack  # the same acknowledgement as /order

    result = await _table(interaction).play(game, str(interaction.user.id), text, seen)
    await reply(interaction, _ack(result))


class DoneButton(
    discord.ui.DynamicItem[discord.ui.Button], template=rf"umpire:done:(?P<game>{_PART})"
):  # noqa: E501
    """End the clicker's phase or step (``/done``); the rules refuse it when not legal."""

    def __init__(self, game: str) -> None:
        self.game = game
        super().__init__(
            discord.ui.Button(
                label="Done", style=discord.ButtonStyle.success, custom_id=f"umpire:done:{game}"
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> DoneButton:
        return cls(match["game"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await _answer(interaction, lambda: _play(interaction, self.game, "done", None))


class PickSelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=rf"umpire:pick:(?P<game>{_PART}):(?P<seq>\d{{1,12}})",
):  # noqa: E501
    """A select menu of the legal orders of one decision, offered at action ``seq``: the
    pick is given as the order, and refused as stale if the game has moved since."""

    def __init__(
        self, game: str, seq: int, options: list[discord.SelectOption] | None = None
    ) -> None:
        self.game, self.seq = game, seq
        super().__init__(
            discord.ui.Select(
                custom_id=f"umpire:pick:{game}:{seq}",
                placeholder="Choose your order",
                options=options or [discord.SelectOption(label="none", value="none")],
            )
        )

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]
    ) -> PickSelect:
        options = list(getattr(item, "options", []) or [])
        return cls(match["game"], int(match["seq"]), options)

    async def callback(self, interaction: discord.Interaction) -> None:
        values = (interaction.data or {}).get("values") or []  # type: ignore[union-attr]
        text = str(values[0]) if values else ""
        await _answer(interaction, lambda: _play(interaction, self.game, text, self.seq))


# -- the views the table posts --------------------------------------------------------------


def pick_view(menu: Menu) -> discord.ui.View | None:
    """A select menu of ``menu``'s orders, when they fit in one (every value within
    Discord's 100 characters); None otherwise: then the player types."""
    if not menu.orders or len(menu.orders) > MENU_OPTIONS:
        return None
    if any(len(o) > 100 for o in menu.orders):
        return None
    options = [discord.SelectOption(label=_label(o, menu.names), value=o) for o in menu.orders]
    view = discord.ui.View(timeout=None)
    view.add_item(PickSelect(menu.game, menu.seq, options))
    return view


def lobby_view(game: str, free: list[str]) -> discord.ui.View:
    """Join per free role (at most 24 of them) and Start."""
    view = discord.ui.View(timeout=None)
    for role in free[:24]:
        view.add_item(JoinButton(game, role))
    view.add_item(StartButton(game))
    return view


def turn_view(game: str) -> discord.ui.View:
    """My view, Orders, Undo and Done: on every post that tells a player it is their move."""
    view = discord.ui.View(timeout=None)
    for item in (ViewButton(game), OrdersButton(game), UndoButton(game), DoneButton(game)):
        view.add_item(item)
    return view


#: what the bot registers at start, so that posts made before a restart still answer
DYNAMIC_ITEMS = (
    JoinButton,
    StartButton,
    ViewButton,
    OrdersButton,
    UndoButton,
    DoneButton,
    PickSelect,
)
