"""Incoming mail: who sent it, whether a person did, and the lines that are orders.

Reading the body (issue 14, "Orders by mail"): the plain-text part is preferred; a mail
with only HTML is reduced to text. Lines are read one by one and reading stops at a
signature line (``-- ``), at quoted text (a ``>`` line, an "On ... wrote:" header, an
Outlook "Original Message" or underscore rule) and at a line ``end`` (or the Judge's
``signoff``). Blank lines and comments (``#``, ``//``) are skipped.

Mail sent by a machine is never answered (research/email_and_scale.md 1.1, 1.9): an
``Auto-Submitted`` other than ``no``, ``Precedence`` bulk/junk/list/auto_reply,
``X-Autoreply``/``X-Autorespond``, a mailing list's ``List-Id``/``List-Unsubscribe``, a
delivery report, a mailer-daemon or postmaster sender, an empty return path, and
Umpire's own mail (its ``X-Umpire-Loop`` header, or its own From address).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.parser import BytesParser
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

LOOP_HEADER = "X-Umpire-Loop"
MAX_LINES = 60

_RULES = ("-----original message-----", "________________________________")
_STOP_WORDS = ("end", "signoff", "sign off")


@dataclass
class Incoming:
    """One mail as Umpire reads it."""

    message_id: str
    sender: str  # the From address, lower case ("" when there is none)
    recipients: list[str]  # To, Cc, Delivered-To, X-Original-To addresses
    subject: str
    text: str
    html_only: bool = False
    automatic: str | None = None  # why no person wrote it, or None
    problem: str | None = None  # why the mail cannot be read, or None
    references: list[str] = field(default_factory=list)


def parse_mail(raw: bytes, own_address: str = "") -> Incoming:
    """Read a mail; never raises (a mail that cannot be read says so in ``problem``)."""
    try:
        msg = BytesParser(policy=policy.default).parsebytes(raw)
    except Exception as exc:  # the stdlib parser is lenient; this is the last resort
        digest = hashlib.sha256(raw).hexdigest()[:32]
        return Incoming(f"<{digest}@unreadable>", "", [], "", "", problem=f"unreadable: {exc}")
    message_id = _header(msg, "Message-ID").strip()
    if not message_id:
        message_id = f"<{hashlib.sha256(raw).hexdigest()[:32]}@no-message-id>"
    sender = _address(_header(msg, "From"))
    recipients = [
        addr.lower()
        for _, addr in getaddresses(
            [_header(msg, h) for h in ("To", "Cc", "Delivered-To", "X-Original-To")]
        )
        if addr
    ]
    refs = _header(msg, "References").split() + _header(msg, "In-Reply-To").split()
    incoming = Incoming(
        message_id=message_id,
        sender=sender,
        recipients=recipients,
        subject=_header(msg, "Subject"),
        text="",
        references=refs,
    )
    incoming.automatic = _automatic(msg, sender, own_address)
    try:
        incoming.text, incoming.html_only = _body(msg)
    except Exception as exc:
        incoming.problem = f"its text could not be read ({exc.__class__.__name__})"
    return incoming


def _header(msg: EmailMessage, name: str) -> str:
    try:
        value = msg.get(name)
    except Exception:  # a malformed header the policy cannot parse
        return ""
    return str(value) if value is not None else ""


def _address(value: str) -> str:
    addr = parseaddr(value)[1].strip().lower()
    return addr if "@" in addr else ""


def _automatic(msg: EmailMessage, sender: str, own: str) -> str | None:
    if _header(msg, LOOP_HEADER) or (own and sender == own.lower()):
        return "Umpire's own mail"
    auto = _header(msg, "Auto-Submitted").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    if _header(msg, "Precedence").strip().lower() in ("bulk", "junk", "list", "auto_reply"):
        return "Precedence: " + _header(msg, "Precedence").strip().lower()
    if _header(msg, "X-Autoreply") or _header(msg, "X-Autorespond"):
        return "an auto-reply header"
    if _header(msg, "List-Id") or _header(msg, "List-Unsubscribe"):
        return "a mailing list"
    if msg.get_content_type() == "multipart/report":
        return "a delivery report"
    local = sender.split("@")[0]
    if not sender or local in ("mailer-daemon", "postmaster"):
        return "a mail system (no sender, or mailer-daemon)"
    if _header(msg, "Return-Path").strip() == "<>":
        return "a bounce (empty return path)"
    return None


def _body(msg: EmailMessage) -> tuple[str, bool]:
    """The text to read, and whether it came from HTML because there was no plain text."""
    part = msg.get_body(preferencelist=("plain",))
    if part is not None:
        return part.get_content(), False
    part = msg.get_body(preferencelist=("html",))
    if part is not None:
        return html_to_text(part.get_content()), True
    return "", False


class _Text(HTMLParser):
    BLOCKS = {"p", "div", "br", "li", "tr", "h1", "h2", "h3", "h4", "pre", "table", "hr"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = [""]
        self.quote = 0
        self.skip = 0

    def _newline(self) -> None:
        if self.lines[-1].strip():
            self.lines.append("")

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = dict(attrs).get("class") or ""
        if tag in ("script", "style", "head", "title"):
            self.skip += 1
        elif tag == "blockquote" or "quote" in classes:
            self._newline()
            self.quote += 1
        elif tag in self.BLOCKS:
            self._newline()

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style", "head", "title"):
            self.skip = max(0, self.skip - 1)
        elif tag == "blockquote":
            self._newline()
            self.quote = max(0, self.quote - 1)
        elif tag in self.BLOCKS:
            self._newline()

    def handle_data(self, data: str) -> None:
        if self.skip:
            return
        for i, piece in enumerate(data.split("\n")):
            if i:
                self._newline()
            if not piece.strip():
                continue
            if not self.lines[-1] and self.quote:
                self.lines[-1] = "> "
            self.lines[-1] += piece.replace("\xa0", " ")


def html_to_text(html: str) -> str:
    """HTML reduced to lines of text; quoted blocks come out as ``>`` lines."""
    parser = _Text()
    parser.feed(html)
    parser.close()
    return "\n".join(" ".join(line.split()) if not line.startswith(">") else line
                     for line in parser.lines).strip()


def order_lines(text: str) -> list[str]:
    """The lines of a body that Umpire acts on, in order, up to the first stop."""
    out: list[str] = []
    lines = text.splitlines()
    for i, raw in enumerate(lines):
        line = raw.strip()
        low = line.lower()
        if raw.rstrip() == "--" or raw.startswith("-- ") and not raw[3:].strip():
            break
        if line.startswith(">") or low in _RULES or low in _STOP_WORDS:
            break
        if low.endswith(("wrote:", "a écrit :", "schrieb:")) or _wrote_next(lines, i):
            break
        if not line or line.startswith("#") or line.startswith("//"):
            continue
        out.append(line)
        if len(out) > MAX_LINES:
            break
    return out


def _wrote_next(lines: list[str], i: int) -> bool:
    """An "On <date>, <name>" line whose "wrote:" was wrapped onto the next line."""
    if not lines[i].strip().lower().startswith("on "):
        return False
    after = lines[i + 1].strip().lower() if i + 1 < len(lines) else ""
    return after.endswith(("wrote:", "a écrit :", "schrieb:")) or bool(
        re.match(r"^on .*\d.*<[^>]+@[^>]+>\s*$", lines[i].strip().lower())
    )


def display(address: str) -> str:
    return str(Address(addr_spec=address)) if address else ""
