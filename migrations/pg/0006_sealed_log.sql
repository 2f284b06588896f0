-- A finished game's log sealed into chunks (issue 16, item 4; as migrations/0010, which
-- gives the reasons at length). When a game ends, Tx.seal_log (bot/store.py) moves its
-- entries, final from then on, into `action_chunks`: runs of up to 16 consecutive entries,
-- one row a run, the body the run's entries as a JSON list compressed with the ruleset's
-- log dictionary (bot/logdicts). A 1,000-action game: about 63 rows of 1 KB instead of
-- 1,000 rows of 160 bytes and two index entries each.
--
-- Append-only in meaning, held by the schema: a chunk is written only for a finished
-- game, over no other chunk's entries, and never changed or deleted; an entry's row may
-- be deleted only once a chunk of its finished game holds it; no entry is added to a
-- sealed log. Games finished before keep their rows, read as before.
CREATE TABLE action_chunks (
    game        text NOT NULL REFERENCES games(id),
    first_entry integer NOT NULL CHECK (first_entry >= 1),
    last_entry  integer NOT NULL CHECK (last_entry >= first_entry),
    body        bytea NOT NULL,
    PRIMARY KEY (game, first_entry) WITH (fillfactor = 100)
);
-- the body is compressed already: keep it in the row, uncompressed again, up to a page
ALTER TABLE action_chunks ALTER COLUMN body SET STORAGE MAIN;
ALTER TABLE action_chunks SET (toast_tuple_target = 8160, fillfactor = 100);

CREATE FUNCTION umpire_action_chunks_only_of_finished_games() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT status FROM games WHERE id = NEW.game) IS DISTINCT FROM 'finished'
       OR EXISTS (SELECT 1 FROM action_chunks c WHERE c.game = NEW.game
                  AND c.first_entry <= NEW.last_entry AND c.last_entry >= NEW.first_entry) THEN
        RAISE EXCEPTION 'a log is sealed only once its game is finished, each entry once'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER action_chunks_only_of_finished_games BEFORE INSERT ON action_chunks
    FOR EACH ROW EXECUTE FUNCTION umpire_action_chunks_only_of_finished_games();

CREATE FUNCTION umpire_action_chunks_are_never_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION 'the action log is append-only'
        USING ERRCODE = 'integrity_constraint_violation';
END $$;
CREATE TRIGGER action_chunks_are_never_changed BEFORE UPDATE OR DELETE ON action_chunks
    FOR EACH ROW EXECUTE FUNCTION umpire_action_chunks_are_never_changed();
CREATE TRIGGER action_chunks_are_never_truncated BEFORE TRUNCATE ON action_chunks
    FOR EACH STATEMENT EXECUTE FUNCTION umpire_action_chunks_are_never_changed();

-- the trigger actions_are_never_deleted calls this function: from now on it lets a row
-- go once a chunk of its finished game holds the entry
CREATE OR REPLACE FUNCTION umpire_actions_are_never_deleted() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF (SELECT status FROM games WHERE id = OLD.game) = 'finished'
       AND EXISTS (SELECT 1 FROM action_chunks c WHERE c.game = OLD.game
                   AND c.first_entry <= OLD.entry AND c.last_entry >= OLD.entry) THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'the action log is append-only' USING ERRCODE = 'integrity_constraint_violation';
END $$;

CREATE FUNCTION umpire_actions_not_after_the_seal() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM action_chunks c WHERE c.game = NEW.game) THEN
        RAISE EXCEPTION 'the log of this game is sealed: it is finished'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$;
CREATE TRIGGER actions_not_after_the_seal BEFORE INSERT ON actions
    FOR EACH ROW EXECUTE FUNCTION umpire_actions_not_after_the_seal();
