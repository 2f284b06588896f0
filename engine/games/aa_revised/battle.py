"""One battle of Axis & Allies Revised, cycle by cycle (Revised: Phase 4, Conduct Combat).

A :class:`Battle` is an immutable value. It always stands at one step of the combat
sequence and says what it needs next (:func:`needs`): dice, a side's choice of
casualties, the attacker's press-or-retreat decision, or the defender's choice to
submerge. The functions :func:`roll`, :func:`choose_casualties`, :func:`press`,
:func:`retreat` and :func:`defender_submerge` each answer one need and return the next
battle; a wrong answer raises :class:`~engine.core.errors.IllegalOrder` naming the rule.
Steps that need nothing (removing casualties, checking for the end) happen on their own.
:func:`fight` plays a whole battle with a casualty order for each side, for bots, standing
orders and simulations.

The combat sequence (Revised: Combat Sequence) and where each part lives:

1. place units: :func:`new_battle` (validates who may fight where)
2. opening fire: :func:`_opening_fire`: antiaircraft guns (cycle 1, land), shore
   bombardment (cycle 1, amphibious), submarines (every cycle, sea)
3. remove opening-fire casualties: :func:`_after_opening`, unless a destroyer protects them
4. attacking units fire: :func:`_attacker_fire`; the defender chooses casualties
5. defending units fire, casualties included: :func:`_defender_fire`; the attacker chooses
6. remove casualties: :func:`_after_defender_fire`
7. press or retreat, submerge: :func:`press`, :func:`retreat`, :func:`defender_submerge`
8. capture: the turn engine's business; :attr:`Battle.outcome` says who won

Units are :class:`Unit` values with ids the turn engine chooses; the battle keeps them in
the order given, rolls their dice in that order and reports the lost, retreated and
submerged ones. Cargo (land units on transports, allied fighters on an attacking carrier)
never enters the battle: the turn engine destroys it with its transport or carrier.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Literal, Protocol

from engine.core.errors import IllegalOrder
from engine.core.events import Event
from engine.games.aa_revised import pack

Side = Literal["attacker", "defender"]
ATTACKER: Side = "attacker"
DEFENDER: Side = "defender"

# Steps of the combat sequence at which a battle waits.
OPENING_FIRE = "opening_fire"  # step 2: dice
ATTACKER_FIRE = "attacker_fire"  # step 4: dice
DEFENDER_FIRE = "defender_fire"  # step 5: dice
CASUALTIES = "casualties"  # a side chooses casualties for the hits in ``pending``
PRESS_OR_RETREAT = "press_or_retreat"  # step 7: the attacker decides
DEFENDER_SUBMERGE = "defender_submerge"  # step 7: the defender may submerge
OVER = "over"

# Outcomes.
ATTACKER_WON = "attacker_won"
DEFENDER_WON = "defender_won"
#: both sides destroyed: nobody wins and a territory keeps its controller (step 8)
MUTUAL_DESTRUCTION = "mutual_destruction"
#: the attacker left (retreat, or every attacking unit submerged); the defender holds
ATTACKER_RETREATED = "attacker_retreated"
#: neither side can ever hit the other; the battle ends and the defender holds
STALEMATE = "stalemate"

# Hit sources; each decides which units may take the hit.
AA_FIRE = "antiaircraft"
BOMBARDMENT = "bombardment"
SUBMARINES = "submarines"
FIRE = "fire"

TECH_IDS = frozenset(
    {
        "jet_fighters",
        "rockets",
        "super_submarines",
        "long_range_aircraft",
        "combined_bombardment",
        "heavy_bombers",
    }
)


class Dice(Protocol):
    def roll(self, sides: int, purpose: str = "") -> int: ...


# ------------------------------------------------------------------ unit values


@dataclass(frozen=True, slots=True)
class UnitStats:
    """A unit type's combat numbers after the owner's weapons developments."""

    id: str
    name: str
    plural: str
    kind: str
    cost: int
    attack: int
    defense: int
    attack_dice: int
    hit_points: int
    flags: frozenset[str]

    def value(self, side: Side) -> int:
        return self.attack if side == ATTACKER else self.defense


@cache
def unit_stats(techs: frozenset[str] = frozenset()) -> Mapping[str, UnitStats]:
    """The unit table with ``techs`` applied (Revised: Phase 1, Develop Weapons).

    >>> unit_stats(frozenset({"jet_fighters"}))["fighter"].defense
    5
    """
    unknown = set(techs) - TECH_IDS
    if unknown:
        raise IllegalOrder(
            "Revised: Phase 1, Develop Weapons",
            f"There is no weapons development called {sorted(unknown)[0]!r}.",
            "The developments are: " + ", ".join(sorted(TECH_IDS)) + ".",
        )
    changes: dict[str, list[pack.UnitChange]] = {}
    for tech in pack.load_tables().techs:
        if tech.id in techs:
            for uid, change in tech.units.items():
                changes.setdefault(uid, []).append(change)
    out = {}
    for u in pack.load_units().units:
        attack, defense, dice, flags = u.attack or 0, u.defense or 0, u.attack_dice, set(u.flags)
        for c in changes.get(u.id, []):
            attack = c.attack if c.attack is not None else attack
            defense = c.defense if c.defense is not None else defense
            dice = c.attack_dice if c.attack_dice is not None else dice
            flags.update(c.add_flags)
        out[u.id] = UnitStats(
            u.id,
            u.name,
            u.plural,
            u.kind,
            u.cost,
            attack,
            defense,
            dice,
            u.hit_points,
            frozenset(flags),
        )
    return out


# ------------------------------------------------------------------ casualty order


#: A casualty "slot": a unit type and how many hits a unit of it has taken already.
#: ``("battleship", 0)`` means "damage an undamaged battleship"; ``("battleship", 1)``
#: sinks a damaged one; ``("infantry", 0)`` loses an infantry.
Slot = tuple[str, int]


@dataclass(frozen=True)
class CasualtyOrder:
    """Which units a side gives up first when it must choose casualties.

    The owner of the units hit may choose them in any order (Revised: Conduct Combat,
    "Which units should I choose as casualties?"); this is a standing choice, used for
    automatic play, defaults after a deadline, and odds. By default: every battleship
    absorbs a first hit before anything is lost (Revised: Battleship Damage), then the
    cheapest unit goes first, the weaker of two equally priced units first (on attack,
    a transport before a submarine).

    ``first`` lists unit types to give up before all others, in that order; the types
    not listed follow, cheapest first. ``keep_land_unit`` makes an attacker in a land
    battle keep its last unit able to capture while anything else can be taken
    (Revised: Step 8, air units alone never capture).
    """

    first: tuple[str, ...] = ()
    keep_land_unit: bool = False
    damage_battleships_first: bool = True

    def ranking(self, side: Side, stats: Mapping[str, UnitStats]) -> tuple[Slot, ...]:
        """Every slot of every unit type, most expendable first."""

        def cheap(uid: str) -> tuple[int, int, str]:
            s = stats[uid]
            return (s.cost, s.value(side) * (s.attack_dice if side == ATTACKER else 1), uid)

        listed = [u for u in self.first if u in stats]
        rest = sorted((u for u in stats if u not in listed), key=cheap)
        out: list[Slot] = []
        damage: list[Slot] = []
        for uid in (*listed, *rest):
            hp = stats[uid].hit_points
            early = [(uid, k) for k in range(hp - 1)]
            if self.damage_battleships_first:
                damage.extend(early)
            else:
                out.extend(early)
            out.append((uid, hp - 1))
        return (*damage, *out)


CHEAPEST_FIRST = CasualtyOrder()


@cache
def ranking_for(order: CasualtyOrder, side: Side, techs: frozenset[str]) -> tuple[Slot, ...]:
    """``order.ranking`` for a side with ``techs``, computed once."""
    return order.ranking(side, unit_stats(techs))


def pick_casualties(
    counts: Mapping[Slot, int],
    hits: int,
    eligible: Container[str],
    ranking: Sequence[Slot],
    stats: Mapping[str, UnitStats],
    keep_land_unit: bool = False,
) -> list[Slot]:
    """The slots ``hits`` hits go to, one per hit, following ``ranking``.

    ``counts`` is how many units sit in each slot; only types in ``eligible`` may be
    hit. A hit on slot ``(t, k)`` moves one unit to ``(t, k + 1)`` or, at its last hit
    point, destroys it. Hits beyond what can be taken are lost (FAQ: Submarines).
    """
    left = {k: v for k, v in counts.items() if v > 0}
    capturers = (
        sum(n for (t, k), n in left.items() if "can_capture" in stats[t].flags)
        if keep_land_unit
        else 0
    )
    picks: list[Slot] = []
    for _ in range(hits):
        choice = None
        for slot in ranking:
            if left.get(slot, 0) <= 0 or slot[0] not in eligible:
                continue
            t, k = slot
            last_hit = k + 1 >= stats[t].hit_points
            if keep_land_unit and last_hit and capturers == 1 and "can_capture" in stats[t].flags:
                if choice is None:
                    choice = slot  # only if nothing else can be taken
                continue
            choice = slot
            break
        if choice is None:
            break
        picks.append(choice)
        t, k = choice
        left[choice] -= 1
        if k + 1 < stats[t].hit_points:
            left[(t, k + 1)] = left.get((t, k + 1), 0) + 1
        elif keep_land_unit and "can_capture" in stats[t].flags:
            capturers -= 1
    return picks


# ------------------------------------------------------------------ the battle


@dataclass(frozen=True, slots=True)
class Unit:
    """A unit on the battle board. ``hits`` counts damage taken in this combat."""

    uid: str
    type: str
    owner: str = ""
    hits: int = 0


@dataclass(frozen=True, slots=True)
class Hits:
    """Hits waiting for ``side`` (the owner of the units hit) to choose casualties.

    ``count`` is already capped at what can be taken. ``from_air`` of them were scored
    by aircraft that may not hit submarines (only under :attr:`Rules.air_needs_destroyer`).
    ``now`` means the casualties leave at step 3 instead of step 6.
    """

    side: Side
    source: str
    count: int
    from_air: int = 0
    now: bool = False


@dataclass(frozen=True)
class Rules:
    """Switches for variants; the defaults are the Revised rules.

    ``air_needs_destroyer``: aircraft hits may go to submarines only while their side has
    a destroyer in the battle. Not Revised: its rulebook lets any sea or air unit hit a
    submarine (Appendix 1, Submarines: Sneak Attack; FAQ: Submarines); later editions
    of the game added the restriction.
    """

    air_needs_destroyer: bool = False


#: the rules as the Revised rulebook has them
REVISED = Rules()


@dataclass(frozen=True)
class Battle:
    """A battle in a territory (``sea=False``) or a sea zone, at one step of one cycle."""

    sea: bool
    attackers: tuple[Unit, ...]
    defenders: tuple[Unit, ...]
    #: ships offshore that bombard in an amphibious assault (cycle 1 only)
    bombarding: tuple[Unit, ...] = ()
    #: the land part of an amphibious assault: land units may not retreat
    amphibious: bool = False
    attacker_techs: frozenset[str] = frozenset()
    defender_techs: frozenset[str] = frozenset()
    #: developments per power, for units whose owner is listed: (owner, techs) pairs
    owner_techs: tuple[tuple[str, frozenset[str]], ...] = ()
    rules: Rules = REVISED
    cycle: int = 1
    step: str = OPENING_FIRE
    pending: tuple[Hits, ...] = ()
    #: the step whose follow-up runs once ``pending`` is empty
    resume: str = ""
    #: casualties that stay on the board and fire back until step 6
    marked: frozenset[str] = frozenset()
    #: casualties removed at step 3 (antiaircraft, bombardment, unprotected sub hits)
    marked_now: frozenset[str] = frozenset()
    #: (attacker, defender) had a destroyer at the start of this cycle (step 3)
    destroyer_at_start: tuple[bool, bool] = (False, False)
    attackers_lost: tuple[Unit, ...] = ()
    defenders_lost: tuple[Unit, ...] = ()
    retreated: tuple[Unit, ...] = ()
    attackers_submerged: tuple[Unit, ...] = ()
    defenders_submerged: tuple[Unit, ...] = ()
    outcome: str | None = None
    events: tuple[Event, ...] = field(default=(), compare=False)

    def units(self, side: Side) -> tuple[Unit, ...]:
        return self.attackers if side == ATTACKER else self.defenders

    def stats(self, side: Side) -> Mapping[str, UnitStats]:
        """The unit table with the side's developments (for owners not in ``owner_techs``)."""
        return unit_stats(self.attacker_techs if side == ATTACKER else self.defender_techs)

    def stats_of(self, side: Side, u: Unit) -> UnitStats:
        """``u``'s numbers with its own power's developments: powers do not share their
        technology (Revised: Phase 1, Develop Weapons), so two fighters of one side may
        defend at 4 and 5."""
        for owner, techs in self.owner_techs:
            if owner == u.owner:
                return unit_stats(techs)[u.type]
        return self.stats(side)[u.type]

    @property
    def over(self) -> bool:
        return self.step == OVER


@dataclass(frozen=True)
class Need:
    """What a battle waits for: ``kind`` is ``"dice"``, ``"casualties"``,
    ``"press_or_retreat"``, ``"submerge"`` or ``"nothing"`` (the battle is over)."""

    kind: str
    side: Side | None = None
    count: int = 0
    candidates: tuple[Unit, ...] = ()
    text: str = ""


def _set(b: Battle, **changes: object) -> Battle:
    """``dataclasses.replace`` for a battle, without re-running ``__init__``: battles are
    copied at every step, and simulations copy millions of them."""
    new = object.__new__(Battle)
    new.__dict__.update(b.__dict__)
    new.__dict__.update(changes)
    return new


def _stats_for(b: Battle, side: Side) -> Callable[[Unit], UnitStats]:
    """``b.stats_of`` for ``side``, fast when no power has developments of its own."""
    if not b.owner_techs:
        stats = b.stats(side)
        return lambda u: stats[u.type]
    return lambda u: b.stats_of(side, u)


def _other(side: Side) -> Side:
    return DEFENDER if side == ATTACKER else ATTACKER


def _with_event(b: Battle, kind: str, text: str, **data: object) -> Battle:
    return _set(b, events=(*b.events, Event(kind, text, dict(data))))


# ------------------------------------------------------------------ setting up


def new_battle(
    attackers: Iterable[Unit],
    defenders: Iterable[Unit],
    *,
    sea: bool = False,
    bombarding: Iterable[Unit] = (),
    amphibious: bool = False,
    attacker_techs: Iterable[str] = (),
    defender_techs: Iterable[str] = (),
    owner_techs: Mapping[str, Iterable[str]] | None = None,
    rules: Rules = REVISED,
) -> Battle:
    """Place the units on the battle board (Revised: Combat Sequence, step 1).

    ``attacker_techs`` and ``defender_techs`` are each side's weapons developments;
    ``owner_techs`` gives them per power instead, for the units of the powers it names
    (Revised: Phase 1: any number of powers may develop the same weapons, but they
    cannot share them; a multinational defence, or the U.S. attacking with U.K. units in
    a Joint Strike, mixes powers on one side).

    Checks what may fight where: land units fight only in territories and ships only in
    sea zones (Appendix 1: Land Units, Sea Units); antiaircraft guns never attack and
    industrial complexes never fight (Appendix 1); only battleships, and destroyers with
    Combined Bombardment, bombard, and only in the land part of an amphibious assault
    (Revised: Opening Fire, Battleship Bombardment).

    Which ships may bombard is the turn engine's call: only those in the sea zone the
    transports unload from, and none that fought a sea battle there this turn (Revised:
    Amphibious Assaults; Appendix 1, Battleships). The battle fires them in the first
    cycle only, and not at all if no defending land unit is present.
    """
    b = Battle(
        sea=sea,
        attackers=tuple(attackers),
        defenders=tuple(defenders),
        bombarding=tuple(bombarding),
        amphibious=amphibious,
        attacker_techs=frozenset(attacker_techs),
        defender_techs=frozenset(defender_techs),
        owner_techs=tuple(
            sorted((owner, frozenset(techs)) for owner, techs in (owner_techs or {}).items())
        ),
        rules=rules,
    )
    _check_setup(b)
    b = _set(b, destroyer_at_start=(_has_destroyer(b, ATTACKER), _has_destroyer(b, DEFENDER)))
    return _advance(b)


def _check_setup(b: Battle) -> None:
    if not b.attackers:
        raise IllegalOrder("Revised: Combat Sequence", "A battle needs at least one attacker.")
    seen: set[str] = set()
    where = "a sea zone" if b.sea else "a territory"
    for side, units in ((ATTACKER, b.attackers), (DEFENDER, b.defenders), (ATTACKER, b.bombarding)):
        stats = b.stats(side)
        for u in units:
            if u.uid in seen:
                raise IllegalOrder("", f"Unit {u.uid} is listed twice in the battle.")
            seen.add(u.uid)
            s = stats.get(u.type)
            if s is None:
                raise IllegalOrder(
                    "Revised: Appendix 1",
                    f"There is no unit type called {u.type!r}.",
                    "The unit types are: " + ", ".join(stats) + ".",
                )
            if "not_on_battle_board" in s.flags:
                raise IllegalOrder(
                    "Revised: Appendix 1, Industrial Complexes",
                    f"{s.plural} never take part in combat.",
                    "Leave them out of the battle.",
                )
            if units is b.bombarding:
                continue
            if b.sea and s.kind == "land":
                raise IllegalOrder(
                    "Revised: Appendix 1, Land Units",
                    f"{s.plural} fight only in territories, not in {where}.",
                    "Land units at sea are cargo and stay out of the battle.",
                )
            if not b.sea and s.kind == "sea":
                raise IllegalOrder(
                    "Revised: Appendix 1, Sea Units",
                    f"{s.plural} fight only in sea zones, not in {where}.",
                    "Ships may support a landing only by bombardment.",
                )
            if side == ATTACKER and "antiaircraft" in s.flags:
                raise IllegalOrder(
                    "Revised: Appendix 1, Antiaircraft Guns",
                    "Antiaircraft guns never attack.",
                    "They fire only when defending against aircraft.",
                )
    if b.amphibious and b.sea:
        raise IllegalOrder(
            "Revised: Special Combats, Amphibious Assaults",
            "Only the land part of an amphibious assault is an amphibious battle.",
            "Fight the sea part as an ordinary sea battle.",
        )
    if b.bombarding:
        if not b.amphibious:
            raise IllegalOrder(
                "Revised: Opening Fire, Battleship Bombardment",
                "Ships bombard only in the land part of an amphibious assault.",
                "Mark the battle amphibious, or leave the ships out.",
            )
        for u in b.bombarding:
            if "shore_bombardment" not in b.stats_of(ATTACKER, u).flags:
                raise IllegalOrder(
                    "Revised: Opening Fire, Battleship Bombardment",
                    f"{b.stats_of(ATTACKER, u).plural} cannot bombard.",
                    "Battleships bombard; destroyers too with Combined Bombardment.",
                )


# ------------------------------------------------------------------ queries


def _counts_in_battle(b: Battle, side: Side, u: Unit) -> bool:
    """Whether ``u`` keeps its side in the battle (step 7): antiaircraft guns do not."""
    return "never_a_casualty" not in b.stats(side)[u.type].flags


def alive(b: Battle, side: Side) -> bool:
    """Whether ``side`` still has a unit in the battle (Revised: Step 7 b-d)."""
    return any(_counts_in_battle(b, side, u) for u in b.units(side))


def _has_destroyer(b: Battle, side: Side) -> bool:
    stats = b.stats(side)
    return any("cancels_submarines" in stats[u.type].flags for u in b.units(side))


@cache
def eligible_types(techs: frozenset[str], source: str) -> frozenset[str]:
    """Unit types that hits from ``source`` may go to (Revised: Conduct Combat, step 2;
    Appendix 1): antiaircraft fire hits aircraft, bombardment land units, submarines sea
    units (Appendix 1, Submarines: Sneak Attack), ordinary fire anything; an antiaircraft
    gun is never a casualty (Appendix 1, Antiaircraft Guns)."""
    return eligible_among(unit_stats(techs), source)


def eligible_among(stats: Mapping[str, UnitStats], source: str) -> frozenset[str]:
    """:func:`eligible_types` for any table of unit numbers (keyed by any names)."""
    ok = set()
    for t, s in stats.items():
        if "never_a_casualty" in s.flags or "not_on_battle_board" in s.flags:
            continue
        if source == AA_FIRE and s.kind != "air":
            continue
        if source == BOMBARDMENT and s.kind != "land":
            continue
        if source == SUBMARINES and s.kind != "sea":
            continue
        ok.add(t)
    return frozenset(ok)


def _eligible_types(b: Battle, side: Side, source: str) -> frozenset[str]:
    return eligible_types(_techs(b, side), source)


def _techs(b: Battle, side: Side) -> frozenset[str]:
    return b.attacker_techs if side == ATTACKER else b.defender_techs


def _is_sub(b: Battle, side: Side, u: Unit) -> bool:
    return "opening_fire" in b.stats(side)[u.type].flags


def _targets(b: Battle, side: Side, source: str) -> list[Unit]:
    """Units of ``side`` that can still take a hit from ``source``."""
    ok = _eligible_types(b, side, source)
    return [
        u
        for u in b.units(side)
        if u.type in ok and u.uid not in b.marked and u.uid not in b.marked_now
    ]


def _capacity(b: Battle, side: Side, units: Iterable[Unit]) -> int:
    stats = b.stats(side)
    return sum(stats[u.type].hit_points - u.hits for u in units)


def _assignable(b: Battle, side: Side, source: str, hits: int, air_hits: int) -> tuple[int, int]:
    """How many of ``hits`` (``air_hits`` of them restricted) can be taken by ``side``;
    returns (count, restricted count)."""
    targets = _targets(b, side, source)
    total = _capacity(b, side, targets)
    if not air_hits:
        return min(hits, total), 0
    non_sub = _capacity(b, side, [u for u in targets if not _is_sub(b, side, u)])
    restricted = min(air_hits, non_sub)
    return restricted + min(hits - air_hits, total - restricted), restricted


def needs(b: Battle) -> Need:
    """What the battle waits for now."""
    if b.step == OVER:
        return Need("nothing", text=f"The battle is over: {b.outcome}.")
    if b.step in (OPENING_FIRE, ATTACKER_FIRE, DEFENDER_FIRE):
        return Need("dice", text=f"Roll for {b.step.replace('_', ' ')} (cycle {b.cycle}).")
    if b.step == CASUALTIES:
        h = b.pending[0]
        return Need(
            "casualties",
            h.side,
            h.count,
            tuple(_targets(b, h.side, h.source)),
            f"The {h.side} chooses {h.count} casualt{'y' if h.count == 1 else 'ies'} "
            f"from {h.source}.",
        )
    if b.step == PRESS_OR_RETREAT:
        return Need("press_or_retreat", ATTACKER, text="The attacker presses on or retreats.")
    return Need(
        "submerge",
        DEFENDER,
        candidates=tuple(u for u in b.defenders if _is_sub(b, DEFENDER, u)),
        text="The defender may submerge submarines.",
    )


# ------------------------------------------------------------------ the machine


def _advance(b: Battle) -> Battle:
    """Run the steps that need no dice and no decision, up to the next need."""
    while True:
        if b.step == OVER:
            return b
        if b.step == OPENING_FIRE:
            if _opening_fire_happens(b):
                return b
            b = _after_opening(b)
        elif b.step == ATTACKER_FIRE:
            if _fires(b, ATTACKER) and _has_target(b, DEFENDER):
                return b
            b = _set(b, step=DEFENDER_FIRE)
        elif b.step == DEFENDER_FIRE:
            if _fires(b, DEFENDER) and _has_target(b, ATTACKER):
                return b
            b = _after_defender_fire(b)
        elif b.step == CASUALTIES:
            if b.pending and b.pending[0].count == 0:
                b = _set(b, pending=b.pending[1:])
                continue
            if b.pending:
                return b
            b = _resume(b)
        elif b.step == PRESS_OR_RETREAT:
            if _attacker_has_choice(b):
                return b
            b = _press(b, ())
        elif b.step == DEFENDER_SUBMERGE:
            if _submergible(b, DEFENDER):
                return b
            b = _next_cycle(b)
        else:  # pragma: no cover - every step is handled above
            raise AssertionError(b.step)


@cache
def _main_step_types(techs: frozenset[str], side: Side) -> frozenset[str]:
    """Types that may roll at step 4 (attacker) or 5 (defender); see :func:`_firing`."""
    return frozenset(
        t
        for t, s in unit_stats(techs).items()
        if "opening_fire" not in s.flags
        and "antiaircraft" not in s.flags
        and (s.value(side) > 0 or (side == ATTACKER and "supported_by_artillery" in s.flags))
    )


def _fires(b: Battle, side: Side) -> bool:
    types = _main_step_types(_techs(b, side), side)
    return any(u.type in types for u in b.units(side))


def _has_target(b: Battle, side: Side) -> bool:
    ok = _eligible_types(b, side, FIRE)
    gone = b.marked
    return any(u.type in ok and u.uid not in gone for u in b.units(side))


def _resume(b: Battle) -> Battle:
    if b.resume == OPENING_FIRE:
        return _after_opening(b)
    if b.resume == ATTACKER_FIRE:
        return _set(b, step=DEFENDER_FIRE, resume="")
    return _after_defender_fire(b)


def roll(b: Battle, dice: Dice) -> Battle:
    """Roll the dice the current step needs (steps 2, 4 and 5)."""
    if b.step == OPENING_FIRE:
        return _advance(_opening_fire(b, dice))
    if b.step == ATTACKER_FIRE:
        return _advance(_attacker_fire(b, dice))
    if b.step == DEFENDER_FIRE:
        return _advance(_defender_fire(b, dice))
    raise IllegalOrder("Revised: Combat Sequence", "No dice are due now.", needs(b).text)


def _antiaircraft_gun(b: Battle) -> Unit | None:
    stats = b.stats(DEFENDER)
    return next((u for u in b.defenders if "antiaircraft" in stats[u.type].flags), None)


def _aircraft(b: Battle, side: Side) -> list[Unit]:
    stats = b.stats(side)
    return [u for u in b.units(side) if stats[u.type].kind == "air"]


def _subs(b: Battle, side: Side) -> list[Unit]:
    return [u for u in b.units(side) if _is_sub(b, side, u)]


def _opening_fire_happens(b: Battle) -> bool:
    if b.cycle == 1 and not b.sea and _antiaircraft_gun(b) and _aircraft(b, ATTACKER):
        return True
    if b.cycle == 1 and b.bombarding and _targets(b, DEFENDER, BOMBARDMENT):
        return True
    return bool(b.sea and (_subs(b, ATTACKER) or _subs(b, DEFENDER)))


def _opening_fire(b: Battle, dice: Dice) -> Battle:
    """Step 2, Conduct Opening Fire. Nothing fires back during this step.

    Antiaircraft guns (cycle 1, land battles): if the defender has a gun and the
    attacker aircraft, one gun rolls one die aimed at each attacking aircraft, and a
    roll of 1 destroys that aircraft (Revised: Opening Fire, Antiaircraft Guns; FAQ:
    Combat, AA fire is aimed). Only one gun fires however many there are.

    Shore bombardment (cycle 1, amphibious assaults): each bombarding ship rolls at its
    attack value against the defending land units; with none there the step is skipped
    (Revised: Opening Fire, Battleship Bombardment; FAQ: once only).

    Submarines (every cycle, sea battles): attacking then defending subs roll at their
    values; their hits may go to sea units only (Revised: Opening Fire, Submarines; FAQ:
    Submarines, every round).
    """
    events: list[Event] = []
    marked_now = set(b.marked_now)
    pending: list[Hits] = []
    if b.cycle == 1 and not b.sea:
        gun = _antiaircraft_gun(b)
        planes = _aircraft(b, ATTACKER)
        if gun and planes:
            need = b.stats_of(DEFENDER, gun).defense
            for plane in planes:
                r = dice.roll(6, f"antiaircraft fire at {plane.uid}")
                hit = r <= need
                if hit:
                    marked_now.add(plane.uid)
                events.append(
                    Event(
                        "antiaircraft",
                        f"Antiaircraft fire at {plane.type} {plane.uid}: rolls {r}, "
                        f"needs {need}: {'shot down' if hit else 'miss'}.",
                        {"target": plane.uid, "roll": r, "hit": hit},
                    )
                )
    if b.cycle == 1 and b.bombarding and _targets(b, DEFENDER, BOMBARDMENT):
        hits = 0
        for ship in b.bombarding:
            need = b.stats_of(ATTACKER, ship).attack
            r = dice.roll(6, f"bombardment by {ship.uid}")
            hits += r <= need
            events.append(_die_event("bombardment", ship, r, need))
        count, _ = _assignable(b, DEFENDER, BOMBARDMENT, hits, 0)
        pending.append(Hits(DEFENDER, BOMBARDMENT, count, now=True))
    if b.sea:
        volleys = []
        for side in (ATTACKER, DEFENDER):
            subs = _subs(b, side)
            if not subs:
                continue
            target = _other(side)
            room = _capacity(b, target, _targets(b, target, SUBMARINES))
            stats_of = _stats_for(b, side)
            hits = 0
            for sub in subs:
                if hits >= room:
                    break  # every possible target is already hit
                need = stats_of(sub).value(side)
                r = dice.roll(6, f"{side} submarine {sub.uid}")
                hits += r <= need
                events.append(_die_event("submarine", sub, r, need))
            protected = b.destroyer_at_start[0 if target == ATTACKER else 1]
            volleys.append(Hits(target, SUBMARINES, min(hits, room), now=not protected))
        # the defender assigns the attacker's submarine hits first (FAQ: Combat)
        pending.extend(sorted(volleys, key=lambda h: h.side != DEFENDER))
    b = _set(
        b,
        marked_now=frozenset(marked_now),
        pending=tuple(pending),
        step=CASUALTIES,
        resume=OPENING_FIRE,
        events=(*b.events, *events),
    )
    return b


def _die_event(kind: str, u: Unit, r: int, need: int) -> Event:
    hit = r <= need
    return Event(
        kind,
        f"{u.type} {u.uid} rolls {r}, needs {need} or less: {'hit' if hit else 'miss'}.",
        {"unit": u.uid, "roll": r, "hit": hit},
    )


def _remove(b: Battle, uids: frozenset[str]) -> Battle:
    if not uids:
        return b
    lost_a = tuple(u for u in b.attackers if u.uid in uids)
    lost_d = tuple(u for u in b.defenders if u.uid in uids)
    return _set(
        b,
        attackers=tuple(u for u in b.attackers if u.uid not in uids),
        defenders=tuple(u for u in b.defenders if u.uid not in uids),
        attackers_lost=b.attackers_lost + lost_a,
        defenders_lost=b.defenders_lost + lost_d,
    )


def _after_opening(b: Battle) -> Battle:
    """Step 3, Remove Opening Fire Casualties. Aircraft shot down and units bombarded
    are removed; submarine casualties are removed too unless their side had a destroyer
    at the start of the cycle, in which case they stay and fire back at their normal
    step (Revised: Destroyers and Submarine Casualties; FAQ: Submarines).

    If a side has nothing left after step 3, steps 4 to 6 still take place for the
    other: its casualties kept on the board fire back at nothing and are removed at
    step 6; then the battle ends (Revised: Step 7 b-d).
    """
    b = _remove(b, b.marked_now)
    b = _set(b, marked_now=frozenset(), step=ATTACKER_FIRE, resume="", pending=())
    if not alive(b, ATTACKER) or not alive(b, DEFENDER):
        if b.marked:
            gone = ", ".join(sorted(b.marked))
            b = _with_event(
                b,
                "casualties",
                f"The other side is gone; the submarines' victims ({gone}) have nothing to "
                "fire at and are removed at step 6.",
            )
            b = _set(_remove(b, b.marked), marked=frozenset())
        return _finish(b)
    return b


def _firing(b: Battle, side: Side) -> list[tuple[Unit, int, int]]:
    """(unit, value, dice) for every unit of ``side`` that fires at step 4 or 5.

    Submarines fire only in opening fire, antiaircraft guns only there too, and units
    with a value of 0 (transports attacking) never roll (Appendix 1). An attacking
    infantry paired one-for-one with an attacking artillery attacks at 2; defending
    infantry get no support (Revised: Artillery Supporting Infantry; FAQ: the artillery
    rolls its own die as well). Casualties already marked still fire (step 5). Each
    unit fires with its own power's developments (:meth:`Battle.stats_of`).
    """
    stats = b.stats(side)
    stats_of = _stats_for(b, side)
    out = []
    support = 0
    if side == ATTACKER:
        support = sum(1 for u in b.attackers if "supports_infantry" in stats[u.type].flags)
    for u in b.units(side):
        s = stats_of(u)
        if "opening_fire" in s.flags or "antiaircraft" in s.flags:
            continue
        value = s.value(side)
        if side == ATTACKER and "supported_by_artillery" in s.flags and support > 0:
            support -= 1
            value = max(value, 2)
        if value <= 0:
            continue
        out.append((u, value, s.attack_dice if side == ATTACKER else 1))
    return out


def _volley(b: Battle, side: Side, dice: Dice) -> tuple[list[Event], Hits]:
    """Roll for every firing unit of ``side`` and return the hits for the other side.

    Dice stop once every possible target is hit, as in the rulebook's example of
    combat (the rest could not change anything)."""
    target = _other(side)
    restricted_air = b.rules.air_needs_destroyer and b.sea and not _has_destroyer(b, side)
    stats = b.stats(side)
    targets = _targets(b, target, FIRE)
    room = _capacity(b, target, targets)
    non_sub = (
        _capacity(b, target, [t for t in targets if not _is_sub(b, target, t)])
        if restricted_air
        else room
    )
    hits = air = 0
    events = []
    for u, value, n in _firing(b, side):
        for _ in range(n):
            if hits >= room and (not air or min(air, non_sub) + hits - air >= room):
                break
            r = dice.roll(6, f"{side} {u.uid}")
            if r <= value:
                hits += 1
                if restricted_air and stats[u.type].kind == "air":
                    air += 1
            events.append(_die_event("fire", u, r, value))
    count, from_air = _assignable(b, target, FIRE, hits, air)
    return events, Hits(target, FIRE, count, from_air)


def _attacker_fire(b: Battle, dice: Dice) -> Battle:
    """Step 4, Attacking Units Fire; the defender then chooses its casualties before
    firing back (FAQ: Combat, why the defender chooses first)."""
    events, hits = _volley(b, ATTACKER, dice)
    return _set(
        b,
        pending=(hits,),
        step=CASUALTIES,
        resume=ATTACKER_FIRE,
        events=(*b.events, *events),
    )


def _defender_fire(b: Battle, dice: Dice) -> Battle:
    """Step 5, Defending Units Fire, including the casualties just chosen; the
    attacker chooses its casualties."""
    events, hits = _volley(b, DEFENDER, dice)
    return _set(
        b,
        pending=(hits,),
        step=CASUALTIES,
        resume=DEFENDER_FIRE,
        events=(*b.events, *events),
    )


def _after_defender_fire(b: Battle) -> Battle:
    """Step 6, Remove Casualties, then step 7's end check (Revised: Step 7 b-d)."""
    b = _remove(b, b.marked)
    b = _set(b, marked=frozenset(), pending=(), resume="", step=PRESS_OR_RETREAT)
    if not alive(b, ATTACKER) or not alive(b, DEFENDER):
        return _finish(b)
    if not _can_hurt(b, ATTACKER) and not _can_hurt(b, DEFENDER):
        return _finish(b, STALEMATE)
    return b


def _can_hurt(b: Battle, side: Side) -> bool:
    """Whether any unit of ``side`` could ever hit a unit of the other side."""
    target = _other(side)
    stats_of = _stats_for(b, side)
    restricted_air = b.rules.air_needs_destroyer and b.sea and not _has_destroyer(b, side)
    for u in b.units(side):
        s = stats_of(u)
        if "antiaircraft" in s.flags or s.value(side) <= 0:
            continue
        if "opening_fire" in s.flags:
            if _targets(b, target, SUBMARINES):
                return True
            continue
        targets = _targets(b, target, FIRE)
        if restricted_air and s.kind == "air":
            targets = [t for t in targets if not _is_sub(b, target, t)]
        if targets:
            return True
    return False


def choose_casualties(b: Battle, side: Side, uids: Sequence[str]) -> Battle:
    """``side`` takes the pending hits on ``uids`` (Revised: Conduct Combat; the player
    whose units are hit chooses them, in any order).

    A battleship may be named twice: its first hit only damages it, the second destroys
    it (Revised: Battleship Damage; FAQ: two sub hits in one volley sink it). A unit
    already chosen as a casualty cannot take another hit.
    """
    if b.step != CASUALTIES or not b.pending or b.pending[0].side != side:
        raise IllegalOrder(
            "Revised: Conduct Combat", f"The {side} has no hits to take now.", needs(b).text
        )
    h = b.pending[0]
    rule = _rule_for(h.source)
    targets = {u.uid: u for u in _targets(b, side, h.source)}
    stats = b.stats(side)
    if len(uids) != h.count:
        raise IllegalOrder(
            rule,
            f"The {side} must choose {h.count} casualt{'y' if h.count == 1 else 'ies'}, "
            f"not {len(uids)}.",
            "Choose from: " + ", ".join(targets) + ".",
        )
    taken: dict[str, int] = {}
    for uid in uids:
        if uid not in targets:
            raise IllegalOrder(
                rule,
                f"Unit {uid} cannot take this hit.",
                "Choose from: " + ", ".join(targets) + ".",
            )
        taken[uid] = taken.get(uid, 0) + 1
        u = targets[uid]
        if taken[uid] > stats[u.type].hit_points - u.hits:
            raise IllegalOrder(
                rule,
                f"Unit {uid} cannot take {taken[uid]} hits.",
                "Each unit is a casualty once; a battleship takes two hits.",
            )
    on_subs = sum(n for uid, n in taken.items() if _is_sub(b, side, targets[uid]))
    if on_subs > h.count - h.from_air:
        raise IllegalOrder(
            rule,
            "Hits scored by aircraft cannot go to submarines without a destroyer.",
            "Give those hits to other units.",
        )
    return _advance(_apply_hits(b, side, h, taken))


def _rule_for(source: str) -> str:
    return {
        AA_FIRE: "Revised: Opening Fire, Antiaircraft Guns",
        BOMBARDMENT: "Revised: Opening Fire, Battleship Bombardment",
        SUBMARINES: "Revised: Opening Fire, Submarines",
    }.get(source, "Revised: Conduct Combat, steps 4-5")


def _apply_hits(b: Battle, side: Side, h: Hits, taken: Mapping[str, int]) -> Battle:
    stats = b.stats(side)
    marked, marked_now = set(b.marked), set(b.marked_now)
    units = []
    texts = []
    for u in b.units(side):
        n = taken.get(u.uid, 0)
        if n:
            u = Unit(u.uid, u.type, u.owner, u.hits + n)
            if u.hits >= stats[u.type].hit_points:
                (marked_now if h.now else marked).add(u.uid)
                texts.append(f"{u.type} {u.uid} is a casualty")
            else:
                texts.append(f"{u.type} {u.uid} is damaged")
        units.append(u)
    events = b.events
    if texts:
        text = f"The {side} takes {h.source} hits: " + "; ".join(texts) + "."
        events = (*events, Event("casualties", text, {"side": side, "units": dict(taken)}))
    return _set(
        b,
        pending=b.pending[1:],
        marked=frozenset(marked),
        marked_now=frozenset(marked_now),
        events=events,
        **{"attackers" if side == ATTACKER else "defenders": tuple(units)},
    )


def suggest_casualties(b: Battle, order: CasualtyOrder = CHEAPEST_FIRST) -> list[str]:
    """The casualties ``order`` would choose for the pending hits, as unit ids."""
    h = b.pending[0]
    side = h.side
    stats = b.stats(side)
    targets = _targets(b, side, h.source)
    eligible = _eligible_types(b, side, h.source)
    keep = order.keep_land_unit and side == ATTACKER and not b.sea
    ranking = ranking_for(order, side, _techs(b, side))
    counts: dict[Slot, int] = {}
    for u in targets:
        counts[(u.type, u.hits)] = counts.get((u.type, u.hits), 0) + 1
    picks: list[Slot] = []
    if h.from_air:
        non_sub = frozenset(t for t in eligible if "opening_fire" not in stats[t].flags)
        picks = pick_casualties(counts, h.from_air, non_sub, ranking, stats, keep)
        for t, k in picks:
            counts[(t, k)] -= 1
            if k + 1 < stats[t].hit_points:
                counts[(t, k + 1)] = counts.get((t, k + 1), 0) + 1
    picks += pick_casualties(counts, h.count - len(picks), eligible, ranking, stats, keep)
    # Map slots to units: in a slot, the unit with the lowest value (a power without a
    # development it fights with), then the first in battle order; tracking damage.
    state = {u.uid: u.hits for u in targets}
    if b.owner_techs:
        value = _stats_for(b, side)
        targets = sorted(
            targets,
            key=lambda u: value(u).value(side) * (value(u).attack_dice if side == ATTACKER else 1),
        )
    out = []
    for t, k in picks:
        for u in targets:
            if u.type == t and state[u.uid] == k:
                state[u.uid] += 1
                out.append(u.uid)
                break
    return out


def _attacker_has_choice(b: Battle) -> bool:
    if _submergible(b, ATTACKER):
        return True
    if b.amphibious:
        return bool(_aircraft(b, ATTACKER))
    return True


def _submergible(b: Battle, side: Side) -> bool:
    """Subs of ``side`` may submerge unless an enemy destroyer is in the battle, judged
    after this cycle's casualties are gone (Appendix 1: Submarines, Destroyers)."""
    return bool(b.sea and _subs(b, side) and not _has_destroyer(b, _other(side)))


def _check_submerge(b: Battle, side: Side, uids: Sequence[str]) -> frozenset[str]:
    chosen = frozenset(uids)
    if not chosen:
        return chosen
    if not b.sea or not _subs(b, side):
        raise IllegalOrder(
            "Revised: Appendix 1, Submarines",
            f"The {side} has no submarines in this battle to submerge.",
        )
    if _has_destroyer(b, _other(side)):
        raise IllegalOrder(
            "Revised: Appendix 1, Destroyers",
            "Submarines cannot submerge while an enemy destroyer is in the battle.",
            "They must press on (or the attacker retreats).",
        )
    subs = {u.uid for u in _subs(b, side)}
    bad = sorted(chosen - subs)
    if bad:
        raise IllegalOrder(
            "Revised: Appendix 1, Submarines",
            f"Unit {bad[0]} is not a submarine of the {side} in this battle.",
            "Submerge: " + ", ".join(sorted(subs)) + ".",
        )
    return chosen


def press(b: Battle, submerge: Sequence[str] = ()) -> Battle:
    """Step 7: the attacker presses the attack, submerging ``submerge`` subs if it
    likes (Revised: Step 7; Appendix 1, Submarines: Submerge)."""
    if b.step != PRESS_OR_RETREAT:
        raise IllegalOrder(
            "Revised: Step 7", "The attacker has nothing to decide now.", needs(b).text
        )
    return _advance(_press(b, _check_submerge(b, ATTACKER, submerge)))


def _press(b: Battle, submerge: frozenset[str]) -> Battle:
    if submerge:
        b = _set(
            b,
            attackers=tuple(u for u in b.attackers if u.uid not in submerge),
            attackers_submerged=b.attackers_submerged
            + tuple(u for u in b.attackers if u.uid in submerge),
        )
        b = _with_event(b, "submerge", f"The attacker submerges {', '.join(sorted(submerge))}.")
        if not alive(b, ATTACKER):
            return _finish(b, ATTACKER_RETREATED)
    return _set(b, step=DEFENDER_SUBMERGE)


def retreat(b: Battle, air_only: bool = False, submerge: Sequence[str] = ()) -> Battle:
    """Step 7: the attacker retreats (Revised: Attacker Retreats).

    Every attacking unit leaves together; where they go is the turn engine's check.
    There are no partial retreats, except that in the land part of an amphibious assault
    the aircraft, all together, may leave while the land units fight on (``air_only``);
    land units there never retreat (Revised: Amphibious Assaults; FAQ: Retreats). Subs
    named in ``submerge`` submerge instead of retreating.
    """
    if b.step != PRESS_OR_RETREAT:
        raise IllegalOrder("Revised: Step 7", "The attacker cannot retreat now.", needs(b).text)
    chosen = _check_submerge(b, ATTACKER, submerge)
    if b.amphibious and not air_only:
        raise IllegalOrder(
            "Revised: Special Combats, Amphibious Assaults",
            "Land units in an amphibious assault cannot retreat.",
            "Only the aircraft may retreat, all together.",
        )
    if air_only and not b.amphibious:
        raise IllegalOrder(
            "Revised: Step 7, Attacker Retreats",
            "All attacking units must retreat together.",
            "Only in an amphibious assault may the aircraft leave alone.",
        )
    b = _set(
        b,
        attackers_submerged=b.attackers_submerged
        + tuple(u for u in b.attackers if u.uid in chosen),
        attackers=tuple(u for u in b.attackers if u.uid not in chosen),
    )
    stats = b.stats(ATTACKER)
    leaving = [u for u in b.attackers if not air_only or stats[u.type].kind == "air"]
    if air_only and not leaving:
        raise IllegalOrder("Revised: Amphibious Assaults", "No aircraft are left to retreat.")
    gone = {u.uid for u in leaving}
    b = _set(
        b,
        attackers=tuple(u for u in b.attackers if u.uid not in gone),
        retreated=b.retreated + tuple(Unit(u.uid, u.type, u.owner) for u in leaving),
    )
    b = _with_event(b, "retreat", "The attacker retreats: " + ", ".join(sorted(gone)) + ".")
    if not alive(b, ATTACKER):
        return _finish(b, ATTACKER_RETREATED)
    return _advance(_set(b, step=DEFENDER_SUBMERGE))


def defender_submerge(b: Battle, uids: Sequence[str] = ()) -> Battle:
    """Step 7: the defender submerges ``uids`` (possibly none) (Appendix 1: Submerge)."""
    if b.step != DEFENDER_SUBMERGE:
        raise IllegalOrder("Revised: Step 7", "The defender cannot submerge now.", needs(b).text)
    chosen = _check_submerge(b, DEFENDER, uids)
    if chosen:
        b = _set(
            b,
            defenders=tuple(u for u in b.defenders if u.uid not in chosen),
            defenders_submerged=b.defenders_submerged
            + tuple(u for u in b.defenders if u.uid in chosen),
        )
        b = _with_event(b, "submerge", f"The defender submerges {', '.join(sorted(chosen))}.")
        if not alive(b, DEFENDER):
            return _finish(b, ATTACKER_WON)
    return _advance(_next_cycle(b))


def _next_cycle(b: Battle) -> Battle:
    """Back to step 2 for another cycle; guns and bombarding ships do not return
    (Revised: Step 7; FAQ: Combat, once only)."""
    b = _set(b, cycle=b.cycle + 1, step=OPENING_FIRE)
    return _set(b, destroyer_at_start=(_has_destroyer(b, ATTACKER), _has_destroyer(b, DEFENDER)))


def _finish(b: Battle, outcome: str | None = None) -> Battle:
    """End the battle (Revised: Step 7) and repair battleships (Battleship Damage)."""
    if outcome is None:
        a, d = alive(b, ATTACKER), alive(b, DEFENDER)
        if a and d:  # pragma: no cover - callers finish only when a side is gone
            raise AssertionError("both sides are still in the battle")
        if a:
            outcome = ATTACKER_WON
        elif d or (b.defenders and not b.defenders_lost):
            outcome = DEFENDER_WON  # an antiaircraft gun alone shot down every plane

        else:
            outcome = MUTUAL_DESTRUCTION

    def repaired(units: tuple[Unit, ...]) -> tuple[Unit, ...]:
        return tuple(Unit(u.uid, u.type, u.owner) if u.hits else u for u in units)

    b = _set(
        b,
        attackers=repaired(b.attackers),
        defenders=repaired(b.defenders),
        attackers_submerged=repaired(b.attackers_submerged),
        defenders_submerged=repaired(b.defenders_submerged),
        step=OVER,
        outcome=outcome,
        pending=(),
        marked=frozenset(),
        marked_now=frozenset(),
    )
    return _with_event(
        b, "battle_over", f"The battle is over: {outcome.replace('_', ' ')}.", outcome=outcome
    )


# ------------------------------------------------------------------ automatic play


def fight(
    b: Battle,
    dice: Dice,
    attacker_order: CasualtyOrder = CHEAPEST_FIRST,
    defender_order: CasualtyOrder = CHEAPEST_FIRST,
    *,
    retreat_when: int | None = None,
    max_rounds: int | None = None,
    should_retreat: Callable[[Battle], bool] | None = None,
) -> Battle:
    """Play ``b`` to its end with standing orders for both sides.

    Casualties follow each side's :class:`CasualtyOrder`. The attacker retreats at step
    7 when it has ``retreat_when`` units or fewer, after ``max_rounds`` cycles, or when
    ``should_retreat`` says so; otherwise it presses on. Nobody submerges. In an
    amphibious assault land units cannot retreat, so there the attacker always presses
    on (Revised: Amphibious Assaults).
    """
    while b.step != OVER:
        step = b.step
        if step in (OPENING_FIRE, ATTACKER_FIRE, DEFENDER_FIRE):
            b = roll(b, dice)
        elif step == CASUALTIES:
            h = b.pending[0]
            order = attacker_order if h.side == ATTACKER else defender_order
            taken: dict[str, int] = {}
            for uid in suggest_casualties(b, order):
                taken[uid] = taken.get(uid, 0) + 1
            # the order's own picks are legal by construction: skip the checks
            b = _advance(_apply_hits(b, h.side, h, taken))
        elif step == PRESS_OR_RETREAT:
            leave = (
                (max_rounds is not None and b.cycle >= max_rounds)
                or (retreat_when is not None and len(b.attackers) <= retreat_when)
                or (should_retreat is not None and should_retreat(b))
            )
            b = retreat(b) if leave and not b.amphibious else press(b)
        else:
            b = defender_submerge(b, ())
    return b
