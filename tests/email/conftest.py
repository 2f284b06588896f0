"""Real mail servers on the loopback interface, started by the tests themselves.

``smtp``: an aiosmtpd server that keeps every mail Umpire sends. ``imap``: a pymap
server (its in-memory backend) holding Umpire's mailbox, run as a separate process so a
test can kill and restart it. ``post``: Umpire's mail loop running against both, with a
desk over a fresh database, and players who read their mail and answer it.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import make_msgid
from pathlib import Path

import aioimaplib
import pytest
from aiosmtpd.controller import Controller

from bot.email.config import MailConfig, Server
from bot.email.transport import open_mail

IMAP_USER, IMAP_PASSWORD = "umpire", "imap-pw"
UMPIRE = "umpire@example.org"
ALICE = "alice@example.net"
BOB = "bob@example.net"
MALLORY = "mallory@example.com"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Received:
    to: list[str]
    raw: bytes
    msg: EmailMessage

    @property
    def subject(self) -> str:
        return str(self.msg["Subject"])

    @property
    def body(self) -> str:
        return self.msg.get_body(preferencelist=("plain",)).get_content().replace("\r\n", "\n")

    @property
    def attachments(self) -> list[tuple[str, bytes]]:
        return [(a.get_filename(), a.get_content()) for a in self.msg.iter_attachments()]


class Sink:
    """aiosmtpd's handler: keeps what arrives, and wakes whoever waits for mail."""

    def __init__(self) -> None:
        self.mail: list[Received] = []
        self.changed = asyncio.Event()
        self.loop: asyncio.AbstractEventLoop | None = None

    async def handle_DATA(self, server, session, envelope) -> str:  # noqa: N802 (aiosmtpd's name)
        raw = envelope.original_content or envelope.content
        msg = BytesParser(policy=policy.default).parsebytes(raw)
        self.mail.append(Received([r.lower() for r in envelope.rcpt_tos], raw, msg))
        if self.loop is not None:
            self.loop.call_soon_threadsafe(self.changed.set)
        return "250 OK"

    def to(self, address: str) -> list[Received]:
        return [m for m in self.mail if address in m.to]

    async def wait_for(self, address: str, count: int, timeout: float = 20.0) -> list[Received]:
        """Until ``address`` has received ``count`` mails in all; those mails."""
        deadline = time.monotonic() + timeout
        while len(self.to(address)) < count:
            left = deadline - time.monotonic()
            if left <= 0:
                got = [m.subject for m in self.to(address)]
                raise AssertionError(f"{address} has {len(got)} mails, not {count}: {got}")
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), timeout=min(left, 0.5))
        return self.to(address)


@pytest.fixture
async def smtp():
    sink = Sink()
    sink.loop = asyncio.get_running_loop()
    controller = Controller(sink, hostname="127.0.0.1", port=free_port())
    controller.start()
    yield controller, sink
    controller.stop()


class ImapServer:
    """pymap in a child process, on a fixed port so it can be restarted."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        pymap = Path(sys.executable).with_name("pymap")
        self.proc = subprocess.Popen(
            [str(pymap), "--host", "127.0.0.1", "--port", str(self.port), "--no-tls", "dict",
             "--demo-data", "--demo-user", IMAP_USER, "--demo-password", IMAP_PASSWORD],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 20
        while True:
            try:
                client = await self.client()
                break
            except OSError:
                if time.monotonic() > deadline or self.proc.poll() is not None:
                    raise AssertionError("pymap did not start") from None
                await asyncio.sleep(0.1)
        # the demo data is not Umpire's mail: delete it
        await client.store("1:*", "+FLAGS.SILENT (\\Deleted)")
        await client.expunge()
        await client.logout()

    async def client(self) -> aioimaplib.IMAP4:
        client = aioimaplib.IMAP4(host="127.0.0.1", port=self.port, timeout=5)
        await client.wait_hello_from_server()
        response = await client.login(IMAP_USER, IMAP_PASSWORD)
        assert response.result == "OK", response
        await client.select("INBOX")
        return client

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    async def deliver(self, raw: bytes) -> None:
        """A mail arrives in Umpire's mailbox."""
        client = await self.client()
        try:
            response = await client.append(raw, mailbox="INBOX")
            assert response.result == "OK", response
        finally:
            await client.logout()

    async def unseen(self) -> int:
        client = await self.client()
        try:
            found = await client.uid_search("UNSEEN")
            return len(found.lines[0].split()) if found.lines and found.lines[0] else 0
        finally:
            await client.logout()


@pytest.fixture
async def imap():
    server = ImapServer(free_port())
    await server.start()
    yield server
    server.stop()


def mail_config(tmp_path: Path, imap_port: int, smtp_port: int, **extra) -> MailConfig:
    return MailConfig(
        imap=Server("127.0.0.1", imap_port, IMAP_USER, IMAP_PASSWORD, "off"),
        smtp=Server("127.0.0.1", smtp_port, "", "", "off"),
        address=UMPIRE,
        db_path=str(tmp_path / "umpire.db"),
        secret="00" * 32,
        **{"notice_seconds": 0.2, "idle_seconds": 30.0, **extra},
    )


def letter(
    sender: str,
    to: str,
    subject: str,
    body: str,
    *,
    html: str | None = None,
    headers: dict[str, str] | None = None,
    in_reply_to: str | None = None,
) -> bytes:
    """A mail as a player's program would write it."""
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = sender
    msg["To"] = to
    msg["Subject"] = subject
    msg["Message-ID"] = make_msgid("player", domain=sender.split("@")[1])
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
    for key, value in (headers or {}).items():
        msg[key] = value
    if body:
        msg.set_content(body)
        if html:
            msg.add_alternative(html, subtype="html")
    else:
        msg.set_content(html or "", subtype="html")
    return msg.as_bytes()


def answer(received: Received, sender: str, lines: list[str], *, quote: bool = True) -> bytes:
    """A player's reply to one of Umpire's mails: to its Reply-To, quoting it, signed."""
    original = "\n".join(f"> {line}" for line in received.body.splitlines())
    body = "\n".join(lines) + "\n\n-- \nSent from my phone\n"
    if quote:
        body = "\n".join(lines) + (
            f"\n\nOn Mon, 1 Jan 2024 at 10:00, Umpire <{UMPIRE}> wrote:\n{original}\n"
        )
    return letter(
        sender,
        str(received.msg["Reply-To"]),
        f"Re: {received.subject}",
        body,
        in_reply_to=str(received.msg["Message-ID"]),
    )


@dataclass
class Post:
    """Umpire's mail loop over real servers, and what a test needs around it."""

    cfg: MailConfig
    sink: Sink
    imap: ImapServer
    service: object
    desk: object
    box: object
    task: asyncio.Task | None = None
    stop: asyncio.Event = field(default_factory=asyncio.Event)

    def run(self) -> None:
        self.task = asyncio.create_task(self.box.run(self.stop))

    async def close(self) -> None:
        self.stop.set()
        if self.task is not None:
            with contextlib.suppress(asyncio.CancelledError, TimeoutError):
                await asyncio.wait_for(self.task, timeout=10)
        await self.service.close()


@pytest.fixture
async def post(tmp_path, smtp, imap):
    controller, sink = smtp
    cfg = mail_config(tmp_path, imap.port, controller.port)
    service, desk, box = await open_mail(cfg, maps=False)
    p = Post(cfg, sink, imap, service, desk, box)
    yield p
    await p.close()


async def new_game(post: Post, seats: dict[str, str], *, start: bool = True) -> str:
    """A PFV game with these seats by email (role: address), started by a moderator."""
    created = await post.service.create("pfv", created_by="mod")
    for role, address in seats.items():
        await post.desk.seat(created.game, role, address, "mod")
    if start:
        await post.service.start(created.game, "mod")
    return created.game
