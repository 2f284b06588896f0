-- A finished game's log sealed into chunks (issue 16, item 4; as migrations/pg/0006).
--
-- Once a game is finished its log is final: it can be neither played on nor rolled back
-- (Service.rollback refuses a finished game), so no entry will be written or marked
-- undone again. The transaction that ends the game (Tx.seal_log, bot/store.py) then
-- moves its entries into `action_chunks`: runs of up to SEAL_EVERY (16) consecutive
-- entries, each run one row whose body is the JSON list of its entries, every entry
-- [entry, seq, turn, created_at, undone_by, chain, order, rolls, events, role, user,
-- phase] (chain: null, "" when derived from the entry before, else as stored), compressed
-- with the ruleset's log dictionary (bot/logdicts, the codec in its first byte). One row
-- per run instead of one per entry: the row and index overhead and the dictionary's
-- start-up cost are paid once per run. The rows of the moved entries are then deleted.
--
-- The log stays append-only in meaning, and the schema holds it so:
-- - a chunk is written only for a finished game, never over another chunk's entries,
--   and is never changed or deleted;
-- - an entry's row may be deleted only once a chunk of its finished game holds its
--   entry (Tx.seal_log checks that the chunks read back as the rows before it deletes);
-- - no entry is added to a game whose log is sealed, so a game's log is either all in
--   `actions` or all in `action_chunks`, which is how the store knows where to read it.
-- Games finished before this version keep their rows, read as before; nothing is
-- rewritten here (the bodies are compressed by Umpire, not by SQL).
--
-- An ordinary (rowid) table: a chunk of about 1 KB is kept whole in its table page,
-- where a WITHOUT ROWID table would spill it to overflow pages.
CREATE TABLE action_chunks (
    game        TEXT NOT NULL REFERENCES games(id),
    first_entry INTEGER NOT NULL CHECK (first_entry >= 1),
    last_entry  INTEGER NOT NULL CHECK (last_entry >= first_entry),
    body        BLOB NOT NULL,
    PRIMARY KEY (game, first_entry)
);

CREATE TRIGGER action_chunks_only_of_finished_games BEFORE INSERT ON action_chunks
WHEN (SELECT status FROM games WHERE id = NEW.game) IS NOT 'finished'
  OR EXISTS (SELECT 1 FROM action_chunks c WHERE c.game = NEW.game
             AND c.first_entry <= NEW.last_entry AND c.last_entry >= NEW.first_entry)
BEGIN
    SELECT RAISE(ABORT, 'a log is sealed only once its game is finished, each entry once');
END;

CREATE TRIGGER action_chunks_are_never_changed BEFORE UPDATE ON action_chunks
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER action_chunks_are_never_deleted BEFORE DELETE ON action_chunks
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

DROP TRIGGER actions_are_never_deleted;
CREATE TRIGGER actions_are_never_deleted BEFORE DELETE ON actions
WHEN (SELECT status FROM games WHERE id = OLD.game) IS NOT 'finished'
  OR NOT EXISTS (SELECT 1 FROM action_chunks c WHERE c.game = OLD.game
                 AND c.first_entry <= OLD.entry AND c.last_entry >= OLD.entry)
BEGIN
    SELECT RAISE(ABORT, 'the action log is append-only');
END;

CREATE TRIGGER actions_not_after_the_seal BEFORE INSERT ON actions
WHEN EXISTS (SELECT 1 FROM action_chunks c WHERE c.game = NEW.game)
BEGIN
    SELECT RAISE(ABORT, 'the log of this game is sealed: it is finished');
END;
