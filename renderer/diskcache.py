"""A copy on disk of each static base layer drawn, so that a new process (one console
command, one ``umpire play`` map) reads it back instead of drawing it again cold.

Files live under ``$XDG_CACHE_HOME/umpire/base`` (else ``~/.cache/umpire/base``), one per
key: the in-memory key (game, map pack version and content hash, style hash, width) plus a
digest of the renderer's own source and the Pillow version, so that a changed drawing
never reads an old picture. A file is written whole to a temporary name and renamed into
place; one that cannot be read, is damaged, or names another key is ignored (and drawn
afresh), and a cache folder that cannot be written only costs the saving.

A file is one JSON header line (the key, the layout, the legend, the palette, the sizes
and a CRC of the pixels) followed by the raw pixels of the image and of the palette image.
They are not compressed: inflating them took 16 ms of the 26 ms a read cost. A file is
then about 10 MB for a 1,600-pixel map, so the folder keeps only the newest few.

Counter pictures are kept the same way beside them, under ``umpire/sprites``: one small
file per face (its key: the style's hash, what the face shows and its size, with the
same renderer digest), as drawing fifty of them cold cost a ``map`` about 20 ms. A face
is what its printed counter shows, never where the piece is or who may see it.
"""

from __future__ import annotations

import hashlib
import json
import mmap
import os
import tempfile
import zlib
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import PIL
from PIL import Image

if TYPE_CHECKING:
    from renderer.base import BaseLayer

MAGIC = b"umpire-base-layer 2\n"
#: how many files the folder keeps (the newest; as many as the memory cache holds)
KEEP = 8
#: the largest header line read (the legend and palette make a few kilobytes)
_HEADER_MAX = 1 << 20


def cache_dir() -> Path:
    """``$XDG_CACHE_HOME/umpire/base``, else ``~/.cache/umpire/base``."""
    return _cache_root() / "base"


def sprite_dir() -> Path:
    """``$XDG_CACHE_HOME/umpire/sprites``, else ``~/.cache/umpire/sprites``."""
    return _cache_root() / "sprites"


def _cache_root() -> Path:
    root = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(root) / "umpire"


@lru_cache(maxsize=1)
def code_digest() -> str:
    """A hash of every renderer source file and the Pillow version (which bundles the font)."""
    h = hashlib.sha256(MAGIC + PIL.__version__.encode())
    for path in sorted(Path(__file__).parent.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:16]


def _full_key(key: tuple[str, ...]) -> list[str]:
    return [*key, code_digest()]


def path_for(key: tuple[str, ...]) -> Path:
    name = hashlib.sha256("\0".join(_full_key(key)).encode()).hexdigest()[:32]
    return cache_dir() / f"{name}.layer"


def load(key: tuple[str, ...]) -> BaseLayer | None:
    """The layer stored for ``key``, or None when there is none or it cannot be read whole."""
    try:
        return _load(key)
    except (OSError, ValueError, KeyError, TypeError, IndexError):
        return None


def _load(key: tuple[str, ...]) -> BaseLayer | None:
    from renderer.base import BaseLayer
    from renderer.geometry import Layout

    with path_for(key).open("rb") as f:
        # mapped rather than read: the pages come from the file cache as they are copied
        # into the images, instead of through a 10 MB buffer first (5 ms a new process)
        blob = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    if blob[: len(MAGIC)] != MAGIC:
        return None
    end = blob.find(b"\n", len(MAGIC), len(MAGIC) + _HEADER_MAX)
    if end < 0:
        return None
    head: dict[str, Any] = json.loads(blob[len(MAGIC) : end])
    if head["key"] != _full_key(key):
        return None
    pixels = memoryview(blob)[end + 1 :]  # no copies
    size = (int(head["width"]), int(head["height"]))
    image_len = size[0] * size[1] * 3
    palette_len = size[0] * size[1] if head["palette"] is not None else 0
    if len(pixels) != image_len + palette_len or zlib.crc32(pixels) != head["crc32"]:
        return None
    image = Image.frombytes("RGB", size, pixels[:image_len])
    palette = None
    if head["palette"] is not None:
        palette = Image.frombytes("P", size, pixels[image_len:])
        palette.putpalette([int(v) for v in head["palette"]])
    lay = head["layout"]
    layout = Layout(
        width=int(lay["width"]),
        height=int(lay["height"]),
        radius=float(lay["radius"]),
        map_box=tuple(lay["map_box"]),
        panel_box=tuple(lay["panel_box"]),
        origin=(float(lay["origin"][0]), float(lay["origin"][1])),
    )
    if (layout.width, layout.height) != size:
        return None
    x0, y0, x1, y1 = (int(v) for v in head["dynamic_box"])
    return BaseLayer(
        image=image,
        layout=layout,
        dynamic_box=(x0, y0, x1, y1),
        legend=[str(s) for s in head["legend"]],
        palette=palette,
    )


def save(key: tuple[str, ...], layer: BaseLayer) -> None:
    """Store ``layer`` for ``key``; a folder that cannot be written is passed over."""
    image, palette = layer.image, layer.palette
    if image.mode != "RGB" or (
        palette is not None and (palette.mode != "P" or palette.size != image.size)
    ):
        return  # not a layer this format holds: it is simply drawn each process
    lay = layer.layout
    head = {
        "key": _full_key(key),
        "width": image.width,
        "height": image.height,
        "layout": {
            "width": lay.width,
            "height": lay.height,
            "radius": lay.radius,
            "map_box": list(lay.map_box),
            "panel_box": list(lay.panel_box),
            "origin": list(lay.origin),
        },
        "dynamic_box": list(layer.dynamic_box),
        "legend": list(layer.legend),
        "palette": palette.getpalette() if palette is not None else None,
    }
    raw = image.tobytes() + (palette.tobytes() if palette is not None else b"")
    head["crc32"] = zlib.crc32(raw)
    blob = MAGIC + json.dumps(head).encode() + b"\n" + raw
    target = path_for(key)
    try:
        _write_whole(target, blob)
        _prune(target.parent, "*.layer", KEEP)
    except OSError:
        pass


def _prune(folder: Path, pattern: str, keep: int) -> None:
    """Delete all but the newest ``keep`` files matching ``pattern`` (old packs, styles,
    widths and renderer versions); one another process deletes first is passed over."""
    found = []
    for path in folder.glob(pattern):
        try:
            found.append((path.stat().st_mtime, path))
        except OSError:
            continue
    for _, path in sorted(found, reverse=True)[keep:]:
        path.unlink(missing_ok=True)


# -- counter pictures ----------------------------------------------------------------------

SPRITE_MAGIC = b"umpire-sprite 1\n"
#: how many counter pictures the folder keeps (the newest; a game has a few hundred faces)
KEEP_SPRITES = 4096
#: the largest counter picture read back, in pixels a side (a counter is under 100)
_SPRITE_MAX = 1024
#: the largest counter file read (a header line and the largest picture)
_SPRITE_FILE_MAX = len(SPRITE_MAGIC) + _HEADER_MAX + _SPRITE_MAX * _SPRITE_MAX * 4
#: the folder is pruned after the first picture a process saves, then every this many
_PRUNE_EVERY = 64
_sprites_saved = 0


def _sprite_key(key: tuple[object, ...]) -> str | None:
    """The text that names a counter picture's key in its file, or None for a key that
    is not plain data (it is then simply drawn each process)."""
    try:
        return json.dumps([*key, code_digest()], separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError):
        return None


def sprite_path(text: str) -> Path:
    return sprite_dir() / f"{hashlib.sha256(text.encode()).hexdigest()[:32]}.sprite"


def load_sprite(key: tuple[object, ...]) -> Image.Image | None:
    """The RGBA counter picture stored for ``key``, or None when there is none or it
    cannot be read whole."""
    text = _sprite_key(key)
    if text is None:
        return None
    try:
        with sprite_path(text).open("rb") as f:
            blob = f.read(_SPRITE_FILE_MAX + 1)
        if len(blob) > _SPRITE_FILE_MAX or not blob.startswith(SPRITE_MAGIC):
            return None
        end = blob.find(b"\n", len(SPRITE_MAGIC), len(SPRITE_MAGIC) + _HEADER_MAX)
        if end < 0:
            return None
        head: dict[str, Any] = json.loads(blob[len(SPRITE_MAGIC) : end])
        size = (int(head["width"]), int(head["height"]))
        pixels = memoryview(blob)[end + 1 :]
        if (
            head["key"] != text
            or not all(0 < side <= _SPRITE_MAX for side in size)
            or len(pixels) != size[0] * size[1] * 4
            or zlib.crc32(pixels) != head["crc32"]
        ):
            return None
        return Image.frombytes("RGBA", size, pixels)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def save_sprite(key: tuple[object, ...], image: Image.Image) -> None:
    """Store the RGBA counter picture drawn for ``key``; a folder that cannot be written
    is passed over."""
    global _sprites_saved
    text = _sprite_key(key)
    if text is None or image.mode != "RGBA":
        return
    raw = image.tobytes()
    head = {"key": text, "width": image.width, "height": image.height, "crc32": zlib.crc32(raw)}
    target = sprite_path(text)
    try:
        _write_whole(target, SPRITE_MAGIC + json.dumps(head).encode() + b"\n" + raw)
        _sprites_saved += 1
        if (_sprites_saved - 1) % _PRUNE_EVERY == 0:
            _prune(target.parent, "*.sprite", KEEP_SPRITES)
    except OSError:
        pass


def _write_whole(target: Path, blob: bytes) -> None:
    """``blob`` written to a temporary name beside ``target`` and renamed into place, so
    that no reader ever sees half a file."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".part-", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(blob)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
