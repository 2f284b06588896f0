"""The kit for server owners (deploy/; issue 15), checked without Docker or systemd:
the Dockerfile's essentials, the systemd unit's, and a lock file that pins exactly the
runtime dependencies installed in the venv."""

from __future__ import annotations

import re
import shlex
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"


def _instructions(text: str) -> list[tuple[str, str]]:
    """``(INSTRUCTION, arguments)`` of a Dockerfile, continuation lines joined."""
    joined = re.sub(r"\\\n", " ", text)
    out = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            word, _, rest = line.partition(" ")
            out.append((word.upper(), rest.strip()))
    return out


def test_dockerfile_essentials():
    steps = _instructions((DEPLOY / "Dockerfile").read_text())
    words = [w for w, _ in steps]
    assert steps[0] == ("FROM", "python:3.11-slim")
    # the lock file is installed, and Umpire itself without pulling anything beyond it
    runs = [a for w, a in steps if w == "RUN"]
    assert any("pip install -r /app/requirements.lock" in r for r in runs)
    assert any("pip install --no-deps" in r for r in runs)
    assert ("COPY", "deploy/requirements.lock /app/requirements.lock") in steps
    # every COPY source is in the repository (the build context is its root)
    for w, args in steps:
        if w == "COPY":
            for source in shlex.split(args)[:-1]:
                assert (ROOT / source).exists(), source
    # a non-root user, set after the installs and before the command
    users = [i for i, w in enumerate(words) if w == "USER"]
    assert users and steps[users[-1]][1] not in ("root", "0")
    assert users[-1] > max(i for i, w in enumerate(words) if w == "RUN")
    assert users[-1] < words.index("ENTRYPOINT")
    # the database on a volume
    env = " ".join(a for w, a in steps if w == "ENV")
    db = re.search(r"UMPIRE_DB=(\S+)", env).group(1)
    volumes = [v for w, a in steps if w == "VOLUME" for v in re.findall(r'"([^"]+)"', a)]
    assert any(db.startswith(v.rstrip("/") + "/") for v in volumes), (db, volumes)
    # a health check that runs a file the image has
    health = next(a for w, a in steps if w == "HEALTHCHECK")
    assert "CMD" in health and "/app/healthcheck.py" in health
    assert ("COPY", "deploy/healthcheck.py /app/healthcheck.py") in steps
    # exec form, so SIGTERM reaches the bot itself
    assert dict(steps)["ENTRYPOINT"] == '["umpire"]'
    assert dict(steps)["CMD"] == '["bot"]'
    assert dict(steps)["STOPSIGNAL"] == "SIGTERM"


def test_systemd_unit_essentials():
    unit: dict[str, dict[str, list[str]]] = {}
    section = None
    for line in (DEPLOY / "umpire.service").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = unit.setdefault(line.strip("[]"), {})
            continue
        key, _, value = line.partition("=")
        section.setdefault(key, []).append(value)
    service = unit["Service"]
    assert service["Restart"] == ["on-failure"]
    assert service["User"] == ["umpire"] and service["Group"] == ["umpire"]
    assert service["EnvironmentFile"] == ["/etc/umpire/umpire.env"]
    assert service["ExecStart"][0].split()[-1] == "bot"
    assert service["KillSignal"] == ["SIGTERM"]
    # the stop timeout leaves the commands under way their grace period
    from bot.shutdown import GRACE_SECONDS

    assert int(service["TimeoutStopSec"][0]) > GRACE_SECONDS
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def test_lock_pins_exactly_the_installed_runtime_dependencies():
    lines = [
        line
        for line in (DEPLOY / "requirements.lock").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    pins = {}
    for line in lines:
        assert re.fullmatch(r"[A-Za-z0-9_.\-]+==[A-Za-z0-9_.+\-]+", line), line
        name, version = line.split("==")
        pins[Requirement(name).name.lower().replace("_", "-")] = version
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for text in project["dependencies"]:
        req = Requirement(text)
        key = req.name.lower().replace("_", "-")
        assert key in pins, f"{req.name} is not pinned"
        assert req.specifier.contains(pins[key]), (req, pins[key])
    # the pins are what the tests run against, and no test tool slipped in
    for name, version in pins.items():
        assert metadata.version(name) == version, name
    for tool in ("pytest", "hypothesis", "ruff", "pytest-asyncio"):
        assert tool not in pins
