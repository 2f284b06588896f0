"""Data packs: what a physical copy prints (map, counters, tables), as validated JSON.

A pack is a folder ``engine/games/<game>/data/`` of JSON files. Each file opens with a
``header`` saying what it is and where it came from (``provenance``: ``rulebook``,
``public-data`` or ``reconstruction``). ``UMPIRE_DATAPACKS`` names a folder whose
``<game>/<file>.json`` replaces the shipped file, so a player who owns the game can
transcribe their copy without touching code. Validation errors carry line numbers.
"""

from __future__ import annotations

import importlib
import json
import os
from pathlib import Path
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from engine.core.errors import DataPackError

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"

Provenance = Literal["rulebook", "public-data", "reconstruction", "transcription"]


class PackHeader(BaseModel):
    """The opening of every data-pack file."""

    model_config = ConfigDict(extra="forbid")

    game: str
    name: str
    version: str
    provenance: Provenance
    description: str = ""
    sources: list[str] = []


class PackFile(BaseModel):
    model_config = ConfigDict(extra="forbid")

    header: PackHeader


M = TypeVar("M", bound=PackFile)

#: ``(file, line, message)``: one thing wrong with a pack, the line where its value starts
#: (``None`` when it is about the file as a whole)
Problem = tuple[str, int | None, str]

#: the function that checks each game's pack against its rulebook, ``module:function``
#: taking no argument and returning :data:`Problem` s; a game that ships a pack and is
#: not listed gets :func:`header_problems` only
CHECKS = {
    "pfv": "engine.games.pfv.checks:pack_problems",
    "aa-revised": "engine.games.aa_revised.pack:check_pack",
    "bia": "engine.games.bia.pack:check",
    "tac": "engine.games.tac.pack:check",
    "aa-na": "engine.games.aa_na.pack:check",
}


def pack_path(game: str, name: str) -> Path:
    """Where ``<name>.json`` of ``game`` is read from: the override folder first."""
    override = os.environ.get("UMPIRE_DATAPACKS")
    if override:
        candidate = Path(override) / game / f"{name}.json"
        if candidate.exists():
            return candidate
    return GAMES_DIR / game.replace("-", "_") / "data" / f"{name}.json"


def load_file(path: Path, model: type[M]) -> M:
    """Parse and validate one pack file; on failure raise :class:`DataPackError`."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise DataPackError(str(path), [(None, f"cannot read the file: {exc.strerror}")]) from None
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise DataPackError(str(path), [(exc.lineno, f"not valid JSON: {exc.msg}")]) from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        lines = json_line_index(text)
        problems = []
        for err in exc.errors():
            loc = tuple(err["loc"])
            where = ".".join(str(p) for p in loc) or "(top)"
            problems.append((line_of(lines, loc), f"{where}: {err['msg']}"))
        raise DataPackError(str(path), problems) from None


def load(game: str, name: str, model: type[M]) -> M:
    return load_file(pack_path(game, name), model)


def games_with_packs() -> list[str]:
    """The ids of the games that ship a data pack, playable yet or not (``aa_revised`` is
    ``aa-revised``)."""
    return sorted(
        {p.parent.parent.name.replace("_", "-") for p in GAMES_DIR.glob("*/data/*.json")}
    )


def shipped_files(game: str) -> list[str]:
    """The names (``map``, ``counters``...) of the files ``game`` ships in its pack."""
    folder = GAMES_DIR / game.replace("-", "_") / "data"
    return sorted(p.stem for p in folder.glob("*.json"))


def check(game: str) -> list[Problem]:
    """Everything wrong with the pack ``game`` plays with (overrides included), by file
    and line: the game's own checks where it has them (:data:`CHECKS`), else the checks
    every pack must pass (:func:`header_problems`). Raises ``KeyError`` for a game that
    ships no pack."""
    if not shipped_files(game):
        raise KeyError(f"the game {game!r} ships no data pack")
    target = CHECKS.get(game)
    if target is None:
        return header_problems(game)
    module, _, function = target.partition(":")
    return list(getattr(importlib.import_module(module), function)())


def header_problems(game: str) -> list[Problem]:
    """The checks every pack file must pass: valid JSON and a valid header naming this
    game (a file of another game's pack put in the wrong folder is caught here)."""
    out: list[Problem] = []
    for name in shipped_files(game):
        path = pack_path(game, name)
        try:
            pack = load_file(path, _HeaderOnly)
        except DataPackError as err:
            out.extend((str(path), line, message) for line, message in err.problems)
            continue
        lines = json_line_index(path.read_text(encoding="utf-8"))
        header = pack.header
        if header.game != game:
            says = f"header.game is {header.game!r}, but this file belongs to {game!r}"
            out.append((str(path), line_of(lines, ("header", "game")), says))
    return out


class _HeaderOnly(PackFile):
    """Any pack file, read for its header alone."""

    model_config = ConfigDict(extra="allow")


def validate_text(
    path: Path, text: str, model: type[M], context: Any = None
) -> tuple[M | None, dict[tuple[Any, ...], int], list[Problem]]:
    """Validate a pack file's ``text``: the model (``None`` if it fails), the line of
    every value, and the problems found, each with its line. ``context`` reaches the
    model's validators (a pack's checker may ask them to collect rather than raise)."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        return None, {}, [(str(path), exc.lineno, f"not valid JSON: {exc.msg}")]
    lines = json_line_index(text)
    try:
        return model.model_validate(raw, context=context), lines, []
    except ValidationError as exc:
        problems: list[Problem] = []
        for err in exc.errors():
            loc = tuple(err["loc"])
            where = ".".join(str(p) for p in loc) or "(top)"
            problems.append((str(path), line_of(lines, loc), f"{where}: {err['msg']}"))
        return None, lines, problems


def line_of(index: dict[tuple[Any, ...], int], loc: tuple[Any, ...]) -> int | None:
    """The line of the deepest known prefix of ``loc``."""
    while loc:
        if loc in index:
            return index[loc]
        loc = loc[:-1]
    return index.get((), 1)


def json_line_index(text: str) -> dict[tuple[Any, ...], int]:
    """Map every JSON path (``("hexes", 12, "terrain")``) to the line its value starts on.

    A small scanner, because the standard parser keeps no positions. It assumes the text
    is valid JSON (it is only called after ``json.loads`` succeeded).
    """
    index: dict[tuple[Any, ...], int] = {}
    pos = 0
    line = 1
    n = len(text)

    def skip_ws() -> None:
        nonlocal pos, line
        while pos < n and text[pos] in " \t\r\n":
            if text[pos] == "\n":
                line += 1
            pos += 1

    def read_string() -> str:
        nonlocal pos
        start = pos
        pos += 1
        while text[pos] != '"':
            pos += 2 if text[pos] == "\\" else 1
        pos += 1
        return json.loads(text[start:pos])

    def value(path: tuple[Any, ...]) -> None:
        nonlocal pos
        skip_ws()
        index[path] = line
        ch = text[pos]
        if ch == "{":
            pos += 1
            skip_ws()
            if text[pos] == "}":
                pos += 1
                return
            while True:
                skip_ws()
                key_line = line
                key = read_string()
                skip_ws()
                pos += 1  # colon
                value(path + (key,))
                index.setdefault(path + (key,), key_line)
                skip_ws()
                if text[pos] == ",":
                    pos += 1
                    continue
                pos += 1  # closing brace
                return
        if ch == "[":
            pos += 1
            skip_ws()
            if text[pos] == "]":
                pos += 1
                return
            i = 0
            while True:
                value(path + (i,))
                i += 1
                skip_ws()
                if text[pos] == ",":
                    pos += 1
                    continue
                pos += 1
                return
        if ch == '"':
            read_string()
            return
        while pos < n and text[pos] not in ",]} \t\r\n":
            pos += 1

    if text.strip():
        value(())
    return index
