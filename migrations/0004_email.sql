-- Play by email (ARCHITECTURE: Front ends, Email; bot/email).
--
-- email_seats: a seat played by mail. The seat's user (seats.user) is 'mail:<address>';
-- here is the registered address and the sha256 of the seat's secret token (the token
-- itself is never stored: it is an HMAC, under a key kept outside the database, of the
-- seat and its nonce; a new nonce reissues it). mailed_seq is the last action whose log
-- this seat was sent.
CREATE TABLE email_seats (
    game        TEXT NOT NULL REFERENCES games(id),
    role        TEXT NOT NULL,
    address     TEXT NOT NULL,                       -- lower case
    token_hash  TEXT NOT NULL UNIQUE,                -- hex sha256 of the token
    nonce       TEXT NOT NULL,
    mailed_seq  INTEGER NOT NULL DEFAULT 0,
    created_at  REAL NOT NULL,
    PRIMARY KEY (game, role)
);

-- Every incoming mail, by Message-ID, handled once. lines_done counts the body lines
-- already acted on: it is written in the same transaction as the order of its last
-- line, so a restart neither repeats nor loses an order. results holds what the reply
-- will say about those lines.
CREATE TABLE email_messages (
    message_id  TEXT PRIMARY KEY,
    sender      TEXT NOT NULL,
    game        TEXT,
    role        TEXT,
    status      TEXT NOT NULL CHECK (status IN
                    ('working', 'done', 'ignored', 'refused', 'limited')),
    why         TEXT NOT NULL DEFAULT '',
    lines_done  INTEGER NOT NULL DEFAULT 0,
    results     TEXT NOT NULL DEFAULT '[]',          -- JSON list of strings
    received_at REAL NOT NULL,
    handled_at  REAL
);
CREATE INDEX email_messages_by_sender ON email_messages (sender, received_at);

-- Mail to send, whole (RFC 5322 bytes): written in the transaction that decides to send
-- it, removed from the queue (sent_at) once the SMTP server has taken it.
CREATE TABLE email_outbox (
    id          INTEGER PRIMARY KEY,
    recipient   TEXT NOT NULL,
    message     BLOB NOT NULL,
    created_at  REAL NOT NULL,
    sent_at     REAL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    last_error  TEXT
);
CREATE INDEX email_outbox_unsent ON email_outbox (sent_at, id);

-- How far the mail front end has read the service's notifications and audit trail, so
-- each notice is mailed once ('reminders': the due time, in milliseconds, of the last
-- reminder mailed; 'reminder_floor': reminders numbered up to it are older than the
-- mail front end). Starts at the present: older notices are not mailed.
CREATE TABLE email_cursors (
    name   TEXT PRIMARY KEY,
    value  INTEGER NOT NULL
);
INSERT INTO email_cursors (name, value)
    SELECT 'notifications', COALESCE(MAX(id), 0) FROM notifications;
INSERT INTO email_cursors (name, value)
    SELECT 'audit', COALESCE(MAX(id), 0) FROM audit;
INSERT INTO email_cursors (name, value) VALUES ('reminders', 0);
INSERT INTO email_cursors (name, value)
    SELECT 'reminder_floor', COALESCE(MAX(id), 0) FROM notifications;
