"""Exact odds of an A&A: North Africa land battle, as ``land_combat`` fights it.

A Markov chain over the surviving forces (like ``engine/games/aa_revised/odds.py`` for
Revised): each state is what is left of each side; a round moves it to the states its
dice allow, each with its exact probability; the chance of every end is summed.

The battle as fought (Phase 4, Conduct Combat, L724-865; the unit profiles L1087-1297):

- Air Defense first (L732, L1147-1149): each defending unit with Air Defense (AAA, German
  anti-tank guns, RULINGS: A41) fires up to 3 shots, no more shots than attacking air
  units, each hitting on 2 or less; the attacker loses air units in its order (below);
- each round the attackers roll (step 2): a unit hits on its attack value or less on a
  d10 (L785); each artillery raises one infantry or mechanized infantry to 3, flanking
  units first (L1121-1123; RULINGS: artillery pairing); a flanking unit rerolls 8, 9 and
  10 until it rolls 1-7 (L740), so it hits with chance value/7;
- targeted hits (RULINGS: targeted fire): in the first round anti-tank guns' hits fall on
  the other side's tanks, attacking or defending (L1137), and attacking scout cars' hits
  on air units (L1179); German bombers' hits on the kind of defending land unit the
  attacker names (L1245) - here always the kind last in the defender's default order
  (its strongest), whatever order of loss the defender is given; a targeted hit with no
  such unit left falls like any other;
- the defenders roll (step 3), casualties of step 2 included (L785, L801); a defensive
  bonus (Tobruk, Mareth against Tripoli, L495, L807) rerolls a 9 or 10 once;
- scout cars break off after the first round (Hit and Run, L839, L1167);
- Vichy defenders that score no hit in a round surrender (L1071-1073).

Assumptions, stated because the rules leave them to the players:

- the defender fights every round and the attacker presses every round with every unit
  (both have the supply, L763, L835), until one side is gone; no retreats, no mines, no
  Collateral Damage;
- each side loses units in a fixed order (the owner's choice, L785): the attacker its
  lowest attack value first, then the cheapest, main-attack units before flanking ones
  (flanking units hit more often); the defender its lowest defence value first, then the
  cheapest; ties by chart row. :func:`attacker_order` and :func:`defender_order` give
  them, for a player or a simulation to follow; ``land_odds(attacker_loses=...,
  defender_loses=...)`` takes the order a player gives instead (units it does not name
  follow in the default order). The chain takes every loss in the order of its classes,
  so a given order changes nothing else.

Speed: the rounds after the first are taken a level (units left on both sides) at a time,
every state of the level in a few array operations (``_Chain._level_all``), grouped by the
defenders' size so that hits past what the other side has are summed into one column;
``_Chain._level``, one attacking composition at a time, is the reference the tests hold
it to (``tests/aa_na/test_odds_reference.py``). Nothing is dropped but the hit-grid cells
below :data:`PRUNE`, as before.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from engine.games.aa_na.context import chart, has

#: chances below this are dropped as they arise (the lost total stays far below 1e-9)
PRUNE = 1e-15
#: an attacking class: (chart row, flanking)
AClass = tuple[str, bool]


@dataclass(frozen=True)
class Odds:
    """The chances of each end of the battle, and the forces expected to be left."""

    #: every defender destroyed (or surrendered) with attackers left
    attacker: float
    #: the defenders hold: the attackers are all destroyed or only scout cars were left
    defender: float
    #: both sides destroyed in the same round
    mutual: float
    #: attacking land units other than scout cars are left to move in (L853)
    taken: float
    #: chart row -> units of each side expected to be left at the end
    attacker_left: dict[str, float]
    defender_left: dict[str, float]
    #: the compositions of the attackers met times those of the defenders (the size
    #: of the chain's grid of states)
    states: int


def attacker_key(row: str, flank: bool = False) -> tuple:
    u = chart()[row]
    return (u.attack or 0, u.cost or 99, flank, row)


def defender_key(row: str) -> tuple:
    u = chart()[row]
    return (u.defense or 0, u.cost or 99, row)


def _named_rank(name: str, row: str) -> bool:
    """Whether a name of a casualty order (a chart row such as ``ger.tank``, or a unit
    kind such as ``tank``) names chart row ``row``."""
    return name == row or name == chart()[row].type


def check_loss_order(names: Sequence[str] | None, what: str) -> list[str]:
    """The names of a given casualty order, each a chart row or a unit kind, or
    ``ValueError`` with one sentence naming the first that is neither."""
    rows = chart()
    kinds = {u.type for u in rows.values()}
    out = []
    for n in names or ():
        if n not in rows and n not in kinds:
            raise ValueError(
                f"The {what}'s casualty order names {n!r}, which is neither a unit of the "
                f"charts (as 'ger.tank') nor a kind of unit (as 'tank')."
            )
        out.append(n)
    return out


def attacker_order(classes: list[AClass], given: Sequence[str] | None = None) -> list[AClass]:
    """The order the attacker loses its units in: the classes ``given`` names first, in
    the order named (a name covers main and flanking units alike), then the rest in the
    default order (the assumption above; L785 leaves the choice to the owner)."""
    return _ordered(classes, given, lambda c: c[0], lambda c: attacker_key(*c))


def defender_order(rows: list[str], given: Sequence[str] | None = None) -> list[str]:
    """The order the defender loses its units in: the rows ``given`` names first, in the
    order named, then the rest in the default order (the assumption above, L785)."""
    return _ordered(rows, given, lambda r: r, defender_key)


def _ordered(items, given, row_of, key):  # noqa: ANN001, ANN202
    names = list(given or ())

    def rank(item) -> tuple:  # noqa: ANN001
        row = row_of(item)
        first = next((i for i, n in enumerate(names) if _named_rank(n, row)), len(names))
        return (first, key(item))

    return sorted(items, key=rank)


def aim(rows: Mapping[str, int]) -> str | None:
    """The kind of defending land unit German bomber hits are aimed at: the one last in
    the defender's order among those present (``None`` when no land unit is left)."""
    land = [r for r, n in rows.items() if n > 0 and chart()[r].kind == "land"]
    return chart()[sorted(land, key=defender_key)[-1]].type if land else None


@cache
def _binom(n: int, p: float) -> np.ndarray:
    """The chances of 0..n hits from n dice hitting with chance p each (read only)."""
    out = np.zeros(n + 1)
    out[0] = 1.0
    for _ in range(n):
        out[1:] = out[1:] * (1 - p) + out[:-1] * p
        out[0] *= 1 - p
    out.flags.writeable = False
    return out


def _conv(parts: list[np.ndarray]) -> np.ndarray:
    out = np.ones(1)
    for p in parts:
        out = np.convolve(out, p)
    return out


def land_odds(
    main: Mapping[str, int],
    defenders: Mapping[str, int],
    flank: Mapping[str, int] | None = None,
    *,
    bonus: tuple[int, ...] = (),
    vichy: bool = False,
    attacker_loses: Sequence[str] | None = None,
    defender_loses: Sequence[str] | None = None,
) -> Odds:
    """The exact odds of a land battle: ``main`` and ``flank`` attacking units (air units
    belong in ``main``: they never flank) and ``defenders``, each as chart row -> count
    (``ger.tank``); ``bonus`` the defender's reroll results (``(9, 10)`` at Tobruk);
    ``vichy`` when the defenders are Vichy French. ``attacker_loses`` and
    ``defender_loses`` are each side's casualty order (the owner's choice, L785): chart
    rows or unit kinds, first lost first; units not named follow in the default order
    (:func:`attacker_order`, :func:`defender_order`)."""
    return _odds(main, defenders, flank, bonus, vichy, attacker_loses, defender_loses, batched=True)


def _odds(
    main: Mapping[str, int],
    defenders: Mapping[str, int],
    flank: Mapping[str, int] | None,
    bonus: tuple[int, ...],
    vichy: bool,
    attacker_loses: Sequence[str] | None = None,
    defender_loses: Sequence[str] | None = None,
    *,
    batched: bool,
) -> Odds:
    """:func:`land_odds`; ``batched`` moves every state of a level in one step
    (``_Chain._level_all``), otherwise one attacking composition at a time
    (``_Chain._level``, the slower reference the tests hold the batched one to)."""
    rows = chart()
    for r in [*main, *(flank or {}), *defenders]:
        if r not in rows:
            raise ValueError(f"There is no unit {r!r} on the reference charts.")
    a_given = check_loss_order(attacker_loses, "attacker")
    d_given = check_loss_order(defender_loses, "defender")
    aclasses = attacker_order(
        [(r, False) for r, n in main.items() if n > 0]
        + [(r, True) for r, n in (flank or {}).items() if n > 0],
        a_given,
    )
    dclasses = defender_order([r for r, n in defenders.items() if n > 0], d_given)
    a0 = tuple((main if not f else flank or {})[r] for r, f in aclasses)
    d0 = tuple(defenders[r] for r in dclasses)
    return _Chain(aclasses, dclasses, bonus, vichy, batched).run(a0, d0)


class _Chain:
    def __init__(
        self,
        ac: list[AClass],
        dc: list[str],
        bonus: tuple[int, ...],
        vichy: bool,
        batched: bool = True,
    ) -> None:
        rows = chart()
        self.ac, self.dc, self.vichy, self.batched = ac, dc, vichy, batched
        self.a_air = [i for i, (r, _) in enumerate(ac) if rows[r].kind == "air"]
        self.a_scout = [i for i, (r, _) in enumerate(ac) if rows[r].type == "scout_car"]
        self.a_land = [
            i for i, (r, _) in enumerate(ac) if rows[r].kind == "land" and i not in self.a_scout
        ]
        self.arts = [i for i, (r, _) in enumerate(ac) if has(r, "Supports Infantry")]
        self.backed = sorted(
            (i for i, (r, _) in enumerate(ac) if has(r, "Supported by Artillery")),
            key=lambda i: (not ac[i][1], ac[i][0]),
        )
        self.d_air = [i for i, r in enumerate(dc) if rows[r].kind == "air"]
        self.d_kind = [rows[r].type if rows[r].kind == "land" else None for r in dc]
        self.d_guns = [i for i, r in enumerate(dc) if has(r, "Air Defense")]
        self.d_at = [i for i, r in enumerate(dc) if has(r, "Targeted Fire - Tanks")]
        self.a_tanks = [
            i for i, (r, _) in enumerate(ac) if rows[r].kind == "land" and rows[r].type == "tank"
        ]
        p = []
        for r in dc:
            v = rows[r].defense or 0
            base = min(v, 10) / 10
            again = sum(1 for x in bonus if x > v) / 10
            p.append(base + again * base)
        self.d_p = p
        self.a_index: dict[tuple[int, ...], int] = {}
        self.d_index: dict[tuple[int, ...], int] = {}
        self.a_list: list[tuple[int, ...]] = []
        self.a_size: list[int] = []
        self.d_list: list[tuple[int, ...]] = []
        self.d_size: list[int] = []
        self._grid: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._dmap: dict[int, np.ndarray] = {}
        self.n_any = 1
        self.n_bomb = 1
        self.n_def = 1
        self._hpad: dict[int, np.ndarray] = {}
        self._fronts: dict[int, np.ndarray] = {}
        self._filled = np.zeros(0, dtype=bool)
        self._dm_all = np.zeros((0, 1), dtype=np.intp)
        self._h_all = np.zeros((0, 1))
        self._lossv: dict[int, np.ndarray] = {}
        self._after: dict[tuple[int, ...], dict[tuple[int, int, int, int], int]] = {}
        # per attacking composition (rows filled as first needed): the not negligible
        # cells of its hit grid (ascending; past the last, the grid's size) with their
        # chances, and where k losses leave it
        self._a_filled = np.zeros(0, dtype=bool)
        self._g_at = np.zeros((0, 1), dtype=np.intp)
        self._g_p = np.zeros((0, 1))
        self._loss_all = np.zeros((0, 1), dtype=np.intp)

    # -- compositions ---------------------------------------------------------------

    def ai(self, a: tuple[int, ...]) -> int:
        i = self.a_index.get(a)
        if i is None:
            i = self.a_index[a] = len(self.a_list)
            self.a_list.append(a)
            self.a_size.append(sum(a))
        return i

    def di(self, d: tuple[int, ...]) -> int:
        i = self.d_index.get(d)
        if i is None:
            i = self.d_index[d] = len(self.d_list)
            self.d_list.append(d)
            self.d_size.append(sum(d))
        return i

    @staticmethod
    def _lose(counts: tuple[int, ...], k: int, among: list[int] | None = None) -> tuple[int, ...]:
        out = list(counts)
        for i in among if among is not None else range(len(out)):
            if k <= 0:
                break
            take = min(k, out[i])
            out[i] -= take
            k -= take
        return tuple(out)

    # -- the attackers' dice ----------------------------------------------------------

    def a_hits(self, a: tuple[int, ...], first: bool) -> dict[tuple[int, int, int, int], float]:
        """(any, tanks, air, bomber-aimed) hits -> chance."""
        return self._a_hits(a, first)

    @cache  # noqa: B019 - one chain, a handful of compositions
    def _a_hits(self, a: tuple[int, ...], first: bool) -> dict[tuple[int, int, int, int], float]:
        dists = self._a_dists(a, first)
        out: dict[tuple[int, int, int, int], float] = {}
        for x, px in enumerate(dists[0]):
            for t, pt in enumerate(dists[1]):
                for y, py in enumerate(dists[2]):
                    for z, pz in enumerate(dists[3]):
                        q = px * pt * py * pz
                        if q > 0:
                            out[(x, t, y, z)] = q
        return out

    def a_grid(self, ia: int) -> tuple[np.ndarray, np.ndarray]:
        """After the first round only plain and bomber-aimed hits are left: where their
        chances over the grid (any x bomber, flattened) are not negligible, and those
        chances; cached by composition."""
        hit = self._grid.get(ia)
        if hit is None:
            d0, _, _, d3 = self._a_dists(self.a_list[ia], False)
            grid = np.zeros((self.n_any, self.n_bomb))
            grid[: len(d0), : len(d3)] = np.outer(d0, d3)
            flat = grid.ravel()
            where = np.flatnonzero(flat > PRUNE)
            hit = self._grid[ia] = (where, flat[where])
        return hit

    def _a_dists(self, a: tuple[int, ...], first: bool) -> list[np.ndarray]:
        rows = chart()
        support = sum(a[i] for i in self.arts)
        values = {}
        for i in self.backed:
            n = a[i]
            lifted = min(n, support)
            support -= lifted
            values[i] = (lifted, n - lifted)
        groups: list[list[np.ndarray]] = [[], [], [], []]
        for i, (r, flank) in enumerate(self.ac):
            n = a[i]
            if not n or (i in self.a_scout and not first):
                continue
            v = rows[r].attack or 0
            if not v:
                continue
            if first and has(r, "Targeted Fire - Tanks"):
                cat = 1
            elif has(r, "Targeted Attack - Air Units"):
                cat = 2
            elif has(r, "Targeted Attack - Combat Land Units"):
                cat = 3
            else:
                cat = 0
            parts = [(n, v)]
            if i in values:
                lifted, rest = values[i]
                parts = [(lifted, max(v, 3)), (rest, v)]
            for m, val in parts:
                if m:
                    p = min(val, 7) / 7 if flank else min(val, 10) / 10
                    groups[cat].append(_binom(m, p))
        return [_conv(g) for g in groups]

    def d_after(self, d: tuple[int, ...], hits: tuple[int, int, int, int]) -> tuple[int, ...]:
        """The defenders left after the attackers' hits, taken as the defender's order says:
        targeted hits on their targets where there are any, the rest in order (L785)."""
        anyh, tanks, air, bomber = hits
        out = list(d)
        rows_named = {self.dc[i]: n for i, n in enumerate(d)}
        target = aim(rows_named) if bomber else None
        demands = {"tank": tanks}
        if target is not None:
            demands[target] = demands.get(target, 0) + bomber
        else:
            anyh += bomber
        for kind, k in demands.items():
            for i in range(len(out)):
                if self.d_kind[i] == kind and k:
                    take = min(k, out[i])
                    out[i] -= take
                    k -= take
            anyh += k
        k = air
        for i in self.d_air:
            take = min(k, out[i])
            out[i] -= take
            k -= take
        anyh += k
        return self._lose(tuple(out), anyh)

    @cache  # noqa: B019
    def d_hits_first(self, d: tuple[int, ...]) -> dict[tuple[int, int], float]:
        """The defenders' first-round hits: (plain, anti-tank) -> chance; defending
        anti-tank guns' hits fall on attacking tanks where there are any (L1137)."""
        plain = _conv(
            [
                _binom(n, self.d_p[i])
                for i, n in enumerate(d)
                if n and self.d_p[i] > 0 and i not in self.d_at
            ]
        )
        at = _conv([_binom(d[i], self.d_p[i]) for i in self.d_at if d[i] and self.d_p[i] > 0])
        return {
            (k, t): float(p * r) for k, p in enumerate(plain) for t, r in enumerate(at) if p * r > 0
        }

    def _lose_tanks_first(self, a: tuple[int, ...], tanks: int) -> tuple[tuple[int, ...], int]:
        """The attackers after ``tanks`` hits aimed at their tanks (in their order), and
        the hits left over for want of tanks."""
        out = list(a)
        for i in self.a_tanks:
            take = min(tanks, out[i])
            out[i] -= take
            tanks -= take
        return tuple(out), tanks

    @cache  # noqa: B019
    def d_hits(self, d: tuple[int, ...]) -> np.ndarray:
        return _conv([_binom(n, self.d_p[i]) for i, n in enumerate(d) if n and self.d_p[i] > 0])

    # -- the chain --------------------------------------------------------------------

    def step(self, ia: int, id_: int, first: bool):
        """The first round from state (ia, id_), the one with anti-tank and scout-car
        fire: the attackers' next compositions with their chances (and whether the
        defenders scored no hit), and the defenders'. The two sides' losses are
        independent given the state. Later rounds go a level at a time (``_level``)."""
        a, d = self.a_list[ia], self.d_list[id_]
        pa: dict[tuple[int, bool], float] = {}
        for (k, tanks), q in self.d_hits_first(d).items():
            if q <= 0:
                continue
            a2 = self._lose_tanks_first(a, tanks)
            a2 = self._lose(a2[0], k + a2[1])
            # Hit and Run: the scout cars break off after the first round
            a2 = tuple(0 if i in self.a_scout else n for i, n in enumerate(a2))
            key = (self.ai(a2), k + tanks == 0)
            pa[key] = pa.get(key, 0.0) + q
        pd: dict[int, float] = {}
        after = self._after.setdefault(d, {})
        for hits, q in self.a_hits(a, first).items():
            j = after.get(hits)
            if j is None:
                j = after[hits] = self.di(self.d_after(d, hits))
            pd[j] = pd.get(j, 0.0) + q
        return pa, pd

    def run(self, a0: tuple[int, ...], d0: tuple[int, ...]) -> Odds:
        self.n_any = 1 + sum(a0)
        self.n_def = 1 + sum(d0)
        self.n_bomb = 1 + sum(
            n
            for (r, _), n in zip(self.ac, a0, strict=True)
            if has(r, "Targeted Attack - Combat Land Units")
        )
        # Air Defense: shots at the attacking air, losses in the attacker's order
        start: dict[tuple[int, ...], float] = {}
        guns = sum(d0[i] for i in self.d_guns)
        air = sum(a0[i] for i in self.a_air)
        shots = min(3 * guns, air) if air else 0
        for k, q in enumerate(_binom(shots, 0.2)):
            a = self._lose(a0, k, self.a_air)
            start[a] = start.get(a, 0.0) + q
        self.mass = np.zeros((16, 16))
        self.surrendered: dict[int, float] = {}
        d0i = self.di(d0)
        self.d_none = self.di(tuple(0 for _ in d0))
        for a, q in start.items():
            ia = self.ai(a)
            if not sum(a):
                self._add(ia, d0i, q)
                continue
            if self.batched:
                self._first_all(ia, d0i, q)
            else:
                self._first(ia, d0i, q)
        # each later round leaves fewer units: the fullest states first, each once
        for total in range(sum(a0) + sum(d0), 1, -1):
            na = np.array(self.a_size)
            nd = np.array(self.d_size)
            m = self.mass[: len(na), : len(nd)]
            level = (na[:, None] + nd[None, :] == total) & (m > 0)
            level &= (na[:, None] > 0) & (nd[None, :] > 0)
            rows, cols = np.nonzero(level)
            if not len(rows):
                continue
            if self.batched:
                self._level_all(rows, cols)
                continue
            cuts = np.flatnonzero(np.diff(rows)) + 1
            for ia, ids in zip(rows[np.r_[0, cuts]], np.split(cols, cuts), strict=True):
                self._level(int(ia), ids)
        ends: dict[tuple[int, int], float] = {}
        m = self.mass[: len(self.a_list), : len(self.d_list)]
        for ia, id_ in zip(*np.nonzero(m), strict=True):
            if not sum(self.a_list[ia]) or not self.d_size[id_]:
                ends[(int(ia), int(id_))] = float(m[ia, id_])
        return self._summary(ends, self.surrendered)

    def _level(self, ia: int, ids: np.ndarray) -> None:
        """A later round from every state (ia, id) of one level sharing the attackers'
        composition ``ia``, at once: the defenders' hits are a matrix over (state, k),
        the defenders' next compositions a matrix over (state, next), and the mass moves
        as their product; a state's chance of coming back to itself (no hit on either
        side) is folded in as a geometric series."""
        q = self.mass[ia, ids]
        # the defenders' next compositions, P[i, jd], from the attackers' hits
        where, probs = self.a_grid(ia)
        dm = self._dm_rows(ids, where)
        width = len(self.d_list)
        flat = (np.arange(len(ids))[:, None] * width + dm).ravel()
        P = np.bincount(flat, weights=np.tile(probs, len(ids)), minlength=len(ids) * width)
        P = P.reshape(len(ids), width)
        # the defenders' hits, H[i, k], and where k losses leave the attackers
        H = self._h_all[ids]
        losses = self._losses_to(ia)
        if self.vichy:  # Vichy defenders that score no hit surrender (L1071-1073)
            alive = np.array(self.d_size, dtype=float) > 0
            zero = (q * H[:, 0]) @ P
            self.surrendered[ia] = self.surrendered.get(ia, 0.0) + float(zero[alive].sum())
            H = H.copy()
            H[:, 0] = 0.0
            self._grow()
            self.mass[ia, :width][~alive] += zero[~alive]
            w = q
        else:
            stay = H[:, 0] * P[np.arange(len(ids)), ids]
            w = q / (1.0 - stay)
        C = (H * w[:, None]).T @ P
        # k losses and more than the attackers have all leave nobody: one row
        cut = sum(self.a_list[ia]) + 1
        if cut < len(C):
            C[cut - 1] += C[cut:].sum(axis=0)
        self._grow()
        self.mass[losses[:cut], :width] += C[:cut]
        self.mass[ia, ids] = 0.0

    def _level_all(self, ia: np.ndarray, id_: np.ndarray) -> None:
        """A later round from every state (ia[s], id_[s]) of one level at once, the same
        moves as ``_level``: from state s, k defender hits (chance H[s, k]) leave the
        attackers ``ja[s, k]`` and grid cell g of the attackers' hits (chance G[s, g])
        leaves the defenders ``jd[s, g]``, the two independent; every (s, k, g) is one
        weighted count into the mass grid. A state's chance of coming back to itself is
        folded in as a geometric series, as in ``_level``."""
        self._fill(np.unique(id_))
        self._fill_a(np.unique(ia))
        self._grow()
        d_size = np.array(self.d_size)
        # one block per defenders' size: every state of a block has as many defender
        # hits possible, and its attackers as many grid cells, so the blocks pad little
        size = d_size[id_]
        total = int(size[0]) + self.a_size[int(ia[0])]
        for n in np.unique(size).tolist():
            self._block(ia[size == n], id_[size == n], d_size, n, total - n)
        self.mass[ia, id_] = 0.0

    def _block(self, ia: np.ndarray, id_: np.ndarray, d_size: np.ndarray, nd: int, na: int) -> None:
        """``_level_all`` for the states with ``na`` attackers and ``nd`` defenders.
        Defender hits beyond ``na`` leave no attacker and attacker hits beyond ``nd`` no
        defender, so both tails are summed into one column each."""
        q = self.mass[ia, id_]
        S = len(ia)
        K = min(nd, na) + 1
        H = self._h_all[id_, : nd + 1]
        if K < nd + 1:
            H = np.concatenate([H[:, : K - 1], H[:, K - 1 :].sum(axis=1, keepdims=True)], 1)
        ja = self._loss_all[ia, :K]
        # grid cells (ascending) of nd or more plain hits leave no defender
        cut = min(nd * self.n_bomb, self._g_at.shape[1])
        g_all = self._g_at[ia]
        low = g_all < cut
        G = int(low.sum(axis=1).max())
        at = g_all[:, :G]
        gp = np.empty((S, G + 1))
        np.multiply(self._g_p[ia, :G], low[:, :G], out=gp[:, :G])
        gp[:, G] = (self._g_p[ia] * ~low).sum(axis=1)
        jd = np.empty((S, G + 1), dtype=np.intp)
        # (a cell past the low ones has no chance here: any map entry will do)
        jd[:, :G] = self._dm_all[id_[:, None], np.minimum(at, cut - 1)]
        jd[:, G] = self.d_none
        if self.vichy:  # Vichy defenders that score no hit surrender (L1071-1073)
            zero = (q * H[:, 0])[:, None] * gp
            alive = d_size[jd] > 0
            gone = np.bincount(ia, weights=(zero * alive).sum(axis=1))
            for j in np.flatnonzero(gone).tolist():
                self.surrendered[j] = self.surrendered.get(j, 0.0) + float(gone[j])
            # no hit and no defender left: the attacker's win, nobody surrenders
            np.add.at(self.mass, (np.broadcast_to(ia[:, None], jd.shape), jd), zero * ~alive)
            H = H.copy()
            H[:, 0] = 0.0
            w = q
        else:
            stay = H[:, 0] * (gp * (jd == id_[:, None])).sum(axis=1)
            w = q / (1.0 - stay)
        weight = (H * w[:, None])[:, :, None] * gp[:, None, :]
        cell = (ja * self.mass.shape[1])[:, :, None] + jd[:, None, :]
        np.add.at(self.mass.ravel(), cell.ravel(), weight.ravel())

    def _chain_down(self, ia: int) -> list[int]:
        """``_losses_to``, one loss at a time down the attacker's order."""
        a = list(self.a_list[ia])
        out = [ia]
        i = 0
        while len(out) < self.n_def:
            while i < len(a) and not a[i]:
                i += 1
            if i == len(a):
                out += [out[-1]] * (self.n_def - len(out))
                break
            a[i] -= 1
            out.append(self.ai(tuple(a)))
        return out

    def _fill_a(self, ias: np.ndarray) -> None:
        """Keep, for every attacking composition met, its grid cells and chances
        (``a_grid``) and its row of ``_losses_to`` in arrays (rows filled as needed)."""
        n = len(self.a_list)
        if len(self._a_filled) < n:
            cap = max(2 * n, 64)
            cells = self.n_any * self.n_bomb

            def grown(old: np.ndarray, cols: int, dtype: type) -> np.ndarray:
                new = np.zeros((cap, cols), dtype=dtype)
                new[: len(old), : old.shape[1]] = old
                return new

            self._a_filled = np.concatenate(
                [self._a_filled, np.zeros(cap - len(self._a_filled), bool)]
            )
            self._g_at = grown(self._g_at, cells, np.intp)
            self._g_p = grown(self._g_p, cells, float)
            self._loss_all = grown(self._loss_all, self.n_def, np.intp)
        for i in ias[~self._a_filled[ias]].tolist():
            where, probs = self.a_grid(i)
            self._g_at[i] = self._g_at.shape[1]  # past every cell: no hit there
            self._g_at[i, : len(where)] = where
            self._g_p[i, : len(where)] = probs
            self._loss_all[i] = self._chain_down(i)
            self._a_filled[i] = True

    def _dm_rows(self, ids: np.ndarray, where: np.ndarray) -> np.ndarray:
        """For each defending composition in ``ids``: the composition each of the hits
        ``where`` (indices into the any x bomber grid) leaves."""
        self._fill(ids)
        return self._dm_all[ids][:, where]

    def _fill(self, ids: np.ndarray) -> None:
        """Keep, for every defending composition met, its row of hit chances and its map
        from hits to next compositions in two arrays (rows filled as first needed)."""
        n = len(self.d_list)
        if len(self._filled) < n:
            cap = max(2 * n, 64)
            self._filled = np.concatenate([self._filled, np.zeros(cap - len(self._filled), bool)])
            dm = np.zeros((cap, self.n_any * self.n_bomb), dtype=np.intp)
            dm[: len(self._dm_all)] = self._dm_all
            h = np.zeros((cap, self.n_def))
            h[: len(self._h_all)] = self._h_all
            self._dm_all, self._h_all = dm, h
        for i in ids[~self._filled[ids]].tolist():
            self._dm_all[i] = self._dmap_of(i)
            self._h_all[i] = self._d_hits_padded(i)
            self._filled[i] = True
        if len(self._filled) < len(self.d_list):  # rows met while filling: room for them
            self._fill(ids[:0])

    def _dmap_of(self, id_: int) -> np.ndarray:
        """Where each (any, bomber) hit of the grid leaves the defenders ``id_``: the
        bomber hits first (on the kind aimed at, or in order), then the rest in order."""
        dmap = self._dmap.get(id_)
        if dmap is None:
            d = self.d_list[id_]
            grid = np.empty((self.n_any, self.n_bomb), dtype=np.intp)
            for b in range(self.n_bomb):
                bombed = self.di(self.d_after(d, (0, 0, 0, b))) if b else id_
                grid[:, b] = self._front(bombed)
            dmap = self._dmap[id_] = grid.ravel()
        return dmap

    def _front(self, id_: int) -> np.ndarray:
        """Where 0, 1, 2... plain hits leave the defenders ``id_`` (in their order)."""
        hit = self._fronts.get(id_)
        if hit is None:
            d = list(self.d_list[id_])
            out = [id_]
            i = 0
            while len(out) < self.n_any:
                while i < len(d) and not d[i]:
                    i += 1
                if i == len(d):  # nobody left: more hits change nothing
                    out += [out[-1]] * (self.n_any - len(out))
                    break
                d[i] -= 1
                out.append(self.di(tuple(d)))
            hit = self._fronts[id_] = np.array(out, dtype=np.intp)
        return hit

    def _d_hits_padded(self, id_: int) -> np.ndarray:
        hit = self._hpad.get(id_)
        if hit is None:
            h = self.d_hits(self.d_list[id_])
            hit = self._hpad[id_] = np.zeros(self.n_def)
            hit[: len(h)] = h
        return hit

    def _losses_to(self, ia: int) -> np.ndarray:
        """Where k losses (k = 0 .. every defender hitting) leave the attackers."""
        hit = self._lossv.get(ia)
        if hit is None:
            a = self.a_list[ia]
            hit = self._lossv[ia] = np.array([self.ai(self._lose(a, k)) for k in range(self.n_def)])
        return hit

    def _grow(self) -> None:
        ra, rd = self.mass.shape
        na, nd = len(self.a_list), len(self.d_list)
        if na > ra or nd > rd:
            bigger = np.zeros((max(ra, 2 * na), max(rd, 2 * nd)))
            bigger[:ra, :rd] = self.mass
            self.mass = bigger

    def _add(self, ia: int, id_: int, m: float) -> None:
        self._grow()
        self.mass[ia, id_] += m

    def _first(self, ia: int, id_: int, q: float) -> None:
        """The first round (anti-tank fire, scout cars), from one start."""
        pa, pd = self.step(ia, id_, True)
        for (ja, zero), x in pa.items():
            for jd, y in pd.items():
                if self.vichy and zero and self.d_size[jd]:
                    self.surrendered[ja] = self.surrendered.get(ja, 0.0) + q * x * y
                else:
                    self._add(ja, jd, q * x * y)

    def _first_all(self, ia: int, id_: int, q: float) -> None:
        """``_first`` with the chances added to the mass grid as one array."""
        pa, pd = self.step(ia, id_, True)
        self._grow()
        ja = np.array([j for j, _ in pa], dtype=np.intp)
        zero = np.array([z for _, z in pa], dtype=bool)
        jd = np.array(list(pd), dtype=np.intp)
        m = q * np.array(list(pa.values()))[:, None] * np.array(list(pd.values()))[None, :]
        if self.vichy:  # Vichy defenders that score no hit surrender (L1071-1073)
            gone = zero[:, None] & (np.array(self.d_size)[jd] > 0)[None, :]
            for j, x in zip(ja.tolist(), (m * gone).sum(axis=1).tolist(), strict=True):
                self.surrendered[j] = self.surrendered.get(j, 0.0) + x
            m = m * ~gone
        np.add.at(self.mass, (ja[:, None], jd[None, :]), m)

    def _summary(self, ends, surrendered) -> Odds:  # noqa: ANN001
        att = dfn = mutual = taken = 0.0
        a_left = np.zeros(len(self.ac))
        d_left = np.zeros(len(self.dc))
        for (ja, jd), m in ends.items():
            a, d = self.a_list[ja], self.d_list[jd]
            a_left += m * np.array(a, dtype=float)
            d_left += m * np.array(d, dtype=float)
            if not sum(d) and sum(a):
                att += m
                taken += m if any(a[i] for i in self.a_land) else 0.0
            elif not sum(d):
                mutual += m
            else:
                dfn += m
        for ja, m in surrendered.items():
            a = self.a_list[ja]
            a_left += m * np.array(a, dtype=float)
            att += m
            taken += m if any(a[i] for i in self.a_land) else 0.0
        al: dict[str, float] = {}
        for i, (r, _) in enumerate(self.ac):
            al[r] = al.get(r, 0.0) + float(a_left[i])
        return Odds(
            attacker=att,
            defender=dfn,
            mutual=mutual,
            taken=taken,
            attacker_left=al,
            defender_left={r: float(d_left[i]) for i, r in enumerate(self.dc)},
            states=len(self.a_list) * len(self.d_list),
        )
