"""Exact battle odds for Axis & Allies Revised, by dynamic programming over cycles.

No simulation: each side is a tuple of unit counts (a battleship that took a hit counts
apart from an undamaged one), and one combat cycle (Revised: Combat Sequence, steps
2-7) maps a pair of sides to a probability distribution over the next pair. Hits per
volley are binomial for each hit value and convolved across values; each side gives
up casualties by its :class:`~engine.games.aa_revised.battle.CasualtyOrder`, the same
function :mod:`.battle` uses, so the odds are those of :func:`.battle.fight` with the
same standing orders (the tests check this against a simulation).

Every hit that lands takes a hit point away, so a cycle either leaves the battle as it
was or strictly lowers the hit points left on the board. The pairs of states are
therefore processed from the most hit points down, each once; the chance that a cycle
changes nothing is divided out (a geometric series), which makes an unlimited battle
exact. With a cycle limit the cycles are stepped through one by one instead.

States are shared by every branch that reaches them: the first cycle (antiaircraft
fire, bombardment) only sets how much each pair starts with. What a pair costs is the
work of one cycle from it, so the cycle is cut where the rules allow: the attacker's
hits go to the defender one at a time and each defender lost fires its die as it goes,
and at sea the submarines' opening fire is taken apart from the main fire unless a
destroyer keeps its casualties firing (:meth:`_Battle._solve_land`). Where aircraft need
a destroyer to hit submarines (a variant), cycles are taken as in
:meth:`_Battle._solve_by_hit_points`. ``bench/bench_odds.py`` times large battles;
``tests/aa_revised/test_odds_reference.py`` checks every path against a plain
cycle-by-cycle reference.

>>> r = battle_odds({"infantry": 1}, {})
>>> r.attacker_win
1.0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

from engine.core.errors import IllegalOrder
from engine.games.aa_revised.battle import (
    ATTACKER,
    BOMBARDMENT,
    CHEAPEST_FIRST,
    DEFENDER,
    FIRE,
    REVISED,
    SUBMARINES,
    CasualtyOrder,
    Rules,
    Side,
    Slot,
    Unit,
    UnitStats,
    eligible_among,
    new_battle,
    pick_casualties,
    unit_stats,
)

State = tuple[int, ...]
Dist = list[float]

#: a distribution of a side's states: the states, and their probabilities in step
Spread = tuple[list[int], list[float]]

#: a survivor list: (unit type, count) pairs in the side's own order
Survivors = tuple[tuple[str, int], ...]

_WIN, _LOSS, _DRAW, _LEFT = "attacker_win", "defender_win", "draw", "attacker_retreat"
#: hits from aircraft that may not go to submarines (variant rule only)
_NON_SUB = "non_sub"

#: how a force names its units: a unit type (``"fighter"``), or a unit type and the power
#: that owns it (``("fighter", "uk")``), whose developments are then the power's own
Key = str | tuple[str, str]


@dataclass(frozen=True)
class Odds:
    """The outcome of a battle as probabilities.

    ``attacker_win``: every defender destroyed with an attacker left; ``defender_win``:
    the defender holds, whether the attacker was destroyed or withdrew (retreat rule,
    cycle limit); ``draw``: both destroyed. The three add up to 1. ``attacker_retreat``
    is the part of ``defender_win`` in which the attacker withdrew with units left.
    Survivor distributions map what is left of a side (nothing at all included) to
    its probability; a damaged battleship counts as a battleship, repaired after the
    battle. Antiaircraft guns are never casualties and are left out.
    """

    attacker_win: float
    defender_win: float
    draw: float
    attacker_retreat: float
    attacker_survivors: dict[Survivors, float]
    defender_survivors: dict[Survivors, float]
    expected_rounds: float
    states: int = field(default=0, compare=False)

    def expected(self, side: Side) -> dict[str, float]:
        """Average number of each unit type left on ``side``."""
        dist = self.attacker_survivors if side == ATTACKER else self.defender_survivors
        out: dict[str, float] = {}
        for survivors, p in dist.items():
            for t, n in survivors:
                out[t] = out.get(t, 0.0) + n * p
        return out

    def to_json(self) -> dict[str, object]:
        return {
            "attacker_win": self.attacker_win,
            "defender_win": self.defender_win,
            "draw": self.draw,
            "attacker_retreat": self.attacker_retreat,
            "expected_rounds": self.expected_rounds,
            "attacker_survivors": described(self.attacker_survivors),
            "defender_survivors": described(self.defender_survivors),
            "attacker_expected": self.expected(ATTACKER),
            "defender_expected": self.expected(DEFENDER),
        }


def describe(survivors: Survivors) -> str:
    """``(("infantry", 2), ("tank", 1))`` -> ``"2 infantry, 1 tank"``; empty -> "nothing"."""
    return ", ".join(unit_phrase(t, n) for t, n in survivors) or "nothing"


def unit_phrase(unit_type: str, n: int) -> str:
    """``("tank", 2)`` -> ``"2 tanks"``, with the unit table's names."""
    s = unit_stats()[unit_type]
    return f"{n} {(s.name if n == 1 else s.plural).lower()}"


def described(dist: Mapping[Survivors, float]) -> dict[str, float]:
    """Survivor lists as text, most likely first."""
    ranked = sorted(dist.items(), key=lambda kv: (-kv[1], describe(kv[0])))
    return {describe(k): p for k, p in ranked}


# ------------------------------------------------------------------ hit distributions


@cache
def _binomial(n: int, value: int) -> tuple[float, ...]:
    """P(k hits) for ``n`` dice that hit on ``value`` or less."""
    p = min(max(value, 0), 6) / 6
    out = [0.0] * (n + 1)
    out[0] = 1.0
    for _ in range(n):
        for k in range(len(out) - 1, 0, -1):
            out[k] = out[k] * (1 - p) + out[k - 1] * p
        out[0] *= 1 - p
    return tuple(out)


def _convolve(a: Iterable[float], b: Iterable[float]) -> Dist:
    a, b = list(a), list(b)
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _dice_dist(groups: Mapping[int, int]) -> Dist:
    """Hits from ``groups`` = {value: number of dice}."""
    out: Dist = [1.0]
    for value, n in groups.items():
        if n:
            out = _convolve(out, _binomial(n, value))
    return out


# ------------------------------------------------------------------ one side


class _Side:
    """A side's unit counts as a tuple, and what happens to such a tuple in battle.

    States are numbered as they are found (:meth:`explore` finds them all up front);
    the battle works on the numbers.
    """

    def __init__(
        self,
        role: Side,
        counts: Mapping[str, int],
        stats: Mapping[str, UnitStats],
        order: CasualtyOrder,
        sea: bool,
        restricted_air: bool,
    ) -> None:
        self.role = role
        #: the unit table, with an entry for each unit type a power fights with under
        #: developments other than the side's (see :func:`_forces`)
        self.stats: Mapping[str, UnitStats] = stats
        self._eligible: dict[str, frozenset[str]] = {}
        ranking = _ranking(order, role, stats)
        # the types present, cheapest (by the order) first; each with a slot per damage
        self.types = [
            t for t, k in ranking if counts.get(t, 0) > 0 and k == self.stats[t].hit_points - 1
        ]
        self.slots: list[Slot] = [
            (t, k) for t in self.types for k in range(self.stats[t].hit_points)
        ]
        self.slot_index = {s: i for i, s in enumerate(self.slots)}
        self.ranking = [s for s in ranking if s in self.slot_index]
        self.keep_land = order.keep_land_unit and role == ATTACKER and not sea
        self.restricted_air = restricted_air
        st = self.stats
        self.hp_left = [st[t].hit_points - k for t, k in self.slots]
        self.is_sub = [("opening_fire" in st[t].flags) for t, _ in self.slots]
        self.is_air = [st[t].kind == "air" for t, _ in self.slots]
        self.is_destroyer = [("cancels_submarines" in st[t].flags) for t, _ in self.slots]
        self.states: list[State] = []
        self.index: dict[State, int] = {}
        self.health: list[int] = []
        self.alive: list[bool] = []
        self.units: list[int] = []
        self.destroyer: list[bool] = []
        self.start = self.number(tuple(counts.get(t, 0) if k == 0 else 0 for t, k in self.slots))
        self._chains: dict[tuple[int, str], list[int]] = {}
        self._fire: dict[int, tuple[Dist, Dist | None]] = {}

    def number(self, s: State) -> int:
        i = self.index.get(s)
        if i is None:
            i = self.index[s] = len(self.states)
            self.states.append(s)
            self.health.append(sum(n * h for n, h in zip(s, self.hp_left, strict=True)))
            self.alive.append(any(s))
            self.units.append(sum(s))
            self.destroyer.append(any(n and d for n, d in zip(s, self.is_destroyer, strict=True)))
        return i

    def explore(self, sources: Iterable[str], aa: bool) -> None:
        """Find every state a battle can reach: casualties are taken one hit at a time,
        so single hits from each possible source (and single aircraft lost to an
        antiaircraft gun) reach them all."""
        sources = tuple(sources)
        todo = [self.start]
        seen = {self.start}
        while todo:
            i = todo.pop()
            nxt = [self.assign(i, 1, src) for src in sources]
            if aa:
                s = self.states[i]
                for k, (n, air) in enumerate(zip(s, self.is_air, strict=True)):
                    if n and air:
                        nxt.append(self.number(s[:k] + (n - 1,) + s[k + 1 :]))
            for j in nxt:
                if j not in seen:
                    seen.add(j)
                    todo.append(j)

    def survivors(self, i: int) -> Survivors:
        """What is left, by unit type (a power's own variant counts as its type)."""
        totals: dict[str, int] = {}
        for (t, _), n in zip(self.slots, self.states[i], strict=True):
            if n:
                base = self.stats[t].id
                totals[base] = totals.get(base, 0) + n
        order = list(dict.fromkeys(self.stats[t].id for t in self.types))
        return tuple((t, totals[t]) for t in order if t in totals)

    def eligible(self, source: str) -> frozenset[str]:
        got = self._eligible.get(source)
        if got is None:
            got = self._eligible[source] = eligible_among(self.stats, source)
        return got

    # -- casualties

    def assign(self, i: int, hits: int, source: str) -> int:
        """The state after this side takes ``hits`` from ``source`` by its order."""
        chain = self.chain(i, source)
        return chain[hits] if hits < len(chain) else chain[-1]

    def chain(self, i: int, source: str) -> list[int]:
        """States after 0, 1, 2, ... hits from ``source``, up to the point where no
        further hit can be taken. Casualties are chosen one hit at a time from the
        current state (:func:`.battle.pick_casualties`), so the n-th entry is the state
        after n hits."""
        key = (i, source)
        got = self._chains.get(key)
        if got is None:
            nxt = self.step(i, source)
            got = [i] if nxt == i else [i, *self.chain(nxt, source)]
            self._chains[key] = got
        return got

    def step(self, i: int, source: str) -> int:
        """The state after one hit from ``source``."""
        if source == _NON_SUB:
            eligible = frozenset(
                t for t in self.eligible(FIRE) if "opening_fire" not in self.stats[t].flags
            )
        else:
            eligible = self.eligible(source)
        s = self.states[i]
        counts = {slot: n for slot, n in zip(self.slots, s, strict=True) if n}
        picks = pick_casualties(counts, 1, eligible, self.ranking, self.stats, self.keep_land)
        if not picks:
            return i
        new = list(s)
        t, k = picks[0]
        new[self.slot_index[(t, k)]] -= 1
        if k + 1 < self.stats[t].hit_points:
            new[self.slot_index[(t, k + 1)]] += 1
        return self.number(tuple(new))

    # -- firing

    def fire(self, i: int) -> tuple[Dist, Dist | None]:
        """Hits this side scores at step 4 (attacker) or 5 (defender) from state ``i``:
        (hits that may go anywhere, hits by aircraft that may not go to submarines or
        ``None``). Values as in :func:`.battle._firing`."""
        got = self._fire.get(i)
        if got is not None:
            return got
        st = self.stats
        s = self.states[i]
        groups: dict[int, int] = {}
        air_groups: dict[int, int] = {}
        support = 0
        if self.role == ATTACKER:
            support = sum(
                n
                for (t, _), n in zip(self.slots, s, strict=True)
                if "supports_infantry" in st[t].flags
            )
        restricted = self.restricted_air and not self.destroyer[i]
        for (t, _), n in zip(self.slots, s, strict=True):
            if not n:
                continue
            u = st[t]
            if "opening_fire" in u.flags or "antiaircraft" in u.flags:
                continue
            value = u.value(self.role)
            dice = u.attack_dice if self.role == ATTACKER else 1
            target = air_groups if restricted and u.kind == "air" else groups
            if self.role == ATTACKER and "supported_by_artillery" in u.flags:
                paired = min(n, support)
                support -= paired
                if paired:
                    target[max(value, 2)] = target.get(max(value, 2), 0) + paired
                n -= paired
            if value > 0 and n:
                target[value] = target.get(value, 0) + n * dice
        # without aircraft to restrict, every hit may go anywhere (and only the states
        # :meth:`explore` found for this side's hits are ever reached)
        got = (_dice_dist(groups), _dice_dist(air_groups) if air_groups else None)
        self._fire[i] = got
        return got

    def sub_fire(self, i: int) -> Dist:
        """Hits of this side's submarines in opening fire (Revised: step 2, Submarines)."""
        groups: dict[int, int] = {}
        for (t, _), n, sub in zip(self.slots, self.states[i], self.is_sub, strict=True):
            if n and sub:
                v = self.stats[t].value(self.role)
                groups[v] = groups.get(v, 0) + n
        return _dice_dist(groups)

    def losses(self, i: int, enemy: _Side, enemy_firing: int) -> Spread:
        """Distribution of this side after taking the enemy's step 4/5 fire."""
        main, air = enemy.fire(enemy_firing)
        if air is None:
            return self._spread(i, main, FIRE)
        out: dict[int, float] = {}
        for i1, pa in zip(*self._spread(i, air, _NON_SUB), strict=True):
            for j, p in zip(*self._spread(i1, main, FIRE), strict=True):
                out[j] = out.get(j, 0.0) + pa * p
        return list(out), list(out.values())

    def _spread(self, i: int, dist: Dist, source: str) -> Spread:
        """Hits distributed by ``dist`` turned into the distribution of states: hits
        beyond the last state the chain reaches leave the side in that state."""
        chain = self.chain(i, source)
        n = len(chain)
        if len(dist) <= n:
            return chain[: len(dist)], list(dist)
        return chain, [*dist[: n - 1], sum(dist[n - 1 :])]

    def after_hits(self, i: int, dist: Dist, source: str) -> Spread:
        return self._spread(i, dist, source)

    def aa_losses(self, i: int, hit_on: int) -> Spread:
        """Antiaircraft fire: one die aimed at each aircraft, so each type of aircraft
        loses a binomial number with no choice (Revised: step 2; FAQ: Combat)."""
        out: list[tuple[State, float]] = [(self.states[i], 1.0)]
        for k, (n, air) in enumerate(zip(self.states[i], self.is_air, strict=True)):
            if not (n and air):
                continue
            dist = _binomial(n, hit_on)
            nxt = []
            for s, p in out:
                for lost, q in enumerate(dist):
                    if q:
                        nxt.append((s[:k] + (n - lost,) + s[k + 1 :], p * q))
            out = nxt
        return [self.number(s) for s, _ in out], [p for _, p in out]


#: a cycle's outcome as blocks: each (weight, attacker distribution, defender
#: distribution) adds weight * P(attacker state) * P(defender state) to each pair
Blocks = list[tuple[float, Spread, Spread]]


class _Battle:
    def __init__(
        self,
        att: _Side,
        dfn: _Side,
        sea: bool,
        aa_hit_on: int,
        bombard: Dist | None,
        retreat_when: int | None,
        aa_only_defence: bool,
    ) -> None:
        self.att, self.dfn, self.sea = att, dfn, sea
        self.aa_hit_on = aa_hit_on
        self.bombard = bombard
        self.retreat_when = retreat_when
        self.aa_only_defence = aa_only_defence
        a_sources, d_sources = [FIRE], [FIRE]
        if sea and any(att.is_sub):
            d_sources.append(SUBMARINES)
        if sea and any(dfn.is_sub):
            a_sources.append(SUBMARINES)
        if att.restricted_air and any(att.is_air):
            d_sources.append(_NON_SUB)
        if dfn.restricted_air and any(dfn.is_air):
            a_sources.append(_NON_SUB)
        if bombard:
            d_sources.append(BOMBARDMENT)
        att.explore(a_sources, aa=bool(aa_hit_on))
        dfn.explore(d_sources, aa=False)
        #: losses by (side, state, enemy state firing), for cycles with several blocks
        self._memo: dict[tuple[Side, int, int], Spread] = {}
        #: :meth:`_dying_dice`, once worked out
        self._dying: list[float] | None | bool = False

    def cycle(self, a: int, d: int, first: bool) -> Blocks:
        """One combat cycle from (a, d): steps 2-6 of Revised: Combat Sequence."""
        att, dfn = self.att, self.dfn
        if not (first or self.sea):
            # a land cycle after the first: steps 4 and 5 only, fired at the same time
            return [(1.0, att.losses(a, dfn, d), dfn.losses(d, att, a))]
        a_open, d_open, protect_a, protect_d = self.opening(a, d, first)
        memo = self._memo

        def hits_on_attacker(a1: int, fire_d: int) -> Spread:
            got = memo.get((ATTACKER, a1, fire_d))
            if got is None:
                got = memo[(ATTACKER, a1, fire_d)] = att.losses(a1, dfn, fire_d)
            return got

        def hits_on_defender(d1: int, fire_a: int) -> Spread:
            got = memo.get((DEFENDER, d1, fire_a))
            if got is None:
                got = memo[(DEFENDER, d1, fire_a)] = dfn.losses(d1, att, fire_a)
            return got

        # Each side's losses depend on its own state after the opening fire and on the
        # state the enemy fires from. Where that firing state is fixed (a destroyer keeps
        # casualties firing), one side's outcomes are mixed over the other side's
        # opening casualties before the two are combined, giving fewer, longer blocks.
        if protect_d:
            if protect_a:
                return [
                    (
                        1.0,
                        _mix(a_open, lambda a1: hits_on_attacker(a1, d)),
                        _mix(d_open, lambda d1: hits_on_defender(d1, a)),
                    )
                ]
            return [
                (
                    pa,
                    hits_on_attacker(a1, d),
                    _mix(d_open, lambda d1, a1=a1: hits_on_defender(d1, a1)),
                )
                for a1, pa in zip(*a_open, strict=True)
            ]
        if protect_a:
            return [
                (
                    pd,
                    _mix(a_open, lambda a1, d1=d1: hits_on_attacker(a1, d1)),
                    hits_on_defender(d1, a),
                )
                for d1, pd in zip(*d_open, strict=True)
            ]
        return [
            (pa * pd, hits_on_attacker(a1, d1), hits_on_defender(d1, a1))
            for a1, pa in zip(*a_open, strict=True)
            for d1, pd in zip(*d_open, strict=True)
        ]

    def _solve_by_hit_points(
        self, live: list[list[float]], left: set[tuple[int, int]]
    ) -> tuple[float, int]:
        """Every cycle after the first, to the end, for any battle (used where
        :meth:`_solve_land` does not apply: aircraft that need a destroyer to hit
        submarines, or a defender whose fire is not one die per unit).

        Every hit lowers the hit points on the board, so the pairs are solved from the
        most hit points down, each once; the chance that a cycle changes nothing is
        divided out (a geometric series). At sea a cycle is taken in two halves where
        it can be: the opening fire of submarines leads to a pair of states from which
        the main fire is worked out once, whichever pair before the opening fire led
        there. That holds unless casualties of the opening fire still fire (a destroyer
        keeps them firing), in which case the cycle is taken whole (:meth:`cycle`).

        ``live`` and ``left`` as in :meth:`_solve_land`; returns the expected number of
        cycles after the first and the number of pairs solved."""
        att, dfn = self.att, self.dfn
        na, nd = len(att.states), len(dfn.states)
        #: at sea, the chance of each pair after the opening fire, before the main fire
        inter = [[0.0] * nd for _ in range(na)] if self.sea else None
        expected = 0.0
        solved = 0
        a_by_h: dict[int, list[int]] = {}
        d_by_h: dict[int, list[int]] = {}
        for a, h in enumerate(att.health):
            a_by_h.setdefault(h, []).append(a)
        for d, h in enumerate(dfn.health):
            d_by_h.setdefault(h, []).append(d)
        for total in range(max(a_by_h) + max(d_by_h), -1, -1):
            for ha, a_list in a_by_h.items():
                d_list = d_by_h.get(total - ha)
                if not d_list:
                    continue
                for a in a_list:
                    row = live[a]
                    fights = self.fights(a)
                    mid = inter[a] if inter is not None else None
                    for d in d_list:
                        m = row[d]
                        i = mid[d] if mid is not None else 0.0
                        if not (m or i):
                            continue
                        going = fights and self.dfn.alive[d]
                        if going and i == 0.0 and not self.sea:
                            blocks = self.cycle(a, d, first=False)
                        elif going:
                            a_open, d_open, protect_a, protect_d = self.opening(a, d, False)
                            halves = not (protect_a and len(a_open[0]) > 1) and not (
                                protect_d and len(d_open[0]) > 1
                            )
                            if halves:
                                fire = self.main_fire(a, d)
                                o = _chance_of(a_open, a) * _chance_of(d_open, d)
                                s = _stays(fire, a, d)
                                if o * s >= 1.0 - 1e-15:
                                    left.add((a, d))  # neither side can ever hit the other
                                    row[d] = m + i
                                    mid[d] = 0.0  # type: ignore[index]
                                    continue
                                # main(a, d) leads back to itself through inter(a, d)
                                i = (i + o * m) / (1.0 - o * s)
                                m = m + s * i
                                solved += 1
                                expected += m
                                _push([(1.0, a_open, d_open)], m, inter)  # type: ignore[arg-type]
                                _push(fire, i, live)
                                row[d] = 0.0
                                mid[d] = 0.0  # type: ignore[index]
                                continue
                            blocks = self.cycle(a, d, first=False)
                        if i:
                            # the main fire of what the opening fire of other pairs left
                            # here; what it leaves unchanged starts the next cycle here
                            mid[d] = 0.0  # type: ignore[index]
                            _push(self.main_fire(a, d), i, live)
                            m = row[d]
                        if not going:
                            continue  # over: what is here stays
                        solved += 1
                        stay = _stays(blocks, a, d)
                        if stay >= 1.0 - 1e-15:
                            left.add((a, d))  # neither side can ever hit the other
                            continue
                        scale = m / (1.0 - stay)
                        expected += scale
                        _push(blocks, scale, live)
                        row[d] = 0.0  # drop the self-loop share: divided out
        return expected, solved

    def _dying_dice(self) -> list[float] | None:
        """For each defender state, the chance that the unit its next hit removes scores
        a hit as it dies (0 when that hit only damages); None unless the defender's fire
        is one die per unit, so that what casualties fire is the difference between two
        states (:meth:`_solve_land` relies on it)."""
        if self._dying is not False:
            return self._dying
        dfn = self.dfn
        dice = [self._defence_dice(d) for d in range(len(dfn.states))]
        out: list[float] | None = []
        for d in range(len(dfn.states)):
            chain = dfn.chain(d, FIRE)
            if len(chain) == 1:
                out.append(0.0)
                continue
            before, after = dice[d], dice[chain[1]]
            lost = {v: n - after.get(v, 0) for v, n in before.items() if n != after.get(v, 0)}
            if any(v not in before for v in after) or any(n < 0 for n in lost.values()):
                out = None
                break
            if sum(lost.values()) > 1:
                out = None
                break
            out.append(min(max(next(iter(lost), 0), 0), 6) / 6)
        self._dying = out
        return out

    def _defence_dice(self, d: int) -> dict[int, int]:
        """The defender's dice in state ``d`` by value, as :meth:`_Side.fire` rolls them."""
        dfn = self.dfn
        groups: dict[int, int] = {}
        for (t, _), n in zip(dfn.slots, dfn.states[d], strict=True):
            u = dfn.stats[t]
            if not n or "opening_fire" in u.flags or "antiaircraft" in u.flags:
                continue
            v = u.value(DEFENDER)
            if v > 0:
                groups[v] = groups.get(v, 0) + n
        return groups

    def _solve_land(
        self,
        main: list[list[float]],
        left: set[tuple[int, int]],
        into: list[list[float]] | None = None,
    ) -> tuple[float, int]:
        """Every cycle after the first, to the end, where the defender fires one die per
        unit (Revised: Combat Sequence, steps 4-6: both sides fire at once, casualties
        fire back before they are removed). The name is for land; sea battles come here
        too unless aircraft need a destroyer to hit submarines (a variant).

        The main fire of a cycle is split in two so that it never pairs every outcome of
        one side's dice with every outcome of the other's. First the attacker's hits go
        to the defender one at a time; each defending unit removed rolls its own die at
        once (it was going to fire anyway) and a hit from it goes to the attacker at
        once. Then the defenders left fire. The attacker takes the same hits from the
        same dice as when all defenders fire together, because a defender fires one die
        at its defence value whatever else is on the board and casualties are taken one
        hit at a time (:meth:`_Side.chain`). Between the two halves a state is
        (attacker, defender, hits still to land on the defender); pairs from many earlier
        cycles meet in those states, so each is worked out once.

        At sea the submarines' opening fire comes first (:meth:`opening`) and leads to
        the pair the main fire starts from, shared the same way; where a destroyer keeps
        the opening's casualties firing, the main fire depends on the pair before the
        opening as well, and that pair's cycle is taken whole (:meth:`cycle`).

        ``main[a][d]`` holds the chance of (a, d) at the start of a cycle (from the
        first cycle on entry), and on return the chance that the battle ends there;
        pairs where nothing can ever change go into ``left``. Returns the expected
        number of cycles after the first and the number of pairs solved.

        With ``into`` (on land only), one cycle only (a round limit): what ``main`` holds
        fights one cycle and the outcome is added to ``into`` (a pair where the battle is
        over keeps its chance there); returns the chance that fought and the pairs
        solved."""
        att, dfn = self.att, self.dfn
        na, nd = len(att.states), len(dfn.states)
        once = into is not None
        sea = self.sea
        assert not (once and sea)
        dying = self._dying_dice()
        assert dying is not None
        # the defender, by state: fire, its tails, the hits it can still take, its next state
        alpha = [dfn.fire(d)[0] for d in range(nd)]
        k_max = max(len(x) for x in alpha)
        cols = [[x[k] if k < len(x) else 0.0 for x in alpha] for k in range(k_max)]
        tails = [[sum(x[k:]) for x in alpha] for k in range(k_max + 1)]
        d_chain = [dfn.chain(d, FIRE) for d in range(nd)]
        room = [len(c) - 1 for c in d_chain]
        d_order = sorted(range(nd), key=lambda d: -dfn.health[d])
        d_alive = dfn.alive
        #: (attacker state) -> (defender state) -> chance by hits still to land on it
        pending: dict[int, dict[int, list[float]]] = {}
        #: at sea, the chance that the main fire starts at each pair (after the opening)
        opened = [[0.0] * nd for _ in range(na)] if sea else None
        expected = 0.0
        solved = 0
        for a in sorted(range(na), key=lambda a: -att.health[a]):
            row = main[a]
            mine = pending.pop(a, {})
            now = opened[a] if opened is not None else None
            a_chain = att.chain(a, FIRE)
            last = len(a_chain) - 1  # hits beyond this leave the attacker as a_chain[-1]
            beta = att.fire(a)[0]
            b_tail = [sum(beta[h:]) for h in range(len(beta) + 1)]
            fights = self.fights(a)
            if not fights and not mine and not (now and any(now)):
                if once:
                    into[a] = [x + y for x, y in zip(into[a], row, strict=True)]  # type: ignore[index]
                continue  # over, and nothing still landing: its mass is final
            # the chance that defenders left fire at (a, d) after a hit-free first half
            fired = [0.0] * nd
            for d in d_order:
                todo = mine.get(d)
                arrived = todo[0] if todo else 0.0
                a_0 = cols[0][d] if last else 1.0
                m = row[d] if once else row[d] + arrived * a_0
                f = 0.0  # the chance that the main fire starts here
                if now is not None:
                    f, now[d] = now[d], 0.0
                n = room[d]
                b_0 = beta[0] if n else 1.0
                if not (fights and d_alive[d]) or not (m or f):
                    if once:
                        into[a][d] += m  # type: ignore[index]
                    else:
                        row[d] = m + f * b_0 * a_0  # over: what the main fire leaves stays
                    fire = f
                else:
                    a_open = d_open = None
                    whole = False
                    if sea:
                        a_open, d_open, protect_a, protect_d = self.opening(a, d, False)
                        whole = (protect_a and len(a_open[0]) > 1) or (
                            protect_d and len(d_open[0]) > 1
                        )
                    if whole:
                        # the main fire of what others' opening fire left here first
                        m += f * b_0 * a_0
                        fire = f
                        blocks = self.cycle(a, d, first=False)
                        stay = _stays(blocks, a, d)
                        if stay >= 1.0 - 1e-15:
                            left.add((a, d))  # neither side can ever hit the other
                            row[d] = m
                        else:
                            scale = m / (1.0 - stay)
                            expected += scale
                            solved += 1
                            _push(blocks, scale, main)
                            row[d] = 0.0  # the share that changes nothing is divided out
                    else:
                        o = 1.0
                        if a_open is not None and d_open is not None:
                            o = _chance_of(a_open, a) * _chance_of(d_open, d)
                        s = b_0 * a_0
                        if not once and o * s >= 1.0 - 1e-15:
                            left.add((a, d))  # neither side can ever hit the other
                            row[d] = m + f
                            fire = 0.0
                        else:
                            # (a, d) at the start of a cycle leads back to itself through
                            # the opening fire (o) and then the main fire (s)
                            fire = f + o * m if once else (f + o * m) / (1.0 - o * s)
                            cycles = m if once else m + s * fire
                            expected += cycles
                            solved += 1
                            row[d] = 0.0
                            if a_open is not None and d_open is not None and o < 1.0:
                                _push([(1.0, a_open, d_open)], cycles, opened)  # type: ignore[arg-type]
                                now[d] = 0.0  # type: ignore[index]  # the share divided out
                fired[d] = arrived + fire * b_0
                if fire and n:
                    if todo is None:
                        todo = mine[d] = [0.0] * (n + 1)
                    _add_scaled(todo, 1, beta[1:n], fire)
                    todo[n] += fire * (b_tail[n] if n < len(b_tail) else 0.0)
                # the hits still to land on d: one more lands, the unit lost fires
                if todo is not None and room[d]:
                    nxt = d_chain[d][1]
                    hits = todo[1:]
                    p = dying[d] if last else 0.0
                    keep = mine.get(nxt)
                    if not p:
                        if keep is None:
                            mine[nxt] = hits
                        else:
                            _add_scaled(keep, 0, hits, 1.0)
                        continue
                    if keep is None:
                        mine[nxt] = [h * (1.0 - p) for h in hits]
                    else:
                        _add_scaled(keep, 0, hits, 1.0 - p)
                    other = pending.setdefault(a_chain[1], {})
                    put = other.get(nxt)
                    if put is None:
                        other[nxt] = [h * p for h in hits]
                    else:
                        _add_scaled(put, 0, hits, p)
            # the defenders left fire: the attacker takes k >= 1 hits (k >= 0 with a
            # round limit: the next cycle starts in ``into``)
            used = [d for d in range(nd) if fired[d]]
            if used and (last or once):
                lo, hi = used[0], used[-1] + 1
                fired = fired[lo:hi]
                for k in range(0 if once else 1, min(last, k_max - 1) + 1):
                    col = cols[k] if k < last else tails[k]
                    target = (into if once else main)[a_chain[k]]  # type: ignore[index]
                    target[lo:hi] = [
                        x + f * c for x, f, c in zip(target[lo:hi], fired, col[lo:hi], strict=True)
                    ]
        return expected, solved

    def opening(self, a: int, d: int, first: bool) -> tuple[Spread, Spread, bool, bool]:
        """What happens before the main fire of a cycle from (a, d): each side's
        distribution after it (antiaircraft fire and bombardment in the first cycle,
        submarines' opening fire at sea; Revised: Combat Sequence, steps 2-3), and for
        each side whether its casualties of it still fire (a destroyer at the start of
        the cycle keeps them firing)."""
        att, dfn = self.att, self.dfn
        a_open: Spread = ([a], [1.0])
        d_open: Spread = ([d], [1.0])
        protect_a = protect_d = False
        if first and self.aa_hit_on:
            a_open = att.aa_losses(a, self.aa_hit_on)
        if first and self.bombard:
            d_open = dfn.after_hits(d, self.bombard, BOMBARDMENT)
        if self.sea:
            a_subs, d_subs = att.sub_fire(a), dfn.sub_fire(d)
            if len(a_subs) > 1:
                d_open = dfn.after_hits(d, a_subs, SUBMARINES)
            if len(d_subs) > 1:
                a_open = att.after_hits(a, d_subs, SUBMARINES)
            protect_a, protect_d = att.destroyer[a], dfn.destroyer[d]
        return a_open, d_open, protect_a, protect_d

    def main_fire(self, a: int, d: int) -> Blocks:
        """The main fire (steps 4-5) of both sides from (a, d), each firing as it stands."""
        memo = self._memo
        la = memo.get((ATTACKER, a, d))
        if la is None:
            la = memo[(ATTACKER, a, d)] = self.att.losses(a, self.dfn, d)
        ld = memo.get((DEFENDER, d, a))
        if ld is None:
            ld = memo[(DEFENDER, d, a)] = self.dfn.losses(d, self.att, a)
        return [(1.0, la, ld)]

    def fights(self, a: int) -> bool:
        """Whether the attacker in state ``a`` fights another cycle if defenders are left."""
        return self.att.alive[a] and (
            self.retreat_when is None or self.att.units[a] > self.retreat_when
        )

    def ending(self, a: int, d: int) -> str | None:
        """How the battle ends after a cycle in (a, d), or ``None`` if it goes on."""
        if not self.att.alive[a]:
            if self.dfn.alive[d] or self.aa_only_defence:
                return _LOSS
            return _DRAW
        if not self.dfn.alive[d]:
            return _WIN
        if self.retreat_when is not None and self.att.units[a] <= self.retreat_when:
            return _LEFT
        return None

    def solve(self, rounds: int | None) -> Odds:
        """The odds, from the mass of every pair of states once the battle is over.

        ``live[a][d]`` holds the chance of being in (a, d) at the start of a cycle;
        a pair where the battle has ended keeps what it receives, which is then the
        chance that the battle ends there."""
        att, dfn = self.att, self.dfn
        na, nd = len(att.states), len(dfn.states)
        live = [[0.0] * nd for _ in range(na)]
        _push(self.cycle(att.start, dfn.start, first=True), 1.0, live)
        expected_rounds = 1.0
        processed = 1
        #: pairs where the battle stops with both sides standing: the attacker leaves
        left: set[tuple[int, int]] = set()
        if rounds is not None:
            memo: dict[tuple[int, int], Blocks] = {}
            land = not self.sea and self._dying_dice() is not None
            for _ in range(rounds - 1):
                nxt = [[0.0] * nd for _ in range(na)]
                if land:
                    total, solved = self._solve_land(live, left, into=nxt)
                    expected_rounds += total
                    processed += solved
                    live = nxt
                    continue
                total = 0.0
                for a, row in enumerate(live):
                    for d, m in enumerate(row):
                        if not m:
                            continue
                        if self.ending(a, d) is not None:
                            nxt[a][d] += m  # over: stays where it is
                            continue
                        total += m
                        blocks = memo.get((a, d))
                        if blocks is None:
                            blocks = memo[(a, d)] = self.cycle(a, d, first=False)
                        _push(blocks, m, nxt)
                expected_rounds += total
                live = nxt
            processed += len(memo)
            for a, row in enumerate(live):
                for d, m in enumerate(row):
                    if m and self.ending(a, d) is None:
                        left.add((a, d))  # the attacker withdraws
        elif not att.restricted_air and self._dying_dice() is not None:
            extra, processed_land = self._solve_land(live, left)
            expected_rounds += extra
            processed += processed_land
        else:
            extra, processed_any = self._solve_by_hit_points(live, left)
            expected_rounds += extra
            processed += processed_any

        totals = {_WIN: 0.0, _LOSS: 0.0, _DRAW: 0.0, _LEFT: 0.0}
        att_left, def_left = [0.0] * na, [0.0] * nd  # the chance of ending in each state
        for a, row in enumerate(live):
            for d, m in enumerate(row):
                if not m:
                    continue
                how = _LEFT if (a, d) in left else self.ending(a, d)
                assert how is not None, "a pair with mass was never solved"
                totals[how] += m
                att_left[a] += m
                def_left[d] += m
        att_surv: dict[Survivors, float] = {}
        def_surv: dict[Survivors, float] = {}
        for side, chances, out in ((att, att_left, att_surv), (dfn, def_left, def_surv)):
            for i, m in enumerate(chances):
                if m:
                    key = side.survivors(i)
                    out[key] = out.get(key, 0.0) + m
        return Odds(
            attacker_win=totals[_WIN],
            defender_win=totals[_LOSS] + totals[_LEFT],
            draw=totals[_DRAW],
            attacker_retreat=totals[_LEFT],
            attacker_survivors=att_surv,
            defender_survivors=def_surv,
            expected_rounds=expected_rounds,
            states=processed,
        )


def _add_scaled(row: list[float], start: int, values: Iterable[float], c: float) -> None:
    """``row[start + i] += c * values[i]``."""
    for i, v in enumerate(values, start):
        row[i] += c * v


def _chance_of(spread: Spread, state: int) -> float:
    states, probs = spread
    return sum(p for i, p in zip(states, probs, strict=True) if i == state)


def _stays(blocks: Blocks, a: int, d: int) -> float:
    """The chance that a cycle's outcome is (a, d) again."""
    return sum(w * _chance_of(la, a) * _chance_of(ld, d) for w, la, ld in blocks)


def _mix(weights: Spread, spread_of: Callable[[int], Spread]) -> Spread:
    """The distribution of states when the state ``i`` is drawn from ``weights`` and then
    the outcome from ``spread_of(i)``."""
    states, probs = weights
    if len(states) == 1:
        got = spread_of(states[0])
        return got if probs[0] == 1.0 else (got[0], [probs[0] * p for p in got[1]])
    out: dict[int, float] = {}
    for i, w in zip(states, probs, strict=True):
        for j, p in zip(*spread_of(i), strict=True):
            out[j] = out.get(j, 0.0) + w * p
    return list(out), list(out.values())


def _push(blocks: Blocks, scale: float, live: list[list[float]]) -> None:
    """Add ``scale`` times a cycle's outcome to ``live``: the inner loop of the odds."""
    for w, (ai, ap), (di, dp) in blocks:
        s = w * scale
        targets = list(zip(di, dp, strict=True))
        for a2, x in zip(ai, ap, strict=True):
            if x:
                row = live[a2]
                c = s * x
                for d2, y in targets:
                    row[d2] += c * y


def battle_odds(
    attackers: Mapping[Key, int],
    defenders: Mapping[Key, int],
    *,
    sea: bool = False,
    bombarding: Mapping[Key, int] | None = None,
    attacker_techs: Iterable[str] = (),
    defender_techs: Iterable[str] = (),
    owner_techs: Mapping[str, Iterable[str]] | None = None,
    attacker_order: CasualtyOrder = CHEAPEST_FIRST,
    defender_order: CasualtyOrder = CHEAPEST_FIRST,
    retreat_when: int | None = None,
    rounds: int | None = None,
    rules: Rules = REVISED,
    amphibious: bool | None = None,
) -> Odds:
    """Exact odds of a battle between ``attackers`` and ``defenders`` ({unit type: count}).

    ``amphibious`` marks the land part of an amphibious assault (Revised: Special
    Combats), which ``bombarding`` ships imply; its land units never retreat. The
    attacker retreats at step 7 once it has
    ``retreat_when`` units or fewer, and after ``rounds`` cycles if given; otherwise the
    battle is fought to the end. Submarines never submerge and an amphibious attacker's
    aircraft never leave on their own (both are choices :mod:`.battle` offers, not
    modelled here). Checks the forces as :func:`.battle.new_battle` does
    and raises :class:`~engine.core.errors.IllegalOrder` with the rule if they cannot
    fight.

    Developments are the side's (``attacker_techs``, ``defender_techs``), except for
    units named with their power, ``{("fighter", "uk"): 1, ("fighter", "usa"): 2}``:
    those fight with ``owner_techs[power]`` when the power is listed there (Revised:
    Phase 1: powers cannot share their technology).

    >>> mixed = battle_odds({"fighter": 2}, {("fighter", "uk"): 1, ("fighter", "usa"): 1},
    ...                     owner_techs={"uk": {"jet_fighters"}})
    >>> jets = battle_odds({"fighter": 2}, {"fighter": 2}, defender_techs={"jet_fighters"})
    >>> plain = battle_odds({"fighter": 2}, {"fighter": 2})
    >>> plain.attacker_win > mixed.attacker_win > jets.attacker_win
    True
    """
    bombarding = dict(bombarding or {})
    a_techs, d_techs = frozenset(attacker_techs), frozenset(defender_techs)
    per_owner = {p: frozenset(t) for p, t in (owner_techs or {}).items()}
    for label, counts in (
        ("attacker", attackers),
        ("defender", defenders),
        ("bombard", bombarding),
    ):
        for key, n in counts.items():
            if not isinstance(key, str) and not (
                isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, str) for k in key)
            ):
                raise IllegalOrder("", f"The {label}'s {key!r} is neither a unit type nor "
                                   "a (unit type, power) pair.")  # fmt: skip
            if not isinstance(n, int) or n < 0:
                raise IllegalOrder(
                    "",
                    f"The {label}'s count of {_key_name(key)} must be a whole number, 0 or more.",
                )
    if rounds is not None and rounds < 1:
        raise IllegalOrder("", "The number of rounds must be at least 1.")
    if retreat_when is not None and retreat_when < 0:
        raise IllegalOrder("", "The retreat threshold must be 0 or more units.")
    attackers = {t: n for t, n in attackers.items() if n}
    defenders = {t: n for t, n in defenders.items() if n}
    bombarding = {t: n for t, n in bombarding.items() if n}
    if amphibious is None:
        amphibious = bool(bombarding)
    if amphibious and (rounds is not None or retreat_when is not None):
        raise IllegalOrder(
            "Revised: Special Combats, Amphibious Assaults",
            "Land units in an amphibious assault cannot retreat, so a retreat rule or a "
            "round limit does not apply.",
            "Drop the retreat rule and round limit, or treat the battle as an ordinary one.",
        )
    # Validate the forces exactly as the battle code does.
    new_battle(
        _units("a", attackers),
        _units("d", defenders),
        sea=sea,
        bombarding=_units("b", bombarding),
        amphibious=amphibious,
        attacker_techs=a_techs,
        defender_techs=d_techs,
        owner_techs=per_owner,
        rules=rules,
    )
    a_stats = dict(unit_stats(a_techs))
    d_stats = dict(unit_stats(d_techs))
    attackers = _forces(attackers, a_techs, per_owner, a_stats)
    bombarding = _forces(bombarding, a_techs, per_owner, a_stats)
    defenders = _forces(defenders, d_techs, per_owner, d_stats)
    aa_types = {t for t in defenders if "antiaircraft" in d_stats[t].flags}
    fighting_defenders = {t: n for t, n in defenders.items() if t not in aa_types}
    restricted = rules.air_needs_destroyer and sea
    att = _Side(ATTACKER, attackers, a_stats, attacker_order, sea, restricted)
    dfn = _Side(DEFENDER, fighting_defenders, d_stats, defender_order, sea, restricted)
    aa_hit_on = 0
    if aa_types and not sea and any(a_stats[t].kind == "air" for t in att.types):
        aa_hit_on = d_stats[sorted(aa_types)[0]].defense
    bombard = None
    if amphibious and any(t in dfn.eligible(BOMBARDMENT) for t in dfn.types):
        groups: dict[int, int] = {}
        for t, n in bombarding.items():
            v = a_stats[t].attack
            groups[v] = groups.get(v, 0) + n
        bombard = _dice_dist(groups)
    battle = _Battle(
        att, dfn, sea, aa_hit_on, bombard, retreat_when, not fighting_defenders and bool(aa_types)
    )
    return battle.solve(rounds)


def _key_name(key: Key) -> str:
    return key if isinstance(key, str) else f"{key[1]}'s {key[0]}"


def _units(prefix: str, counts: Mapping[Key, int]) -> list[Unit]:
    out = []
    for key, n in counts.items():
        t, owner = (key, "") if isinstance(key, str) else key
        out += [Unit(f"{prefix}{t}{owner}{i}", t, owner) for i in range(n)]
    return out


def _forces(
    counts: Mapping[Key, int],
    side_techs: frozenset[str],
    owner_techs: Mapping[str, frozenset[str]],
    stats: dict[str, UnitStats],
) -> dict[str, int]:
    """``counts`` by the names :class:`_Side` works with: a unit type when it fights with
    the side's developments, ``"type@tech+tech"`` when its power's are others (that
    entry is added to ``stats``, which starts as the side's unit table)."""
    out: dict[str, int] = {}
    for key, n in counts.items():
        t, owner = (key, None) if isinstance(key, str) else key
        techs = owner_techs.get(owner, side_techs) if owner is not None else side_techs
        name = t
        if techs != side_techs:
            name = f"{t}@{'+'.join(sorted(techs)) or 'none'}"
            stats[name] = unit_stats(techs)[t]
        out[name] = out.get(name, 0) + n
    return out


def _ranking(order: CasualtyOrder, role: Side, stats: Mapping[str, UnitStats]) -> tuple[Slot, ...]:
    """``order.ranking`` over a table that may hold a power's own variants of a type: a
    variant follows its type in ``order.first``, the weaker first, as
    :func:`.battle.suggest_casualties` takes the weaker of two units of one type."""
    if order.first and len(stats) > len({s.id for s in stats.values()}):

        def weight(name: str) -> int:
            s = stats[name]
            return s.value(role) * (s.attack_dice if role == ATTACKER else 1)

        first: list[str] = []
        for t in order.first:
            first += sorted((k for k, s in stats.items() if s.id == t), key=weight)
        order = dataclasses.replace(order, first=tuple(first))
    return order.ranking(role, stats)
