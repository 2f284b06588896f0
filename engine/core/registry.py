"""The registry of rulesets by short id (``pfv``, ``aa-revised``, ...)."""

from __future__ import annotations

import importlib

from engine.core.ruleset import Ruleset

#: short id -> module that registers it when imported
KNOWN = {
    "pfv": "engine.games.pfv",
    "aa-revised": "engine.games.aa_revised",
}

_RULESETS: dict[str, Ruleset] = {}


def register(ruleset: Ruleset) -> Ruleset:
    _RULESETS[ruleset.id] = ruleset
    return ruleset


def ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered under ``ruleset_id``; raises ``KeyError`` with the known ids."""
    if ruleset_id not in _RULESETS and ruleset_id in KNOWN:
        try:
            importlib.import_module(KNOWN[ruleset_id])
        except ModuleNotFoundError:
            pass
    try:
        return _RULESETS[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(available())) or "none"
        raise KeyError(f"no game called {ruleset_id!r}; the games are: {known}") from None


def available() -> list[str]:
    """Ids of the rulesets that can be loaded."""
    out = []
    for rid, module in KNOWN.items():
        if rid in _RULESETS:
            out.append(rid)
            continue
        try:
            importlib.import_module(module)
        except ModuleNotFoundError:
            continue
        if rid in _RULESETS:
            out.append(rid)
    return out
