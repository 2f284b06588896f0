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
exact. With a cycle limit the cycles are stepped through one by one instead; at sea
each cycle is cut as the unlimited solver cuts it, so that a pair costs a pass over
its hits (:meth:`_Battle._step_sea_by_hits`), and the stepping stops once what is
still fighting can change no result by more than 1e-15, however long the limit.

States are shared by every branch that reaches them: the first cycle (antiaircraft
fire, bombardment) only sets how much each pair starts with. On land every later cycle
is two independent draws, one per side, so the pairs are worked out as arrays, every
attacker state with the same hit points at once (:meth:`_Battle._solve_land_arrays`).
At sea the cycle is cut where the rules allow: the attacker's hits go to the defender
one at a time and each defender lost fires its die as it goes, and the submarines'
opening fire is taken apart from the main fire unless a destroyer keeps its casualties
firing (:meth:`_Battle._solve_sea`). Where aircraft need a destroyer to hit submarines
(a variant), cycles are taken as in :meth:`_Battle._solve_by_hit_points`.

The results are exact but for what is let go on purpose: a state reached with a chance
below 1e-16 (:data:`_NEGLIGIBLE`) is not fought on, up to 1e-13 of chance in all
(:data:`_NEGLIGIBLE_TOTAL`), and a round-limited sea battle lets go of the last 1e-15
still fighting (:data:`_OUT_OF_REACH`), so that outcomes and survivors are within
about 1e-13 of the exact figures and add up to 1 within that. ``bench/bench_odds.py``
times large battles; ``tests/aa_revised/test_odds_reference.py`` checks every path
against a plain cycle-by-cycle reference.

>>> r = battle_odds({"infantry": 1}, {})
>>> r.attacker_win
1.0
"""

from __future__ import annotations

import dataclasses
import heapq
import itertools
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from math import comb

import numpy as np

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

#: attacker states worked out together by :meth:`_Battle._solve_land_arrays`, which
#: holds a matrix of defender states by defender states for each (small batches keep
#: those in the processor's cache: 48 was the fastest of 32-256 on the bench)
_CHUNK = 48

#: cells of a grid moved together by :meth:`_Battle._step_sea`, in arrays it reuses
_BATCH = 1 << 16

#: :meth:`_Battle._step_sea` keeps the cycle of a pair left with a negligible chance
#: (most often let go before the next cycle) only if it leads to fewer cells than this
_KEEP_CELLS = 1024

#: a chance this small (and below) of a state still fighting (on land: an attacker
#: state, whatever the defender) is let go, up to :data:`_NEGLIGIBLE_TOTAL` in all: the
#: results stay exact to far better than 1e-9 (the tests hold them to 1e-12)
_NEGLIGIBLE = 1e-16
_NEGLIGIBLE_TOTAL = 1e-13

#: :meth:`_Battle._step_sea_by_hits` lets go of what a sea battle still has fighting
#: once the cycles left to its round limit can change no chance (nor the expected
#: number of cycles) by more than this
_OUT_OF_REACH = 1e-15

#: how :meth:`_Battle._step_sea_by_hits` takes a pair's opening fire (:meth:`_Battle._sea_opening`)
_NO_OPENING, _OPENED, _WHOLE = "no opening fire", "opened", "whole"

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
    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


def _convolve(a: Iterable[float], b: Iterable[float]) -> Dist:
    a, b = list(a), list(b)
    if len(a) * len(b) > 64:
        return np.convolve(a, b).tolist()  # the same sums, taken in C
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


def _dice_dist(groups: Mapping[int, int], memo: dict | None = None) -> Dist:
    """Hits from ``groups`` = {value: number of dice}. With ``memo`` (a dict kept by
    the caller), the hits of the lower values are kept there and shared by every
    call with the same dice at those values."""
    key = tuple(sorted((v, n) for v, n in groups.items() if n))
    if memo is None:
        out: Dist = [1.0]
        for value, n in key:
            out = _convolve(out, _binomial(n, value))
        return out
    return list(_dice_prefix(key, memo))


def _dice_prefix(key: tuple[tuple[int, int], ...], memo: dict) -> tuple[float, ...]:
    got = memo.get(key)
    if got is None:
        if not key:
            got = (1.0,)
        else:
            value, n = key[-1]
            got = tuple(_convolve(_dice_prefix(key[:-1], memo), _binomial(n, value)))
        memo[key] = got
    return got


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
        attacking = role == ATTACKER
        #: the slots that fire at step 4/5: (slot, value, dice a unit, paired with
        #: artillery when attacking, aircraft), and the slots that give that support
        self._firing = [
            (
                j,
                st[t].value(role),
                st[t].attack_dice if attacking else 1,
                attacking and "supported_by_artillery" in st[t].flags,
                st[t].kind == "air",
            )
            for j, (t, _) in enumerate(self.slots)
            if not {"opening_fire", "antiaircraft"} & set(st[t].flags)
        ]
        self._supporters = [
            j
            for j, (t, _) in enumerate(self.slots)
            if attacking and "supports_infantry" in st[t].flags
        ]
        self.states: list[State] = []
        self.index: dict[State, int] = {}
        self.health: list[int] = []
        self.alive: list[bool] = []
        self.units: list[int] = []
        self.destroyer: list[bool] = []
        self.start = self.number(tuple(counts.get(t, 0) if k == 0 else 0 for t, k in self.slots))
        self._chains: dict[tuple[int, str], list[int]] = {}
        self._fire: dict[int, tuple[Dist, Dist | None]] = {}
        self._sub_fire: dict[int, Dist] = {}
        #: hits by dice (:func:`_dice_dist`)
        self._dice_memo: dict[tuple[tuple[int, int], ...], tuple[float, ...]] = {}
        self._dice_key: dict[int, int] = {}
        self._dice_ids: dict[tuple[tuple[float, ...], ...], int] = {}

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
        s = self.states[i]
        groups: dict[int, int] = {}
        air_groups: dict[int, int] = {}
        support = sum(s[j] for j in self._supporters)
        restricted = self.restricted_air and not self.destroyer[i]
        for j, value, dice, supported, air in self._firing:
            n = s[j]
            if not n:
                continue
            target = air_groups if restricted and air else groups
            if supported:
                paired = min(n, support)
                support -= paired
                if paired:
                    target[max(value, 2)] = target.get(max(value, 2), 0) + paired
                n -= paired
            if value > 0 and n:
                target[value] = target.get(value, 0) + n * dice
        # without aircraft to restrict, every hit may go anywhere (and only the states
        # :meth:`explore` found for this side's hits are ever reached)
        memo = self._dice_memo
        got = (_dice_dist(groups, memo), _dice_dist(air_groups, memo) if air_groups else None)
        self._fire[i] = got
        return got

    def fire_table(self, order: list[int]) -> np.ndarray:
        """The hits of :meth:`fire` (the first distribution) from each state in ``order``
        at once, as the rows of an array with a column per number of hits, for a side
        whose aircraft hit anything (:attr:`restricted_air` not set, as on land). The
        dice are counted as :meth:`fire` counts them (Revised: Conduct Combat, steps 4
        and 5, artillery supporting infantry one to one); the hits of each value are
        added for 1, 2, 4, ... dice at a time, to every row whose number of dice of that
        value holds that power of two."""
        assert not self.restricted_air
        counts = np.array([self.states[i] for i in order], dtype=np.intp)
        counts = counts.reshape(len(order), len(self.slots))
        support = counts[:, self._supporters].sum(axis=1)
        dice: dict[int, np.ndarray] = {}
        for j, value, per_unit, supported, _ in self._firing:
            n = counts[:, j]
            if supported:
                paired = np.minimum(n, support)
                support = support - paired
                dice[max(value, 2)] = dice.get(max(value, 2), 0) + paired
                n = n - paired
            if value > 0:
                dice[value] = dice.get(value, 0) + n * per_unit
        width = 1 + int(sum(dice.values(), np.zeros(len(order), dtype=np.intp)).max(initial=0))
        # room for every power of two up to each value's most dice, cut to width at the end
        room = 1 + sum((1 << int(n.max(initial=0)).bit_length()) - 1 for n in dice.values())
        table = np.zeros((len(order), room))
        table[:, 0] = 1.0
        top = 1  # columns that may hold a chance so far
        for value in sorted(dice):
            # n dice are the dice of each power of two in n, taken one power at a time
            bit = 1
            while bit <= dice[value].max(initial=0):
                rows = np.flatnonzero(dice[value] & bit)
                before = table[rows, :top]
                after = np.zeros((len(rows), top + bit))
                for j, chance in enumerate(_binomial(bit, value)):
                    after[:, j : j + top] += chance * before  # j more hits
                table[rows, : top + bit] = after
                top += bit
                bit *= 2
        return table[:, :width]

    def dice_key(self, i: int) -> int:
        """A number shared by the states whose dice are the same (main fire, aircraft
        restricted by the variant, submarines): the enemy's losses to them are too."""
        got = self._dice_key.get(i)
        if got is None:
            main, air = self.fire(i)
            key = (tuple(main), None if air is None else tuple(air), tuple(self.sub_fire(i)))
            got = self._dice_key[i] = self._dice_ids.setdefault(key, len(self._dice_ids))
        return got

    def sub_fire(self, i: int) -> Dist:
        """Hits of this side's submarines in opening fire (Revised: step 2, Submarines)."""
        got = self._sub_fire.get(i)
        if got is None:
            got = self._sub_fire[i] = self._sub_dice(i)
        return got

    def _sub_dice(self, i: int) -> Dist:
        groups: dict[int, int] = {}
        for (t, _), n, sub in zip(self.slots, self.states[i], self.is_sub, strict=True):
            if n and sub:
                v = self.stats[t].value(self.role)
                groups[v] = groups.get(v, 0) + n
        return _dice_dist(groups, self._dice_memo)

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
        #: losses by (side, state, the dice of the enemy firing: :meth:`_Side.dice_key`)
        self._memo: dict[tuple[Side, int, int], Spread] = {}
        #: at sea with destroyers on both sides, a side's outcome of a cycle by (its
        #: state, the enemy's dice, whether it is the first cycle)
        self._mixes: dict[tuple[Side, int, int, bool], Spread] = {}
        #: spreads as arrays (:meth:`_arrays`), by the spread's id, with the spread
        self._spread_arrays: dict[int, tuple[np.ndarray, np.ndarray, Spread]] = {}
        #: attacker spreads as columns (:meth:`_cycle_cells`), kept the same way
        self._spread_columns: dict[int, tuple[np.ndarray, np.ndarray, Spread]] = {}
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
            key = (ATTACKER, a1, dfn.dice_key(fire_d))
            got = memo.get(key)
            if got is None:
                got = memo[key] = att.losses(a1, dfn, fire_d)
            return got

        def hits_on_defender(d1: int, fire_a: int) -> Spread:
            key = (DEFENDER, d1, att.dice_key(fire_a))
            got = memo.get(key)
            if got is None:
                got = memo[key] = dfn.losses(d1, att, fire_a)
            return got

        # Each side's losses depend on its own state after the opening fire and on the
        # state the enemy fires from. Where that firing state is fixed (a destroyer keeps
        # casualties firing), one side's outcomes are mixed over the other side's
        # opening casualties before the two are combined, giving fewer, longer blocks.
        if protect_d:
            if protect_a:
                # each side's outcome depends on its own state and the enemy's dice only
                mixes = self._mixes
                a_key = (ATTACKER, a, dfn.dice_key(d), first)
                d_key = (DEFENDER, d, att.dice_key(a), first)
                a_mix = mixes.get(a_key)
                if a_mix is None:
                    a_mix = mixes[a_key] = _mix(a_open, lambda a1: hits_on_attacker(a1, d))
                d_mix = mixes.get(d_key)
                if d_mix is None:
                    d_mix = mixes[d_key] = _mix(d_open, lambda d1: hits_on_defender(d1, a))
                return [(1.0, a_mix, d_mix)]
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
        """Every cycle after the first, to the end, of a sea battle with no round limit
        where :meth:`_solve_sea` does not apply (aircraft that need a destroyer to hit
        submarines, or a defender whose fire is not one die per unit); land battles go to
        :meth:`_solve_land_arrays`.

        Every hit lowers the hit points on the board, so the pairs are solved from the
        most hit points down, each once; the chance that a cycle changes nothing is
        divided out (a geometric series). A cycle is taken in two halves where it can
        be: the opening fire of submarines leads to a pair of states from which the main
        fire is worked out once, whichever pair before the opening fire led there. That holds unless casualties of the opening fire still fire (a destroyer
        keeps them firing), in which case the cycle is taken whole (:meth:`cycle`).

        ``live`` and ``left`` as in :meth:`_solve_sea`; returns the expected number of
        cycles after the first and the number of pairs solved."""
        att, dfn = self.att, self.dfn
        na, nd = len(att.states), len(dfn.states)
        #: the chance of each pair after the opening fire, before the main fire
        inter = [[0.0] * nd for _ in range(na)]
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
                    mid = inter[a]
                    for d in d_list:
                        m = row[d]
                        i = mid[d]
                        if not (m or i):
                            continue
                        going = fights and self.dfn.alive[d]
                        if going:
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
                                    mid[d] = 0.0
                                    continue
                                # main(a, d) leads back to itself through inter(a, d)
                                i = (i + o * m) / (1.0 - o * s)
                                m = m + s * i
                                solved += 1
                                expected += m
                                _push([(1.0, a_open, d_open)], m, inter)
                                _push(fire, i, live)
                                row[d] = 0.0
                                mid[d] = 0.0
                                continue
                            blocks = self.cycle(a, d, first=False)
                        if i:
                            # the main fire of what the opening fire of other pairs left
                            # here; what it leaves unchanged starts the next cycle here
                            mid[d] = 0.0
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

    def _defender_fire(self) -> tuple[int, np.ndarray, np.ndarray]:
        """The defender's fire by state, for the sea solvers: the most hits it can score
        plus one (``k_max``), ``cols[k, d]`` the chance that state ``d`` scores exactly
        ``k`` hits and ``tails[k, d]`` that it scores ``k`` or more."""
        alpha = [self.dfn.fire(d)[0] for d in range(len(self.dfn.states))]
        k_max = max(len(x) for x in alpha)
        cols = np.array([[x[k] if k < len(x) else 0.0 for x in alpha] for k in range(k_max)])
        tails = np.array([[sum(x[k:]) for x in alpha] for k in range(k_max + 1)])
        return k_max, cols, tails

    def _dying_dice(self) -> list[float] | None:
        """For each defender state, the chance that the unit its next hit removes scores
        a hit as it dies (0 when that hit only damages); None unless the defender's fire
        is one die per unit, so that what casualties fire is the difference between two
        states (:meth:`_solve_sea` relies on it)."""
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

    def _solve_land_arrays(
        self, live: np.ndarray, left: set[tuple[int, int]], rounds: int | None
    ) -> tuple[np.ndarray, float, int]:
        """Every cycle after the first on land, as array operations (Revised: Combat
        Sequence, steps 4-6; after the first cycle nothing fires before them on land).

        A land cycle from (a, d) moves the attacker ``X`` steps down its casualty chain,
        ``X`` drawn from the dice of the defenders in ``d``, and the defender down its
        own chain by the attacker's dice in ``a``; the two draws are independent. So
        the cycle is taken in two halves over arrays: first the defender's move,
        ``T[a][d, d']``, the chance that ``a``'s fire takes ``d`` to ``d'``; then the
        attacker's, by the dice of ``d``, which are the same whatever ``a`` is, so one
        matrix product moves every attacker state of a batch at once (hits beyond the
        end of an attacker's chain leave it at the end). Attacker states with the same
        hit points are worked out together, the most hit points first: no mass moves
        between two of them. Within one attacker state, what the defenders' dice leave
        there (no hit) is a triangular system over the defender states, solved whole.

        ``live[a, d]`` holds the chance of (a, d) after the first cycle. Unlimited
        (``rounds`` None): returns the chance that the battle ends in each pair, the
        expected number of cycles after the first and the number of pairs solved;
        pairs where neither side can ever hit the other go into ``left``. With
        ``rounds``, the battle is stepped ``rounds - 1`` more cycles and what is still
        fighting stays where it is (:meth:`solve` then has the attacker withdraw)."""
        att, dfn = self.att, self.dfn
        na, nd = len(att.states), len(dfn.states)
        # attacker states are numbered here by their hit points, the most first (``at``
        # is the state of each number), so that states with the same hit points and
        # those a cycle leads to are each a run of rows
        at = sorted(range(na), key=lambda a: -att.health[a])
        number = [0] * na
        for i, a in enumerate(at):
            number[a] = i
        # defender states likewise (``dt``): a cycle only ever moves a side to a state
        # numbered after its own, so a batch of attacker states whose defenders are all
        # at ``lo`` or after works on the square of T from ``lo`` on
        dt = sorted(range(nd), key=lambda d: -dfn.health[d])
        d_number = [0] * nd
        for i, d in enumerate(dt):
            d_number[d] = i
        live = live[np.ix_(at, dt)]
        # the defender's dice by state, and the attacker's chains padded with their end:
        # a chain is its first step's chain after its state, so the states x hits down
        # every chain are found together, one hit at a time
        alpha_all = dfn.fire_table(dt)
        chains = [att.chain(a, FIRE) for a in at]
        one_hit = np.array([number[c[min(1, len(c) - 1)]] for c in chains], dtype=np.intp)
        down = [np.arange(na)]
        steps = np.zeros(na, dtype=np.intp)
        while True:
            nxt = one_hit[down[-1]]
            moved = nxt != down[-1]
            if not moved.any():
                break
            steps += moved
            down.append(nxt)
        k = int(min(alpha_all.shape[1], steps.max() + 1))
        alpha = alpha_all[:, :k].copy()  # k - 1 hits or more: no attacker can go further
        alpha[:, k - 1] = alpha_all[:, k - 1 :].sum(axis=1)
        a_next = np.stack(down[:k] + [down[-1]] * (k - len(down)), axis=1)
        # the defender's chains; the attacker's dice folded onto their longest
        d_chains = [[d_number[d2] for d2 in dfn.chain(d, FIRE)] for d in dt]
        d_steps = [len(c) - 1 for c in d_chains]
        ly = max(d_steps)
        beta = np.zeros((na, ly + 2))
        beta_all = att.fire_table(at)
        if beta_all.shape[1] > ly + 1:
            beta[:, :ly] = beta_all[:, :ly]
            beta[:, ly] = beta_all[:, ly:].sum(axis=1)
        else:
            beta[:, : beta_all.shape[1]] = beta_all
        # beside each attacker state's dice, the chance of each number of hits or more,
        # and a zero: T[d, d'] is one of these for every attacker state (``pick``)
        beta_ext = np.concatenate(
            [beta, np.cumsum(beta[:, ::-1], axis=1)[:, ::-1], np.zeros((na, 1))], axis=1
        )
        pick = np.full((nd, nd), beta_ext.shape[1] - 1, dtype=np.intp)
        for d, chain in enumerate(d_chains):
            for y, d2 in enumerate(chain):
                # y hits take d to d2; at the end of the chain, y hits or more
                pick[d, d2] = y if y < d_steps[d] else ly + 2 + y
        d_alive = np.array([dfn.alive[d] for d in dt])
        fights = np.array([self.fights(a) for a in at])
        xs = np.arange(k)

        def defender_moves(rows: np.ndarray, lo: int = 0) -> np.ndarray:
            """``T[r, d, d']`` for the attacker states ``rows``, from ``lo`` on."""
            m = nd - lo
            return beta_ext[rows][:, pick[lo:, lo:].ravel()].reshape(len(rows), m, m)

        # the defenders' dice by state, as hits on each attacker state's chain: with
        # ``last`` steps left, ``last`` hits or more all end at the chain's end
        tails = np.cumsum(alpha[:, ::-1], axis=1)[:, ::-1]
        by_last = np.zeros((k, k, nd))  # [last, X, d]
        for last in range(k):
            by_last[last, :last] = alpha[:, :last].T
            by_last[last, last] = tails[:, last]
        # where each step of each attacker chain leads; past the end, nowhere (row na)
        a_to = np.where(xs[None, :] <= steps[:, None], a_next, na)

        def attacker_moves(
            rows: np.ndarray, half: np.ndarray, first: int, into: np.ndarray, lo: int = 0
        ) -> None:
            """``half[r, d, d']`` (the chance of each defender move, for defender
            states from ``lo`` on) moved on by the defenders' dice in ``d``, added to
            ``into`` (a grid like ``live``) where it ends, leaving out the attacker
            states less than ``first`` hits down their chains."""
            last = np.minimum(steps[rows], k - 1)
            end = int(last.max()) + 1  # no more hits than that can land on these
            hits = by_last[last, first:end, lo:]
            moved = np.matmul(hits, half)  # (r, X, d')
            to = a_to[rows, first:end]
            kept = to < na
            if not kept.any():
                return
            # the attacker states reached, each once (chains may meet): only those rows
            # are summed, never a block of the grid as tall as the states they span
            reached, row_of = np.unique(to[kept], return_inverse=True)
            m = nd - lo
            flat = (row_of[:, None] * m + np.arange(m)).ravel()
            sums = np.bincount(flat, moved[kept].ravel(), minlength=len(reached) * m)
            into[reached, lo:] += sums.reshape(len(reached), m)

        expected = 0.0
        solved = 0
        if rounds is not None:
            fought = np.zeros((na, nd), dtype=bool)
            budget = _NEGLIGIBLE_TOTAL
            for _ in range(rounds - 1):
                going = live * (fights[:, None] & d_alive[None, :])
                budget = _let_go(live, going, budget)
                if not going.any():
                    break  # every battle that goes on is over (or let go)
                nxt = live - going
                busy = np.flatnonzero(going.any(axis=1))
                expected += float(going.sum())
                fought |= going > 0
                for lo in range(0, len(busy), _CHUNK):
                    rows = busy[lo : lo + _CHUNK]
                    half = going[rows][:, :, None] * defender_moves(rows)
                    attacker_moves(rows, half, 0, nxt)
                live = nxt
            return live[np.ix_(number, d_number)], expected, int(fought.sum())
        eye = np.eye(nd)
        health = np.array([att.health[a] for a in at])
        budget = _NEGLIGIBLE_TOTAL
        starts = np.flatnonzero(np.diff(health, prepend=health[0] + 1))
        for lo_h, hi_h in zip(starts, [*starts[1:], na], strict=True):
            level = np.arange(lo_h, hi_h)[fights[lo_h:hi_h]]
            mass = (live[level] * d_alive).sum(axis=1)
            # attacker states that a negligible chance reaches are let go, within budget
            tiny = np.flatnonzero(mass < _NEGLIGIBLE)
            spent = np.cumsum(mass[tiny])
            drop = tiny[spent <= budget]
            if len(drop):
                budget -= float(mass[drop].sum())
                live[level[drop]] *= ~d_alive
            level = level[(live[level] * d_alive).any(axis=1)]
            for first in range(0, len(level), _CHUNK):
                rows = level[first : first + _CHUNK]
                n = len(rows)
                lo = int(np.argmax((live[rows] * d_alive).any(axis=0)))
                m = nd - lo
                t = defender_moves(rows, lo)
                # the chance of no hit on the attacker (certain where it can take none)
                miss = np.where(steps[rows, None] > 0, alpha[None, lo:, 0], 1.0)
                diag = t.reshape(n, m * m)[:, :: m + 1]
                going = np.broadcast_to(d_alive[lo:], (n, m))
                stuck = going & (miss * diag >= 1.0 - 1e-15)
                going = going & ~stuck
                # visits of each pair: v = mass arriving + v * (back to this attacker state)
                back = t.transpose(0, 2, 1) * -(going * miss)[:, None, :]
                back += eye[lo:, lo:]
                v = np.linalg.solve(back, live[rows, lo:][:, :, None])[:, :, 0]
                moving = v * going
                expected += float(moving.sum())
                solved += int(np.count_nonzero(moving))
                live[rows, lo:] = np.where(going, 0.0, v)
                if stuck.any():
                    r_idx, d_idx = np.nonzero(stuck & (v > 0))
                    left.update(
                        (at[r], dt[lo + d]) for r, d in zip(rows[r_idx], d_idx, strict=True)
                    )
                if k > 1:
                    attacker_moves(rows, moving[:, :, None] * t, 1, live, lo)
        return live[np.ix_(number, d_number)], expected, solved

    def _solve_sea(self, main: np.ndarray, left: set[tuple[int, int]]) -> tuple[float, int]:
        """Every cycle after the first, to the end, where the defender fires one die per
        unit (Revised: Combat Sequence, steps 4-6: both sides fire at once, casualties
        fire back before they are removed) at sea, unless aircraft need a destroyer to
        hit submarines (a variant).

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

        The submarines' opening fire comes first (:meth:`opening`) and leads to
        the pair the main fire starts from, shared the same way; where a destroyer keeps
        the opening's casualties firing, the main fire depends on the pair before the
        opening as well, and that pair's cycle is taken whole (:meth:`cycle`).

        ``main[a, d]`` holds the chance of (a, d) at the start of a cycle (from the
        first cycle on entry), and on return the chance that the battle ends there;
        pairs where nothing can ever change go into ``left``. Returns the expected
        number of cycles after the first and the number of pairs solved."""
        att, dfn = self.att, self.dfn
        na, nd = len(att.states), len(dfn.states)
        dying = self._dying_dice()
        assert dying is not None
        # the defender, by state: fire, its tails, the hits it can still take, its next state
        k_max, cols_np, tails_np = self._defender_fire()
        cols = cols_np.tolist()  # read one cell at a time below: a list is quicker
        d_chain = [dfn.chain(d, FIRE) for d in range(nd)]
        room = [len(c) - 1 for c in d_chain]
        d_order = sorted(range(nd), key=lambda d: -dfn.health[d])
        d_alive = dfn.alive
        #: (attacker state) -> (defender state) -> chance by hits still to land on it
        pending: dict[int, dict[int, list[float]]] = {}
        #: the chance that the main fire starts at each pair (after the opening)
        opened = [[0.0] * nd for _ in range(na)]
        expected = 0.0
        solved = 0
        budget = _NEGLIGIBLE_TOTAL
        for a in sorted(range(na), key=lambda a: -att.health[a]):
            mine = pending.pop(a, {})
            now = opened[a]
            fights = self.fights(a)
            if not fights and not mine and not any(now):
                continue  # over, and nothing still landing: its mass is final
            row = main[a].tolist()  # worked on as a list, put back below
            a_chain = att.chain(a, FIRE)
            last = len(a_chain) - 1  # hits beyond this leave the attacker as a_chain[-1]
            beta = att.fire(a)[0]
            b_tail = [sum(beta[h:]) for h in range(len(beta) + 1)]
            # the chance that defenders left fire at (a, d) after a hit-free first half
            fired = [0.0] * nd
            for d in d_order:
                todo = mine.get(d)
                if todo is None:
                    here = row[d] + now[d]
                    if not here:
                        continue  # nothing here, nothing arriving
                    if here < _NEGLIGIBLE <= budget and fights and d_alive[d]:
                        budget -= here  # a negligible chance, let go (within budget)
                        row[d] = now[d] = 0.0
                        continue
                arrived = todo[0] if todo else 0.0
                a_0 = cols[0][d] if last else 1.0
                m = row[d] + arrived * a_0
                f, now[d] = now[d], 0.0  # the chance that the main fire starts here
                n = room[d]
                b_0 = beta[0] if n else 1.0
                if not (fights and d_alive[d]) or not (m or f):
                    row[d] = m + f * b_0 * a_0  # over: what the main fire leaves stays
                    fire = f
                else:
                    a_open, d_open, protect_a, protect_d = self.opening(a, d, False)
                    whole = (protect_a and len(a_open[0]) > 1) or (protect_d and len(d_open[0]) > 1)
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
                            if len(blocks) == 1:  # one block, whose spreads are kept
                                w, la, ld = blocks[0]
                                ai, ap = self._arrays(la)
                                di, dp = self._arrays(ld)
                                main[ai[:, None], di] += np.outer(ap * (scale * w), dp)
                            else:
                                _push_array(blocks, scale, main)
                            # what stays in this attacker state goes to the list too
                            for w, (ai_, ap_), (di_, dp_) in blocks:
                                if a in ai_:
                                    c = w * scale * _chance_of((ai_, ap_), a)
                                    for d2, y in zip(di_, dp_, strict=True):
                                        row[d2] += c * y
                            row[d] = 0.0  # the share that changes nothing is divided out
                    else:
                        o = _chance_of(a_open, a) * _chance_of(d_open, d)
                        s = b_0 * a_0
                        if o * s >= 1.0 - 1e-15:
                            left.add((a, d))  # neither side can ever hit the other
                            row[d] = m + f
                            fire = 0.0
                        else:
                            # (a, d) at the start of a cycle leads back to itself through
                            # the opening fire (o) and then the main fire (s)
                            fire = (f + o * m) / (1.0 - o * s)
                            cycles = m + s * fire
                            expected += cycles
                            solved += 1
                            row[d] = 0.0
                            if len(a_open[0]) > 1 or len(d_open[0]) > 1:
                                _push([(1.0, a_open, d_open)], cycles, opened)
                                now[d] = 0.0  # the share divided out
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
            main[a] = row
            # the defenders left fire: the attacker takes k >= 1 hits
            if last and any(fired):
                fired_np = np.array(fired)
                for k in range(1, min(last, k_max - 1) + 1):
                    col = cols_np[k] if k < last else tails_np[k]
                    main[a_chain[k]] += fired_np * col
        return expected, solved

    def _step_sea_by_hits(self, grid: np.ndarray, rounds: int) -> tuple[float, int, _Tail | None]:
        """Every cycle after the first at sea with a round limit, ``rounds - 1`` of them,
        stepped one at a time the way :meth:`_solve_sea` takes a cycle (Revised: Combat
        Sequence, steps 2-6, rulebook lines 394-466), where that solver applies; what is
        still fighting after them stays where it is (:meth:`solve` has the attacker
        withdraw at step 7, line 468).

        A cycle is the unlimited solver's with no geometric series: the opening fire of
        submarines leads each pair to the pair its main fire starts from; the attacker's
        hits go to the defender one at a time, each defending unit lost rolling its die
        as it goes; the defenders left fire last. Within a cycle mass only moves to fewer
        hit points, so the states are taken from the most hit points down, and only
        those that hold some of the cycle's mass: a pair costs a pass over its hits,
        never the product of both sides' outcomes, and a cycle costs what the pairs
        still fighting in it cost, few after the first cycles. Where that solver takes a
        pair's cycle whole (a destroyer keeps the opening's casualties firing, line 444),
        so does this: the blocks of an attacker state's whole cycles are added at once
        (:func:`_add_blocks`), and those of the last cycle kept by their sums only
        (:class:`_Tail`), as the odds need no more.

        Besides the pairs let go (:data:`_NEGLIGIBLE`), what is still fighting is let go
        once it is so little that the cycles left can change no chance, and no expected
        number of cycles, by more than :data:`_OUT_OF_REACH` (its chance times the cycles
        left): a long limit costs no more than the cycles the battle really lasts.

        ``grid`` holds the chance of each pair after the first cycle and is updated in
        place to the chance that the battle ends (or is left at the limit) in each pair.
        Returns the expected number of cycles after the first, the number of pairs
        whose cycle was worked out and the tail (None if the last cycle took no pair
        whole), whose mass is not in the grid."""
        att, dfn = self.att, self.dfn
        na, nd = len(att.states), len(dfn.states)
        dying = self._dying_dice()
        assert dying is not None
        k_max, cols, tails = self._defender_fire()
        room = [len(dfn.chain(d, FIRE)) - 1 for d in range(nd)]
        d_next = [dfn.chain(d, FIRE)[min(1, room[d])] for d in range(nd)]
        # states are taken by rank, the most hit points first
        a_order = sorted(range(na), key=lambda a: -att.health[a])
        d_order = sorted(range(nd), key=lambda d: -dfn.health[d])
        a_rank = [0] * na
        for r, a in enumerate(a_order):
            a_rank[a] = r
        d_rank = [0] * nd
        for r, d in enumerate(d_order):
            d_rank[d] = r
        fighting = np.array([self.fights(a) for a in range(na)])[:, None] & np.array(dfn.alive)
        #: per attacker state: its chain, the hits it can take, its hits and their tails
        shooters: dict[int, tuple[list[int], int, Dist, list[float]]] = {}
        #: per pair ``a * nd + d``: its opening fire (:meth:`_sea_opening`)
        openings: dict[int, tuple] = {}
        budget = _NEGLIGIBLE_TOTAL
        expected = 0.0
        fought = np.zeros((na, nd), dtype=bool)
        tail = None
        # where each cycle ends, until the next splits it into what still fights and what
        # is over (which goes to the grid); and the attacker states it reaches
        ends = grid.copy()
        grid[:] = 0.0
        touched = set(np.flatnonzero(ends.any(axis=1)).tolist())
        for step in range(rounds - 1):
            rows = np.array(sorted(touched), dtype=np.intp)
            touched = set()
            here = ends[rows]
            ends[rows] = 0.0
            going = here * fighting[rows]
            budget = _let_go(here, going, budget, pairs=True)
            grid[rows] += here - going  # the battles over
            still = float(going.sum())
            if still * (rounds - 1 - step) <= _OUT_OF_REACH:
                break  # nothing the cycles left can change: let go (with going)
            expected += still
            fought[rows] |= going > 0
            row_of = {a: i for i, a in enumerate(rows.tolist())}
            #: the chance that the main fire starts at a pair (attacker -> defender ->)
            opened: dict[int, dict[int, float]] = {}
            #: the chance by hits still to land on the defender (attacker -> defender ->)
            pending: dict[int, dict[int, list[float]]] = {}
            # the cycles of the last cycle taken whole, and the chance of each pair
            last_cycles: list[Blocks] = []
            last_masses: list[float] = []
            final = step == rounds - 2
            #: the blocks of this attacker state's cycles taken whole, times their chance
            whole: Blocks = []
            queue = [a_rank[a] for a in rows[going.any(axis=1)].tolist()]
            heapq.heapify(queue)
            queued = set(queue)
            while queue:
                a = a_order[heapq.heappop(queue)]
                i = row_of.get(a)
                row = going[i].tolist() if i is not None else None
                mine = pending.pop(a, {})
                now = opened.pop(a, {})
                got = shooters.get(a)
                if got is None:
                    a_chain = att.chain(a, FIRE)
                    beta = att.fire(a)[0]
                    b_tail = [sum(beta[h:]) for h in range(len(beta) + 1)]
                    got = shooters[a] = (a_chain, len(a_chain) - 1, beta, b_tail)
                a_chain, last, beta, b_tail = got
                seen = {d_rank[d] for d in mine}
                seen.update(d_rank[d] for d in now)
                if row is not None:
                    seen.update(d_rank[d] for d in np.flatnonzero(going[i]).tolist())
                d_queue = list(seen)
                heapq.heapify(d_queue)
                fired_at: list[int] = []
                fired: list[float] = []
                while d_queue:
                    d = d_order[heapq.heappop(d_queue)]
                    m = row[d] if row is not None else 0.0
                    todo = mine.pop(d, None)
                    f = now.pop(d, 0.0)
                    if m:
                        pair = a * nd + d
                        how = openings.get(pair)
                        if how is None:
                            how = openings[pair] = self._sea_opening(a, d)
                        if how[0] is _NO_OPENING:
                            f += m
                        elif how[0] is _WHOLE and final:
                            last_cycles.append(how[1])  # kept by its sums (:class:`_Tail`)
                            last_masses.append(m)
                        elif how[0] is _WHOLE:
                            whole += [(w * m, la, ld) for w, la, ld in how[1]]
                        else:
                            (a_to, a_p), (d_to, d_p) = how[1], how[2]
                            for a1, pa in zip(a_to, a_p, strict=True):
                                c = m * pa
                                if a1 != a:
                                    into = opened.setdefault(a1, {})
                                    for d1, pd in zip(d_to, d_p, strict=True):
                                        into[d1] = into.get(d1, 0.0) + c * pd
                                    if a_rank[a1] not in queued:
                                        queued.add(a_rank[a1])
                                        heapq.heappush(queue, a_rank[a1])
                                    continue
                                for d1, pd in zip(d_to, d_p, strict=True):
                                    if d1 == d:
                                        f += c * pd
                                        continue
                                    now[d1] = now.get(d1, 0.0) + c * pd
                                    if d_rank[d1] not in seen:
                                        seen.add(d_rank[d1])
                                        heapq.heappush(d_queue, d_rank[d1])
                    n = room[d]
                    out = todo[0] if todo else 0.0
                    if f:
                        if not n:
                            out += f
                        else:
                            out += f * beta[0]
                            # the attacker's hits, n or more where d can take no more
                            if todo is None:
                                todo = [0.0]
                            top = min(len(beta), n + 1)
                            if len(todo) < top:
                                todo.extend([0.0] * (top - len(todo)))
                            _add_scaled(todo, 1, beta[1 : min(len(beta), n)], f)
                            if top == n + 1:
                                todo[n] += f * b_tail[n]
                    if out:
                        fired_at.append(d)
                        fired.append(out)
                    if todo is None or len(todo) < 2:
                        continue
                    # one more hit lands on d; the unit lost fires as it goes
                    d1 = d_next[d]
                    hits = todo[1:]
                    if d_rank[d1] not in seen:
                        seen.add(d_rank[d1])
                        heapq.heappush(d_queue, d_rank[d1])
                    p = dying[d] if last else 0.0
                    _merge(mine, d1, hits, 1.0 - p)
                    if p:
                        a1 = a_chain[1]
                        _merge(pending.setdefault(a1, {}), d1, hits, p)
                        if a_rank[a1] not in queued:
                            queued.add(a_rank[a1])
                            heapq.heappush(queue, a_rank[a1])
                if whole:
                    touched.update(_add_blocks(whole, ends))
                    whole = []
                if not fired:
                    continue
                # the defenders left fire: the attacker takes k hits
                at = np.array(fired_at, dtype=np.intp)
                out_np = np.array(fired)
                for k in range(min(last, k_max - 1) + 1):
                    col = cols[k] if k < last else tails[k]
                    ends[a_chain[k], at] += out_np * col[at]
                    touched.add(a_chain[k])
            if last_cycles:
                tail = _Tail(last_cycles, np.array(last_masses), na, nd)
        grid += ends
        return expected, int(fought.sum()), tail

    def _sea_opening(
        self, a: int, d: int
    ) -> tuple[str] | tuple[str, Blocks] | tuple[str, Spread, Spread]:
        """How :meth:`_step_sea_by_hits` takes the opening fire of a cycle from (a, d):
        (:data:`_NO_OPENING`,) where there is none; (:data:`_OPENED`, the attacker's
        spread after it, the defender's) where the main fire then starts from their
        pair; (:data:`_WHOLE`, the cycle's blocks) where a destroyer keeps the opening's
        casualties firing, as :meth:`_solve_sea` takes those cycles whole."""
        a_open, d_open, protect_a, protect_d = self.opening(a, d, False)
        if (protect_a and len(a_open[0]) > 1) or (protect_d and len(d_open[0]) > 1):
            return _WHOLE, self.cycle(a, d, first=False)
        if len(a_open[0]) > 1 or len(d_open[0]) > 1:
            return _OPENED, a_open, d_open
        return (_NO_OPENING,)

    def _step_sea(self, grid: np.ndarray, rounds: int) -> tuple[float, int, _Tail | None]:
        """Every cycle after the first at sea with a round limit, ``rounds - 1`` of them,
        stepped one at a time where :meth:`_step_sea_by_hits` does not apply (aircraft
        that need a destroyer to hit submarines, a variant); what is still fighting after
        them stays where it is (:meth:`solve` has the attacker withdraw).

        Each pair's cycle (:meth:`cycle`) is turned into the cells ``a * nd + d`` it
        leads to and their chances (:meth:`_cycle_cells`), kept for the next cycle only
        if the pair has mass again after this one: most pairs are fought from once, and
        their cells (most of all cells) are let go as soon as that is known. A cycle
        never raises the hit points on the board, so the pairs are taken from the most
        hit points down, and a pair's mass for the next cycle is known once every pair
        with as many hit points or more has moved its own. The last cycle is not kept
        as a grid: the odds need only each side's states apart and the outcome, which
        are sums of each block's two spreads taken apart (:class:`_Tail`), so its
        blocks are never multiplied out.

        ``grid`` holds the chance of each pair after the first cycle and is updated in
        place (without the last cycle's mass, which is in the tail). Returns the
        expected number of cycles after the first, the number of pairs whose cycle was
        worked out, and the tail (None if the battle was over before the last cycle)."""
        att, dfn = self.att, self.dfn
        na, nd = len(att.states), len(dfn.states)
        #: the cycles of the pairs with mass for the next cycle, as cells and chances
        memo: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        worked: set[int] = set()  # the pairs whose cycle was worked out
        a_fights = np.array([self.fights(a) for a in range(na)])
        fighting = (a_fights[:, None] & np.array(dfn.alive)[None, :]).ravel()
        hit_points = (np.array(att.health)[:, None] + np.array(dfn.health)[None, :]).ravel()
        budget = _NEGLIGIBLE_TOTAL
        expected = 0.0
        #: where a batch of cells and their chances is gathered (reused: no fresh memory)
        held_cells = np.empty(_BATCH, dtype=np.intp)
        held_chances = np.empty(_BATCH)
        flat_grid = grid.reshape(-1)
        for step in range(rounds - 1):
            going = grid * fighting.reshape(na, nd)
            budget = _let_go(grid, going, budget, pairs=True)
            if not going.any():
                break  # every battle that goes on is over (or let go)
            expected += float(going.sum())
            flat = going.ravel()
            active = np.flatnonzero(flat)
            grid -= going
            if step == rounds - 2:
                pairs = active.tolist()
                blocks = [self.cycle(*divmod(p, nd), first=False) for p in pairs]
                worked.update(pairs)
                return expected, len(worked), _Tail(blocks, flat[pairs], na, nd)
            active = active[np.argsort(-hit_points[active], kind="stable")]
            pairs, levels = active.tolist(), hit_points[active].tolist()
            masses = flat[active].tolist()
            kept, memo = memo, {}
            cells: list[np.ndarray] = []
            chances: list[np.ndarray] = []
            #: the cycles of the pairs from ``settled`` on, whose mass for the next cycle
            #: may still grow
            cycles: list[tuple[np.ndarray, np.ndarray]] = []
            settled = 0
            held = 0
            for n, pair in enumerate(pairs):
                got = kept.pop(pair, None)
                if got is None:
                    got = self._cycle_cells(pair, nd)
                cycles.append(got)
                cells.append(got[0])
                chances.append(got[1])
                held += len(got[0])
                if held < _BATCH and n + 1 < len(pairs):
                    continue
                # a batch of pairs at a time, in the same arrays each time
                if held > len(held_cells):
                    held_cells = np.empty(held, dtype=np.intp)
                    held_chances = np.empty(held)
                at, chance = held_cells[:held], held_chances[:held]
                np.concatenate(cells, out=at)
                np.concatenate(chances, out=chance)
                chance *= np.repeat(masses[n + 1 - len(cells) : n + 1], [len(c) for c in cells])
                np.add.at(flat_grid, at, chance)
                cells, chances = [], []
                held = 0
                # the pairs with more hit points than any still to move have their mass
                # for the next cycle: keep their cycles if they have some
                below = levels[n + 1] if n + 1 < len(pairs) else -1
                end = settled
                while end <= n and levels[end] > below:
                    end += 1
                these = active[settled:end]
                again = flat_grid[these] * fighting[these]
                sizes = np.array([len(c) for c, _ in cycles[: end - settled]])
                keep = (again >= _NEGLIGIBLE) | (again > 0) & (sizes < _KEEP_CELLS)
                for k in np.flatnonzero(keep).tolist():
                    memo[pairs[settled + k]] = cycles[k]
                cycles = cycles[end - settled :]
                settled = end
            worked.update(pairs)
        return expected, len(worked), None

    def _cycle_cells(self, pair: int, nd: int) -> tuple[np.ndarray, np.ndarray]:
        """A cycle from ``pair`` (``a * nd + d``) as the cells of a grid it leads to and
        their chances (a cell may come twice, from two blocks). Each spread's arrays are
        kept by its id, as :meth:`_arrays` keeps them; an attacker's as columns, each
        state's first cell ``a * nd`` and its chance."""
        columns, arrays = self._spread_columns, self._spread_arrays
        cells, chances = [], []
        for w, la, ld in self.cycle(*divmod(pair, nd), first=False):
            at = columns.get(id(la))
            if at is None or at[2] is not la:
                at = (np.array(la[0])[:, None] * nd, np.array(la[1])[:, None], la)
                columns[id(la)] = at
            to = arrays.get(id(ld))
            if to is None or to[2] is not ld:
                to = arrays[id(ld)] = (np.array(ld[0]), np.array(ld[1]), ld)
            cells.append((at[0] + to[0]).ravel())
            chances.append((at[1] * (to[1] if w == 1.0 else to[1] * w)).ravel())
        if len(cells) == 1:
            return cells[0], chances[0]
        return np.concatenate(cells), np.concatenate(chances)

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

    def _arrays(self, spread: Spread) -> tuple[np.ndarray, np.ndarray]:
        """A spread as arrays, kept by the spread's id: for one kept by this battle (in
        :attr:`_memo` or :attr:`_mixes`), or one that this cache keeps alive with it,
        so that its id is never another spread's."""
        got = self._spread_arrays.get(id(spread))
        if got is None or got[2] is not spread:
            got = (np.array(spread[0]), np.array(spread[1]), spread)
            self._spread_arrays[id(spread)] = got
        return got[0], got[1]

    def main_fire(self, a: int, d: int) -> Blocks:
        """The main fire (steps 4-5) of both sides from (a, d), each firing as it stands."""
        memo = self._memo
        a_key, d_key = (ATTACKER, a, self.dfn.dice_key(d)), (DEFENDER, d, self.att.dice_key(a))
        la = memo.get(a_key)
        if la is None:
            la = memo[a_key] = self.att.losses(a, self.dfn, d)
        ld = memo.get(d_key)
        if ld is None:
            ld = memo[d_key] = self.dfn.losses(d, self.att, a)
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
        first = self.cycle(att.start, dfn.start, first=True)
        if not self.sea:
            grid = np.zeros((na, nd))
            for w, (ai, ap), (di, dp) in first:
                np.add.at(grid, np.ix_(ai, di), w * np.outer(ap, dp))
        else:
            live = [[0.0] * nd for _ in range(na)]
            _push(first, 1.0, live)
        expected_rounds = 1.0
        processed = 1
        #: pairs where the battle stops with both sides standing: the attacker leaves
        left: set[tuple[int, int]] = set()
        #: what the last cycle of a sea battle with a round limit adds, by its sums only
        #: (:meth:`_step_sea`)
        tail: _Tail | None = None
        #: whether a round limit is stepped through
        limited = rounds is not None
        #: a sea battle with a round limit stepped as the unlimited solver takes a cycle
        by_hits = limited and self.sea and not att.restricted_air and self._dying_dice() is not None
        if not self.sea:
            grid, extra, solved = self._solve_land_arrays(grid, left, rounds)
            expected_rounds += extra
            processed += solved
        elif by_hits:
            assert rounds is not None
            grid = np.array(live)
            extra, stepped, tail = self._step_sea_by_hits(grid, rounds)
            expected_rounds += extra
            processed += stepped
        elif limited:
            assert rounds is not None
            grid = np.array(live)
            extra, stepped, tail = self._step_sea(grid, rounds)
            expected_rounds += extra
            processed += stepped
        elif not att.restricted_air and self._dying_dice() is not None:
            grid = np.array(live)
            extra, processed_land = self._solve_sea(grid, left)
            expected_rounds += extra
            processed += processed_land
        else:
            extra, processed_any = self._solve_by_hit_points(live, left)
            expected_rounds += extra
            processed += processed_any
            grid = np.array(live)

        # how the battle ends in each pair (:meth:`ending`); a pair still fighting is
        # one the attacker leaves (a round limit, or neither side can hit the other)
        a_alive = np.array(att.alive)[:, None]
        d_alive = np.array(dfn.alive)[None, :]
        d_holds = d_alive | self.aa_only_defence
        retreats = np.array(
            [self.retreat_when is not None and n <= self.retreat_when for n in att.units]
        )[:, None]
        fighting = a_alive & d_alive & ~retreats
        if not limited:
            stuck = np.zeros((na, nd), dtype=bool)
            if left:
                a_idx, d_idx = zip(*left, strict=True)
                stuck[list(a_idx), list(d_idx)] = True
            assert not (grid[fighting & ~stuck] != 0).any(), "a pair with mass was never solved"
        totals = {
            _WIN: float(grid[a_alive[:, 0]][:, ~d_alive[0]].sum()),
            _LOSS: float((grid * (~a_alive & d_holds)).sum()),
            _DRAW: float((grid * (~a_alive & ~d_holds)).sum()),
            _LEFT: float((grid * (a_alive & d_alive)).sum()),
        }
        att_sums, def_sums = grid.sum(axis=1), grid.sum(axis=0)
        if tail is not None:
            for outcome, a_part, d_part in (
                (_WIN, a_alive, ~d_alive),
                (_LOSS, ~a_alive, d_holds),
                (_DRAW, ~a_alive, ~d_holds),
                (_LEFT, a_alive, d_alive),
            ):
                totals[outcome] += tail.total(a_part.ravel(), np.broadcast_to(d_part, (1, nd))[0])
            att_sums = att_sums + tail.att
            def_sums = def_sums + tail.dfn
        att_left, def_left = att_sums.tolist(), def_sums.tolist()
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


def _add_blocks(blocks: Blocks, grid: np.ndarray) -> list[int]:
    """Add ``blocks`` to ``grid`` (each ``w * A[a] * D[d]`` to every pair) as one product
    of matrices, a row per block over the states any of them names (far fewer sums than
    block by block); returns those attacker states."""
    chain = itertools.chain.from_iterable
    count = len(blocks)
    a_len = [len(la[0]) for _, la, _ in blocks]
    d_len = [len(ld[0]) for _, _, ld in blocks]
    a_states, a_at = np.unique(
        np.fromiter(chain(la[0] for _, la, _ in blocks), np.intp), return_inverse=True
    )
    d_states, d_at = np.unique(
        np.fromiter(chain(ld[0] for _, _, ld in blocks), np.intp), return_inverse=True
    )
    weights = np.fromiter((w for w, _, _ in blocks), float, count)
    att = np.zeros((count, len(a_states)))
    att[np.repeat(np.arange(count), a_len), a_at] = np.fromiter(
        chain(la[1] for _, la, _ in blocks), float
    ) * np.repeat(weights, a_len)
    dfn = np.zeros((count, len(d_states)))
    dfn[np.repeat(np.arange(count), d_len), d_at] = np.fromiter(
        chain(ld[1] for _, _, ld in blocks), float
    )
    # summed in numpy's own loops: a BLAS product would start threads that spin
    grid[a_states[:, None], d_states] += np.einsum("ba,bd->ad", att, dfn)
    return a_states.tolist()


def _merge(into: dict[int, list[float]], key: int, values: list[float], c: float) -> None:
    """``into[key] += c * values``, the list made or lengthened as needed."""
    got = into.get(key)
    if got is None:
        into[key] = [v * c for v in values] if c != 1.0 else values
        return
    if len(got) < len(values):
        got.extend([0.0] * (len(values) - len(got)))
    _add_scaled(got, 0, values, c)


def _chance_of(spread: Spread, state: int) -> float:
    """The chance of ``state`` in ``spread`` (a spread names each state once)."""
    states, probs = spread
    try:
        return probs[states.index(state)]
    except ValueError:
        return 0.0


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
    parts = [spread_of(i) for i in states]
    sizes = [len(js) for js, _ in parts]
    if sum(sizes) < 32:
        out: dict[int, float] = {}
        for w, (js, ps) in zip(probs, parts, strict=True):
            for j, p in zip(js, ps, strict=True):
                out[j] = out.get(j, 0.0) + w * p
        return list(out), list(out.values())
    js = np.fromiter(itertools.chain.from_iterable(j for j, _ in parts), np.intp)
    ps = np.fromiter(itertools.chain.from_iterable(p for _, p in parts), float)
    totals = np.bincount(js, ps * np.repeat(probs, sizes))
    found = np.flatnonzero(np.bincount(js))
    return found.tolist(), totals[found].tolist()


def _let_go(
    grid: np.ndarray,
    going: np.ndarray,
    budget: float,
    pairs: bool = False,
    smallest_first: bool = False,
) -> float:
    """Let go of the rows of ``going`` (the part of ``grid`` still fighting) whose whole
    chance is below :data:`_NEGLIGIBLE` (with ``pairs``, of single pairs), as long as
    what is let go in all stays within ``budget``: it leaves both arrays. Returns what
    is left of the budget. Pairs (rows with ``smallest_first``) are let go from the
    smallest chance up, so that the budget lets go as many as it can: in
    :meth:`_Battle._step_sea` most pairs still fighting after a few cycles hold under
    1e-20 of chance, and taken in grid order the budget ran out on larger ones first."""
    if pairs:
        flat_grid, flat_going = grid.reshape(-1, 1), going.reshape(-1, 1)
        return _let_go(flat_grid, flat_going, budget, smallest_first=True)
    mass = going.sum(axis=1)
    tiny = np.flatnonzero((mass > 0) & (mass < _NEGLIGIBLE))
    if smallest_first:
        tiny = tiny[np.argsort(mass[tiny], kind="stable")]
    drop = tiny[np.cumsum(mass[tiny]) <= budget]
    if len(drop):
        budget -= float(mass[drop].sum())
        grid[drop] -= going[drop]
        going[drop] = 0.0
    return budget


class _Tail:
    """The last cycle of a battle, kept by sums only: what it adds to each attacker
    state (``att``) and defender state (``dfn``) whatever the other side's, and per
    block the sums of its two spreads, from which :meth:`total` gives what it adds
    to any set of pairs made of a set of attacker states and one of defender states
    (a block adds ``c * A[a] * D[d]`` to each pair)."""

    def __init__(self, cycles: list[Blocks], masses: np.ndarray, na: int, nd: int) -> None:
        a_idx: list[int] = []
        a_prob: list[float] = []
        d_idx: list[int] = []
        d_prob: list[float] = []
        weights: list[float] = []
        a_len: list[int] = []
        d_len: list[int] = []
        for blocks, mass in zip(cycles, masses.tolist(), strict=True):
            for w, (ai, ap), (di, dp) in blocks:
                weights.append(w * mass)
                a_idx += ai
                a_prob += ap
                d_idx += di
                d_prob += dp
                a_len.append(len(ai))
                d_len.append(len(di))
        n = len(weights)
        self._a_block = np.repeat(np.arange(n), a_len)
        self._d_block = np.repeat(np.arange(n), d_len)
        self._a_idx, self._d_idx = np.array(a_idx, dtype=np.intp), np.array(d_idx, dtype=np.intp)
        self._a_prob, self._d_prob = np.array(a_prob), np.array(d_prob)
        self._c = np.array(weights)
        self._n = n
        a_sum = np.bincount(self._a_block, self._a_prob, minlength=n)
        d_sum = np.bincount(self._d_block, self._d_prob, minlength=n)
        self.att = np.bincount(
            self._a_idx, self._a_prob * (self._c * d_sum)[self._a_block], minlength=na
        )
        self.dfn = np.bincount(
            self._d_idx, self._d_prob * (self._c * a_sum)[self._d_block], minlength=nd
        )

    def total(self, a_part: np.ndarray, d_part: np.ndarray) -> float:
        """What the cycle adds to the pairs of an attacker state in ``a_part`` and a
        defender state in ``d_part`` (both masks over the states)."""
        a_in = np.bincount(self._a_block, self._a_prob * a_part[self._a_idx], minlength=self._n)
        d_in = np.bincount(self._d_block, self._d_prob * d_part[self._d_idx], minlength=self._n)
        return float((self._c * a_in * d_in).sum())


def _cells(
    blocks: Blocks, nd: int, arrays: Callable[[Spread], tuple[np.ndarray, np.ndarray]]
) -> tuple[np.ndarray, np.ndarray]:
    """A cycle's outcome as the cells ``a * nd + d`` of a grid and their chances;
    ``arrays`` gives a spread as arrays (:meth:`_Battle._arrays`)."""
    cells, chances = [], []
    for w, la, ld in blocks:
        ai, ap = arrays(la)
        di, dp = arrays(ld)
        cells.append((ai[:, None] * nd + di).ravel())
        chances.append((ap[:, None] * (dp * w)).ravel())
    if len(cells) == 1:
        return cells[0], chances[0]
    return np.concatenate(cells), np.concatenate(chances)


def _push_array(blocks: Blocks, scale: float, live: np.ndarray) -> None:
    """:func:`_push` into an array (no state appears twice in a spread)."""
    for w, (ai, ap), (di, dp) in blocks:
        live[np.ix_(ai, di)] += np.outer(ap, dp) * (w * scale)


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
