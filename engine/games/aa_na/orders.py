"""The orders of Axis & Allies: North Africa built so far, and their text grammar.

Units are named by count and chart row (``2 infantry 1 tank``; short forms ``inf``,
``mech``, ``art``, ``atg``, ``scout``, ``arm``...) or by id (``u17``). Spaces are named
by id or any name of the data pack (``el_agheila``, ``Tobruk``, ``sz16``).

buy N TYPE [N TYPE ...]          requisition units (Phase 2)
supply N                         requisition N points of supply tokens (Phase 2)
landmine TERRITORY FACING        deploy or upgrade a land mine on a border (Phase 2)
seamine ZONE                     deploy a sea mine (Phase 2)
repair                           repair the damaged UK battleships in SZ 31 (Phase 2)
move UNITS FROM [VIA ...] TO     a combat move of land units (Phase 3)
blitz UNITS FROM STEP1 [STEP2]   tanks (each with at most 1 mech. infantry) blitz into
                                 STEP1 and, if they will not attack, on to STEP2 (Phase 3)
declare FROM TARGET [UNITS] [pay SPACE ...]   declare a land attack (Phase 3): UNITS
                                 default to every eligible unit in FROM; each SPACE after
                                 ``pay`` gives one supply token (default: FROM)
resolve TARGET [UNITS] [raid] [from SOURCE]   carry out the attack on TARGET; UNITS advance when the
                                 stacking limit lets only some in; ``raid``: attacking
                                 scout cars destroy 1 supply token there; SOURCE: the
                                 main attack when sources tie (Phase 4)
fight [SPACE] | withdraw [stay]  the defender fights (paying 1 supply, from SPACE) or
                                 retreats, the exempt units staying with 'stay' (step 1)
casualties UNITS                 the casualties of the hits just scored (steps 2-3)
retreat TO [UNITS]               where retreating defenders go (step 4)
press [UNITS] | cease            the attacker presses on (UNITS withdraw) or stops (step 5)
advance UNITS                    the units that move in when not all fit (step 6)
deploy UNITS [from STAGING] TO   deploy reinforcements (and ``N supply``) from the
                                 Reinforcements Zone, or redeploy them from the staging
                                 territory, to TO (Phase 6)
done                             end this phase
"""

from __future__ import annotations

import re
from typing import Any, Literal

from engine.core.errors import OrderSyntaxError
from engine.core.orders import Order, excerpt, is_count, order_words, read_count

SHORT = {
    "inf": "infantry",
    "infantry": "infantry",
    "mech": "mech_infantry",
    "mechinf": "mech_infantry",
    "mech_infantry": "mech_infantry",
    "art": "artillery",
    "artillery": "artillery",
    "atg": "anti_tank_gun",
    "anti_tank_gun": "anti_tank_gun",
    "aaa": "aaa",
    "scout": "scout_car",
    "scout_car": "scout_car",
    "arm": "tank",
    "tank": "tank",
    "sherman": "sherman",
    "tiger": "tiger",
    "truck": "truck",
    "ftr": "fighter",
    "fighter": "fighter",
    "bmr": "bomber",
    "bomber": "bomber",
    "bb": "battleship",
    "battleship": "battleship",
    "dd": "destroyer",
    "destroyer": "destroyer",
    "sub": "submarine",
    "submarine": "submarine",
    "ff_inf": "fra.infantry",
    "ff_infantry": "fra.infantry",
    "ff_tank": "fra.tank",
    "supply": "supply",
}
_UNIT_ID = re.compile(r"^u\d+$")
_SEQ = "North Africa: Order of Play"


def unit_word(word: str) -> str | None:
    w = word.lower().rstrip("s") if word.lower() not in SHORT else word.lower()
    return SHORT.get(word.lower()) or SHORT.get(w)


def units_text(units: dict[str, int], ids: list[str]) -> list[str]:
    parts: list[str] = []
    for t in sorted(units):
        parts += [str(units[t]), t]
    return parts + list(ids)


class Buy(Order):
    verb: Literal["buy"] = "buy"
    units: dict[str, int]

    def text(self) -> str:
        return " ".join(["buy", *units_text(self.units, [])])


class Supply(Order):
    verb: Literal["supply"] = "supply"
    amount: int

    def text(self) -> str:
        return f"supply {self.amount}"


class LandMine(Order):
    verb: Literal["landmine"] = "landmine"
    territory: str
    facing: str

    def text(self) -> str:
        return f"landmine {self.territory} {self.facing}"


class SeaMine(Order):
    verb: Literal["seamine"] = "seamine"
    zone: str

    def text(self) -> str:
        return f"seamine {self.zone}"


class Repair(Order):
    verb: Literal["repair"] = "repair"

    def text(self) -> str:
        return "repair"


class Move(Order):
    verb: Literal["move"] = "move"
    units: dict[str, int] = {}
    ids: list[str] = []
    path: list[str]

    def text(self) -> str:
        return " ".join(["move", *units_text(self.units, self.ids), *self.path])


class Blitz(Move):
    verb: Literal["blitz"] = "blitz"  # type: ignore[assignment]


class Declare(Order):
    verb: Literal["declare"] = "declare"
    source: str
    target: str
    units: dict[str, int] = {}
    ids: list[str] = []
    pay: list[str] = []

    def text(self) -> str:
        tail = ["pay", *self.pay] if self.pay else []
        return " ".join(["declare", self.source, self.target, *units_text(self.units, self.ids), *tail])


class Resolve(Order):
    verb: Literal["resolve"] = "resolve"
    target: str
    units: dict[str, int] = {}
    ids: list[str] = []
    #: attacking scout cars destroy 1 supply token there (Supply Raider, L1177)
    raid: bool = False
    #: the main attack's source when sources tie (Flanking Attacks, L738)
    main: str | None = None

    def text(self) -> str:
        tail = ["raid"] if self.raid else []
        tail += ["from", self.main] if self.main else []
        return " ".join(["resolve", self.target, *units_text(self.units, self.ids), *tail])


class Fight(Order):
    verb: Literal["fight"] = "fight"
    pay: str | None = None

    def text(self) -> str:
        return " ".join(["fight", *([self.pay] if self.pay else [])])


class Withdraw(Order):
    verb: Literal["withdraw"] = "withdraw"
    #: the exempt defenders stay and fight (L767)
    stay: bool = False

    def text(self) -> str:
        return "withdraw stay" if self.stay else "withdraw"


class Casualties(Order):
    verb: Literal["casualties"] = "casualties"
    units: dict[str, int] = {}
    ids: list[str] = []

    def text(self) -> str:
        return " ".join(["casualties", *units_text(self.units, self.ids)])


class RetreatTo(Order):
    verb: Literal["retreat"] = "retreat"
    to: str
    units: dict[str, int] = {}
    ids: list[str] = []

    def text(self) -> str:
        return " ".join(["retreat", self.to, *units_text(self.units, self.ids)])


class Press(Order):
    verb: Literal["press"] = "press"
    #: the attacking units that withdraw instead of pressing on
    units: dict[str, int] = {}
    ids: list[str] = []

    def text(self) -> str:
        return " ".join(["press", *units_text(self.units, self.ids)])


class Cease(Order):
    verb: Literal["cease"] = "cease"

    def text(self) -> str:
        return "cease"


class Advance(Order):
    verb: Literal["advance"] = "advance"
    units: dict[str, int] = {}
    ids: list[str] = []

    def text(self) -> str:
        return " ".join(["advance", *units_text(self.units, self.ids)])


class Deploy(Order):
    verb: Literal["deploy"] = "deploy"
    units: dict[str, int]
    source: str | None = None
    to: str

    def text(self) -> str:
        src = ["from", self.source] if self.source else []
        return " ".join(["deploy", *units_text(self.units, []), *src, self.to])


class Done(Order):
    verb: Literal["done"] = "done"

    def text(self) -> str:
        return "done"


ORDERS: dict[str, type[Order]] = {
    c.model_fields["verb"].default: c for c in (Buy, Supply, LandMine, SeaMine, Repair, Move, Blitz, Declare, Resolve, Fight, Withdraw,
        Casualties, RetreatTo, Press, Cease, Advance, Deploy, Done)
}


def _bad(reason: str, legal: str = "") -> OrderSyntaxError:
    return OrderSyntaxError(_SEQ, reason, legal)


def _units(words: list[str]) -> tuple[dict[str, int], list[str], list[str]]:
    """Read ``N TYPE`` pairs and unit ids from the front of ``words``; return the rest."""
    units: dict[str, int] = {}
    ids: list[str] = []
    i = 0
    while i < len(words):
        w = words[i]
        if _UNIT_ID.match(w.lower()):
            ids.append(w.lower())
            i += 1
        elif is_count(w) and i + 1 < len(words) and unit_word(words[i + 1]):
            t = unit_word(words[i + 1])
            n = read_count(w, _bad)
            if n < 1:
                raise _bad(f"'{w} {excerpt(words[i + 1])}': a count of units is at least 1.")
            units[t] = units.get(t, 0) + n
            i += 2
        else:
            break
    return units, ids, words[i:]


def parse_order(text: str) -> Order:
    words = order_words(text, _bad)
    if not words:
        raise _bad("An empty order.", f"Orders: {', '.join(ORDERS)}.")
    verb, rest = words[0].lower(), words[1:]
    if verb not in ORDERS:
        raise _bad(f"Unknown order {excerpt(verb)!r}.", f"Orders: {', '.join(ORDERS)}.")
    if verb in ("done", "repair"):
        if rest:
            raise _bad(f"'{verb}' takes nothing after it.")
        return ORDERS[verb]()
    if verb == "supply":
        if len(rest) != 1 or not is_count(rest[0]):
            raise _bad("Write 'supply N', N the points of supply to requisition.")
        return Supply(amount=read_count(rest[0], _bad))
    if verb == "landmine":
        if len(rest) != 2:
            raise _bad("Write 'landmine TERRITORY FACING'.")
        return LandMine(territory=rest[0], facing=rest[1])
    if verb == "seamine":
        if len(rest) != 1:
            raise _bad("Write 'seamine ZONE'.")
        return SeaMine(zone=rest[0])
    if verb == "buy":
        units, ids, left = _units(rest)
        if ids or left or not units:
            raise _bad("Write 'buy N TYPE [N TYPE ...]', e.g. 'buy 2 inf 1 tank'.")
        return Buy(units=units)
    if verb == "move":
        units, ids, left = _units(rest)
        if not (units or ids) or len(left) < 2:
            raise _bad("Write 'move UNITS FROM [VIA ...] TO', e.g. 'move 1 tank el_agheila agedabia'.")
        return Move(units=units, ids=ids, path=left)
    if verb == "blitz":
        units, ids, left = _units(rest)
        if not (units or ids) or len(left) not in (2, 3):
            raise _bad("Write 'blitz UNITS FROM STEP1 [STEP2]', e.g. 'blitz 1 tank 1 mech zella agedabia'.")
        return Blitz(units=units, ids=ids, path=left)
    if verb == "resolve":
        if not rest:
            raise _bad("Write 'resolve TARGET [UNITS]'.")
        units, ids, left = _units(rest[1:])
        main = None
        if len(left) >= 2 and left[-2].lower() == "from":
            main, left = left[-1], left[:-2]
        raid = bool(left) and left[-1].lower() == "raid"
        if raid:
            left = left[:-1]
        if left:
            raise _bad(f"Unexpected {excerpt(left[0])!r} after the advancing units.")
        return Resolve(target=rest[0], units=units, ids=ids, raid=raid, main=main)
    if verb in ("cease",):
        if rest:
            raise _bad("'cease' takes nothing after it.")
        return Cease()
    if verb == "fight":
        if len(rest) > 1:
            raise _bad("Write 'fight' or 'fight SPACE' (where the supply token comes from).")
        return Fight(pay=rest[0] if rest else None)
    if verb == "withdraw":
        if rest not in ([], ["stay"]):
            raise _bad("Write 'withdraw' or 'withdraw stay' (the exempt units stay and fight).")
        return Withdraw(stay=bool(rest))
    if verb in ("casualties", "press", "advance"):
        units, ids, left = _units(rest)
        if left or (verb != "press" and not (units or ids)):
            raise _bad(f"Write '{verb} UNITS', e.g. '{verb} 2 inf' or unit ids.")
        return ORDERS[verb](units=units, ids=ids)
    if verb == "retreat":
        if not rest:
            raise _bad("Write 'retreat TO [UNITS]'.")
        units, ids, left = _units(rest[1:])
        if left:
            raise _bad(f"Unexpected {excerpt(left[0])!r} after the retreating units.")
        return RetreatTo(to=rest[0], units=units, ids=ids)
    if verb == "deploy":
        units, ids, left = _units(rest)
        if ids or not units or len(left) not in (1, 3) or (len(left) == 3 and left[0].lower() != "from"):
            raise _bad("Write 'deploy UNITS [from STAGING] TO', e.g. 'deploy 2 inf 3 supply tripoli_csz'.")
        return Deploy(units=units, source=left[1] if len(left) == 3 else None, to=left[-1])
    # declare
    if len(rest) < 2:
        raise _bad("Write 'declare FROM TARGET [UNITS] [pay SPACE ...]'.")
    source, target = rest[0], rest[1]
    units, ids, left = _units(rest[2:])
    pay: list[str] = []
    if left:
        if left[0].lower() != "pay" or len(left) < 2:
            raise _bad(f"Unexpected {excerpt(left[0])!r}: after the units comes 'pay SPACE ...'.")
        pay = left[1:]
    return Declare(source=source, target=target, units=units, ids=ids, pay=pay)


def load_order(data: dict[str, Any]) -> Order:
    verb = data.get("verb")
    if verb not in ORDERS:
        raise _bad(f"Unknown order {verb!r}.")
    return ORDERS[verb].model_validate(data)
