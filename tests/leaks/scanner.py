"""Find hidden pieces named in text an audience receives (ARCHITECTURE: the log is a view).

What is hidden from an audience is read off the game's own views, not the rules: the
pieces some role's view shows (each side sees all of its own, so together that is every
piece in play) minus the pieces the audience's view shows. A text names a hidden piece
when it holds the piece's id or its printed name as a whole word.

A few phrases name a rule after a piece and say nothing of where it is (PFV 16: Patton's
arrival; PFV 17: Rommel's recall); they are taken out before the scan. A hidden piece
whose name another piece in sight also bears (battlegroups) cannot be told apart by
name, so only its id is looked for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine.core.view import HexMapView

#: phrases that name a rule, never a piece's whereabouts
RULE_PHRASES = (
    "Patton's First Victory",
    "Patton's arrival",
    "Patton is in command",
    "Rommel's recall",
    "Rommel is recalled",
    "Rommel has been recalled",
    "Rommel leaves Africa",
)


def pieces_in_view(view: Any) -> dict[str, set[str]]:
    """piece id -> the words that name it (id and printed name), for every piece a view
    shows: the counters of a hex map's stacks and boxes, or the pieces of an area map."""
    out: dict[str, set[str]] = {}
    if isinstance(view, HexMapView):
        counters = [c for s in view.stacks for c in s.counters]
        counters += [c for b in view.boxes for c in b.counters]
        for c in counters:
            out[c.id] = {c.id, c.name}
        return out
    if isinstance(view, dict) and "spaces" in view:
        for space in view["spaces"].values():
            for p in space.get("pieces", []):
                out[p["id"]] = {p["id"]}
        return out
    raise TypeError(f"no piece reader for a view of type {type(view).__name__}")


def hidden_pieces(
    ruleset: Any, state: Any, roles: Iterable[str], audience: str | None
) -> dict[str, set[str]]:
    """The pieces in play that ``audience``'s view does not show, with their names."""
    truth: dict[str, set[str]] = {}
    for role in roles:
        truth.update(pieces_in_view(ruleset.view(state, role)))
    shown = pieces_in_view(ruleset.view(state, audience))
    visible_names = {w for words in shown.values() for w in words}
    return {
        pid: {w for w in words if w == pid or w not in visible_names}
        for pid, words in truth.items()
        if pid not in shown
    }


def _pattern(word: str) -> re.Pattern[str]:
    # "Tank Destroyers" must not match inside "Tank Destroyers**", nor "td" inside "td2"
    return re.compile(rf"(?<![\w*]){re.escape(word)}(?![\w*])")


@dataclass
class Hit:
    where: str
    piece: str
    word: str
    text: str

    def __str__(self) -> str:
        return f"{self.where}: names hidden {self.piece} ({self.word!r}) in {self.text!r}"


@dataclass
class Scanner:
    """Collects every text an audience received with what was hidden from it then."""

    checked: int = 0
    hits: list[Hit] = field(default_factory=list)

    def scan(self, where: str, text: str | None, hidden: dict[str, set[str]]) -> list[Hit]:
        if not text:
            return []
        self.checked += 1
        clean = text
        for phrase in RULE_PHRASES:
            clean = clean.replace(phrase, " ")
        found = []
        for pid, words in hidden.items():
            for word in sorted(words):
                if _pattern(word).search(clean):
                    found.append(Hit(where, pid, word, text))
                    break
        self.hits.extend(found)
        return found
