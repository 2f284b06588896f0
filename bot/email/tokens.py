"""Seat tokens: a secret per email seat, carried in the Reply-To sub-address and subject.

A token is an HMAC-SHA256, under the mail key, of the game, the role, the address and a
nonce, cut to 80 bits (the least RFC 2104 advises, as Gitea's reply tokens do;
research/email_and_scale.md 1.9) and written in lower-case base32: 16 letters and digits
that survive sub-addressing and subject lines. The database keeps only the token's
sha256 and the nonce, so a copy of the database alone cannot forge orders; Umpire, which
holds the key, can put the token on every mail it sends. A new nonce reissues the token.

The key is ``UMPIRE_MAIL_SECRET`` (hex), or else a random key kept in a file beside the
database (``<db>.mailkey``, readable by its owner only), made on first use.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import re
import secrets
from pathlib import Path

TOKEN_RE = re.compile(r"^[a-z2-7]{16}$")
SUBJECT_RE = re.compile(r"\bkey:([a-z2-7]{16})\b", re.IGNORECASE)


def new_nonce() -> str:
    return secrets.token_hex(8)


def seat_token(key: bytes, game: str, role: str, address: str, nonce: str) -> str:
    message = "\x1f".join((game, role, address.lower(), nonce)).encode("utf-8")
    digest = hmac.new(key, message, hashlib.sha256).digest()[:10]
    return base64.b32encode(digest).decode("ascii").lower()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.lower().encode("ascii")).hexdigest()


def token_in_address(address: str, local: str, domain: str) -> str | None:
    """The token of ``local+TOKEN@domain``, or None (another address or no token)."""
    name, _, dom = address.strip().lower().rpartition("@")
    base, plus, tag = name.partition("+")
    if dom != domain.lower() or base != local.lower() or not plus:
        return None
    return tag if TOKEN_RE.match(tag) else None


def token_in_subject(subject: str) -> str | None:
    m = SUBJECT_RE.search(subject or "")
    return m.group(1).lower() if m else None


def mail_key(db_path: str, secret: str = "") -> bytes:
    """The key tokens are made with: ``secret`` (UMPIRE_MAIL_SECRET) or the key file."""
    text = secret.strip()
    if text:
        try:
            return bytes.fromhex(text)
        except ValueError:
            return text.encode("utf-8")
    path = Path(f"{db_path}.mailkey")
    try:
        return bytes.fromhex(path.read_text(encoding="ascii").strip())
    except FileNotFoundError:
        pass
    key = secrets.token_bytes(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(key.hex() + "\n")
    return key
