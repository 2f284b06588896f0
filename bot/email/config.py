"""Mail settings from the environment or ``.env`` (README: Play by email).

``UMPIRE_IMAP_HOST``, ``_PORT``, ``_USER``, ``_PASSWORD``, ``_TLS`` (``ssl``,
``starttls`` or ``off``), the same five for ``UMPIRE_SMTP_``, and ``UMPIRE_MAIL_FROM``,
the address players write to. A variable set in the environment wins over the file.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

from bot.discord.config import read_env_file
from bot.store import default_db_path

TLS_MODES = ("ssl", "starttls", "off")


class MailConfigError(Exception):
    """The mail settings are missing or wrong; the message says which, in one sentence."""


@dataclass(frozen=True)
class Server:
    host: str
    port: int
    user: str
    password: str
    tls: str  # ssl | starttls | off


@dataclass(frozen=True)
class MailConfig:
    imap: Server
    smtp: Server
    address: str  # UMPIRE_MAIL_FROM, lower case
    db_path: str
    secret: str = ""  # UMPIRE_MAIL_SECRET: the token key (else a key file beside the db)
    #: seconds in IDLE before it is renewed (servers and firewalls drop longer ones)
    idle_seconds: float = 60.0
    #: seconds between mailbox checks when the server has no IDLE
    poll_seconds: float = 30.0
    #: seconds between looks at the service's notices (turns played on Discord, deadlines)
    notice_seconds: float = 5.0
    #: mails a sender may send in an hour before being ignored (UMPIRE_MAIL_RATE_LIMIT)
    rate_limit: int = 60
    #: pixels across of the map attached to mails
    map_width: int = 1200

    @property
    def local(self) -> str:
        return self.address.split("@", 1)[0]

    @property
    def domain(self) -> str:
        return self.address.split("@", 1)[1]

    def reply_address(self, token: str) -> str:
        """``local+TOKEN@domain``: sub-addressing carries the seat's token back."""
        return f"{self.local}+{token}@{self.domain}"


def mail_configured(environ: Mapping[str, str] | None = None, env_file: str = ".env") -> bool:
    env = _merged(environ, env_file)
    return all(env.get(k) for k in ("UMPIRE_IMAP_HOST", "UMPIRE_SMTP_HOST", "UMPIRE_MAIL_FROM"))


def _merged(environ: Mapping[str, str] | None, env_file: str) -> dict[str, str]:
    env = dict(read_env_file(env_file))
    env.update(os.environ if environ is None else environ)
    return env


def load_config(
    environ: Mapping[str, str] | None = None, env_file: str = ".env", db_path: str | None = None
) -> MailConfig:
    """The settings, or :class:`MailConfigError` naming what is missing or wrong."""
    env = _merged(environ, env_file)

    def server(kind: str, default_port: dict[str, int]) -> Server:
        prefix = f"UMPIRE_{kind}_"
        host = env.get(prefix + "HOST", "").strip()
        if not host:
            raise MailConfigError(f"{prefix}HOST is not set; see 'Play by email' in the README.")
        tls = env.get(prefix + "TLS", "ssl").strip().lower() or "ssl"
        if tls not in TLS_MODES:
            raise MailConfigError(f"{prefix}TLS is {tls!r}; it must be ssl, starttls or off.")
        port_text = env.get(prefix + "PORT", "").strip()
        try:
            port = int(port_text) if port_text else default_port[tls]
        except ValueError:
            raise MailConfigError(f"{prefix}PORT is {port_text!r}, not a port number.") from None
        return Server(
            host, port, env.get(prefix + "USER", ""), env.get(prefix + "PASSWORD", ""), tls
        )

    imap = server("IMAP", {"ssl": 993, "starttls": 143, "off": 143})
    smtp = server("SMTP", {"ssl": 465, "starttls": 587, "off": 25})
    address = env.get("UMPIRE_MAIL_FROM", "").strip().lower()
    if address.count("@") != 1 or "+" in address.split("@")[0] or not address.split("@")[1]:
        raise MailConfigError(
            f"UMPIRE_MAIL_FROM is {address!r}; it must be a plain address such as "
            "umpire@example.org (Umpire adds +TOKEN to it itself)."
        )
    db = db_path or env.get("UMPIRE_DB") or default_db_path()
    limit_text = env.get("UMPIRE_MAIL_RATE_LIMIT", "").strip() or "60"
    if not limit_text.isdigit() or int(limit_text) < 1:
        raise MailConfigError(
            f"UMPIRE_MAIL_RATE_LIMIT is {limit_text!r}; it must be a number of mails an hour."
        )
    return MailConfig(
        imap, smtp, address, db, env.get("UMPIRE_MAIL_SECRET", ""), rate_limit=int(limit_text)
    )
