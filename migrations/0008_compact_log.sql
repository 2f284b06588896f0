-- Compact log entries (issue 16, item 4; bot/logdicts). A row written from now on keeps
-- its order, rolls, events, role, user and phase in `body`: the JSON array
-- [order, rolls, events, role, user, phase], compressed, its first byte naming the codec
-- (kept forever, see bot/logdicts); those six columns are then NULL. A row written before
-- keeps them as it was written (JSON text for the order, rolls and events) and a NULL
-- body; the store reads both. `chain` of a new row holds the 32 bytes of h_seq (a BLOB)
-- instead of 64 hex digits; the hex text of older rows still reads.
--
-- The table is rebuilt WITHOUT ROWID, keyed by (game, entry): the rows live in the
-- primary key's own tree, so the key is not stored a second time in an index of its
-- own. Rows are copied as they are. The log stays append-only: the same two triggers,
-- the body among the columns that never change.
CREATE TABLE actions_compact (
    game       TEXT NOT NULL REFERENCES games(id),
    entry      INTEGER NOT NULL CHECK (entry >= 1),
    seq        INTEGER NOT NULL CHECK (seq >= 1),
    role       TEXT,                                      -- NULL: in the body
    user       TEXT,                                      -- NULL: in the body
    "order"    TEXT,                                      -- json; NULL: in the body
    rolls      TEXT,                                      -- json; NULL: in the body
    events     TEXT,                                      -- json; NULL: in the body
    turn       INTEGER NOT NULL,
    phase      TEXT,                                      -- NULL: in the body
    created_at REAL NOT NULL,
    undone_by  INTEGER REFERENCES audit(id),
    chain      TEXT,                                      -- 32 bytes, or hex text (older)
    body       BLOB,
    CHECK (body IS NOT NULL OR (role IS NOT NULL AND user IS NOT NULL AND "order" IS NOT NULL
           AND rolls IS NOT NULL AND events IS NOT NULL AND phase IS NOT NULL)),
    PRIMARY KEY (game, entry)
) WITHOUT ROWID;

INSERT INTO actions_compact (game, entry, seq, role, user, "order", rolls, events, turn,
                             phase, created_at, undone_by, chain)
SELECT game, entry, seq, role, user, "order", rolls, events, turn, phase, created_at,
       undone_by, chain
  FROM actions;

DROP TABLE actions;  -- its rows are copied; dropping fires no trigger
ALTER TABLE actions_compact RENAME TO actions;

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
  OR NEW.created_at IS NOT OLD.created_at OR NEW.chain IS NOT OLD.chain
  OR NEW.body IS NOT OLD.body
BEGIN
    SELECT RAISE(ABORT, 'an action can only be marked undone, once');
END;
