"""The orders of Axis & Allies Revised and their text grammar.

Units are named by count and type (``2 inf 1 arm``; any spelling in the unit table:
``infantry``, ``tanks``, ``ftr``...) or by id (``u17``, as the view lists them). Spaces
are named by id or any name of the data pack, written without spaces (``west_russia``,
``Anglo-Egypt``, ``sz5``).

research TECH DICE            develop weapons: ``research jet 2`` (Phase 1)
buy N TYPE [N TYPE ...]       purchase units (Phase 2)
move UNITS FROM [VIA ...] TO [kamikaze]   combat and noncombat moves (Phases 3 and 5):
                              land units from a territory into a sea zone board a
                              transport there;
                              cargo from a sea zone into a territory goes ashore (in the
                              combat move: an amphibious assault)
bomb UNITS FROM [VIA ...] TO  a strategic bombing raid on TO (Phase 3, Special Combats)
bombard UNITS ZONE TERRITORY  ships in ZONE bombard an amphibious assault (Phase 3)
attack SPACE                  fight the battle in SPACE next (Phase 4)
calloff TERRITORY             call off the amphibious landing in TERRITORY (Phase 4)
rocket FROM TARGET            a rocket strike from an antiaircraft gun (Rockets)
casualties UNITS              the units that take the hits now (Phase 4, steps 4-6)
press [submerge UNITS]        the attacker fights another cycle (Phase 4, step 7)
retreat SPACE|air [submerge UNITS]   the attacker retreats (Phase 4, step 7)
submerge UNITS | submerge none       the defender's submarines submerge, or not
kaiten UNITS | kaiten none           Japan's defending submarines strike as kaiten, or not
joint                         the U.K. declares its Joint Strike (national advantage)
agree | disagree              the U.K. accepts the U.S. choice of attacking casualties in a
                              Joint Strike, or not (then the defender chooses)
place UNITS SPACE             mobilize new units (Phase 6)
standing casualties TYPE ... | ask   a casualty order used without asking
standing submerge ask|never|always   the same for submerging
standing joint agree|ask      the U.K. agrees to every U.S. casualty choice in a Joint Strike
winter                        Russian Winter (national advantage)
convert UNITS TERRITORY       Lend-Lease: friendly units there become Soviet (advantage)
done [confirm]                end this phase or step (confirm: even though aircraft
                              that could still land, or units that could still be
                              placed, would be lost)
"""

from __future__ import annotations

import re
from typing import Annotated, Any, ClassVar, Literal

from pydantic import AfterValidator

from engine.core.errors import OrderSyntaxError
from engine.core.orders import Order, excerpt, is_count, order_words, read_count
from engine.games.aa_revised.geography import SHORT, UNIT_ORDER, find_unit_type, geography
from engine.games.aa_revised.geography import techs_by_word as _techs

_UNIT_ID = re.compile(r"^u\d+$")


def units_text(units: dict[str, int], ids: list[str]) -> list[str]:
    parts = []
    for t in sorted(units, key=_type_rank):
        parts += [str(units[t]), SHORT.get(t, t)]
    return parts + list(ids)


def _type_rank(t: str) -> int:
    return UNIT_ORDER.index(t) if t in UNIT_ORDER else 99


def canonical_units(units: dict[str, int]) -> dict[str, int]:
    """Counts by type in the alphabetical order of the type ids, whatever order they were
    typed in: the order the store's JSON (sorted keys) gives back, so an order is applied
    live exactly as it is replayed, and logs written before this form replay unchanged."""
    return {t: units[t] for t in sorted(units)}


def canonical_ids(ids: list[str]) -> list[str]:
    """Unit ids by number (``u9`` before ``u10``): the order they are named in means
    nothing. Applied when an order is read from text (stored lists load as written, so
    older logs replay unchanged)."""
    return sorted(ids, key=lambda u: (0, int(u[1:]), "") if _UNIT_ID.match(u) else (1, 0, u))


#: counts by unit type, always held in their canonical order
Counts = Annotated[dict[str, int], AfterValidator(canonical_units)]


class Research(Order):
    verb: Literal["research"] = "research"
    tech: str
    dice: int

    def text(self) -> str:
        return f"research {self.tech} {self.dice}"


class Buy(Order):
    verb: Literal["buy"] = "buy"
    units: Counts

    def text(self) -> str:
        return " ".join(["buy", *units_text(self.units, [])])


class Move(Order):
    verb: Literal["move"] = "move"
    units: Counts = {}
    ids: list[str] = []
    path: list[str]
    #: Japan's Kamikaze Attacks: the aircraft attack without a place to land
    kamikaze: bool = False

    def text(self) -> str:
        tail = ["kamikaze"] if self.kamikaze else []
        return " ".join([self.verb, *units_text(self.units, self.ids), *self.path, *tail])


class Bomb(Move):
    verb: Literal["bomb"] = "bomb"  # type: ignore[assignment]


class Bombard(Order):
    verb: Literal["bombard"] = "bombard"
    units: Counts = {}
    ids: list[str] = []
    zone: str
    target: str

    def text(self) -> str:
        return " ".join(["bombard", *units_text(self.units, self.ids), self.zone, self.target])


class Attack(Order):
    verb: Literal["attack"] = "attack"
    space: str
    text_fields: ClassVar[tuple[str, ...]] = ("space",)


class CallOff(Order):
    """The attacker calls off an amphibious landing declared in the combat move."""

    verb: Literal["calloff"] = "calloff"
    space: str
    text_fields: ClassVar[tuple[str, ...]] = ("space",)


class Rocket(Order):
    verb: Literal["rocket"] = "rocket"
    origin: str
    target: str
    text_fields: ClassVar[tuple[str, ...]] = ("origin", "target")


class Casualties(Order):
    verb: Literal["casualties"] = "casualties"
    units: Counts = {}
    ids: list[str] = []

    def text(self) -> str:
        return " ".join(["casualties", *units_text(self.units, self.ids)])


class Press(Order):
    verb: Literal["press"] = "press"
    submerge: Counts = {}

    def text(self) -> str:
        if not self.submerge:
            return "press"
        return " ".join(["press", "submerge", *units_text(self.submerge, [])])


class Retreat(Order):
    verb: Literal["retreat"] = "retreat"
    #: the space land and sea units retreat to; ``None``: aircraft only (amphibious)
    to: str | None = None
    submerge: Counts = {}

    def text(self) -> str:
        out = ["retreat", self.to or "air"]
        if self.submerge:
            out += ["submerge", *units_text(self.submerge, [])]
        return " ".join(out)


class Submerge(Order):
    verb: Literal["submerge"] = "submerge"
    units: Counts = {}

    def text(self) -> str:
        return " ".join(["submerge", *(units_text(self.units, []) or ["none"])])


class Place(Order):
    verb: Literal["place"] = "place"
    units: Counts
    at: str

    def text(self) -> str:
        return " ".join(["place", *units_text(self.units, []), self.at])


class Standing(Order):
    verb: Literal["standing"] = "standing"
    what: Literal["casualties", "submerge", "joint"]
    #: casualties: unit types, most expendable first ([] = ask); submerge, joint: one word
    values: list[str] = []

    def text(self) -> str:
        if self.what == "casualties":
            vals = [SHORT.get(v, v) for v in self.values] or ["ask"]
        else:
            vals = self.values
        return " ".join(["standing", self.what, *vals])


class Winter(Order):
    verb: Literal["winter"] = "winter"


class Convert(Order):
    """Lend-Lease: friendly units in a red territory become Soviet units."""

    verb: Literal["convert"] = "convert"
    units: Counts
    at: str

    def text(self) -> str:
        return " ".join(["convert", *units_text(self.units, []), self.at])


class Kaiten(Order):
    """Kaiten Torpedoes: the defending Japanese submarines designated as kaiten."""

    verb: Literal["kaiten"] = "kaiten"
    units: Counts = {}

    def text(self) -> str:
        return " ".join(["kaiten", *(units_text(self.units, []) or ["none"])])


class JointStrike(Order):
    """Joint Strike: the U.K. skips its combat; the U.S. attacks with U.K. units."""

    verb: Literal["joint"] = "joint"


class Agree(Order):
    """Joint Strike: the U.K. agrees to the attacking casualties the U.S. chose."""

    verb: Literal["agree"] = "agree"


class Disagree(Order):
    """Joint Strike: the U.K. does not agree; the defender chooses them."""

    verb: Literal["disagree"] = "disagree"


class Done(Order):
    """End this phase or step; ``done confirm`` ends it even though units that could
    still be saved would be lost (issue 9: no work lost silently)."""

    verb: Literal["done"] = "done"
    confirm: bool = False

    def text(self) -> str:
        return "done confirm" if self.confirm else "done"


ORDER_TYPES: dict[str, type[Order]] = {
    cls.model_fields["verb"].default: cls
    for cls in (
        Research,
        Buy,
        Move,
        Bomb,
        Bombard,
        Attack,
        CallOff,
        Rocket,
        Casualties,
        Press,
        Retreat,
        Submerge,
        Place,
        Standing,
        Winter,
        Convert,
        Kaiten,
        JointStrike,
        Agree,
        Disagree,
        Done,
    )  # fmt: skip
}

#: the rulebook section each verb belongs to, named in syntax errors
SECTION = {
    "research": "Revised: Phase 1", "buy": "Revised: Phase 2", "move": "Revised: Phase 3",
    "bomb": "Revised: Strategic Bombing Raids", "bombard": "Revised: Amphibious Assaults",
    "attack": "Revised: Phase 4", "calloff": "Revised: Special Combats, Amphibious Assaults",
    "rocket": "Revised: Rocket Strikes",
    "casualties": "Revised: Conduct Combat", "press": "Revised: Step 7",
    "retreat": "Revised: Step 7", "submerge": "Revised: Appendix 1, Submarines",
    "place": "Revised: Phase 6", "standing": "Umpire: standing orders",
    "winter": "Revised: Appendix 3, Russian Winter", "done": "Revised: Turn Sequence",
    "convert": "Revised: Appendix 3, Lend-Lease", "kaiten": "Revised: Appendix 3, Kaiten Torpedoes",
    "joint": "Revised: Appendix 3, Joint Strike", "agree": "Revised: Appendix 3, Joint Strike",
    "disagree": "Revised: Appendix 3, Joint Strike",
}  # fmt: skip

USAGE = {
    "research": "research TECH DICE (e.g. research jet 2)",
    "buy": "buy N TYPE [N TYPE ...] (e.g. buy 3 inf 1 arm)",
    "move": "move N TYPE [N TYPE ...] FROM [VIA ...] TO (e.g. move 2 inf 1 arm ukraine_ssr caucasus)",
    "bomb": "bomb N bmb FROM [VIA ...] TARGET",
    "bombard": "bombard N bb ZONE TERRITORY",
    "attack": "attack SPACE",
    "calloff": "calloff TERRITORY (call off an amphibious landing)",
    "rocket": "rocket FROM TARGET",
    "casualties": "casualties N TYPE [N TYPE ...]",
    "press": "press [submerge N sub]",
    "retreat": "retreat SPACE [submerge N sub]  or  retreat air",
    "submerge": "submerge N sub  or  submerge none",
    "place": "place N TYPE [N TYPE ...] SPACE",
    "standing": "standing casualties TYPE TYPE ... | ask,  or  standing submerge ask|never|always,"
    "  or  standing joint agree|ask",
    "winter": "winter",
    "convert": "convert N TYPE TERRITORY (Lend-Lease)",
    "kaiten": "kaiten N sub  or  kaiten none (Kaiten Torpedoes)",
    "joint": "joint (Joint Strike)",
    "agree": "agree (Joint Strike)",
    "disagree": "disagree (Joint Strike)",
    "done": "done  or  done confirm (end it even though units would be lost)",
}


def load_order(data: dict[str, Any]) -> Order:
    """A stored order back as a model; never raises anything but
    :class:`OrderSyntaxError` (the data may come from an imported file)."""
    verb = data.get("verb") if isinstance(data, dict) else None
    if not isinstance(verb, str) or verb not in ORDER_TYPES:
        raise OrderSyntaxError(
            "Revised: Turn Sequence",
            f"{excerpt(str(verb))} is not an order of this game.",
            _verbs_hint(),
        )
    try:
        return ORDER_TYPES[verb].model_validate(data)
    except Exception:
        raise OrderSyntaxError(
            SECTION[verb], f"That {verb} order is malformed.", f"Write it as: {USAGE[verb]}."
        ) from None


def _verbs_hint() -> str:
    return "The orders are: " + ", ".join(USAGE) + "."


def parse_order(text: str) -> Order:
    """Turn a line such as ``move 2 inf 1 arm ukraine_ssr caucasus`` into an order; never
    raises anything but :class:`OrderSyntaxError`, which quotes at most a short excerpt of
    the text."""
    words = order_words(
        text.replace(",", " ") if isinstance(text, str) else text,
        lambda why: OrderSyntaxError("Revised: Turn Sequence", why, _verbs_hint()),
    )
    if not words:
        raise OrderSyntaxError("Revised: Turn Sequence", "That order is empty.", _verbs_hint())
    verb, args = words[0].lower(), words[1:]
    if verb not in ORDER_TYPES:
        raise OrderSyntaxError(
            "Revised: Turn Sequence",
            f"{excerpt(words[0])} is not an order of this game.",
            _verbs_hint(),
        )

    def bad(why: str) -> OrderSyntaxError:
        return OrderSyntaxError(SECTION[verb], why, f"Write it as: {USAGE[verb]}.")

    def space(word: str) -> str:
        sid = geography().find(word)
        if sid is None:
            raise bad(f"{excerpt(word)} is not a territory or sea zone of the board.")
        return sid

    match verb:
        case "done" if [a.lower() for a in args] == ["confirm"]:
            return Done(confirm=True)
        case "done" | "winter" | "joint" | "agree" | "disagree":
            if args:
                raise bad(f"'{verb}' takes nothing after it.")
            return ORDER_TYPES[verb]()
        case "research":
            if len(args) != 2 or not is_count(args[1]):
                raise bad("'research' needs a development and a number of dice (digits 0-9).")
            tech = _techs().get(_key(args[0]))
            if tech is None:
                raise bad(f"{excerpt(args[0])} is not a weapons development.")
            return Research(tech=tech, dice=read_count(args[1], bad))
        case "buy":
            units, ids, rest = _units(args, bad, allow_ids=False)
            if rest or not units:
                raise bad("'buy' needs counts and unit types only.")
            return Buy(units=units)
        case "move" | "bomb":
            units, ids, rest = _units(args, bad)
            if not units and not ids:
                raise bad(f"'{verb}' needs the units to move first.")
            kamikaze = verb == "move" and bool(rest) and rest[-1].lower() == "kamikaze"
            if kamikaze:
                rest = rest[:-1]
            if len(rest) < 2:
                raise bad(f"'{verb}' needs the space the units are in and where they go.")
            path = [space(w) for w in rest]
            if kamikaze:
                return Move(units=units, ids=ids, path=path, kamikaze=True)
            return ORDER_TYPES[verb](units=units, ids=ids, path=path)
        case "bombard":
            units, ids, rest = _units(args, bad)
            if len(rest) != 2 or not (units or ids):
                raise bad("'bombard' needs the ships, their sea zone and the territory.")
            return Bombard(units=units, ids=ids, zone=space(rest[0]), target=space(rest[1]))
        case "attack":
            if len(args) != 1:
                raise bad("'attack' needs the space whose battle is fought next.")
            return Attack(space=space(args[0]))
        case "calloff":
            if len(args) != 1:
                raise bad("'calloff' needs the territory whose landing is called off.")
            return CallOff(space=space(args[0]))
        case "rocket":
            if len(args) != 2:
                raise bad("'rocket' needs the gun's territory and the target territory.")
            return Rocket(origin=space(args[0]), target=space(args[1]))
        case "casualties":
            units, ids, rest = _units(args, bad)
            if rest or not (units or ids):
                raise bad("'casualties' needs the units that take the hits.")
            return Casualties(units=units, ids=ids)
        case "press":
            return Press(submerge=_submerge_tail(args, bad))
        case "retreat":
            if not args:
                raise bad("'retreat' needs where to (or 'air').")
            to = None if args[0].lower() == "air" else space(args[0])
            return Retreat(to=to, submerge=_submerge_tail(args[1:], bad))
        case "kaiten":
            if [a.lower() for a in args] in ([], ["none"], ["no"]):
                return Kaiten(units={})
            units, ids, rest = _units(args, bad, allow_ids=False)
            if rest:
                raise bad("'kaiten' needs a count of submarines.")
            return Kaiten(units=units)
        case "submerge":
            if [a.lower() for a in args] in ([], ["none"], ["no"]):
                return Submerge(units={})
            units, ids, rest = _units(args, bad, allow_ids=False)
            if rest:
                raise bad("'submerge' needs a count of submarines.")
            return Submerge(units=units)
        case "place" | "convert":
            units, ids, rest = _units(args, bad, allow_ids=False)
            if len(rest) != 1 or not units:
                raise bad(f"'{verb}' needs the units and one space.")
            return ORDER_TYPES[verb](units=units, at=space(rest[0]))
        case "standing":
            if not args or args[0].lower() not in ("casualties", "submerge", "joint"):
                raise bad("'standing' is followed by 'casualties', 'submerge' or 'joint'.")
            what = args[0].lower()
            vals = [a.lower() for a in args[1:]]
            if what == "joint":
                if vals not in (["agree"], ["ask"]):
                    raise bad("'standing joint' takes agree or ask.")
                return Standing(what="joint", values=vals)
            if what == "submerge":
                if vals not in (["ask"], ["never"], ["always"]):
                    raise bad("'standing submerge' takes ask, never or always.")
                return Standing(what="submerge", values=vals)
            if vals in ([], ["ask"]):
                return Standing(what="casualties", values=[])
            types = []
            for v in vals:
                t = find_unit_type(v)
                if t is None:
                    raise bad(f"{excerpt(v)} is not a unit type.")
                types.append(t)
            return Standing(what="casualties", values=types)
    raise bad("unreadable order")  # pragma: no cover


def _key(word: str) -> str:
    return "".join(ch for ch in word.lower() if ch.isalnum())


def _units(args: list[str], bad, allow_ids: bool = True):
    """Read ``N TYPE`` pairs and unit ids from the front of ``args``."""
    units: dict[str, int] = {}
    ids: list[str] = []
    i = 0
    while i < len(args):
        word = args[i]
        if is_count(word):
            if i + 1 >= len(args):
                raise bad(f"{word} of what? A unit type must follow the count.")
            t = find_unit_type(args[i + 1])
            if t is None:
                raise bad(f"{excerpt(args[i + 1])} is not a unit type.")
            n = read_count(word, bad)
            if n < 1:
                raise bad("Counts of units start at 1.")
            units[t] = units.get(t, 0) + n
            i += 2
            continue
        if allow_ids and word.isascii() and _UNIT_ID.match(word.lower()):
            ids.append(word.lower())
            i += 1
            continue
        break
    return units, canonical_ids(ids), args[i:]


def _submerge_tail(args: list[str], bad) -> dict[str, int]:
    if not args:
        return {}
    if args[0].lower() != "submerge":
        raise bad(f"{excerpt(args[0])} is not understood here; only 'submerge N sub' may follow.")
    units, _, rest = _units(args[1:], bad, allow_ids=False)
    if rest or not units:
        raise bad("'submerge' needs a count of submarines.")
    return units
