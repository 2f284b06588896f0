"""The map a view is drawn on: a game's ``map.json`` pack, loaded once and fingerprinted.

The fingerprint (game, pack version and a hash of the pack's content) keys the cached base
layer, so a replacement pack from ``UMPIRE_DATAPACKS`` never reuses a stale picture.
"""

from __future__ import annotations

import hashlib
import threading
from dataclasses import dataclass

from engine.core import datapack
from engine.core.hexgrid import hex_id
from engine.core.hexmap import HexMap, MapPack


@dataclass(frozen=True)
class Board:
    game: str
    hexmap: HexMap
    fingerprint: str

    @classmethod
    def from_pack(cls, pack: MapPack) -> Board:
        digest = hashlib.sha256(pack.model_dump_json().encode()).hexdigest()[:16]
        return cls(pack.header.game, HexMap(pack), f"{pack.header.version}:{digest}")

    @property
    def pack(self) -> MapPack:
        return self.hexmap.pack

    def grid_hexes(self) -> list[str]:
        """Every position of the grid rectangle, on the map or not, plus any hex outside it."""
        g = self.pack.grid
        ids = {
            hex_id(c, r)
            for c in range(g.first_col, g.last_col + 1)
            for r in range(g.first_row, g.last_row + 1)
        }
        return sorted(ids | set(self.hexmap.hex))


_lock = threading.Lock()
_boards: dict[tuple[str, str, int, int], Board] = {}


def load_board(game: str) -> Board:
    """The map pack of ``game`` (shipped, or replaced through ``UMPIRE_DATAPACKS``).

    Read again only when the file changes. Raises ``DataPackError`` when it is invalid.
    """
    path = datapack.pack_path(game, "map")
    if not path.exists():
        datapack.load_file(path, MapPack)  # raises DataPackError saying the file is missing
    stat = path.stat()
    key = (game, str(path), stat.st_mtime_ns, stat.st_size)
    with _lock:
        board = _boards.get(key)
        if board is None:
            board = Board.from_pack(datapack.load_file(path, MapPack))
            for old in [k for k in _boards if k[0] == game]:
                del _boards[old]
            _boards[key] = board
        return board
