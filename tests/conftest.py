"""What every test shares: no test writes to the home folder of whoever runs it."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _caches_and_state_in_tmp(tmp_path_factory, monkeypatch):
    """The renderer's disk cache of base layers and the console's state (last game,
    history) go to a scratch folder, not to ~/.cache and ~/.local/state."""
    root = tmp_path_factory.mktemp("xdg")
    monkeypatch.setenv("XDG_CACHE_HOME", str(root / "cache"))
    monkeypatch.setenv("XDG_STATE_HOME", str(root / "state"))
