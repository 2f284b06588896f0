"""What the console prints and reads, apart from the service calls (``bot/console.py``).

A position as text for every game (a hex map as one line per stack, the Axis & Allies
board as one line per territory), pieces named as that text shows them (an id beside
each name, and the name accepted wherever the id is), the legal orders filtered and by
page, and a game's own grammar and options for ``help`` and ``umpire new --help``.
Nothing here imports a renderer or a front end; nothing here reads the database.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import json
import re
from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from engine.core.view import CounterView, HexMapView

#: orders listed per page by ``orders``
PAGE = 40


# -- the position as text -----------------------------------------------------------------


def format_view(view: Any) -> list[str]:
    """A view as text: a hex map one line per stack, an area board one line per
    territory, anything else as JSON."""
    if isinstance(view, HexMapView):
        return _hex_lines(view)
    if isinstance(view, dict) and isinstance(view.get("spaces"), dict) and "powers" in view:
        return area_lines(view)
    if isinstance(view, BaseModel):
        view = view.model_dump(mode="json")
    return json_lines(view)


def json_lines(view: Any) -> list[str]:
    if isinstance(view, BaseModel):
        view = view.model_dump(mode="json")
    return json.dumps(view, indent=2, sort_keys=True, default=str).splitlines()


def _hex_lines(view: HexMapView) -> list[str]:
    out = [f"{view.title}: {view.turn_label}, {view.phase}", view.prompt]
    for stack in view.stacks:
        names = ", ".join(counter_text(c) for c in stack.counters)
        more = stack.count - len(stack.counters)
        hidden = f" and {more} hidden" if more > 0 else ""
        out.append(f"  {stack.hex} {stack.side}: {names}{hidden}")
    for box in view.boxes:
        if box.counters:
            out.append(f"  {box.title}: {', '.join(counter_text(c) for c in box.counters)}")
    out.extend(f"  {note}" for note in view.notes)
    return out


def counter_text(c: CounterView) -> str:
    """``10th Panzer [10pz] 6-6``: the printed name, the id orders use, the values."""
    values = "-".join(str(v) for v in (c.combat, c.move) if v is not None)
    if not values and c.modifier is not None:
        values = str(c.modifier)
    tag = f" [{c.id}]" if c.id and c.id.lower() != c.name.lower() else ""
    return f"{c.name}{tag}{f' {values}' if values else ''}{' (reduced)' if c.reduced else ''}"


def area_lines(view: dict[str, Any]) -> list[str]:
    """An area-movement board (Axis & Allies): the turn, the powers' banks and income,
    what waits to be placed, then each territory with its owner and each power's units,
    and each sea zone that holds units. Unit ids follow each group, for orders by id."""
    powers: dict[str, Any] = view.get("powers", {})

    def power_name(p: str | None) -> str:
        return str(powers.get(p, {}).get("name", p)) if p else "nobody"

    out = [
        f"Round {view.get('round')}, {view.get('power_name', view.get('power'))}: "
        f"{view.get('phase_name', view.get('phase'))}",
        str(view.get("prompt", "")),
    ]
    victory = view.get("victory") or {}
    if victory:
        out.append(
            f"Victory cities: Allies {victory.get('allies')}, Axis {victory.get('axis')} "
            f"({victory.get('needed')} for a {victory.get('level')} victory)"
        )
    out.append("Powers (bank, income):")
    for pid, p in powers.items():
        extra = []
        if not p.get("capital_held", True):
            extra.append("capital lost")
        if p.get("techs"):
            extra.append("techs " + ", ".join(p["techs"]))
        if p.get("advantages"):
            extra.append("advantages " + ", ".join(p["advantages"]))
        tail = f"; {'; '.join(extra)}" if extra else ""
        out.append(
            f"  {p.get('name', pid)} ({p.get('side')}): {p.get('ipcs')} IPC, "
            f"income {p.get('income')}{tail}"
        )
    pending = view.get("pending") or {}
    if pending:
        out.append(f"Waiting to be placed: {_unit_counts(pending)}")
    battles = view.get("battles") or []
    spaces: dict[str, Any] = view["spaces"]

    def space_name(sid: str) -> str:
        return str(spaces.get(sid, {}).get("name", sid))

    battle = view.get("battle")
    if isinstance(battle, dict):
        out.append(
            f"Battle in {space_name(str(battle.get('space')))}, cycle {battle.get('cycle')}: "
            f"{power_name(battle.get('attacker'))} {_side_units(battle.get('attackers', []))} "
            f"against {power_name(battle.get('defender'))} "
            f"{_side_units(battle.get('defenders', []))}"
        )
    if battles:
        out.append("Battles to fight: " + ", ".join(space_name(b) for b in battles))
    if view.get("raids"):
        out.append("Raids to fly: " + ", ".join(space_name(r) for r in view["raids"]))
    out.append("Territories (owner, income: units):")
    for sid, s in spaces.items():
        if s.get("kind") != "land":
            continue
        marks = [f"{s.get('ipc', 0)} IPC"]
        if s.get("capital_of"):
            marks.append("capital")
        if s.get("victory_city"):
            marks.append(f"victory city {s['victory_city']}")
        if s.get("industrial_complex"):
            marks.append("industrial complex")
        owner = "neutral" if s.get("neutral") else power_name(s.get("owner"))
        units = _space_units(s, power_name)
        out.append(
            f"  {s.get('name', sid)} [{sid}] ({owner}, {', '.join(marks)})"
            f"{': ' + units if units else ''}"
        )
    out.append("Sea zones with units:")
    for sid, s in spaces.items():
        if s.get("kind") == "sea" and s.get("units"):
            out.append(f"  {s.get('name', sid)} [{sid}]: {_space_units(s, power_name)}")
    return out


def _space_units(space: dict[str, Any], power_name: Any) -> str:
    ids: dict[tuple[str, str], list[str]] = {}
    for piece in space.get("pieces", []):
        ids.setdefault((piece.get("owner"), piece.get("type")), []).append(str(piece.get("id")))
    parts = []
    for power, units in (space.get("units") or {}).items():
        groups = []
        for utype, n in units.items():
            tag = ids.get((power, utype), [])
            groups.append(f"{_unit_count(utype, n)}{f' [{_id_list(tag)}]' if tag else ''}")
        cargo = (space.get("cargo") or {}).get(power)
        aboard = f" (aboard: {_unit_counts(cargo)})" if cargo else ""
        parts.append(f"{power_name(power)} {', '.join(groups)}{aboard}")
    return "; ".join(parts)


def _side_units(pieces: list[dict[str, Any]]) -> str:
    """One side of a battle: its units by type, ids alongside, damage noted."""
    by_type: dict[str, list[str]] = {}
    for piece in pieces:
        hurt = "*" if piece.get("hits") else ""
        by_type.setdefault(str(piece.get("type")), []).append(f"{piece.get('id')}{hurt}")
    groups = [f"{_unit_count(t, len(ids))} [{_id_list(ids)}]" for t, ids in by_type.items()]
    return ", ".join(groups) or "nothing"


def _id_list(ids: list[str]) -> str:
    """``u49 u50 u51``: ids as an order takes them (a space between)."""
    return " ".join(ids)


def _unit_counts(units: dict[str, int]) -> str:
    return ", ".join(_unit_count(t, n) for t, n in units.items())


def _unit_count(utype: str, n: int) -> str:
    word = utype.replace("_", " ")
    if n != 1 and not word.endswith(("ry", "s")):
        word += "s"
    return f"{n} {word}"


# -- names for ids ------------------------------------------------------------------------


def piece_names(view: Any) -> dict[str, str]:
    """Each piece's printed name (lower case) and the id orders use, for the pieces a
    view shows; a name two pieces share is left out (only the id tells them apart)."""
    if not isinstance(view, HexMapView):
        return {}
    found: dict[str, set[str]] = {}
    for c in _counters(view):
        found.setdefault(c.name.lower(), set()).add(c.id)
    return {name: next(iter(ids)) for name, ids in found.items() if len(ids) == 1}


def _counters(view: HexMapView) -> Iterable[CounterView]:
    for stack in view.stacks:
        yield from stack.counters
    for box in view.boxes:
        yield from box.counters


def piece_hexes(view: Any) -> dict[str, str]:
    """Where each piece a hex-map view shows stands: id -> hex."""
    if not isinstance(view, HexMapView):
        return {}
    return {c.id: stack.hex for stack in view.stacks for c in stack.counters}


def with_ids(line: str, names: dict[str, str]) -> str:
    """``line`` with every piece name in it replaced by the piece's id, longest names
    first (``21st Panzer`` before ``Panzer``), in any case, whole words only."""
    for name in sorted(names, key=len, reverse=True):
        pattern = r"(?<![\w.])" + re.escape(name) + r"(?![\w.])"
        line = re.sub(pattern, names[name], line, flags=re.IGNORECASE)
    return line


def without_start_hex(line: str, where: dict[str, str]) -> str:
    """A hex-map ``move`` that names the hex its pieces start in (``move 10pz 8214 8313``
    for 10pz in 8214) written as the grammar wants it, without that hex; any other line
    is returned as it is. The path must go on past the start for the first hex to be
    taken as the start."""
    words = line.split()
    if len(words) < 4 or words[0].lower() != "move":
        return line
    pieces = [p for p in words[1].lower().split(",") if p]
    starts = {where.get(p) for p in pieces}
    if len(starts) == 1 and words[2] in starts:
        return " ".join(words[:2] + words[3:])
    return line


def as_typed(line: str, view: Any) -> str:
    """An order typed at the console in the form the game's grammar takes: names as
    ``show`` prints them turned into ids, and a move's start hex dropped."""
    line = with_ids(line, piece_names(view))
    return without_start_hex(line, piece_hexes(view))


# -- legal orders, filtered and by page ---------------------------------------------------


def matching(orders: list[str], words: list[str]) -> list[str]:
    """The orders holding every one of ``words`` as the start of one of their words
    (``orders 10pz``, ``orders move 8313``, ``orders att``)."""
    wanted = [w.lower() for w in words]
    out = []
    for text in orders:
        tokens = re.split(r"[\s,]+", text.lower())
        if all(any(t.startswith(w) for t in tokens) for w in wanted):
            out.append(text)
    return out


def order_page(orders: list[str], page: int, *, total: int | None = None) -> list[str]:
    """Page ``page`` (from 1) of ``orders``, one a line, and a last line saying how to
    see more; an empty list says so."""
    if not orders:
        return ["No legal order matches." if total else "There is no legal order now."]
    pages = (len(orders) + PAGE - 1) // PAGE
    page = max(1, min(page, pages))
    start = (page - 1) * PAGE
    out = [f"  {text}" for text in orders[start : start + PAGE]]
    of_all = f" (of {total} legal now)" if total is not None and total != len(orders) else ""
    if pages > 1:
        more = " 'more' for the next;" if page < pages else ""
        out.append(
            f"Orders {start + 1}-{start + len(out)} of {len(orders)}{of_all}, page {page} of "
            f"{pages};{more} 'orders WORD ...' lists only those with every word."
        )
    else:
        out.append(f"{len(orders)} order(s){of_all}.")
    return out


# -- the game's own grammar and options ---------------------------------------------------


def _game_module(ruleset: Any, name: str) -> Any | None:
    """The module ``name`` (``orders``, ``options``) of the package a ruleset lives in."""
    package = type(ruleset).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.{name}") if package else None
    except ImportError:
        return None


def grammar(ruleset: Any, accepted: list[str] | None = None) -> list[str]:
    """How each of the game's orders is written (its ``orders.USAGE``), the verbs
    ``accepted`` now marked with ``*``; just the accepted verbs if the game has no table."""
    usage = getattr(_game_module(ruleset, "orders"), "USAGE", None)
    if not isinstance(usage, dict):
        return [f"  {verb}" for verb in accepted or []]
    now = set(accepted or [])
    return [f"{'*' if verb in now else ' '} {text}" for verb, text in usage.items()]


def option_lines(ruleset: Any) -> list[str]:
    """The game's options (its ``options.Options``): name, values, default, and the
    first sentence of the comment that explains it."""
    module = _game_module(ruleset, "options")
    model = getattr(module, "Options", None)
    if model is None or not isinstance(model, type) or not issubclass(model, BaseModel):
        return []
    notes = _field_comments(module)
    out = []
    for name, field in model.model_fields.items():
        values = _values(field.annotation)
        default = json.dumps(field.get_default(call_default_factory=True), default=str)
        note = notes.get(name, "")
        out.append(f"    {name}={values} (default {default}){': ' + note if note else ''}")
    return out


def _values(annotation: Any) -> str:
    text = str(annotation)
    literal = re.findall(r"'([^']*)'", text) if "Literal" in text else []
    if literal:
        return "|".join(literal)
    if annotation is bool:
        return "true|false"
    words = {"int": "N", "str": "TEXT", "float": "N", "dict": "JSON", "list": "JSON"}
    for kind, shown in words.items():
        if text.startswith((kind, f"<class '{kind}'>")):
            return shown + ("|null" if "None" in text else "")
    return text.replace("typing.", "")


def _field_comments(module: Any) -> dict[str, str]:
    """The ``#:`` comment above each field of ``Options``, first sentence only."""
    try:
        source = inspect.getsource(module)
    except (OSError, TypeError):
        return {}
    lines = source.splitlines()
    out: dict[str, str] = {}
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == "Options":
            for item in node.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    comment = []
                    i = item.lineno - 2
                    while i >= 0 and lines[i].strip().startswith("#:"):
                        comment.insert(0, lines[i].strip()[2:].strip())
                        i -= 1
                    text = " ".join(comment).replace("``", "")
                    out[item.target.id] = text.split(". ")[0].rstrip(".")
    return out


def games_help(registry: Any) -> str:
    """For ``umpire new --help``: every game, its scenarios and its options."""
    out = ["games, their scenarios (--scenario) and options (--option KEY=VALUE):"]
    for rid in registry.available():
        try:
            ruleset = registry.ruleset(rid)
        except Exception as exc:  # a broken game is named, not hidden
            out.append(f"  {rid}: cannot be loaded ({exc})")
            continue
        out.append(f"  {rid}: {ruleset.title}")
        for i, s in enumerate(ruleset.scenarios()):
            first = " (the default)" if i == 0 else ""
            out.append(f"    scenario {s.id}{first}: {s.title}")
        options = option_lines(ruleset)
        if options:
            out.append("    options:")
            out.extend("  " + line for line in options)
    return "\n".join(out)
