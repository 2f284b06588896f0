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
therefore processed from the most hit points down, each once, with their probability
mass in one flat array; the chance that a cycle changes nothing is divided out (a
geometric series), which makes an unlimited battle exact. With a cycle limit the
cycles are stepped through one by one instead.

>>> r = battle_odds({"infantry": 1}, {})
>>> r.attacker_win
1.0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping
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
        self._losses: dict[tuple[int, int], list[tuple[int, float]]] = {}

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
        got = (_dice_dist(groups), _dice_dist(air_groups) if restricted else None)
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

    def losses(self, i: int, enemy: _Side, enemy_firing: int) -> list[tuple[int, float]]:
        """Distribution of this side after taking the enemy's step 4/5 fire."""
        key = (i, enemy_firing)
        got = self._losses.get(key)
        if got is not None:
            return got
        main, air = enemy.fire(enemy_firing)
        if air is None:
            got = self._spread(i, main, FIRE)
        else:
            out: dict[int, float] = {}
            for i1, pa in self._spread(i, air, _NON_SUB):
                for j, p in self._spread(i1, main, FIRE):
                    out[j] = out.get(j, 0.0) + pa * p
            got = list(out.items())
        self._losses[key] = got
        return got

    def _spread(self, i: int, dist: Dist, source: str) -> list[tuple[int, float]]:
        """Hits distributed by ``dist`` turned into the distribution of states."""
        chain = self.chain(i, source)
        last = len(chain) - 1
        if len(dist) <= last + 1:
            return [(chain[h], p) for h, p in enumerate(dist) if p]
        out = [(chain[h], dist[h]) for h in range(last) if dist[h]]
        out.append((chain[last], sum(dist[last:])))
        return out

    def after_hits(self, i: int, dist: Dist, source: str) -> list[tuple[int, float]]:
        return self._spread(i, dist, source)

    def aa_losses(self, i: int, hit_on: int) -> list[tuple[int, float]]:
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
        return [(self.number(s), p) for s, p in out]


#: a cycle's outcome as blocks: each (weight, attacker distribution, defender
#: distribution) adds weight * P(attacker state) * P(defender state) to each pair
Blocks = list[tuple[float, list[tuple[int, float]], list[tuple[int, float]]]]


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

    def cycle(self, a: int, d: int, first: bool) -> Blocks:
        """One combat cycle from (a, d): steps 2-6 of Revised: Combat Sequence."""
        att, dfn = self.att, self.dfn
        a_open: list[tuple[int, float]] = [(a, 1.0)]
        d_open: list[tuple[int, float]] = [(d, 1.0)]
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
            # step 3: a destroyer at the start of the cycle keeps sub casualties firing
            protect_a, protect_d = att.destroyer[a], dfn.destroyer[d]
        blocks: Blocks = []
        for a1, pa in a_open:
            fire_a = a if protect_a else a1
            for d1, pd in d_open:
                fire_d = d if protect_d else d1
                blocks.append((pa * pd, att.losses(a1, dfn, fire_d), dfn.losses(d1, att, fire_a)))
        return blocks

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
        att, dfn = self.att, self.dfn
        na, nd = len(att.states), len(dfn.states)
        ending = [[self.ending(a, d) for d in range(nd)] for a in range(na)]
        done = [0.0] * (na * nd)  # mass of battles over in each pair
        expected_rounds = 1.0
        processed = 0

        def spread(blocks: Blocks, scale: float, live: list[float]) -> None:
            for w, la, ld in blocks:
                for a2, x in la:
                    c = w * x * scale
                    base = a2 * nd
                    row = ending[a2]
                    for d2, y in ld:
                        if row[d2]:
                            done[base + d2] += c * y
                        else:
                            live[base + d2] += c * y

        if rounds is not None:
            live = [0.0] * (na * nd)
            spread(self.cycle(att.start, dfn.start, first=True), 1.0, live)
            memo: dict[int, Blocks] = {}
            for _ in range(rounds - 1):
                nxt = [0.0] * (na * nd)
                total = 0.0
                for p, m in enumerate(live):
                    if m:
                        total += m
                        blocks = memo.get(p)
                        if blocks is None:
                            blocks = memo[p] = self.cycle(p // nd, p % nd, first=False)
                        spread(blocks, m, nxt)
                expected_rounds += total
                live = nxt
            processed = len(memo) + 1
            for p, m in enumerate(live):
                if m:
                    done[p] += m
                    ending[p // nd][p % nd] = _LEFT  # the attacker withdraws
        else:
            live = [0.0] * (na * nd)
            spread(self.cycle(att.start, dfn.start, first=True), 1.0, live)
            # every hit lowers the hit points on the board: go from the most down
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
                        base = a * nd
                        for d in d_list:
                            m = live[base + d]
                            if not m:
                                continue
                            processed += 1
                            blocks = self.cycle(a, d, first=False)
                            stay = 0.0
                            for w, la, ld in blocks:
                                x = next((q for s, q in la if s == a), 0.0)
                                if x:
                                    stay += w * x * next((q for s, q in ld if s == d), 0.0)
                            if stay >= 1.0 - 1e-15:
                                # neither side can ever hit the other: the attacker leaves
                                done[base + d] += m
                                ending[a][d] = _LEFT
                                live[base + d] = 0.0
                                continue
                            scale = m / (1.0 - stay)
                            expected_rounds += scale
                            spread(blocks, scale, live)
                            live[base + d] = 0.0  # drop the self-loop share: divided out

        totals = {_WIN: 0.0, _LOSS: 0.0, _DRAW: 0.0, _LEFT: 0.0}
        att_surv: dict[Survivors, float] = {}
        def_surv: dict[Survivors, float] = {}
        for p, m in enumerate(done):
            if not m:
                continue
            a, d = divmod(p, nd)
            totals[ending[a][d]] += m
            ka, kd = att.survivors(a), dfn.survivors(d)
            att_surv[ka] = att_surv.get(ka, 0.0) + m
            def_surv[kd] = def_surv.get(kd, 0.0) + m
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
