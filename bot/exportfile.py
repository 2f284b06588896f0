"""Reading an export file as untrusted input (issue 10, item 2).

An export may come from anywhere: another server, a player, an attacker. Before the
service sees it, :func:`read_export` makes sure it is a regular file of a bounded size,
UTF-8, JSON nested no deeper than any export needs, without ``NaN``/``Infinity`` and
without lone surrogates (which SQLite cannot store as text). Every failure is one sentence
in an :class:`ExportFileError`; nothing here writes anywhere.

The bounds: ``MAX_EXPORT_BYTES`` (an export of a 10,000-entry game is a few megabytes),
and ``MAX_DEPTH`` levels of nesting (an export needs about ten). Reading is linear in the
size, so it is bounded in time too; a FIFO, a device (``/dev/zero``) or a directory is
refused before anything is read.
"""

from __future__ import annotations

import json
import math
import os
import stat
from typing import Any

#: the largest export file read, in bytes
MAX_EXPORT_BYTES = 64 * 1024 * 1024
#: the deepest nesting of lists and objects accepted
MAX_DEPTH = 32


class ExportFileError(Exception):
    """An export file that cannot be read; ``str()`` is one sentence."""


def read_export(path: str, *, limit: int = MAX_EXPORT_BYTES) -> Any:
    """The JSON data of the export file at ``path``, checked as described above."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        raise ExportFileError(f"cannot read {path}: {exc.strerror}") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise ExportFileError(f"{path} is not a regular file, so it is not an export.")
        if info.st_size > limit:
            raise ExportFileError(_too_large(path, limit))
        with os.fdopen(fd, "rb", closefd=False) as f:
            raw = f.read(limit + 1)
    except OSError as exc:
        raise ExportFileError(f"cannot read {path}: {exc.strerror}") from None
    finally:
        os.close(fd)
    if len(raw) > limit:
        raise ExportFileError(_too_large(path, limit))
    return parse_export_text(raw, path)


def parse_export_text(raw: bytes | str, name: str = "the export") -> Any:
    """Decode and parse export bytes (or text) with the checks of :func:`read_export`."""
    if isinstance(raw, bytes):
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise ExportFileError(
                f"{name} is not UTF-8 text (byte {exc.start} cannot be read), so it is not an export."
            ) from None
    else:
        text = raw
    try:
        data = json.loads(text, parse_constant=_no_constant, parse_float=_finite)
    except _NotFinite as exc:
        raise ExportFileError(
            f"{name} holds {exc.args[0]}, which is not a finite number."
        ) from None
    except json.JSONDecodeError as exc:
        raise ExportFileError(f"{name} is not JSON (line {exc.lineno}: {exc.msg}).") from None
    except RecursionError:
        raise ExportFileError(_too_deep(name)) from None
    except ValueError:  # an integer of thousands of digits
        raise ExportFileError(f"{name} holds a number too large to be part of an export.") from None
    problem = _walk(data, name)
    if problem is not None:
        raise ExportFileError(problem)
    return data


def _too_large(path: str, limit: int) -> str:
    return f"{path} is larger than {limit // (1024 * 1024)} MB, more than any export needs."


def _too_deep(name: str) -> str:
    return f"{name} nests lists or objects more than {MAX_DEPTH} deep, deeper than any export."


class _NotFinite(Exception):
    pass


def _no_constant(name: str) -> Any:
    raise _NotFinite(name)


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _NotFinite(text[:24])
    return value


def _walk(data: Any, name: str) -> str | None:
    """What is wrong with parsed ``data``, walked without recursion: nesting deeper than
    ``MAX_DEPTH``, or a string (key or value) with a lone surrogate, which UTF-8 cannot
    encode and SQLite cannot store."""
    stack: list[tuple[Any, int]] = [(data, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return (
                    f"{name} holds text with a lone surrogate ({ascii(item[:24])}), "
                    "which is not valid Unicode."
                )
        elif isinstance(item, (dict, list)):
            if depth >= MAX_DEPTH:
                return _too_deep(name)
            if isinstance(item, dict):
                stack.extend((k, depth + 1) for k in item)
                stack.extend((v, depth + 1) for v in item.values())
            else:
                stack.extend((v, depth + 1) for v in item)
    return None
