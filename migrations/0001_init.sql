-- Umpire's first schema (ARCHITECTURE: Storage and the service).
-- Applied by bot/store.py inside one transaction, which then sets PRAGMA user_version = 1.
-- Times are seconds since the epoch (UTC); json columns hold JSON text.

CREATE TABLE games (
    id               TEXT PRIMARY KEY,
    ruleset          TEXT NOT NULL,
    scenario         TEXT NOT NULL,
    options          TEXT NOT NULL DEFAULT '{}',          -- json
    datapack_version TEXT,
    channel          TEXT,
    status           TEXT NOT NULL DEFAULT 'open'
                     CHECK (status IN ('open', 'active', 'paused', 'finished')),
    commitment       TEXT NOT NULL,                       -- sha256(secret), public from the start
    secret           BLOB NOT NULL,                       -- shown to nobody until revealed_at
    revealed_at      REAL,
    setup_rolls      TEXT NOT NULL DEFAULT '[]',          -- json: the dice of action 0
    head             INTEGER NOT NULL DEFAULT 0,          -- number of live actions
    entries          INTEGER NOT NULL DEFAULT 0,          -- log entries ever written
    version          INTEGER NOT NULL DEFAULT 0,          -- bumped by every change of the log
    result           TEXT,                                -- json, once the rules declare one
    created_by       TEXT NOT NULL,
    created_at       REAL NOT NULL,
    ended_at         REAL,
    CHECK ((status = 'finished') = (ended_at IS NOT NULL)),
    CHECK (revealed_at IS NULL OR status = 'finished')
);

CREATE TABLE seats (
    game            TEXT NOT NULL REFERENCES games(id),
    role            TEXT NOT NULL,
    user            TEXT,                                 -- NULL: the seat is free
    timezone        TEXT,
    standing_orders TEXT NOT NULL DEFAULT '{}',           -- json
    PRIMARY KEY (game, role)
);
CREATE INDEX seats_by_user ON seats(user);

-- Every moderator act (rollback, seat, pause, resume, end) and every player undo.
CREATE TABLE audit (
    id         INTEGER PRIMARY KEY,
    game       TEXT NOT NULL REFERENCES games(id),
    user       TEXT NOT NULL,
    act        TEXT NOT NULL,
    detail     TEXT NOT NULL DEFAULT '{}',                -- json
    why        TEXT NOT NULL DEFAULT '',
    created_at REAL NOT NULL
);
CREATE INDEX audit_by_game ON audit(game, id);

-- The log. `entry` numbers rows in the order they were written and is never reused;
-- `seq` is the action number in play, the one players see and the dice are derived
-- from: after a rollback to N the next order is again seq N+1 (ARCHITECTURE: Dice).
CREATE TABLE actions (
    game       TEXT NOT NULL REFERENCES games(id),
    entry      INTEGER NOT NULL CHECK (entry >= 1),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    role       TEXT NOT NULL,
    user       TEXT NOT NULL,
    "order"    TEXT NOT NULL,                             -- json
    rolls      TEXT NOT NULL DEFAULT '[]',                -- json: [{sides, value, purpose}]
    events     TEXT NOT NULL DEFAULT '[]',                -- json: [{kind, text, data?, reveals?}]
    turn       INTEGER NOT NULL,                          -- the turn and phase the order was given in
    phase      TEXT NOT NULL,
    created_at REAL NOT NULL,
    undone_by  INTEGER REFERENCES audit(id),
    PRIMARY KEY (game, entry)
);
-- At most one live action per number: no duplicate can enter the live line.
CREATE UNIQUE INDEX actions_live_seq ON actions(game, seq) WHERE undone_by IS NULL;

CREATE TRIGGER actions_are_never_deleted BEFORE DELETE ON actions
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_only_get_marked_undone BEFORE UPDATE ON actions
WHEN OLD.undone_by IS NOT NULL
  OR NEW.undone_by IS NULL
  OR NEW.game IS NOT OLD.game OR NEW.entry IS NOT OLD.entry OR NEW.seq IS NOT OLD.seq
  OR NEW.role IS NOT OLD.role OR NEW.user IS NOT OLD.user OR NEW."order" IS NOT OLD."order"
  OR NEW.rolls IS NOT OLD.rolls OR NEW.events IS NOT OLD.events
  OR NEW.turn IS NOT OLD.turn OR NEW.phase IS NOT OLD.phase
  OR NEW.created_at IS NOT OLD.created_at
BEGIN
    SELECT RAISE(ABORT, 'an action can only be marked undone, once');
END;

-- State after log entry `entry` (0: after set-up), written whenever turn, player or
-- phase changes. A snapshot counts only while its entry is live.
CREATE TABLE snapshots (
    game   TEXT NOT NULL REFERENCES games(id),
    entry  INTEGER NOT NULL CHECK (entry >= 0),
    seq    INTEGER NOT NULL CHECK (seq >= 0),
    turn   INTEGER NOT NULL,
    player TEXT NOT NULL,
    phase  TEXT NOT NULL,
    state  TEXT NOT NULL,                                 -- json: ruleset.dump_state
    PRIMARY KEY (game, entry)
);
CREATE INDEX snapshots_by_seq ON snapshots(game, seq);

CREATE TABLE deadlines (
    id         INTEGER PRIMARY KEY,
    game       TEXT NOT NULL REFERENCES games(id),
    role       TEXT,                                      -- NULL: whoever must decide
    due_at     REAL NOT NULL,
    turn       INTEGER NOT NULL,                          -- the phase it was set for
    player     TEXT NOT NULL,
    phase      TEXT NOT NULL,
    set_by     TEXT NOT NULL,
    created_at REAL NOT NULL,
    fired_at   REAL,
    cleared_at REAL,
    cleared_by TEXT
);
CREATE INDEX deadlines_open ON deadlines(due_at) WHERE fired_at IS NULL AND cleared_at IS NULL;

-- Messages for the front ends to deliver: "your decision", reminders, rollbacks, ends.
CREATE TABLE notifications (
    id           INTEGER PRIMARY KEY,
    game         TEXT NOT NULL REFERENCES games(id),
    role         TEXT,                                    -- NULL: the game's channel
    user         TEXT,
    kind         TEXT NOT NULL,
    text         TEXT NOT NULL,
    due_at       REAL NOT NULL,
    deadline     INTEGER REFERENCES deadlines(id),
    created_at   REAL NOT NULL,
    sent_at      REAL,
    cancelled_at REAL
);
CREATE INDEX notifications_pending ON notifications(due_at)
    WHERE sent_at IS NULL AND cancelled_at IS NULL;
