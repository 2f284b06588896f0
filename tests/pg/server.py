"""A throwaway PostgreSQL server for the tests (issue 16).

Started by the test run itself: ``initdb`` into a temporary folder, ``pg_ctl start`` on
127.0.0.1 at a free port, without fsync; stopped and removed when the last user releases
it. PostgreSQL refuses to run as root, so as root the server runs as the user
``umpire-pg`` (created if missing). If PostgreSQL is not installed, it is installed from
the OS packages when running as root in CI (``CI`` set); otherwise starting fails with a
message saying what to install.

Each test gets its own schema (:meth:`Server.new_url`): a URL whose ``search_path`` names
it, so every process given the URL sees the same tables and no other test's.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from urllib.parse import quote

USER = "umpire-pg"
DB_USER = "umpire"


class ServerError(RuntimeError):
    """PostgreSQL cannot be started for the tests; the message says why."""


def _binary(name: str) -> str | None:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return found[-1] if found else shutil.which(name)


def _install() -> None:
    if os.geteuid() != 0 or not os.environ.get("CI"):
        raise ServerError(
            "PostgreSQL is not installed, and the PostgreSQL tests need it: install it "
            "(Debian: apt-get install -y postgresql) or run the tests as root with CI=1, "
            "which installs it"
        )
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for cmd in (["apt-get", "update"], ["apt-get", "install", "-y", "postgresql"]):
        done = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=900)
        if done.returncode != 0:
            raise ServerError(
                f"installing PostgreSQL failed: {' '.join(cmd)}: {done.stderr[-500:]}"
            )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    def __init__(self) -> None:
        self.users = 0
        self.dir: str | None = None
        self.port = 0
        self._schemas = itertools.count(1)
        self._admin = None

    # -- start and stop ------------------------------------------------------------

    def _as_owner(self, cmd: list[str]) -> list[str]:
        if os.geteuid() != 0:
            return cmd
        return ["runuser", "-u", USER, "--", *cmd]

    def _run(self, cmd: list[str], what: str) -> None:
        done = subprocess.run(self._as_owner(cmd), capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            log = ""
            if self.dir and os.path.exists(os.path.join(self.dir, "log")):
                with open(os.path.join(self.dir, "log"), encoding="utf-8", errors="replace") as f:
                    log = f.read()[-800:]
            raise ServerError(f"{what} failed: {done.stderr.strip()[-800:]} {log}")

    def start(self) -> None:
        initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
        if not (initdb and pg_ctl):
            _install()
            initdb, pg_ctl = _binary("initdb"), _binary("pg_ctl")
            if not (initdb and pg_ctl):
                raise ServerError("PostgreSQL was installed but initdb and pg_ctl are not found")
        if os.geteuid() == 0:
            try:
                subprocess.run(["id", USER], check=True, capture_output=True)
            except subprocess.CalledProcessError:
                subprocess.run(
                    [
                        "useradd",
                        "--system",
                        "--no-create-home",
                        "--shell",
                        "/usr/sbin/nologin",
                        USER,
                    ],
                    check=True,
                    capture_output=True,
                )
        self.dir = tempfile.mkdtemp(prefix="umpire-pg-")
        os.chmod(self.dir, 0o755)
        if os.geteuid() == 0:
            shutil.chown(self.dir, USER)
        data = os.path.join(self.dir, "data")
        self._run(
            [initdb, "-D", data, "-A", "trust", "-U", DB_USER, "-E", "UTF8", "--no-sync"],
            "initdb",
        )
        for _ in range(5):  # the port may be taken between choosing and binding it
            self.port = _free_port()
            options = (
                f"-c listen_addresses=127.0.0.1 -p {self.port} -k {self.dir} -F"
                " -c max_connections=200 -c synchronous_commit=off -c full_page_writes=off"
            )
            try:
                self._run(
                    [pg_ctl, "-D", data, "-o", options, "-l", os.path.join(self.dir, "log"),
                     "-w", "-t", "60", "start"],
                    "pg_ctl start",
                )  # fmt: skip
                return
            except ServerError as exc:
                last = exc
        raise last

    def stop(self) -> None:
        if self.dir is None:
            return
        pg_ctl = _binary("pg_ctl")
        try:
            if pg_ctl:
                self._run(
                    [pg_ctl, "-D", os.path.join(self.dir, "data"), "-m", "fast", "-w", "stop"],
                    "pg_ctl stop",
                )
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)
            self.dir = None

    def acquire(self) -> Server:
        if self.users == 0:
            self.start()
        self.users += 1
        return self

    def release(self) -> None:
        self.users -= 1
        if self.users == 0:
            self.stop()

    # -- databases -------------------------------------------------------------------

    @property
    def url(self) -> str:
        return f"postgresql://{DB_USER}@127.0.0.1:{self.port}/postgres"

    def new_url(self) -> str:
        """A URL whose tables live in a new, empty schema of their own."""
        import psycopg

        name = f"t{os.getpid()}_{next(self._schemas)}"
        with psycopg.connect(self.url, autocommit=True) as conn:
            conn.execute(f"CREATE SCHEMA {name}")
        return f"{self.url}?options={quote(f'-csearch_path={name}')}"


#: the one server of this test process
SERVER = Server()
