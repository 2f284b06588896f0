"""Outgoing mail: one message per seat, built with the standard ``email`` package.

Every mail Umpire sends carries ``Auto-Submitted`` (RFC 3834, so vacation responders stay
quiet), ``X-Auto-Response-Suppress`` (the same for Exchange) and Umpire's own loop header,
so that its mail is never taken for a player's. Mail to a seat has the seat's
``local+TOKEN@domain`` as Reply-To and the token in the subject; nothing hidden goes in a
subject, since subjects show in notifications and previews.
"""

from __future__ import annotations

from datetime import UTC, datetime
from email import policy
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from bot.email.config import MailConfig
from bot.email.parse import LOOP_HEADER


def subject_for(game: str, role: str | None, what: str, token: str | None) -> str:
    seat = f" {role}" if role else ""
    key = f" (key:{token})" if token else ""
    return f"[umpire {game}{seat}] {what}{key}"


def compose(
    cfg: MailConfig,
    to: str,
    subject: str,
    body: str,
    *,
    token: str | None = None,
    in_reply_to: str | None = None,
    png: bytes | None = None,
    png_name: str = "map.png",
    reply: bool = False,
    now: float | None = None,
) -> bytes:
    """The mail as bytes ready for SMTP."""
    msg = EmailMessage(policy=policy.SMTP)
    msg["From"] = f"Umpire <{cfg.address}>"
    msg["To"] = to
    msg["Subject"] = subject
    when = datetime.now(UTC) if now is None else datetime.fromtimestamp(now, UTC)
    msg["Date"] = format_datetime(when)
    msg["Message-ID"] = make_msgid("umpire", domain=cfg.domain)
    if token:
        msg["Reply-To"] = cfg.reply_address(token)
    if in_reply_to:
        msg["In-Reply-To"] = in_reply_to
        msg["References"] = in_reply_to
    msg["Auto-Submitted"] = "auto-replied" if reply else "auto-generated"
    msg["X-Auto-Response-Suppress"] = "All"
    msg[LOOP_HEADER] = cfg.address
    msg.set_content(body)
    if png is not None:
        msg.add_attachment(png, maintype="image", subtype="png", filename=png_name)
    return msg.as_bytes()
