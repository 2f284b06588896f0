"""The compressed form of a log entry (issue 16, item 4).

A log entry's order, rolls, events, role, user and phase are stored together in
``actions.body`` (migration 0008) as one compact JSON array ``[order, rolls, events,
role, user, phase]``, compressed when that is smaller. The first
byte of the body says how (its codec); the codecs are numbered once and kept forever,
so every row written by any version of Umpire can still be read:

- 0: the JSON as UTF-8, not compressed;
- 1: raw deflate (zlib, no header), no dictionary;
- 2 and up: raw deflate with a preset dictionary (:data:`DICTIONARIES`): a sample of the
  log entries of one ruleset, written once by ``tools/make_log_dicts.py`` from fuzzed
  games and never changed afterwards (its SHA-256 is checked when it is loaded). A
  better dictionary later gets a new number; the old one stays for the rows that use it.

An entry is written with its ruleset's newest dictionary, or codec 1 for a ruleset that
has none, and with codec 0 when compression would not make it smaller.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from functools import cache
from importlib import resources
from typing import Any

STORED, DEFLATE = 0, 1

#: codec number -> (ruleset, file in this folder, its SHA-256); never change a line
DICTIONARIES: dict[int, tuple[str, str, str]] = {
    2: ("pfv", "pfv-1.txt", "0f7cb81f7dc8229c0f32409f2a749b703a551b3beb8f47d1cb96e02ba016690e"),
    3: (
        "aa-revised",
        "aa-revised-1.txt",
        "337a5ef660df499c486284fefb154f26a2a820e7b54a588f9154820fb5607221",
    ),
}

#: the codec each ruleset's new entries are written with: its newest dictionary
_NEWEST: dict[str, int] = {}
for _number, (_ruleset, _, _) in sorted(DICTIONARIES.items()):
    _NEWEST[_ruleset] = _number

_LEVEL = 9
_WBITS = -15  # raw deflate: no zlib header or checksum (6 bytes a row)


class BadBody(ValueError):
    """A stored body that cannot be read back."""


@cache
def dictionary(codec: int) -> bytes:
    """The preset dictionary of ``codec``, checked against its recorded hash."""
    _, name, digest = DICTIONARIES[codec]
    data = resources.files(__name__).joinpath(name).read_bytes()
    if hashlib.sha256(data).hexdigest() != digest:
        raise BadBody(f"the log dictionary {name} is not the one the log was written with")
    return data


@cache
def _compressor(codec: int) -> Any:
    """A compressor primed with the codec's dictionary, copied for each entry."""
    if codec == DEFLATE:
        return zlib.compressobj(_LEVEL, zlib.DEFLATED, _WBITS, 9)
    return zlib.compressobj(
        _LEVEL, zlib.DEFLATED, _WBITS, 9, zlib.Z_DEFAULT_STRATEGY, dictionary(codec)
    )


def codec_for(ruleset: str | None) -> int:
    """The codec new entries of ``ruleset`` are written with."""
    return _NEWEST.get(ruleset or "", DEFLATE)


def pack(fields: list[Any], ruleset: str | None) -> bytes:
    """The body to store for one log entry of a game of ``ruleset``: ``fields`` as JSON."""
    text = json.dumps(fields, separators=(",", ":"), sort_keys=True)
    raw = text.encode("utf-8")
    codec = codec_for(ruleset)
    c = _compressor(codec).copy()
    packed = c.compress(raw) + c.flush()
    if len(packed) >= len(raw):
        return bytes([STORED]) + raw
    return bytes([codec]) + packed


def unpack(body: bytes, length: int) -> list[Any]:
    """The ``length`` fields of a stored body; :class:`BadBody` if it is not that."""
    if not body:
        raise BadBody("an empty body")
    codec, data = body[0], body[1:]
    if codec == STORED:
        raw = data
    elif codec == DEFLATE or codec in DICTIONARIES:
        zdict = dictionary(codec) if codec != DEFLATE else b""
        d = zlib.decompressobj(_WBITS, zdict=zdict) if zdict else zlib.decompressobj(_WBITS)
        try:
            raw = d.decompress(data) + d.flush()
        except zlib.error:
            raise BadBody("bytes that do not inflate") from None
        if not d.eof or d.unused_data:
            raise BadBody("bytes cut short or followed by others")
    else:
        raise BadBody(f"an unknown codec {codec}")
    try:
        value = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadBody("bytes that are not JSON") from None
    if not (isinstance(value, list) and len(value) == length):
        raise BadBody("JSON of the wrong shape")
    return value
