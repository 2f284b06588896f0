"""Order commands and their autocomplete: the option slots of each verb, and the choices
offered from the legal orders of the caller's current prompt (ARCHITECTURE: Front ends).

Each verb command (``/move piece:... to:...``) writes the same text the console takes
(``move 1arm 8113 8114``): the options are the words of the order in order, an optional
one led by a keyword (``attack UNIT HEX air AIR``), and the last may take several words.
Autocomplete offers the values that legal orders have in that slot, given the slots
already filled, at most 25, filtered by what the player has typed. The rules engine
still checks the order that arrives, whatever it says.

A chosen value carries the action number it was offered at (``1arm~57``); the command
passes that number to the service as the position the player saw, so an order picked
before the game moved on is refused as stale with the current prompt.
"""

from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from bot.discord.formatting import clip
from bot.service import Service

MAX_CHOICES = 25
CHOICE_LIMIT = 100  # characters in a choice's name and value
_STAMP = re.compile(r"^(.*)~(\d+)$", re.S)


@dataclass(frozen=True)
class Slot:
    """One option of an order command: the word (or words) at its place in the text."""

    name: str
    description: str
    keyword: str | None = None  # the word written before it ("air")
    rest: bool = False  # takes every remaining word
    required: bool = True


@dataclass(frozen=True)
class Verb:
    name: str
    description: str
    slots: tuple[Slot, ...] = ()
    #: the games (of the five Umpire is built for) whose orders use this verb
    games: tuple[str, ...] = ()


#: the five games, registered or on their way (issue 15 item 2)
FIVE_GAMES = ("pfv", "aa-revised", "bia", "tac", "aa-na")

_PIECE = "the piece (start typing to see the legal ones)"

#: The verbs with a command of their own: those at least two of the five games use, in
#: the shape "verb, the pieces, then the places". Every other verb (PFV's air, loss,
#: rebase, rebuild and replace; A&A's buy, bomb, casualties...; TAC's strategic, resolve,
#: lose...) is given with ``/order``, whose autocomplete offers the whole legal orders,
#: or from the select menus of the turn notice's buttons; so a server that runs one
#: game sees no command it cannot use, and the tree stays the same as games are added.
VERBS: dict[str, Verb] = {
    v.name: v
    for v in (
        Verb(
            "move",
            "Move a piece, or a stack (pieces joined by commas), along a path of hexes.",
            (
                Slot("piece", "the piece or pieces (1arm,34th) to move"),
                Slot("to", "the hexes entered in order, or just the destination", rest=True),
            ),
            ("pfv", "aa-revised", "bia", "tac", "aa-na"),
        ),
        Verb(
            "attack",
            "Declare a battle: a unit attacks a hex (with air support if you like), or a territory.",
            (
                Slot("unit", "the attacking unit, or the territory attacked (A&A)"),
                Slot("target", "the hex attacked", required=False),
                Slot("air", "your air support, if any", keyword="air", required=False),
            ),
            ("pfv", "aa-revised", "bia", "tac"),
        ),
        Verb(
            "retreat",
            "Retreat a piece after a battle, or retreat from a battle (A&A).",
            (
                Slot("piece", "the piece, or where the battle's attackers retreat to (A&A)"),
                Slot(
                    "to",
                    "the hexes (via and to), or just the destination",
                    rest=True,
                    required=False,
                ),
            ),
            ("pfv", "aa-revised", "bia", "tac", "aa-na"),
        ),
        Verb(
            "advance",
            "Advance into the emptied hex after a battle, or not.",
            (Slot("pieces", "the pieces that advance, or none", rest=True),),
            ("pfv", "tac", "aa-na"),
        ),
        Verb(
            "place",
            "Place a piece (set-up, or when a rule lets you).",
            # a game may name more than one word there (A&A: "place 1 trn sz16")
            (
                Slot("piece", _PIECE),
                Slot("hex", "the hex, or the territory and sea zone", rest=True),
            ),
            ("pfv", "aa-revised", "tac"),
        ),
        Verb(
            "done",
            "End this phase or step.",
            # A&A asks for "done confirm" while aircraft could still land or a factory has room
            (
                Slot(
                    "confirm",
                    "confirm: end it although the game says more could be done",
                    rest=True,
                    required=False,
                ),
            ),
            FIVE_GAMES,
        ),
    )
}


def stamp(value: str, seq: int) -> str:
    """An autocomplete value marked with the action number it was offered at."""
    return f"{value}~{seq}"


def unstamp(value: str | None) -> tuple[str, int | None]:
    """``("1arm", 57)`` from ``"1arm~57"``; a value the player typed has no number.

    >>> unstamp("1arm~57"), unstamp("1arm")
    (('1arm', 57), ('1arm', None))
    """
    if value is None:
        return "", None
    m = _STAMP.match(value.strip())
    if m is None:
        return value.strip(), None
    return m.group(1).strip(), int(m.group(2))


def slots_of(verb: Verb, text: str) -> list[str | None]:
    """The slot values of an order written as text (``attack 10pz 8113 air luft``)."""
    words = text.split()[1:]
    values: list[str | None] = []
    for slot in verb.slots:
        if slot.keyword is not None:
            if words[:1] == [slot.keyword] and len(words) > 1:
                values.append(words[1])
                words = words[2:]
            else:
                values.append(None)
        elif slot.rest:
            values.append(" ".join(words) or None)
            words = []
        else:
            values.append(words[0] if words else None)
            words = words[1:]
    return values


def text_of(verb: Verb, values: list[str | None]) -> str:
    """The order text from the command's options; the inverse of :func:`slots_of`.

    >>> text_of(VERBS["attack"], ["10pz", "8113", None])
    'attack 10pz 8113'
    """
    words = [verb.name]
    for slot, value in zip(verb.slots, values, strict=True):
        if value:
            words += [slot.keyword, value] if slot.keyword else [value]
    return " ".join(words)


def seen_of(values: list[str | None]) -> tuple[list[str | None], int | None]:
    """The values without their stamps, and the earliest action number among them."""
    plain: list[str | None] = []
    seen: list[int] = []
    for value in values:
        text, seq = unstamp(value)
        plain.append(text or None)
        if seq is not None:
            seen.append(seq)
    return plain, (min(seen) if seen else None)


# -- the menu of legal orders ----------------------------------------------------------


@dataclass
class Menu:
    """The legal orders of one prompt, as text, and the names of the pieces they name."""

    game: str
    seq: int
    role: str
    orders: list[str]
    names: dict[str, str] = field(default_factory=dict)
    state: Any = None  # the state the menu was built from, to know when it is stale


def piece_names(view: Any) -> dict[str, str]:
    """Counter ids to printed names, from a hex-map view (empty for other views)."""
    names: dict[str, str] = {}
    for holder in [*getattr(view, "stacks", []), *getattr(view, "boxes", [])]:
        for counter in getattr(holder, "counters", []):
            names[counter.id] = counter.name
    return names


class Menus:
    """Legal-order menus per game, rebuilt only when the game has moved."""

    def __init__(self, service: Service, size: int = 64) -> None:
        self.service = service
        self.size = size
        self._cache: OrderedDict[str, Menu] = OrderedDict()

    async def for_user(self, game_id: str, user_id: str) -> Menu | None:
        """The menu of the caller's current decision; None if it is not the caller's."""
        status = await self.service.status(game_id)
        if status.status != "active" or status.prompt.role is None:
            return None
        if status.prompt.user != user_id:
            return None
        ruleset, state, seq = await self.service.live_state(game_id)
        role = ruleset.prompt(state).role
        if role is None or role != status.prompt.role:
            return None
        cached = self._cache.get(game_id)
        if cached is not None and cached.state is state and cached.seq == seq:
            self._cache.move_to_end(game_id)
            return cached
        orders = [o.text() for o in ruleset.legal_orders(state, role)]
        names = piece_names(ruleset.view(state, role)) if orders else {}
        menu = Menu(game_id, seq, role, orders, names, state)
        self._cache[game_id] = menu
        while len(self._cache) > self.size:
            self._cache.popitem(last=False)
        return menu


def _label(value: str, names: dict[str, str]) -> str:
    described = [f"{w} ({names[w]})" if w in names else w for w in re.split(r"([ ,])", value)]
    return clip("".join(described), CHOICE_LIMIT)


def _matches(typed: str, value: str, label: str) -> bool:
    typed = typed.lower().strip()
    return not typed or typed in value.lower() or typed in label.lower()


def slot_choices(
    menu: Menu, verb: Verb, index: int, chosen: list[str | None], typed: str
) -> list[tuple[str, str]]:
    """(name, value) pairs for slot ``index`` of ``verb``: the values legal orders have
    there, given the slots already chosen before it, filtered by ``typed``."""
    typed, _ = unstamp(typed)
    before = [unstamp(c)[0].lower() if c else None for c in chosen[:index]]
    seen: dict[str, str] = {}
    for text in menu.orders:
        if text.split()[0] != verb.name:
            continue
        values = slots_of(verb, text)
        if any(
            b is not None and (v or "").lower() != b for b, v in zip(before, values, strict=False)
        ):
            continue
        value = values[index]
        if value is None:
            if verb.slots[index].keyword is None:
                continue
            value = "none"
        if value in seen:
            continue
        label = _label(value, menu.names)
        if _matches(typed, value, label):
            seen[value] = label
        if len(seen) >= MAX_CHOICES:
            break
    return [(label, stamp(value, menu.seq)) for value, label in seen.items()]


def order_choices(menu: Menu, typed: str) -> list[tuple[str, str]]:
    """(name, value) pairs for ``/order text:``: whole legal orders matching ``typed``."""
    typed, _ = unstamp(typed)
    out: list[tuple[str, str]] = []
    for text in menu.orders:
        label = _label(text, menu.names)
        if _matches(typed, text, label) and len(stamp(text, menu.seq)) <= CHOICE_LIMIT:
            out.append((label, stamp(text, menu.seq)))
            if len(out) >= MAX_CHOICES:
                break
    return out
