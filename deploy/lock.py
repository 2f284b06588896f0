"""Write deploy/requirements.lock: ``pip freeze`` of the project venv, kept to the
runtime dependencies of pyproject.toml and what they need in turn (no test tools).

Run with the venv's Python after changing dependencies: ``.venv/bin/python deploy/lock.py``.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parents[1]


def _name(text: str) -> str:
    return re.sub(r"[-_.]+", "-", text).lower()


def runtime_closure() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    todo = [Requirement(r) for r in project["dependencies"]]
    seen: set[str] = set()
    while todo:
        req = todo.pop()
        if _name(req.name) in seen:
            continue
        seen.add(_name(req.name))
        dist = metadata.distribution(req.name)
        extras = req.extras or {""}
        for text in dist.requires or []:
            sub = Requirement(text)
            if sub.marker is None or any(sub.marker.evaluate({"extra": e}) for e in extras):
                todo.append(sub)
    return seen


def main() -> int:
    wanted = runtime_closure()
    frozen = subprocess.run(
        [sys.executable, "-m", "pip", "freeze", "--exclude-editable"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.splitlines()
    lines = [line for line in frozen if _name(line.split("==")[0]) in wanted]
    missing = wanted - {_name(line.split("==")[0]) for line in lines}
    if missing:
        print(f"not installed in this venv: {', '.join(sorted(missing))}", file=sys.stderr)
        return 1
    head = (
        "# The runtime dependencies of Umpire, pinned: `pip freeze` of the project venv kept to\n"
        f"# pyproject.toml's dependencies and theirs (Python {sys.version_info.major}."
        f"{sys.version_info.minor}). Regenerate: .venv/bin/python deploy/lock.py\n"
    )
    (ROOT / "deploy" / "requirements.lock").write_text(
        head + "\n".join(sorted(lines, key=str.lower)) + "\n"
    )
    print(f"deploy/requirements.lock: {len(lines)} packages")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
