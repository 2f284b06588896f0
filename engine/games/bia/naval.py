"""Naval combat of Blocks in Afrika (17.0 Naval Rules, L2477-2744).

A sea battle is fought between the naval blocks of the two sides, round by round. This
module resolves one round (:func:`fight_round`) and the interception roll that starts a
battle at sea (:func:`interception_need`); the convoy boxes' battles that call it live in
:mod:`engine.games.bia.convoy`. It works on :class:`Ship` records, not on the state, so the
rulebook's own battle off Crete (L2652-2744) is played by a test with scripted dice.

Where the text lets a side choose where a hit falls (the owner among its tied strongest
ships, L2639 and L2710-2712; the firer for its submarines and carrier aircraft, L2649,
L2699-2700, L2726), and the side holding the TECH advantage which hit of the round it
discards (L2642-2644, L2706-2709), :func:`fight_round` asks a :data:`Choose` callback;
without one, or when the choice is forced, the engine's pick (:func:`engine_pick`) is
taken and the round's first hit on that side discarded (RULINGS B67-B68, B85, B105).

Rulebook line numbers (``L123``) refer to ``shared/rules/003_19684674ce068529.txt``;
the rulings are ``RULINGS.md`` B63-B72, B85-B86 and B105.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from engine.core.ruleset import Dice

#: the gunfire class of each naval kind (17.0, L2527-2535): lower fires first
CLASS = {"bb": 1, "ca": 2, "dd": 3, "ss": 4, "cv": 5, "cve": 5}
#: the order the gun classes fire in after the air step (17.0 Fire Order, L2607-2612)
GUN_ORDER = ("bb", "ca", "dd", "ss")
#: the best number a die can need: a 1 never hits (RULINGS B18, B65)
BEST = 2
KIND_NAME = {
    "bb": "battleship", "ca": "cruiser", "dd": "destroyer", "ss": "submarine",
    "cv": "aircraft carrier", "cve": "escort carrier",
}  # fmt: skip


@dataclass(slots=True)
class Ship:
    """One naval block in a sea battle: its printed track values (weakest edge first),
    the edge it stands on (1 = weakest, 0 = sunk) and, for a carrier, the aircraft its
    full-strength edge carries (17.0, L2498-2503)."""

    id: str
    side: str
    kind: str
    values: list[int]
    pos: int
    token: str = ""
    full_planes: int = 0

    @property
    def afloat(self) -> bool:
        return self.pos > 0

    @property
    def strength(self) -> int:
        return self.values[self.pos - 1] if self.pos > 0 else 0

    @property
    def planes(self) -> int:
        """Aircraft on the carrier's current edge: one per edge above the hull, up to
        those of its full edge (RULINGS B66; the deck keeps one, L2706, L2728)."""
        if self.kind != "cv" or not self.afloat:
            return 0
        return min(self.full_planes, self.strength)


@dataclass
class Battle:
    """The two sides' ships in one sea battle, with what a round needs to know: each
    side's naval TECH and bomber TECH (3.16), and whether it is fought in a convoy box
    (the escort carriers fire there only, L2509-2514)."""

    ships: list[Ship]
    naval_tech: dict[str, int]
    bomber_tech: dict[str, int]
    convoy: bool = False
    #: hits each side has taken on its ships (not on its aircraft) in the battle: the
    #: hits passed on to a transport it escorts (L2596-2598)
    ship_hits: dict[str, int] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)

    def of(self, side: str) -> list[Ship]:
        return [s for s in self.ships if s.side == side and s.afloat]

    def sides(self) -> list[str]:
        return sorted({s.side for s in self.ships})

    def other(self, side: str) -> str:
        return next(x for x in self.sides() if x != side)

    def planes(self, side: str) -> int:
        return sum(s.planes for s in self.of(side))


def label(ship: Ship, reader: Callable[[Ship], str] | None = None) -> str:
    return reader(ship) if reader else f"{ship.token or ship.id} ({KIND_NAME[ship.kind]})"


def air_superiority(battle: Battle) -> str | None:
    """The side with more carrier aircraft in the battle (17.0, L2613-2617), or None."""
    a, b = battle.sides()
    pa, pb = battle.planes(a), battle.planes(b)
    return a if pa > pb else b if pb > pa else None


def can_target_subs(battle: Battle, side: str) -> bool:
    """Submarines may be fired on only by a side with a destroyer, carrier or escort
    carrier present (17.0 Combat Rules, L2645)."""
    return any(s.kind in ("dd", "cv", "cve") for s in battle.of(side))


def targets(battle: Battle, firer: str) -> list[Ship]:
    subs = can_target_subs(battle, firer)
    return [s for s in battle.of(battle.other(firer)) if s.kind != "ss" or subs]


def class_bonus(battle: Battle, firer: str, kind: str) -> int:
    """17.0 Combat Rules (L2636-2638, L2533-2535): a class with no enemy ship of its own
    class or a higher one to fire at gets a Bonus equal to the difference between its
    class and the highest enemy class it may fire at (RULINGS B65). Submarines are not
    counted: they have Bonuses of their own (L2645-2648), and against submarines the
    convoy example's unpaired destroyer dice still need a 6 (L2515-2520)."""
    if kind == "ss":  # a submarine's own Bonus: unopposed by DD/CV/CVE (L2646)
        return (
            0 if any(s.kind in ("dd", "cv", "cve") for s in battle.of(battle.other(firer))) else 1
        )
    tgt = [s for s in targets(battle, firer) if s.kind != "ss"]
    if not tgt:
        return 0
    return max(0, min(CLASS[s.kind] for s in tgt) - CLASS[kind])


def need(bonus: int) -> int:
    return max(BEST, 6 - bonus)


def tied_strongest(battle: Battle, firer: str, sub_only: bool = False) -> list[Ship]:
    """The enemy ships a gun hit of ``firer`` may fall on: the strongest it may hit
    (L2639), submarines only for an escort carrier's paired die (L2647-2648)."""
    tgt = [s for s in targets(battle, firer) if not sub_only or s.kind == "ss"]
    top = max((s.strength for s in tgt), default=0)
    return [s for s in tgt if s.strength == top]


def engine_pick(who: str, among: list[Ship]) -> Ship:
    """The engine's choice where a side may choose (RULINGS B67): for the owner (``who``
    "own") among its tied strongest ships, the lowest class first (a submarine before a
    cruiser, the Italian choice off Crete, L2711-2712), then by token; for the firer of
    submarines and carrier aircraft ("aim", L2649, L2699-2700) the enemy carrier with most
    aircraft, then the heaviest class, strongest first (the choices of the example)."""
    if who == "own":
        return min(among, key=lambda s: (-s.strength, -CLASS[s.kind], s.token or s.id))
    return min(among, key=lambda s: (-s.planes, CLASS[s.kind], -s.strength, s.token or s.id))


#: who decides where a hit falls, where the text gives a side the choice:
#: ``choose(who, side, among, why)``, ``why`` being the fire that hit (RULINGS B85, B105).
#: ``who`` "own": ``side`` owns ``among``, its tied strongest ships (L2639, L2710-2712),
#: and returns the one reduced. ``who`` "aim": ``side`` fires its submarines or carrier
#: aircraft at ``among`` (L2649, L2699-2700, L2726) and returns its target. ``who``
#: "cancel": ``side`` holds the naval TECH advantage and has not discarded a hit this round
#: (L2642-2644); the hit is about to fall on ``among`` (one ship, or its tied strongest):
#: None discards it, one of ``among`` suffers it (the British "decide" to, L2706-2709).
Choose = Callable[[str, str, list[Ship], str], Ship | None]


def _land(battle: Battle, rnd: _Round, firer: str, who: str, why: str, choose: Choose | None,
          reader: Callable[[Ship], str] | None, sub_only: bool = False) -> bool:  # fmt: skip
    """The next hit of ``firer`` falls (False when it has nothing left to hit). Without a
    ``choose``, the engine picks the ship (:func:`engine_pick`) and the TECH advantage
    discards the first hit of the round on its side's ships (RULINGS B67-B68). With one,
    the firer of submarines and aircraft first names its target, then a side holding an
    unused TECH discard says whether this hit is the one it discards (and, when it suffers
    it among tied ships, which ship), else the owner picks among its tied strongest; a
    side with one ship possible is asked nothing but the discard (RULINGS B85, B105)."""
    among = tied_strongest(battle, firer, sub_only) if who == "own" else targets(battle, firer)
    if not among:
        return False
    side = battle.other(firer)
    if choose is None or (rnd.discard[side] and not rnd.asked):
        rnd.hit(engine_pick(who, among), why, reader)  # the first hit is discarded (B68)
        return True
    if who == "aim" and len(among) > 1:
        pick = choose("aim", firer, among, why)
        among = [pick if pick in among else engine_pick("aim", among)]
    if rnd.discard[side]:
        pick = choose("cancel", side, among, why)
        if pick is None:
            rnd.hit(engine_pick("own", among), why, reader, cancel=True)
        else:
            rnd.hit(pick if pick in among else engine_pick("own", among), why, reader, cancel=False)
        return True
    pick = choose("own", side, among, why) if len(among) > 1 else among[0]
    rnd.hit(pick if pick in among else engine_pick("own", among), why, reader)
    return True


class _Round:
    """The state of one round: which side still discards a hit (TECH advantage), and
    whether that side is asked which hit (``asked``; RULINGS B105) or the engine
    discards the first (B68)."""

    def __init__(self, battle: Battle, asked: bool = True) -> None:
        self.b, self.asked = battle, asked
        a, c = battle.sides()
        ta, tc = battle.naval_tech.get(a, 1), battle.naval_tech.get(c, 1)
        #: 17.0 Combat Rules (L2642-2644; RULINGS B68): the side of higher naval TECH discards one hit
        #: suffered each round; a hit on its aircraft cannot be discarded
        self.discard = {a: ta > tc, c: tc > ta}

    def hit(self, ship: Ship, why: str, reader: Callable[[Ship], str] | None,
            cancel: bool | None = None) -> None:  # fmt: skip
        """A hit lands on ``ship``; ``cancel`` says whether its side's TECH advantage
        discards it (None: the engine's rule, the round's first hit on that side)."""
        side = ship.side
        if self.discard[side] and cancel is not False:
            self.discard[side] = False
            self.b.lines.append(
                f"{why}: a hit on {label(ship, reader)}, discarded by naval TECH superiority."
            )
            return
        ship.pos -= 1
        self.b.ship_hits[side] = self.b.ship_hits.get(side, 0) + 1
        after = "sunk" if not ship.afloat else f"reduced to {ship.strength}"
        self.b.lines.append(f"{why}: {label(ship, reader)} is hit and {after}.")


def _roll(dice: Dice, n: int, why: str) -> list[int]:
    return [dice.roll(6, why) for _ in range(n)]


def fight_round(
    battle: Battle,
    dice: Dice,
    reader: Callable[[Ship], str] | None = None,
    choose: Choose | None = None,
    ask_discard: bool = True,
) -> None:
    """One round of naval combat (17.0, L2599-2651). The carriers' aircraft first, then
    the battleships, cruisers, destroyers and submarines (L2607-2612). The side with air
    superiority fires first in every step and its hits land before the other fires;
    otherwise both fire at once in each step (L2613-2617). Superiority is read again
    after the air step (L2628-2632). Each block rolls one die per point of its current
    strength, a carrier one per aircraft; a 6 hits, less its Bonus (L2635). Where a side
    may choose where a hit falls or which hit its TECH advantage discards, ``choose`` is
    asked (:data:`Choose`); ``ask_discard`` False leaves the discard to the engine even
    then (a battle begun before that choice was a side's: its stored choices hold none)."""
    rnd = _Round(battle, ask_discard)
    first = air_superiority(battle)
    _air_step(battle, dice, rnd, first, reader, choose)
    first = air_superiority(battle)
    for kind in GUN_ORDER:
        order = [first, battle.other(first)] if first else [None]
        for side in order:
            firing = [side] if side else battle.sides()
            pending: list[tuple[str, int, int]] = []  # (firer, hits, sub-only hits)
            for f in firing:
                shots = _gun_fire(battle, dice, f, kind, reader)
                if shots is not None:
                    pending.append((f, *shots))
            for f, hits, sub_hits in pending:
                why = f"{f.capitalize()} {KIND_NAME[kind]} fire"
                for n, sub_only in ((hits, False), (sub_hits, True)):
                    for _ in range(n):
                        who = "aim" if kind == "ss" and not sub_only else "own"
                        if not _land(battle, rnd, f, who, why, choose, reader, sub_only):
                            break


def _gun_fire(battle: Battle, dice: Dice, side: str, kind: str, reader) -> tuple[int, int] | None:
    """The dice of one side's ships of one class. In a convoy box an escort carrier
    fires with the destroyers, and each step paired with a destroyer step hits a
    submarine on a 5 as well (L2509-2520, L2647-2648; RULINGS B69)."""
    ships = [s for s in battle.of(side) if s.kind == kind]
    cves = [s for s in battle.of(side) if s.kind == "cve"] if battle.convoy and kind == "dd" else []
    if not ships and not cves:
        return None
    n = sum(s.strength for s in ships) + sum(s.strength for s in cves)
    if n == 0:
        return None
    num = need(class_bonus(battle, side, kind))
    rolls = _roll(dice, n, f"{side} {kind} fire")
    paired = 2 * min(sum(s.strength for s in ships), sum(s.strength for s in cves))
    hits = sum(r >= num for r in rolls)
    sub_hits = sum(1 for r in rolls[:paired] if num > r >= need(1)) if paired else 0
    battle.lines.append(
        f"{side.capitalize()} {KIND_NAME[kind]}s fire {n} dice at {num}+: "
        f"{', '.join(map(str, rolls))}: {hits + sub_hits} hit(s)."
    )
    return hits, sub_hits


def _air_step(
    battle: Battle, dice: Dice, rnd: _Round, first: str | None, reader, choose: Choose | None
) -> None:
    """The carriers' torpedo bombers (17.0, L2618-2627; RULINGS B66): one die per aircraft; a 6 less
    the Bonus of the side's bomber TECH (TECH 2: 5-6) hits an enemy ship, a 1 plus the
    Bonus of the enemy's naval TECH (TECH 3: 1-3) is flak that costs the carrier a step.
    Only the carriers' own aircraft fight at sea (L2607-2608)."""
    order = [first, battle.other(first)] if first else battle.sides()
    simultaneous = first is None
    queued: list[tuple[str, list[Ship], int, int]] = []
    for side in order:
        cvs = [s for s in battle.of(side) if s.planes > 0]
        if not cvs:
            continue
        n = sum(s.planes for s in cvs)
        hit_on = need(battle.bomber_tech.get(side, 1) - 1)
        flak_on = battle.naval_tech.get(battle.other(side), 1)
        rolls = _roll(dice, n, f"{side} carrier aircraft")
        hits, flak = sum(r >= hit_on for r in rolls), sum(r <= flak_on for r in rolls)
        battle.lines.append(
            f"{side.capitalize()} carrier aircraft roll {n} dice (hit {hit_on}+, flak on "
            f"{flak_on} or less): {', '.join(map(str, rolls))}: {hits} hit(s), {flak} lost to flak."
        )
        queued.append((side, cvs, hits, flak))
        if not simultaneous:
            _air_hits(battle, rnd, queued.pop(), reader, choose)
    for q in queued:
        _air_hits(battle, rnd, q, reader, choose)


def _air_hits(battle: Battle, rnd: _Round, q, reader, choose: Choose | None) -> None:
    side, cvs, hits, flak = q
    for _ in range(flak):  # the carrier's owner loses an air step (L2699-2700)
        cv = max((s for s in cvs if s.planes > 0), key=lambda s: s.planes, default=None)
        if cv is None:
            break
        cv.pos -= 1
        battle.lines.append(f"Flak: {label(cv, reader)} loses an air step.")
    why = f"{side.capitalize()} torpedo bombers"
    for _ in range(hits):
        if not _land(battle, rnd, side, "aim", why, choose, reader):
            break


def interception_need(blocks: int, has_cv: bool, own_tech: int, enemy_tech: int) -> int:
    """The number a fleet's interception die needs (17.0, L2586-2595): a 6, less one
    Bonus per naval TECH level above the enemy (two at most), one for a carrier, one for
    each block from the second; plus one Malus per TECH level below (two at most). Above
    6 the fleet cannot intercept; a 1 never does (RULINGS B64). No phase of the ten scenarios calls it (B63)."""
    bonus = min(2, max(0, own_tech - enemy_tech)) + (1 if has_cv else 0) + max(0, blocks - 1)
    malus = min(2, max(0, enemy_tech - own_tech))
    return max(BEST, 6 - bonus + malus)
