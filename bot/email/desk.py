"""The mail desk: what Umpire does with one incoming mail, and the notices it mails out.

Nothing here speaks IMAP or SMTP (that is ``transport``): a mail comes in as bytes, and
what Umpire wants to send goes into the outbox table, in the transaction that decides it.

Handling a mail (issue 14, items 2, 3 and 5):

1. A Message-ID already handled is skipped; mail from a machine is recorded and never
   answered; a sender over the hourly limit is answered once, then ignored.
2. The seat comes from the token in the address Umpire was written to (``local+TOKEN``),
   or else from ``key:TOKEN`` in the subject. The mail must come from the seat's
   registered address: a valid token from another address is refused, and the
   registered address is told (not the sender).
3. The body's lines are acted on in order: orders in the console grammar, and ``orders``,
   ``show``, ``map``, ``log``, ``undo``, ``help``. Reading stops at the first refused
   line (the lines after it may depend on it); the reply says so.
4. Each line that changes the game is recorded (``lines_done``) in the transaction that
   applies it (:func:`bot.email.store.in_same_write`), so a restart resumes after it.
5. The reply (with the seat's map when an order was applied or ``map`` was asked for)
   is queued in the transaction that marks the mail done.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.deadlines import Passed, Runner, apply_passed
from bot.email.compose import compose, subject_for
from bot.email.config import MailConfig, MailConfigError
from bot.email.parse import Incoming, order_lines, parse_mail
from bot.email.store import SameWrite, in_same_write
from bot.email.tokens import (
    mail_key,
    new_nonce,
    seat_token,
    token_hash,
    token_in_address,
    token_in_subject,
)
from bot.service import DeadlineInfo, LogLine, Service, ServiceError
from bot.store import EmailSeatRow, MailRow, Tx

log = logging.getLogger(__name__)

HOUR = 3600.0
LEGAL_SHOWN = 40
LOG_SHOWN = 40
MAP_LIMIT = 8_000_000
COMMANDS = ("orders", "show", "map", "log", "undo", "help")

HELP = """\
How to play by mail: reply to this mail (keep the subject's key:... or the address
Umpire's mail asks you to reply to). Write one order per line, as the game writes them,
for example "move 1arm 8113 8114" or "done". Umpire acts on the lines in order and stops
at the first line it refuses, at your signature ("-- "), at quoted text, or at a line
"end". Other lines you may write:
  orders   the legal orders now          show   the position as you see it
  map      your map as a PNG             log    the game so far, as you see it
  undo     take back your last order     help   this text"""


def user_of(address: str) -> str:
    """The seat holder's name for an address: ``mail:<address>``."""
    return f"mail:{address.lower()}"


class MailDesk:
    """Handles incoming mail and builds outgoing mail for one service and mailbox."""

    def __init__(
        self,
        service: Service,
        cfg: MailConfig,
        *,
        draw: Callable[[Any, int], bytes] | None = None,
        maps: bool = True,
    ) -> None:
        if not isinstance(service.store, SameWrite):
            raise TypeError("the mail desk needs a Service opened over a mail store")
        if "://" in cfg.db_path and not cfg.secret.strip():
            raise MailConfigError(
                "play by email over a PostgreSQL database needs UMPIRE_MAIL_SECRET (the key "
                "its seat tokens are made with), since there is no database file to keep a "
                "key file beside"
            )
        self.service = service
        self.cfg = cfg
        self.key = mail_key(cfg.db_path, cfg.secret)
        self.draw = draw
        self.maps = maps

    # -- seats -----------------------------------------------------------------------

    def token(self, seat: EmailSeatRow) -> str:
        return seat_token(self.key, seat.game, seat.role, seat.address, seat.nonce)

    async def seat(
        self, game: str, role: str, address: str, by: str, why: str = "", *, as_creator: bool = False
    ) -> str:
        """Seat ``address`` in ``role`` and queue its welcome mail; the seat's token.
        ``as_creator``: ``by`` moderates only as the game's creator (issue 10 item 5)."""
        address = address.strip().lower()
        if address.count("@") != 1 or " " in address or address == self.cfg.address:
            raise ServiceError(f"{address!r} is not an address Umpire can seat.")
        nonce = new_nonce()
        token = seat_token(self.key, game, role, address, nonce)
        await self.service.seat_email(
            game, by, role, address, token_hash(token), nonce, why, as_creator=as_creator
        )
        seat = next(s for s in await self.service.email_seats(game) if s.role == role)
        await self._welcome(seat, "You are seated")
        return token

    async def reissue(self, game: str, role: str) -> str:
        """A new token for an email seat, mailed to its address; the old one stops working."""
        nonce = new_nonce()
        seats = {s.role: s for s in await self.service.email_seats(game)}
        if role not in seats:
            raise ServiceError(f"{role} in game {game} is not played by email.")
        old = seats[role]
        token = seat_token(self.key, game, role, old.address, nonce)
        seat = await self.service.set_email_token(game, role, token_hash(token), nonce)
        await self._welcome(seat, "Your key is renewed")
        return token

    async def _welcome(self, seat: EmailSeatRow, what: str) -> None:
        status = await self.service.status(seat.game)
        view = await self.service.view(seat.game, user_of(seat.address), seat.role)
        body = [
            f"{what} in game {seat.game} ({status.title}, scenario {status.scenario}) "
            f"as {seat.role}.",
            "",
            "The position as you see it:",
            *_view_lines(view.view),
            "",
            *await self._now_lines(seat),
            "",
            HELP,
        ]
        png = await self._map(seat) if self.maps else None
        mail = self._mail(seat, what, "\n".join(body), png=png, seq=view.seq)
        await self.service.queue_email([mail], mailed=[(seat.game, seat.role, view.seq)])

    # -- one incoming mail -----------------------------------------------------------

    async def handle(self, raw: bytes) -> str:
        """Handle one mail; a word for the log: done, duplicate, ignored, refused, limited."""
        mail = parse_mail(raw, self.cfg.address)
        svc = self.service
        now = svc.clock()
        record = await svc.email_message(mail.message_id)
        if record is not None and record.status != "working":
            return "duplicate"
        if record is None:
            if mail.automatic is not None:
                log.info("not answering %s from %s: %s", mail.message_id, mail.sender, mail.automatic)
                return await self._close(
                    MailRow(mail.message_id, mail.sender, "ignored", now, why=mail.automatic)
                )
            sent = await svc.email_messages_from(mail.sender, now - HOUR)
            if sent >= self.cfg.rate_limit:
                answer = []
                if sent == self.cfg.rate_limit:
                    answer = [
                        self._plain(
                            mail,
                            f"You have sent Umpire {sent} mails in the last hour, its limit; "
                            "it will read your next mails after a pause of an hour.",
                        )
                    ]
                return await self._close(
                    MailRow(mail.message_id, mail.sender, "limited", now, why="rate limit"), answer
                )
            refusal = await self._refusal(mail)
            if refusal is not None:
                why, outgoing = refusal
                return await self._close(
                    MailRow(mail.message_id, mail.sender, "refused", now, why=why), outgoing
                )
        seat, token = await self._seat_of(mail)
        if seat is None or token is None:  # reissued or reseated since a restart began
            gone = record or MailRow(mail.message_id, mail.sender, "refused", now)
            gone.status, gone.why = "refused", "key no longer valid"
            return await self._close(
                gone,
                [self._plain(mail, "The key in your mail is no longer the key of a seat, so "
                             "the rest of it was not read.")],
            )
        record = record or MailRow(
            mail.message_id, mail.sender, "working", now, game=seat.game, role=seat.role
        )
        if record.lines_done == 0 and not record.results:
            await svc.record_email_message(record)
        return await self._act(mail, seat, token, record)

    async def _close(self, record: MailRow, outgoing: list[tuple[str, bytes]] = ()) -> str:
        record.handled_at = self.service.clock()
        await self.service.record_email_message(record, outgoing)
        return record.status

    async def _seat_of(self, mail: Incoming) -> tuple[EmailSeatRow | None, str | None]:
        tokens = [
            t
            for t in (token_in_address(a, self.cfg.local, self.cfg.domain) for a in mail.recipients)
            if t
        ]
        subject = token_in_subject(mail.subject)
        for token in [*tokens, *([subject] if subject else [])]:
            seat = await self.service.email_seat_by_token(token_hash(token))
            if seat is not None:
                return seat, token
        return None, (tokens or [subject])[0] if (tokens or subject) else None

    async def _refusal(self, mail: Incoming) -> tuple[str, list[tuple[str, bytes]]] | None:
        """Why this mail is refused before reading its lines, and what to send; or None."""
        if mail.problem is not None:
            return mail.problem, [
                self._plain(
                    mail,
                    f"Umpire could not read your mail ({mail.problem}); nothing was changed. "
                    "Please send the orders again as plain text.",
                )
            ]
        seat, token = await self._seat_of(mail)
        if token is None:
            return "no key", [
                self._plain(
                    mail,
                    "Your mail carries no seat key, so Umpire cannot tell which game it is for; "
                    "nothing was changed. Reply to a mail from Umpire: its reply address and its "
                    "subject (key:...) carry your key.",
                )
            ]
        if seat is None:
            return "unknown key", [
                self._plain(
                    mail,
                    "The key in your mail is not (or no longer) the key of a seat, so nothing was "
                    "changed. Reply to the latest mail Umpire sent you, or ask the moderator for "
                    "a new key.",
                )
            ]
        if mail.sender != seat.address:
            # The forger learns nothing; the seat's holder is told (issue 14, item 2).
            warning = self._mail(
                seat,
                "Mail with your key from another address",
                f"Umpire received a mail with your key for game {seat.game} ({seat.role}) "
                f"from {mail.sender or 'an unknown sender'}, not from your address, and "
                "ignored it: nothing was changed. If you wrote it, write from "
                f"{seat.address}. If not, ask the moderator to reissue your key.",
            )
            return f"key of {seat.game} {seat.role} from another address", [warning]
        return None

    async def _act(self, mail: Incoming, seat: EmailSeatRow, token: str, record: MailRow) -> str:
        svc = self.service
        game, role, user = seat.game, seat.role, user_of(seat.address)
        lines = order_lines(mail.text)
        results = list(record.results)
        if record.lines_done:
            results.append(f"(Umpire restarted here; the {record.lines_done} lines above were "
                           "handled before and are not repeated.)")
        attach = False
        for i, line in enumerate(lines):
            if i < record.lines_done:
                continue
            word = line.split()[0].lower()
            try:
                if word in COMMANDS and word != "undo":
                    text, want_map = await self._command(seat, word)
                    attach = attach or want_map
                    results.append(f"> {line}\n{text}")
                    continue
                progress = MailRow(**{**record.__dict__, "lines_done": i + 1,
                                      "results": [*results, f"> {line}\n  Applied."]})

                async def note(tx: Tx, progress: MailRow = progress) -> None:
                    await tx.put_email_message(progress)

                with in_same_write(note):
                    if word == "undo":
                        undone = await svc.undo(game, user, role=role)
                        text = f"  Took back action {undone.seq} ({undone.order})."
                    else:
                        done = await svc.submit(game, user, line, role=role)
                        text = await self._applied(seat, done.seq)
                        attach = True
                results.append(f"> {line}\n{text}")
            except ServiceError as exc:
                results.append(f"> {line}\n  Refused: {exc}")
                rest = lines[i + 1 :]
                if rest:
                    results.append(
                        "Not tried, because they may depend on the refused line: "
                        + "; ".join(rest)
                    )
                break
        if not lines:
            results.append(
                "Your mail had no orders in it (Umpire stops reading at quoted text and at "
                "a signature)."
            )
        from_html = (
            ["(Your mail had no plain-text part; Umpire read its HTML as text.)", ""]
            if mail.html_only
            else []
        )
        body = [
            f"Game {game}, you are {role}.",
            "",
            *from_html,
            *results,
            "",
            *await self._now_lines(seat),
            "",
            "Write help for the commands.",
        ]
        png = await self._map(seat) if attach and self.maps else None
        _, _, head = await svc.live_state(game)
        reply = self._mail(
            seat, "Re: your orders", "\n".join(body), png=png, in_reply_to=mail.message_id,
            reply=True, token=token, seq=head,
        )
        record.status, record.lines_done, record.results = "done", len(lines), results
        record.handled_at = svc.clock()
        await svc.queue_email([reply], mailed=[(game, role, head)], record=record)
        return "done"

    async def _applied(self, seat: EmailSeatRow, seq: int) -> str:
        """What the seat reads of action ``seq`` it just gave (the log as its view)."""
        lines = [
            line
            for line in await self.service.game_log(seat.game, audience=seat.role)
            if line.seq == seq
        ]
        out = [f"  Applied (action {seq})."]
        for line in lines:
            out.extend(f"    {text}" for text in line.events)
            out.extend(f"    roll: {r.value} on d{r.sides} {r.purpose}".rstrip() for r in line.rolls)
        return "\n".join(out)

    async def _command(self, seat: EmailSeatRow, word: str) -> tuple[str, bool]:
        svc = self.service
        if word == "help":
            return HELP, False
        if word == "map":
            return "  Your map is attached." if self.maps else "  (Maps are off.)", True
        if word == "show":
            view = await svc.view(seat.game, user_of(seat.address), seat.role)
            return "\n".join(f"  {t}" for t in _view_lines(view.view)), False
        if word == "log":
            lines = await svc.game_log(seat.game, audience=seat.role)
            text = _log_text(lines[-LOG_SHOWN:])
            more = f"  (the last {LOG_SHOWN} of {len(lines)} actions)\n" if len(lines) > LOG_SHOWN else ""
            return more + "\n".join(f"  {t}" for t in text) or "  Nothing has happened yet.", False
        ruleset, state, _ = await svc.live_state(seat.game)
        orders = [o.text() for o in ruleset.legal_orders(state, seat.role)]
        if not orders:
            return "  You have no order to give now.", False
        return "  " + "\n  ".join(orders[:400]), False

    # -- deadlines of games played without a Discord channel -------------------------

    def deadline_runner(self, **options: Any) -> Runner:
        """The scheduler core (:mod:`bot.deadlines`) for the deadlines of games without a
        Discord channel, which only mail announces; a bot process serves the others."""
        return Runner(self.service, self.deadline_passed, with_channel=False, **options)

    async def deadline_passed(self, d: DeadlineInfo) -> Passed:
        """Apply the default for a passed deadline (:func:`bot.deadlines.apply_passed`)
        and tell the seat, if played by mail, what was ordered for it. The hand-over to
        whoever decides next goes out with the other notices (:meth:`notices`)."""
        passed = await apply_passed(self.service, d)
        if passed.outcome != "applied" or passed.seat is None:
            return passed
        seat = next(
            (s for s in await self.service.email_seats(d.game) if s.role == passed.seat.role),
            None,
        )
        if seat is None:
            return passed
        tz_name = passed.seat.timezone
        lines = [
            f"The deadline for your decision in game {d.game} passed "
            f"({format_when(d.due_at, tz_name)}), so Umpire gave these orders for you:",
            *(
                f"  {a.result.order_for(seat.role)}   ({a.reason}, action {a.result.seq})"
                for a in passed.applied
            ),
        ]
        await self.service.queue_email([await self._notice(seat, "Deadline passed", lines)])
        return passed

    # -- what every mail ends with -----------------------------------------------------

    async def _now_lines(self, seat: EmailSeatRow, *, legal: bool = True) -> list[str]:
        svc = self.service
        status = await svc.status(seat.game)
        ruleset, state, seq = await svc.live_state(seat.game)
        prompt = ruleset.prompt(state)
        if status.status == "finished" or prompt.role is None:
            out = ["The game is over." + (f" {status.result.text}" if status.result else "")]
            if status.secret:
                out.append(f"The dice secret is now public: {status.secret}")
            return out
        where = f"action {seq}, turn {prompt.turn} {prompt.phase}".rstrip()
        if status.status == "paused":
            return [f"The game is paused by a moderator ({where})."]
        if prompt.role != seat.role:
            holder = prompt.role
            return [f"Now ({where}): it is {holder}'s decision: {prompt.text_for(seat.role)}"]
        out = [f"Now ({where}): it is YOUR decision: {prompt.text}"]
        deadline = await self._deadline(seat, status)
        if deadline:
            out.append(deadline)
        if legal:
            orders = [o.text() for o in ruleset.legal_orders(state, seat.role)]
            shown = ", ".join(orders[:LEGAL_SHOWN])
            more = f" ... ({len(orders)} in all; write orders for every one)" if len(orders) > LEGAL_SHOWN else ""
            out.append(f"Legal now: {shown}{more}")
        return out

    async def _deadline(self, seat: EmailSeatRow, status: Any) -> str | None:
        found = [
            d for d in await self.service.deadlines(seat.game) if d.role in (seat.role, None)
        ]
        if not found:
            return None
        due = min(d.due_at for d in found)
        tz_name = next((s.timezone for s in status.seats if s.role == seat.role), None)
        return f"Deadline: {format_when(due, tz_name)} ({_left(due - self.service.clock())})."

    async def _map(self, seat: EmailSeatRow) -> bytes | None:
        from bot.discord.images import render

        view = await self.service.view(seat.game, user_of(seat.address), seat.role)
        png, _ = await render(view.view, self.cfg.map_width, MAP_LIMIT, self.draw)
        return png

    # -- building mail ---------------------------------------------------------------

    def _mail(
        self,
        seat: EmailSeatRow,
        what: str,
        body: str,
        *,
        png: bytes | None = None,
        in_reply_to: str | None = None,
        reply: bool = False,
        token: str | None = None,
        seq: int | None = None,
    ) -> tuple[str, bytes]:
        token = token or self.token(seat)
        name = f"{seat.game}-{seq if seq is not None else 0:04d}-{seat.role}.png"
        return seat.address, compose(
            self.cfg,
            seat.address,
            subject_for(seat.game, seat.role, what, token),
            body,
            token=token,
            in_reply_to=in_reply_to,
            png=png,
            png_name=name,
            reply=reply,
            now=self.service.clock(),
        )

    def _plain(self, mail: Incoming, text: str) -> tuple[str, bytes]:
        """A reply to a mail that is not (yet) tied to a seat."""
        subject = mail.subject.strip() or "your mail"
        if not subject.lower().startswith("re:"):
            subject = f"Re: {subject}"
        return mail.sender, compose(
            self.cfg, mail.sender, subject, text, in_reply_to=mail.message_id, reply=True,
            now=self.service.clock(),
        )

    # -- notices ---------------------------------------------------------------------

    async def notices(self) -> int:
        """Mail what the service noted since the last pass; how many mails were queued.

        A hand-over (a ``prompt`` notification) sends every email seat of the game the log
        since its last mail and its map, in its own view; the seat whose decision it is
        gets it as "Your move", with the deadline in its time zone. Reminders go to the
        seat they are for; rollbacks, pauses, resumes and the end go to every email seat,
        the end with the result and the dice secret.
        """
        svc = self.service
        cursors, notes, audit = await svc.email_notices()
        if not notes and not audit:
            return 0
        seats: dict[str, list[EmailSeatRow]] = defaultdict(list)
        for seat in await svc.email_seats():
            seats[seat.game].append(seat)
        outgoing: list[tuple[str, bytes]] = []
        mailed: list[tuple[str, str, int]] = []
        turned: set[str] = set()
        for note in notes:
            for seat in seats.get(note.game, []):
                if note.kind == "prompt":
                    turned.add(note.game)
                elif note.kind == "reminder" and note.role == seat.role:
                    outgoing.append(await self._notice(seat, "Reminder", [note.text]))
                elif note.kind == "rollback":
                    mail, seq = await self._turn(seat, "Rolled back", [note.text], fresh=True)
                    outgoing.append(mail)
                    mailed.append((seat.game, seat.role, seq))
                elif note.kind == "ended":
                    mail, seq = await self._turn(seat, "The game is over", [note.text])
                    outgoing.append(mail)
                    mailed.append((seat.game, seat.role, seq))
        for entry in audit:
            if entry.act in ("pause", "resume"):
                word = "paused" if entry.act == "pause" else "resumed"
                why = f": {entry.why}" if entry.why else "."
                for seat in seats.get(entry.game, []):
                    outgoing.append(
                        await self._notice(
                            seat, f"Game {word}", [f"{entry.user} {word} game {entry.game}{why}"]
                        )
                    )
        ended = {g for g, _, _ in mailed}
        for game in sorted(turned - ended):
            for seat in seats.get(game, []):
                turn = await self._hand_over(seat)
                if turn is not None:
                    outgoing.append(turn[0])
                    mailed.append((seat.game, seat.role, turn[1]))
        reminders = [n for n in notes if n.kind == "reminder"]
        others = [n for n in notes if n.kind != "reminder"]
        new = {
            "notifications": max([n.id for n in others], default=cursors["notifications"]),
            "audit": max([a.id for a in audit], default=cursors["audit"]),
            "reminders": max(
                [int(n.due_at * 1000) for n in reminders], default=cursors["reminders"]
            ),
        }
        await svc.queue_email(outgoing, cursors=new, mailed=mailed)
        return len(outgoing)

    async def _notice(self, seat: EmailSeatRow, what: str, text: list[str]) -> tuple[str, bytes]:
        body = [*text, "", *await self._now_lines(seat, legal=False)]
        return self._mail(seat, what, "\n".join(body))

    async def _hand_over(self, seat: EmailSeatRow) -> tuple[tuple[str, bytes], int] | None:
        ruleset, state, seq = await self.service.live_state(seat.game)
        prompt = ruleset.prompt(state)
        mine = prompt.role == seat.role
        fresh = await self._fresh(seat)
        if not fresh and not mine:
            return None
        what = "Your move" if mine else f"{prompt.role} to move"
        return await self._turn(seat, what, [])

    async def _fresh(self, seat: EmailSeatRow) -> list[LogLine]:
        current = {s.role: s for s in await self.service.email_seats(seat.game)}.get(seat.role)
        since = current.mailed_seq if current else seat.mailed_seq
        lines = await self.service.game_log(seat.game, audience=seat.role)
        return [line for line in lines if line.seq > since]

    async def _turn(
        self, seat: EmailSeatRow, what: str, text: list[str], *, fresh: bool = False
    ) -> tuple[tuple[str, bytes], int]:
        lines = [] if fresh else await self._fresh(seat)
        _, _, seq = await self.service.live_state(seat.game)
        body = [*text]
        if lines:
            body += ["" if body else "", "What happened since Umpire's last mail to you:"]
            body += [f"  {t}" for t in _log_text(lines[-LOG_SHOWN * 2 :])]
        body += ["", *await self._now_lines(seat), "", "Write help for the commands."]
        png = await self._map(seat) if self.maps else None
        return self._mail(seat, what, "\n".join(body).strip("\n"), png=png, seq=seq), seq


def _log_text(lines: list[LogLine]) -> list[str]:
    out = []
    for line in lines:
        mark = " (undone)" if line.undone else ""
        out.append(f"{line.seq:>4}. {line.role}: {line.order}{mark}")
        out.extend(f"        {text}" for text in line.events)
    return out


def _view_lines(view: Any) -> list[str]:
    from bot.console import format_view

    return format_view(view)


def format_when(ts: float, tz_name: str | None) -> str:
    """A time in the seat's zone (UTC when it has none or an unknown one)."""
    try:
        zone = ZoneInfo(tz_name) if tz_name else UTC
    except (ZoneInfoNotFoundError, ValueError):
        zone = UTC
    return datetime.fromtimestamp(ts, zone).strftime("%a %d %b %Y %H:%M %Z")


def _left(seconds: float) -> str:
    if seconds <= 0:
        return "passed"
    hours, rest = divmod(int(seconds), 3600)
    minutes = rest // 60
    return f"in {hours} h {minutes:02d} min" if hours else f"in {minutes} min"

