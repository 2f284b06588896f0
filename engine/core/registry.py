"""The registry of rulesets by short id (``pfv``, ``aa-revised``, ...).

Every game Umpire ships is listed in :data:`KNOWN` and is always listed by
:func:`available`, whether or not its module imports: a game whose code is broken must
fail loudly where it is used (:class:`GameLoadError`, naming the module and the cause),
never vanish from the bot's game list or turn its tests into skips.
"""

from __future__ import annotations

import importlib
import traceback

from engine.core.ruleset import Ruleset

#: short id -> module that registers it when imported
KNOWN = {
    "pfv": "engine.games.pfv",
    "aa-revised": "engine.games.aa_revised",
    "aa-na": "engine.games.aa_na",
    "tac": "engine.games.tac",
    "bia": "engine.games.bia",
}

_RULESETS: dict[str, Ruleset] = {}


class GameLoadError(RuntimeError):
    """A known game whose module cannot be imported, or imports without registering it."""

    def __init__(self, ruleset_id: str, module: str, cause: str) -> None:
        self.ruleset_id = ruleset_id
        self.module = module
        self.cause = cause
        super().__init__(f"the game {ruleset_id!r} cannot be loaded: {module} {cause}")


def register(ruleset: Ruleset) -> Ruleset:
    _RULESETS[ruleset.id] = ruleset
    return ruleset


def _load(ruleset_id: str) -> None:
    """Import the module of a known game; raise :class:`GameLoadError` if that fails."""
    module = KNOWN[ruleset_id]
    try:
        importlib.import_module(module)
    except Exception as exc:  # a broken game is reported whatever broke it
        raise GameLoadError(ruleset_id, module, f"failed to import: {_cause(exc)}") from exc
    if ruleset_id not in _RULESETS:
        raise GameLoadError(
            ruleset_id, module, f"imports but registers no ruleset called {ruleset_id!r}"
        )


def _cause(exc: BaseException) -> str:
    """The exception and the innermost source line it came from, in one line."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "importlib" not in f.filename]
    where = f" ({ours[-1].filename}, line {ours[-1].lineno})" if ours else ""
    return f"{type(exc).__name__}: {exc}{where}"


def ruleset(ruleset_id: str) -> Ruleset:
    """The ruleset registered under ``ruleset_id``.

    Raises ``KeyError`` (naming the games there are) for an id no game has, and
    :class:`GameLoadError` for a known game whose module is broken.
    """
    if ruleset_id not in _RULESETS and ruleset_id in KNOWN:
        _load(ruleset_id)
    try:
        return _RULESETS[ruleset_id]
    except KeyError:
        known = ", ".join(sorted(available())) or "none"
        raise KeyError(f"no game called {ruleset_id!r}; the games are: {known}") from None


def available() -> list[str]:
    """Ids of every game Umpire ships, loadable or not (:func:`ruleset` says which is
    broken and why). Imports nothing, so listing the games costs nothing."""
    return list(KNOWN)
