"""The mailbox and the post: IMAP in (IDLE, polling fallback, reconnects), SMTP out.

The loop (research/email_and_scale.md 2.1): log in, handle every unseen mail, mail the
notices due, then wait in IDLE for the server to push new mail, renewing the IDLE every
``idle_seconds`` (GitLab renews every 60 s, since servers and firewalls cut longer ones)
and waking every ``notice_seconds`` for turns played elsewhere. A server without IDLE is
polled. A lost connection is noticed at once (the client's connection-lost callback)
and the loop logs in again, waiting 1, 2, 4 ... up to 60 s between tries.

A mail is fetched without setting \\Seen (``BODY.PEEK``); it is marked seen only after
the desk has committed what it did with it and the reply has been handed to the SMTP
server. A crash before that leaves it unseen, and the desk knows its Message-ID.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import ssl
import uuid

import aioimaplib
import aiosmtplib

from bot.email.config import MailConfig, MailConfigError
from bot.email.desk import MailDesk
from bot.service import Service
from bot.store import MailRow

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 20
MAX_BACKOFF = 60.0
IMAP_ERRORS = (OSError, TimeoutError, aioimaplib.Abort, aioimaplib.CommandTimeout)


class ImapError(Exception):
    """The IMAP server answered NO or BAD."""


class Outbox:
    """Sends the queued mail over SMTP; one flush at a time."""

    def __init__(self, service: Service, cfg: MailConfig) -> None:
        self.service = service
        self.cfg = cfg
        self._lock = asyncio.Lock()
        self.sent = 0

    async def flush(self) -> int:
        """Send what is queued; how many mails the server took. Never raises: a server
        that is down is logged, and the mail waits for the next flush."""
        async with self._lock:
            rows = [r for r in await self.service.unsent_email() if r[3] < MAX_ATTEMPTS]
            if not rows:
                return 0
            s = self.cfg.smtp
            client = aiosmtplib.SMTP(
                hostname=s.host,
                port=s.port,
                use_tls=s.tls == "ssl",
                start_tls=True if s.tls == "starttls" else False,
                timeout=30,
            )
            taken = 0
            try:
                await client.connect()
                if s.user:
                    await client.login(s.user, s.password)
                for outbox_id, recipient, message, _ in rows:
                    try:
                        await client.sendmail(self.cfg.address, [recipient], message)
                    except (aiosmtplib.SMTPRecipientsRefused, aiosmtplib.SMTPDataError) as exc:
                        log.warning("the SMTP server refused mail %s to %s: %s", outbox_id, recipient, exc)
                        await self.service.mark_email(outbox_id, str(exc))
                        continue
                    await self.service.mark_email(outbox_id)
                    taken += 1
            except (OSError, TimeoutError, aiosmtplib.SMTPException) as exc:
                log.warning("sending mail failed (%s); it waits for the next try", exc)
            finally:
                with contextlib.suppress(Exception):
                    await client.quit()
            self.sent += taken
            return taken


class Mailbox:
    """The IMAP side: the loop, and one pass for ``umpire email --once``."""

    def __init__(self, desk: MailDesk, outbox: Outbox) -> None:
        self.desk = desk
        self.outbox = outbox
        self.cfg = desk.cfg
        if self.cfg.imap.tls == "starttls":
            raise MailConfigError(
                "UMPIRE_IMAP_TLS=starttls is not supported (the IMAP client has no STARTTLS); "
                "use ssl, port 993, which every provider offers."
            )
        self.handled = 0
        self.connections = 0
        self._lost = asyncio.Event()

    async def _connect(self) -> aioimaplib.IMAP4:
        i = self.cfg.imap
        self._lost = asyncio.Event()
        lost = self._lost

        def on_lost(exc: Exception | None) -> None:
            lost.set()

        if i.tls == "ssl":
            client: aioimaplib.IMAP4 = aioimaplib.IMAP4_SSL(
                host=i.host, port=i.port, timeout=30, ssl_context=ssl.create_default_context()
            )
            client.protocol.conn_lost_cb = on_lost
        else:
            client = aioimaplib.IMAP4(host=i.host, port=i.port, timeout=30, conn_lost_cb=on_lost)
        await client.wait_hello_from_server()
        _ok(await client.login(i.user, i.password), "log in")
        _ok(await client.select("INBOX"), "open the INBOX")
        self.connections += 1
        return client

    async def once(self) -> int:
        """Handle what is waiting, mail the notices, and log out; mails handled."""
        client = await self._connect()
        try:
            before = self.handled
            await self._read(client)
            await self.notices()
            return self.handled - before
        finally:
            await _close(client)

    async def notices(self) -> None:
        try:
            await self.desk.notices()
        except Exception:
            log.exception("mailing the notices failed; trying again on the next pass")
        await self.outbox.flush()

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Serve the mailbox until ``stop`` is set (or for ever)."""
        stop = stop or asyncio.Event()
        backoff = 1.0
        while not stop.is_set():
            client = None
            try:
                client = await self._connect()
                backoff = 1.0
                await self._serve(client, stop)
            except (*IMAP_ERRORS, ImapError) as exc:
                log.warning("the IMAP connection failed (%s); again in %.0f s", exc, backoff)
            finally:
                if client is not None:
                    await _close(client)
            if stop.is_set():
                break
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(backoff):  # (not wait_for: see bot/deadlines.py)
                    await stop.wait()
            backoff = min(MAX_BACKOFF, backoff * 2)

    async def _serve(self, client: aioimaplib.IMAP4, stop: asyncio.Event) -> None:
        idle = client.has_capability("IDLE")
        while not stop.is_set():
            if self._lost.is_set():
                raise OSError("the IMAP server closed the connection")
            await self._read(client)
            await self.notices()
            wait = min(self.cfg.idle_seconds, self.cfg.notice_seconds)
            if idle:
                waiting = await client.idle_start(timeout=self.cfg.idle_seconds)
                await _first(client.wait_server_push(timeout=wait), self._lost.wait(), stop.wait())
                if self._lost.is_set():
                    waiting.cancel()
                    raise OSError("the IMAP server closed the connection during IDLE")
                client.idle_done()
                await asyncio.wait_for(waiting, timeout=10)
            else:
                with contextlib.suppress(TimeoutError):
                    async with asyncio.timeout(min(self.cfg.poll_seconds, wait)):
                        await _first(self._lost.wait(), stop.wait())

    async def _read(self, client: aioimaplib.IMAP4) -> None:
        found = _ok(await client.uid_search("UNSEEN"), "search the INBOX")
        uids = found.lines[0].split() if found.lines else []
        for uid in uids:
            if not uid.isdigit():
                continue
            fetched = _ok(await client.uid("fetch", uid.decode(), "(BODY.PEEK[])"), "fetch a mail")
            raw = next((bytes(x) for x in fetched.lines if isinstance(x, bytearray)), None)
            if raw is not None:
                await self.handle(raw)
            await self.outbox.flush()
            _ok(await client.uid("store", uid.decode(), "+FLAGS.SILENT (\\Seen)"), "mark a mail seen")

    async def handle(self, raw: bytes) -> str:
        """The desk's handling of one mail; a failure inside Umpire is logged under a
        reference, recorded against the Message-ID (so it is not retried for ever) and
        never shown to the sender as a traceback."""
        try:
            outcome = await self.desk.handle(raw)
        except Exception:
            ref = uuid.uuid4().hex[:8]
            log.exception("handling a mail failed (reference %s)", ref)
            outcome = await self._failed(raw, ref)
        self.handled += 1
        log.info("mail handled: %s", outcome)
        return outcome

    async def _failed(self, raw: bytes, ref: str) -> str:
        from bot.email.parse import parse_mail

        mail = parse_mail(raw, self.cfg.address)
        service = self.desk.service
        record = MailRow(
            mail.message_id, mail.sender, "refused", service.clock(), why=f"internal error {ref}"
        )
        record.handled_at = service.clock()
        reply = []
        if mail.sender and mail.automatic is None:
            reply = [
                self.desk._plain(
                    mail,
                    f"Something went wrong inside Umpire while reading your mail (reference "
                    f"{ref}); the lines it had not reached were not applied. Please tell the "
                    "moderator and quote the reference.",
                )
            ]
        with contextlib.suppress(Exception):
            await service.record_email_message(record, reply)
        return "failed"


def _ok(response: aioimaplib.Response, what: str) -> aioimaplib.Response:
    if response.result != "OK":
        raise ImapError(f"the IMAP server would not {what}: {response.result} {response.lines!r}")
    return response


async def _first(*aws: object) -> None:
    """Wait until the first of these finishes; cancel the others."""
    tasks = [asyncio.ensure_future(a) for a in aws]  # type: ignore[arg-type]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t


async def _close(client: aioimaplib.IMAP4) -> None:
    with contextlib.suppress(Exception):
        await asyncio.wait_for(client.logout(), timeout=2)
    with contextlib.suppress(Exception):
        client.protocol.transport.close()


async def open_mail(cfg: MailConfig, *, maps: bool = True) -> tuple[Service, MailDesk, Mailbox]:
    """A service over a mail store, and the desk and mailbox that serve it."""
    from bot.email.store import open_mail_store

    scheme = cfg.db_path.split("://", 1)[0] if "://" in cfg.db_path else None
    if scheme not in (None, "postgresql", "postgres"):
        raise MailConfigError(
            f"play by email keeps its records in an SQLite file or a PostgreSQL database, "
            f"not in a {scheme} database."
        )
    service = Service(await open_mail_store(cfg.db_path))
    try:
        desk = MailDesk(service, cfg, maps=maps)
        box = Mailbox(desk, Outbox(service, cfg))
    except BaseException:
        await service.close()
        raise
    return service, desk, box


class Beside:
    """The mail loop running as a task beside another front end (``umpire bot``)."""

    def __init__(self, service: Service, box: Mailbox) -> None:
        self.service = service
        self.box = box
        self.stop = asyncio.Event()
        self.task = asyncio.create_task(box.run(self.stop), name="umpire-email")

    async def close(self) -> None:
        self.stop.set()
        with contextlib.suppress(asyncio.CancelledError, TimeoutError):
            await asyncio.wait_for(self.task, timeout=10)
        await self.service.close()


async def start_beside(db_path: str) -> Beside | None:
    """Start the mail loop over ``db_path`` when the mail settings are there (else None);
    wrong settings are logged, and the other front end runs on without mail."""
    from bot.email.config import load_config, mail_configured

    if not mail_configured():
        return None
    try:
        cfg = load_config(db_path=db_path)
        service, _, box = await open_mail(cfg)
    except MailConfigError as exc:
        log.error("play by email is off: %s", exc)
        return None
    log.info("play by email: reading %s at %s", cfg.imap.user or cfg.address, cfg.imap.host)
    return Beside(service, box)
