"""The orders of Axis & Allies: North Africa built so far, and their text grammar.

Units are named by count and chart row (``2 infantry 1 tank``; short forms ``inf``,
``mech``, ``art``, ``atg``, ``scout``, ``arm``...) or by id (``u17``). Spaces are named
by id or any name of the data pack (``el_agheila``, ``Tobruk``, ``sz16``).

buy N TYPE [N TYPE ...]          requisition units (Phase 2)
supply N                         requisition N points of supply tokens (Phase 2)
landmine TERRITORY FACING        deploy or upgrade a land mine on a border (Phase 2)
seamine ZONE                     deploy a sea mine (Phase 2)
repair                           repair the damaged UK battleships in SZ 31 (Phase 2)
move UNITS FROM [VIA ...] TO     a combat move of land units, or a flight of air units to
                                 attack (Phase 3); a noncombat move or an air landing (Phase 5)
  [carry CARGO]                  what a truck carries: infantry, artillery, anti-tank guns,
                                 AAA of its power and ``N supply`` (Phase 5)
blitz UNITS FROM STEP1 [STEP2]   tanks (each with at most 1 mech. infantry) blitz into
                                 STEP1 and, if they will not attack, on to STEP2 (Phase 3)
declare FROM TARGET [UNITS] [pay SPACE ...]   declare a land attack (Phase 3): UNITS
                                 default to every eligible unit in FROM; each SPACE after
                                 ``pay`` gives one supply token (default: FROM)
resolve TARGET [UNITS] [raid] [bomb] [from SOURCE]   carry out the attack on TARGET; UNITS advance
                                 when the stacking limit lets only some in; ``raid``: attacking
                                 scout cars destroy 1 supply token there; ``bomb``: attacking
                                 bombers destroy 1 (Collateral Damage); SOURCE: the
                                 main attack when sources tie (Phase 4)
fight [SPACE] | withdraw [stay]  the defender fights (paying 1 supply, from SPACE) or
                                 retreats, the exempt units staying with 'stay' (step 1)
casualties UNITS                 the casualties of the hits just scored (steps 2-3)
retreat TO [UNITS]               where retreating defenders go (step 4)
press [UNITS] | cease            the attacker presses on (UNITS withdraw) or stops (step 5)
reinforce FROM UNITS             with the optional Reinforcing Land Attacks, land units in FROM
                                 join the battle before the attacker presses (step 5)
advance UNITS                    the units that move in when not all fit (step 6)
deploy UNITS [from STAGING] TO   deploy reinforcements (and ``N supply``) from the
                                 Reinforcements Zone, or redeploy them from the staging
                                 territory, to TO (Phase 6)
target [N KIND ...]              the kinds of land unit the bombers' hits fall on (step 2)
submerge [UNITS]                 the submarines that dive; the others strike (sea step 1)
cargo KIND                       the kind of convoy cargo a transport hit destroys
escape [ITEMS]                   up to 2 cargo items that escape a sea battle (step 4)
detonate N                       set off N mine icons on the border the prompt names
turnback UNITS                   the attacking units the mine hits turn back
standing TOPIC VALUE ...         how the engine answers one of this player's decisions in
                                 another power's turn without asking, at any time, from any
                                 seat; VALUE 'ask' returns to prompting (``standing``):
  defend fight|withdraw|stay     step 1 of a land combat (L757-767)
  casualties KIND ...|auto       casualties, listed kinds first (L785, L809)
  retreat SPACE ...|auto         where retreating defenders go (L821)
  submerge always|never          defending submarines (L1293)
  cargo KIND ...|auto            a hit transport's first item lost (L791)
  escape KIND ...|auto           the items that escape a convoy battle (L823)
  mines all|none|N               land mine icons set off per border (L966)
  seamines all|none|N            sea mine tokens set off per zone (L990)
  sink KIND ...|auto             the kind a sea mine's transport hit takes second (L994)
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
    "transport": "transport",
}
_UNIT_ID = re.compile(r"^u\d+$")
_SEQ = "North Africa: Order of Play"


def unit_word(word: str) -> str | None:
    w = word.lower().rstrip("s") if word.lower() not in SHORT else word.lower()
    return SHORT.get(word.lower()) or SHORT.get(w)


#: words for rows an order names by their full id (Free French units, run by the US)
FULL_WORDS = {"fra.infantry": "ff_infantry", "fra.tank": "ff_tank"}


def units_text(units: dict[str, int], ids: list[str]) -> list[str]:
    parts: list[str] = []
    for t in sorted(units):
        parts += [str(units[t]), FULL_WORDS.get(t, t)]
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
    #: what a moving truck carries, loaded where it starts (Land Transport, L1209-1213)
    cargo: dict[str, int] = {}

    def text(self) -> str:
        tail = ["carry", *units_text(self.cargo, [])] if self.cargo else []
        return " ".join([self.verb, *units_text(self.units, self.ids), *self.path, *tail])


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
    #: attacking bombers destroy 1 supply token there (Collateral Damage, L1243)
    bomb: bool = False

    def text(self) -> str:
        tail = ["raid"] if self.raid else []
        tail += ["bomb"] if self.bomb else []
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


class Reinforce(Order):
    verb: Literal["reinforce"] = "reinforce"
    source: str
    units: dict[str, int] = {}
    ids: list[str] = []

    def text(self) -> str:
        return " ".join(["reinforce", self.source, *units_text(self.units, self.ids)])


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


class Detonate(Order):
    verb: Literal["detonate"] = "detonate"
    #: mine icons set off on the border named by the prompt (0: none)
    count: int

    def text(self) -> str:
        return f"detonate {self.count}"


class TurnBack(Order):
    verb: Literal["turnback"] = "turnback"
    units: dict[str, int] = {}
    ids: list[str] = []

    def text(self) -> str:
        return " ".join(["turnback", *units_text(self.units, self.ids)])


class Submerge(Order):
    verb: Literal["submerge"] = "submerge"
    #: the submarines that dive; the others make a Surprise Strike (L1293-1295)
    units: dict[str, int] = {}
    ids: list[str] = []

    def text(self) -> str:
        return " ".join(["submerge", *units_text(self.units, self.ids)])


class Cargo(Order):
    verb: Literal["cargo"] = "cargo"
    #: the kind of cargo a transport hit destroys: a unit family or ``supply`` (L789-791)
    kind: str

    def text(self) -> str:
        return f"cargo {self.kind}"


class Escape(Order):
    verb: Literal["escape"] = "escape"
    #: up to 2 items: land units, or ``N supply`` for N groups of 5 tokens (L823)
    units: dict[str, int] = {}

    def text(self) -> str:
        return " ".join(["escape", *units_text(self.units, [])])


class Target(Order):
    verb: Literal["target"] = "target"
    #: kinds of defending land units the bombers' hits are aimed at (L1245)
    units: dict[str, int] = {}
    ids: list[str] = []

    def text(self) -> str:
        return " ".join(["target", *units_text(self.units, self.ids)])


class Standing(Order):
    verb: Literal["standing"] = "standing"
    #: the decision answered (``standing.TOPICS``)
    topic: str
    #: ``["ask"]``, ``["auto"]``, one choice, a count, or kinds or spaces in order of preference
    values: list[str]

    def text(self) -> str:
        return " ".join(["standing", self.topic, *self.values])


class Done(Order):
    verb: Literal["done"] = "done"

    def text(self) -> str:
        return "done"


ORDERS: dict[str, type[Order]] = {
    c.model_fields["verb"].default: c for c in (Buy, Supply, LandMine, SeaMine, Repair, Move, Blitz, Declare, Resolve, Fight, Withdraw,
        Casualties, RetreatTo, Press, Reinforce, Cease, Advance, Deploy, Detonate, TurnBack, Submerge, Cargo, Escape, Target,
        Standing, Done)
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
        cargo: dict[str, int] = {}
        if "carry" in (w.lower() for w in left):
            k = [w.lower() for w in left].index("carry")
            cargo, cids, extra = _units(left[k + 1:])
            if cids or extra or not cargo:
                raise _bad("Write 'carry N TYPE ...' after the path, e.g. 'carry 2 inf 3 supply'.")
            left = left[:k]
        if not (units or ids) or len(left) < 2:
            raise _bad("Write 'move UNITS FROM [VIA ...] TO [carry CARGO]', e.g. 'move 1 tank el_agheila agedabia'.")
        return Move(units=units, ids=ids, path=left, cargo=cargo)
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
        bomb = bool(left) and left[-1].lower() == "bomb"
        if bomb:
            left = left[:-1]
        raid = bool(left) and left[-1].lower() == "raid"
        if raid:
            left = left[:-1]
        if left:
            raise _bad(f"Unexpected {excerpt(left[0])!r} after the advancing units.")
        return Resolve(target=rest[0], units=units, ids=ids, raid=raid, bomb=bomb, main=main)
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
    if verb == "detonate":
        if len(rest) != 1 or not is_count(rest[0]):
            raise _bad("Write 'detonate N', N the mine icons to set off (0 for none).")
        return Detonate(count=read_count(rest[0], _bad))
    if verb == "cargo":
        if len(rest) != 1 or not (unit_word(rest[0]) or rest[0].lower() == "supply"):
            raise _bad("Write 'cargo KIND', a kind of unit ('tank', 'infantry') or 'supply'.")
        return Cargo(kind=unit_word(rest[0]) or "supply")
    if verb in ("submerge", "escape"):
        units, ids, left = _units(rest)
        if left or (verb == "escape" and ids):
            raise _bad(f"Write '{verb} [UNITS]', e.g. '{verb} 1 sub'." if verb == "submerge"
                       else "Write 'escape [ITEMS]', e.g. 'escape 1 tank 1 supply'.")
        return Submerge(units=units, ids=ids) if verb == "submerge" else Escape(units=units)
    if verb == "target":
        units, ids, left = _units(rest)
        if left or ids:
            raise _bad("Write 'target [N KIND ...]', e.g. 'target 1 tank' (hits not named fall as the defender chooses).")
        return Target(units=units)
    if verb in ("casualties", "press", "advance", "turnback"):
        units, ids, left = _units(rest)
        if left or (verb != "press" and not (units or ids)):
            raise _bad(f"Write '{verb} UNITS', e.g. '{verb} 2 inf' or unit ids.")
        return ORDERS[verb](units=units, ids=ids)
    if verb == "reinforce":
        units, ids, left = _units(rest[1:])
        if not rest or left or not (units or ids):
            raise _bad("Write 'reinforce FROM UNITS', e.g. 'reinforce tobruk 2 inf'.")
        return Reinforce(source=rest[0], units=units, ids=ids)
    if verb == "retreat":
        if not rest:
            raise _bad("Write 'retreat TO [UNITS]'.")
        units, ids, left = _units(rest[1:])
        if left:
            raise _bad(f"Unexpected {excerpt(left[0])!r} after the retreating units.")
        return RetreatTo(to=rest[0], units=units, ids=ids)
    if verb == "standing":
        return _standing(rest)
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


#: the decisions a standing order answers, with the values each takes and its rule
#: (RULINGS: standing orders)
STANDING_TOPICS = {
    "defend": ("fight, withdraw, stay or ask", "Combat Step 1, L757-767"),
    "casualties": ("kinds of unit, auto or ask", "casualties, L785, L809"),
    "retreat": ("territories, auto or ask", "Combat Step 4, L821"),
    "submerge": ("always, never or ask", "Submersible, L1293"),
    "cargo": ("kinds of cargo, auto or ask", "transports hit, L791"),
    "escape": ("kinds of cargo, auto or ask", "convoy escape, L823"),
    "mines": ("all, none, a count or ask", "land mines, L966"),
    "seamines": ("all, none, a count or ask", "sea mines, L990"),
    "sink": ("kinds of cargo, auto or ask", "sea mines and transports, L994"),
}
STANDING_CHOICES = {"defend": ("fight", "withdraw", "stay"), "submerge": ("always", "never")}


def _standing(rest: list[str]) -> Standing:
    """``standing TOPIC VALUE ...``: the values are checked here as far as words go; the
    territories a retreat names are checked against the board when it is applied."""
    if not rest or rest[0].lower() not in STANDING_TOPICS:
        raise _bad("Write 'standing TOPIC VALUE ...', the topic one of "
                   f"{', '.join(STANDING_TOPICS)} (RULINGS: standing orders).")
    topic, vals = rest[0].lower(), [w.lower() for w in rest[1:]]
    takes, rule = STANDING_TOPICS[topic]
    wrong = _bad(f"'standing {topic}' takes {takes} ({rule}; RULINGS: standing orders).")
    if vals == ["ask"]:
        return Standing(topic=topic, values=vals)
    if topic in STANDING_CHOICES:
        if len(vals) != 1 or vals[0] not in STANDING_CHOICES[topic]:
            raise wrong
        return Standing(topic=topic, values=vals)
    if topic in ("mines", "seamines"):
        if len(vals) != 1 or not (vals[0] in ("all", "none") or is_count(vals[0])):
            raise wrong
        return Standing(topic=topic, values=[vals[0] if not is_count(vals[0]) else str(read_count(vals[0], _bad))])
    if not vals or (len(vals) > 1 and ("ask" in vals or "auto" in vals)):
        raise wrong
    if vals == ["auto"] or topic == "retreat":
        return Standing(topic=topic, values=vals)
    kinds = []
    for v in vals:
        k = unit_word(v)
        if k is None or (k == "supply" and topic == "casualties"):
            raise _bad(f"{excerpt(v)!r} is not a kind of unit{' or cargo' if topic != 'casualties' else ''} "
                       f"'standing {topic}' can name ({rule}; RULINGS: standing orders).")
        kinds.append(k.split(".", 1)[-1])
    return Standing(topic=topic, values=kinds)


def load_order(data: dict[str, Any]) -> Order:
    """A stored order back as a model; raises nothing but :class:`OrderSyntaxError`, whose
    one sentence quotes at most a short excerpt (the data may come from an imported file)."""
    verb = data.get("verb") if isinstance(data, dict) else None
    if not isinstance(verb, str) or verb not in ORDERS:
        raise _bad(f"{excerpt(str(verb))!r} is not an order of this game.", f"Orders: {', '.join(ORDERS)}.")
    try:
        return ORDERS[verb].model_validate(data)
    except Exception:  # pydantic's report names the fields and echoes the data: not for players
        raise _bad(f"That {verb} order is malformed.", f"Orders: {', '.join(ORDERS)}.") from None
