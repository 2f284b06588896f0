"""Hex-grid geometry for games numbered ``AABB`` in rows ("even-r").

The African Campaign numbers its hexes ``AABB``: ``AA`` is the row, counted from north
to south, and ``BB`` the position in that row, counted from west to east. Rows run along
the long axis of the map, and even rows sit half a hex further east than odd rows. This
is the only standard layout under which every adjacency the rulebook's examples need
holds (digest 002, section 3.2): the pass hexes 1128 and 1129 both touch 1028 and 1228
(TAC 8.2.5, L385), 1030 touches 0931 (L391) and 1043 touches 1044 across the prohibited
hexside of the zone-of-control example (TAC 4.2, L208).

>>> adjacent("1028", "1128"), adjacent("1028", "1129")
(True, True)
>>> adjacent("1228", "1128"), adjacent("1228", "1129")
(True, True)
>>> adjacent("1030", "0931"), adjacent("1043", "1044")
(True, True)
>>> adjacent("1027", "1129")
False
>>> neighbours("0803")
('0802', '0804', '0703', '0704', '0903', '0904')
>>> distance("1028", "1228"), distance("1023", "1125"), distance("1125", "1127")
(2, 2, 2)

The other module, :mod:`engine.core.hexgrid`, is the column layout (``CCRR``, odd-q)
of Patton's First Victory; the two are not interchangeable.
"""

from __future__ import annotations

from functools import cache

LAYOUT = "even-r-AABB"

#: half the height of a row over the width of a hex (pointy-topped hexes)
ROW_HEIGHT = 3**0.5 / 2


def parse(hex_id: str) -> tuple[int, int]:
    """``"1043"`` -> ``(10, 43)`` (row, position). Raises ``ValueError`` on anything else."""
    if len(hex_id) != 4 or not hex_id.isdigit():
        raise ValueError(f"{hex_id!r} is not a four-digit hex number")
    return int(hex_id[:2]), int(hex_id[2:])


def hex_id(row: int, col: int) -> str:
    return f"{row:02d}{col:02d}"


@cache
def neighbours(hex_id_: str) -> tuple[str, ...]:
    """The six ids around a hex (west, east, then the row above, then the row below),
    whether or not they are on any map; ids that would leave 00-99 are dropped."""
    row, col = parse(hex_id_)
    shift = 0 if row % 2 else 1
    steps = (
        (0, -1),
        (0, 1),
        (-1, shift - 1),
        (-1, shift),
        (1, shift - 1),
        (1, shift),
    )
    out = []
    for dr, dc in steps:
        r, c = row + dr, col + dc
        if 0 <= r <= 99 and 0 <= c <= 99:
            out.append(hex_id(r, c))
    return tuple(out)


def adjacent(a: str, b: str) -> bool:
    return b in neighbours(a)


def axial(hex_id_: str) -> tuple[int, int]:
    """Axial coordinates ``(q, r)`` of a hex."""
    row, col = parse(hex_id_)
    return col - (row + (row & 1)) // 2, row


def distance(a: str, b: str) -> int:
    """Hexes between ``a`` and ``b`` counted as a unit walks (adjacent = 1).

    >>> distance("0701", "0701"), distance("0701", "0803"), distance("1043", "1143")
    (0, 3, 1)
    """
    aq, ar = axial(a)
    bq, br = axial(b)
    dq, dr = aq - bq, ar - br
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def centre(hex_id_: str) -> tuple[float, float]:
    """Centre of a hex in hex widths: ``x`` grows east, ``y`` grows south.

    >>> centre("1043")
    (43.5, 8.660254037844386)
    """
    row, col = parse(hex_id_)
    return col + (0.5 if row % 2 == 0 else 0.0), row * ROW_HEIGHT


def hexside(a: str, b: str) -> str:
    """The key of the side two adjacent hexes share, the same whichever way round."""
    return f"{a}|{b}" if a < b else f"{b}|{a}"
