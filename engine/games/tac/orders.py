"""The orders of The African Campaign and their text form.

``move <unit>[,<unit>...] <hex> <hex> ...``: a unit or stack moves along the hexes it
enters, in order (TAC 8.0). Units standing on a hex of the path join the stack there
(8.2.3, 8.4.4); ``x<hex>`` overruns the adjacent enemy stack in that hex (8.4). ``strategic`` is the same with Strategic Movement (8.5).
An Axis unit waiting at Tripoli names the western edge hex it enters first (12.3).
``attack <unit>[,<unit>] <hex>[,<hex>]``: declare an attack (9.0).
In battle (9.6-9.10): ``resolve <hex>``, ``lose <unit>``, ``retreat <unit> <hex> [<hex>]``,
``advance <unit>[,<unit>] <hex>``.
``eliminate <unit>``: remove a unit to end overstacking (5.1.2). ``done`` ends the phase.
In a move path: ``-<unit>[,<unit>]`` drops units off where the stack stands (8.2.3),
``exit`` (last) leaves the map by the eastern edge (8.6.1), ``mine`` or ``mine<n>``
(first) lays a minefield from the hand (16.0). ``attack <units> <hexes> air <n>`` (or
``+<n>``) adds n air units in Close Support (15.1).
``call``: call for a minefield (16.0); ``interdict <hex>`` (15.2); ``replace <unit>``
(10.0); ``rebuild <unit>`` (10.7); ``breakdown <division>``, ``buildup <division>``
(11.0); ``sail <unit>`` from Tobruk (12.1); ``land <unit>``: a reinforcement lands at
Tobruk instead of its Home Base (12.1); ``first allied|axis`` (18.2). In the Allied
Reinforcement Phase: ``donor <division>`` (7.3), ``substitute <unit>`` (7.4);
``standing withdraw ask|engine`` whether the Allied player is asked for them.
``place <kind> <hex>``: a replacement held off the map lands at a port (10.1, 12.0);
``carry <counter> <hex>``: a replacement counter moves (10.0, 10.2).
``play <event> [<hex or unit>]``: play an event chit (18.7); ``reroll [<n>]``: use the
Tactical Advantage (18.3); ``standing events|advantage ask|pass``: whether to be asked
for them.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from engine.core.errors import OrderSyntaxError
from engine.core.orders import Order, excerpt, order_words

RULE = "TAC orders"
#: the most hexes one move names (a 10 MP strategic move along a road enters 100)
MAX_PATH = 120


class Move(Order):
    verb: Literal["move", "strategic"] = "move"
    units: tuple[str, ...]
    path: tuple[str, ...]
    text_fields: ClassVar[tuple[str, ...]] = ("units", "path")

    def text(self) -> str:
        return " ".join([self.verb, ",".join(self.units), *self.path])


class Attack(Order):
    verb: Literal["attack"] = "attack"
    units: tuple[str, ...]
    targets: tuple[str, ...]
    #: air units in Close Support (TAC 15.1)
    air: int = 0
    text_fields: ClassVar[tuple[str, ...]] = ("units", "targets")

    def text(self) -> str:
        extra = ["air", str(self.air)] if self.air else []
        return " ".join([self.verb, ",".join(self.units), ",".join(self.targets), *extra])


class UnitOrder(Order):
    """An order about one unit: replace, rebuild, breakdown, buildup, sail."""

    verb: Literal["replace", "rebuild", "breakdown", "buildup", "sail", "land", "donor", "substitute"]
    unit: str
    text_fields: ClassVar[tuple[str, ...]] = ("unit",)


class Place(Order):
    """Land a replacement held off the map at a port (TAC 10.1, 12.0-12.3)."""

    verb: Literal["place"] = "place"
    kind: str
    hex: str
    text_fields: ClassVar[tuple[str, ...]] = ("kind", "hex")


class Carry(Order):
    """Move a replacement counter on the map (TAC 10.0 procedure, 8.0)."""

    verb: Literal["carry"] = "carry"
    piece: str
    hex: str
    text_fields: ClassVar[tuple[str, ...]] = ("piece", "hex")


class Standing(Order):
    """A standing order (ARCHITECTURE: Asynchronous play): ``standing withdraw ask`` (the
    Allied player is asked for the donor of 7.3 and the substitute of 7.4) or
    ``standing withdraw engine`` (the engine chooses as RULINGS R40 and R41 say);
    ``standing events ask|pass`` and ``standing advantage ask|pass`` (Optional 18.7, 18.3):
    whether the player is asked at the moments he may play an event chit or use the
    Tactical Advantage (RULINGS R73)."""

    verb: Literal["standing"] = "standing"
    topic: Literal["withdraw", "events", "advantage"]
    value: Literal["ask", "engine", "pass"]
    text_fields: ClassVar[tuple[str, ...]] = ("topic", "value")


class Interdict(Order):
    verb: Literal["interdict"] = "interdict"
    hex: str
    text_fields: ClassVar[tuple[str, ...]] = ("hex",)


class Call(Order):
    verb: Literal["call"] = "call"


class First(Order):
    verb: Literal["first"] = "first"
    side: Literal["allied", "axis"]
    text_fields: ClassVar[tuple[str, ...]] = ("side",)


class Resolve(Order):
    verb: Literal["resolve"] = "resolve"
    hex: str
    #: with a Maximum Effort (Optional 18.4)
    effort: bool = False
    text_fields: ClassVar[tuple[str, ...]] = ("hex",)

    def text(self) -> str:
        return f"resolve {self.hex}" + (" max" if self.effort else "")


class Defend(Order):
    """A Determined Defense (Optional 18.5)."""

    verb: Literal["defend"] = "defend"


class Lose(Order):
    verb: Literal["lose"] = "lose"
    unit: str
    text_fields: ClassVar[tuple[str, ...]] = ("unit",)


class Retreat(Order):
    verb: Literal["retreat"] = "retreat"
    unit: str
    path: tuple[str, ...]
    text_fields: ClassVar[tuple[str, ...]] = ("unit", "path")


class Advance(Order):
    verb: Literal["advance"] = "advance"
    units: tuple[str, ...]
    hex: str
    text_fields: ClassVar[tuple[str, ...]] = ("units", "hex")

    def text(self) -> str:
        return " ".join([self.verb, ",".join(self.units), self.hex])


class Eliminate(Order):
    verb: Literal["eliminate"] = "eliminate"
    unit: str
    text_fields: ClassVar[tuple[str, ...]] = ("unit",)


class Done(Order):
    verb: Literal["done"] = "done"


class Play(Order):
    """Play an event chit (Optional 18.7): ``play <event> [<hex or unit>]``, the event
    written as in :func:`engine.games.tac.events.slug` (``play malta-convoy``)."""

    verb: Literal["play"] = "play"
    event: str
    arg: str | None = None
    text_fields: ClassVar[tuple[str, ...]] = ("event", "arg")


class Reroll(Order):
    """Use the Tactical Advantage (Optional 18.3): ``reroll [<n>]`` rolls the n-th die of the
    last order again (the last die when n is left out)."""

    verb: Literal["reroll"] = "reroll"
    n: int | None = None
    text_fields: ClassVar[tuple[str, ...]] = ("n",)


MODELS: dict[str, type[Order]] = {
    "move": Move,
    "strategic": Move,
    "eliminate": Eliminate,
    "attack": Attack,
    "resolve": Resolve,
    "lose": Lose,
    "retreat": Retreat,
    "advance": Advance,
    "done": Done,
    "replace": UnitOrder,
    "rebuild": UnitOrder,
    "breakdown": UnitOrder,
    "buildup": UnitOrder,
    "sail": UnitOrder,
    "land": UnitOrder,
    "donor": UnitOrder,
    "substitute": UnitOrder,
    "standing": Standing,
    "place": Place,
    "carry": Carry,
    "interdict": Interdict,
    "call": Call,
    "defend": Defend,
    "first": First,
    "play": Play,
    "reroll": Reroll,
}


def _refuse(why: str) -> OrderSyntaxError:
    return OrderSyntaxError(
        RULE,
        why,
        "Orders: move <unit>[,<unit>] <hex> ..., strategic ..., attack <units> <hexes>, eliminate <unit>, done.",
    )


def _hex(word: str) -> str:
    if len(word) != 4 or not word.isascii() or not word.isdigit():
        raise _refuse(f"{excerpt(word)} is not a four-digit hex number such as 1127.")
    return word


def parse_order(text: str) -> Order:
    words = order_words(text, _refuse)
    if not words:
        raise _refuse("The order is empty.")
    verb = words[0].lower()
    if verb == "done":
        if len(words) > 1:
            raise _refuse("'done' takes nothing after it.")
        return Done()
    if verb == "call":
        if len(words) > 1:
            raise _refuse("'call' takes nothing after it.")
        return Call()
    if verb in ("place", "carry"):
        if len(words) != 3:
            example = "place allied_infantry 1476" if verb == "place" else "carry rp_allied_1 1475"
            raise _refuse(f"'{verb}' names the {'kind' if verb == 'place' else 'counter'} and one hex: {example}.")
        if verb == "place":
            return Place(kind=words[1].lower(), hex=_hex(words[2]))
        return Carry(piece=words[1].lower(), hex=_hex(words[2]))
    if verb == "standing" and len(words) == 3 and words[1].lower() in ("events", "advantage"):
        if words[2].lower() not in ("ask", "pass"):
            raise _refuse(f"'standing {words[1].lower()}' is followed by ask or pass (18.7, 18.3).")
        return Standing(topic=words[1].lower(), value=words[2].lower())
    if verb == "standing":
        if len(words) != 3 or words[1].lower() != "withdraw" or words[2].lower() not in ("ask", "engine"):
            raise _refuse("A standing order is 'standing withdraw ask' or 'standing withdraw engine' (7.3, 7.4).")
        return Standing(topic="withdraw", value=words[2].lower())
    if verb in ("replace", "rebuild", "breakdown", "buildup", "sail", "land", "donor", "substitute"):
        if len(words) != 2:
            raise _refuse(f"'{verb}' names exactly one unit.")
        return UnitOrder(verb=verb, unit=words[1].lower())
    if verb == "interdict":
        if len(words) != 2:
            raise _refuse("'interdict' names the hex of the enemy stack: interdict 1127.")
        return Interdict(hex=_hex(words[1]))
    if verb == "play":
        if not 2 <= len(words) <= 3 or not words[1].isascii():
            raise _refuse("'play' names the event and, for some, a hex or unit: play bad-weather 1127.")
        return Play(event=words[1].lower(), arg=words[2].lower() if len(words) == 3 else None)
    if verb == "reroll":
        if len(words) > 2 or len(words) == 2 and not (words[1].isascii() and words[1].isdigit() and len(words[1]) <= 2):
            raise _refuse("'reroll' takes the number of the roll, or nothing for the last: reroll 1.")
        return Reroll(n=int(words[1]) if len(words) == 2 else None)
    if verb == "first":
        if len(words) != 2 or words[1].lower() not in ("allied", "axis"):
            raise _refuse("'first' names the side to move first: first allied, first axis.")
        return First(side=words[1].lower())
    if verb == "eliminate":
        if len(words) != 2:
            raise _refuse("'eliminate' names exactly one unit.")
        return Eliminate(unit=words[1].lower())
    if verb == "defend":
        if len(words) > 1:
            raise _refuse("'defend' takes nothing after it.")
        return Defend()
    if verb == "resolve" and len(words) == 3 and words[2].lower() == "max":
        return Resolve(hex=_hex(words[1]), effort=True)
    if verb in ("resolve", "lose"):
        if len(words) != 2:
            raise _refuse(f"'{verb}' takes one word: resolve <defending hex>, lose <unit>.")
        if verb == "resolve":
            return Resolve(hex=_hex(words[1]))
        return Lose(unit=words[1].lower())
    if verb == "retreat":
        if not 3 <= len(words) <= 4:
            raise _refuse(
                "'retreat' names the unit and one or two hexes: retreat uk_2armd 1128 1129."
            )
        return Retreat(unit=words[1].lower(), path=tuple(_hex(h) for h in words[2:]))
    if verb == "advance":
        if len(words) != 3:
            raise _refuse(
                "'advance' names the units and the vacated hex: advance ge_90,ge_8pz 1127."
            )
        units = tuple(u for u in words[1].lower().split(",") if u)
        if not units or len(set(units)) != len(units):
            raise _refuse("Name each advancing unit once, separated by commas.")
        return Advance(units=units, hex=_hex(words[2]))
    if verb == "attack":
        air = 0
        if len(words) == 5 and words[3].lower() == "air":  # the form /attack writes
            words[3:] = ["+" + words[4]]
        if len(words) == 4 and words[3].startswith("+"):
            if not words[3][1:].isdigit() or not 1 <= int(words[3][1:]) <= 9:
                raise _refuse(
                    f"{excerpt(words[3].lstrip('+'))} is not a number of air units from 1 to 9 (air 2, or +2)."
                )
            air = int(words.pop()[1:])
        if len(words) != 3:
            raise _refuse(
                "'attack' names the attacking units and the defending hexes, e.g. attack ge_90,ge_8pz 1127."
            )
        units = tuple(u for u in words[1].lower().split(",") if u)
        targets = tuple(h for h in words[2].split(",") if h)
        for h in targets:
            if len(h) != 4 or not h.isascii() or not h.isdigit():
                raise _refuse(f"{excerpt(h)} is not a four-digit hex number such as 1127.")
        if (
            not units
            or not targets
            or len(set(units)) != len(units)
            or len(set(targets)) != len(targets)
        ):
            raise _refuse(
                "Name each attacking unit and each defending hex once, separated by commas."
            )
        return Attack(units=units, targets=targets, air=air)
    if verb in ("move", "strategic"):
        if len(words) < 3:
            raise _refuse(f"'{verb}' needs the units and at least one hex to enter.")
        units = tuple(u for u in words[1].lower().split(",") if u)
        path = tuple(words[2:])
        if len(path) > MAX_PATH:
            raise _refuse(f"A move enters at most {MAX_PATH} hexes.")
        path = tuple(h.lower() for h in path)
        for h in path:
            if h == "exit" or h.startswith("-") and len(h) > 1 and h.isascii():
                continue
            if h.startswith("mine") and (h[4:] == "" or h[4:].isdigit()) and len(h) < 7:
                continue
            bare = h[1:] if h[:1] == "x" else h
            if len(bare) != 4 or not bare.isascii() or not bare.isdigit():
                raise _refuse(
                    f"{excerpt(h)} is not a four-digit hex number such as 1028 (or x1028 to overrun it, "
                    "-<unit> to drop a unit off, exit, mine)."
                )
        if not units or len(set(units)) != len(units):
            raise _refuse("Name each moving unit once, separated by commas.")
        return Move(verb=verb, units=units, path=path)
    raise _refuse(f"{excerpt(words[0])} is not an order of this game.")


def load_order(data: dict[str, Any]) -> Order:
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("verb"), str)
        or data["verb"] not in MODELS
    ):
        raise _refuse("That stored order has no verb of this game.")
    try:
        return MODELS[data["verb"]].model_validate(data)
    except ValueError:
        raise _refuse("That stored order is malformed.") from None
