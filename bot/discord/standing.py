"""Standing orders and the defaults applied when a deadline passes (ARCHITECTURE:
Asynchronous play).

A player's standing orders say, per decision verb, what to choose when they are not
there to choose: ``{"loss": ["34th", "para"], "air": ["any"], "retreat": ["8113"]}``.
Each entry is a list of preferences tried in order; a preference picks the first legal
order of that verb that names it (a piece or a hex among the order's words), ``any``
picks the first legal order that is not a pass, and ``none`` the pass (no air support,
no advance). When no standing order fits, the default is to pass (``done``, ``air
none``, ``advance none``) where the rules allow it, and otherwise the first legal order
in the rules engine's own listing, so the same position always gets the same default.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from engine.core.orders import Order

#: the decisions a player makes while others wait, with what their preferences name
STANDING_VERBS = {
    "loss": "pieces to lose a step first, in order",
    "air": "air pieces to fly in defence, 'any', or 'none'",
    "retreat": "hexes (or pieces) to retreat to first, in order",
    "advance": "pieces to advance, 'any', or 'none'",
}


@dataclass(frozen=True)
class Choice:
    order: Order
    reason: str  # "their standing order (loss: 34th)" or "the default"


def is_pass(order: Order) -> bool:
    """An order that declines: ending the step, or choosing nothing (``air none``)."""
    words = order.text().split()
    return words == ["done"] or words[1:] == ["none"]


def _words(order: Order) -> list[str]:
    out: list[str] = []
    for word in order.text().lower().split()[1:]:
        out += [w for w in word.split(",") if w]
    return out


def parse_preferences(text: str) -> list[str]:
    """``"34th, para  1arm"`` -> ``["34th", "para", "1arm"]``."""
    return [w for w in text.replace(",", " ").lower().split() if w]


def choose(orders: Sequence[Order], standing: Mapping[str, Sequence[str]]) -> Choice:
    """The order to give for a player whose deadline passed; ``orders`` are the legal
    ones (never empty, the engine guarantees a decision has a legal order)."""
    if not orders:
        raise ValueError("a decision with no legal order")
    for verb, prefs in standing.items():
        candidates = [o for o in orders if o.verb == verb]
        if not candidates:
            continue
        for pref in prefs:
            pref = pref.lower()
            if pref == "any":
                found = next((o for o in candidates if not is_pass(o)), None)
            elif pref == "none":
                found = next((o for o in candidates if is_pass(o)), None)
            else:
                found = next((o for o in candidates if pref in _words(o)), None)
            if found is not None:
                return Choice(found, f"their standing order ({verb}: {pref})")
    passing = next((o for o in orders if is_pass(o)), None)
    if passing is not None:
        return Choice(passing, "the default (pass)")
    return Choice(orders[0], "the default (the first legal order)")


def describe(standing: Mapping[str, Sequence[str]]) -> str:
    if not standing:
        return "no standing orders"
    return "; ".join(f"{verb}: {' '.join(prefs)}" for verb, prefs in standing.items() if prefs)
