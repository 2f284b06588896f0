"""Hex-grid geometry for games numbered ``CCRR``.

Hexes are flat-topped, in vertical columns; the id is the two-digit column followed by
the two-digit row (``"7607"``: column 76, row 7). Odd columns sit half a hex lower than
even ones ("odd-q"), the convention under which the hex numbers printed in the Patton's
First Victory rulebook fall on the right towns. Distances use cube coordinates.

>>> neighbours_of("8113")
('8213', '8214', '8112', '8013', '8014', '8114')
>>> distance("7607", "8519")
17
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from functools import cache, lru_cache


def parse_hex(hex_id: str) -> tuple[int, int]:
    """``"7607"`` -> ``(76, 7)``. Raises ``ValueError`` on anything else."""
    if len(hex_id) != 4 or not hex_id.isdigit():
        raise ValueError(f"{hex_id!r} is not a four-digit hex number")
    return int(hex_id[:2]), int(hex_id[2:])


def hex_id(col: int, row: int) -> str:
    return f"{col:02d}{row:02d}"


def is_hex_id(text: str) -> bool:
    return len(text) == 4 and text.isdigit()


_ODD = ((1, 0), (1, 1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_EVEN = ((1, -1), (1, 0), (0, -1), (-1, -1), (-1, 0), (0, 1))


@cache
def neighbours_of(hex_id_: str) -> tuple[str, ...]:
    """The six ids around a hex, whether or not they are on any map (no wrap below 0)."""
    c, r = parse_hex(hex_id_)
    out = []
    for dc, dr in _ODD if c & 1 else _EVEN:
        nc, nr = c + dc, r + dr
        if 0 <= nc <= 99 and 0 <= nr <= 99:
            out.append(hex_id(nc, nr))
    return tuple(out)


def cube(hex_id_: str) -> tuple[int, int, int]:
    c, r = parse_hex(hex_id_)
    x = c
    z = r - (c - (c & 1)) // 2
    return x, -x - z, z


@lru_cache(maxsize=65536)
def distance(a: str, b: str) -> int:
    """Hexes between ``a`` and ``b`` counted as a unit walks (adjacent = 1)."""
    ax, ay, az = cube(a)
    bx, by, bz = cube(b)
    return max(abs(ax - bx), abs(ay - by), abs(az - bz))


def hexside(a: str, b: str) -> str:
    """The key of the side shared by two adjacent hexes, the same whichever way round."""
    return f"{a}|{b}" if a < b else f"{b}|{a}"


def center(hex_id_: str, size: float = 1.0) -> tuple[float, float]:
    """Pixel centre of a hex of circumradius ``size`` (flat-topped, odd columns lower)."""
    c, r = parse_hex(hex_id_)
    return c * 1.5 * size, (r + 0.5 * (c & 1)) * (3**0.5) * size


class HexGrid:
    """The hexes of one map, with neighbour lists restricted to hexes that exist."""

    def __init__(self, hexes: Iterable[str]) -> None:
        self.hexes: frozenset[str] = frozenset(hexes)
        self.adjacent: dict[str, tuple[str, ...]] = {
            h: tuple(n for n in neighbours_of(h) if n in self.hexes) for h in self.hexes
        }

    def __contains__(self, hex_id_: object) -> bool:
        return hex_id_ in self.hexes

    def neighbours(self, hex_id_: str) -> tuple[str, ...]:
        return self.adjacent.get(hex_id_, ())

    def within(self, start: str, radius: int) -> set[str]:
        """Every hex of the map at most ``radius`` from ``start``."""
        return {h for h in self.hexes if distance(start, h) <= radius}

    def cheapest(
        self,
        start: str,
        step_cost: Callable[[str, str], float | None],
        budget: float,
    ) -> dict[str, tuple[float, str | None]]:
        """Dijkstra from ``start``: ``{hex: (cost, previous hex)}`` for costs within budget.

        ``step_cost(a, b)`` gives the cost of stepping from ``a`` to ``b`` or ``None`` when
        the step is forbidden.
        """
        best: dict[str, tuple[float, str | None]] = {start: (0.0, None)}
        heap = [(0.0, start)]
        while heap:
            cost, here = heapq.heappop(heap)
            if cost > best[here][0]:
                continue
            for nxt in self.adjacent.get(here, ()):
                step = step_cost(here, nxt)
                if step is None:
                    continue
                total = cost + step
                if total <= budget and (nxt not in best or total < best[nxt][0]):
                    best[nxt] = (total, here)
                    heapq.heappush(heap, (total, nxt))
        return best


def path_to(tree: dict[str, tuple[float, str | None]], goal: str) -> list[str]:
    """The hexes entered on the way to ``goal`` in a :meth:`HexGrid.cheapest` tree."""
    path = []
    here: str | None = goal
    while here is not None and tree[here][1] is not None:
        path.append(here)
        here = tree[here][1]
    return path[::-1]
