-- Compact log entries (issue 16, item 4; as migrations/0008_compact_log.sql). A row
-- written from now on keeps its order, rolls, events, role, user and phase in `body`
-- (the JSON array [order, rolls, events, role, user, phase], compressed, its first byte
-- naming the codec: bot/logdicts), and NULL in those six columns; older rows keep them
-- as written and a NULL body. `chain` becomes the 32 bytes of h_seq (bytea), older rows'
-- hex digits converted. Both indexes of the log are filled to the brim: it grows at its
-- end. The log stays append-only: the body is among the columns that never change.
ALTER TABLE actions ADD COLUMN body bytea;
ALTER TABLE actions
    ALTER COLUMN role DROP NOT NULL,
    ALTER COLUMN "user" DROP NOT NULL,
    ALTER COLUMN "order" DROP NOT NULL,
    ALTER COLUMN rolls DROP NOT NULL,
    ALTER COLUMN rolls DROP DEFAULT,
    ALTER COLUMN events DROP NOT NULL,
    ALTER COLUMN events DROP DEFAULT,
    ALTER COLUMN phase DROP NOT NULL,
    ALTER COLUMN chain TYPE bytea USING decode(chain, 'hex'),
    ADD CONSTRAINT actions_body_or_columns CHECK (body IS NOT NULL OR (role IS NOT NULL
        AND "user" IS NOT NULL AND "order" IS NOT NULL AND rolls IS NOT NULL
        AND events IS NOT NULL AND phase IS NOT NULL));
ALTER INDEX actions_pkey SET (fillfactor = 100);
ALTER INDEX actions_live_seq SET (fillfactor = 100);

CREATE OR REPLACE FUNCTION umpire_actions_only_get_marked_undone() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.undone_by IS NOT NULL OR NEW.undone_by IS NULL
       OR (NEW.game, NEW.entry, NEW.seq, NEW.role, NEW."user", NEW."order", NEW.rolls,
           NEW.events, NEW.turn, NEW.phase, NEW.created_at, NEW.chain, NEW.body)
          IS DISTINCT FROM
          (OLD.game, OLD.entry, OLD.seq, OLD.role, OLD."user", OLD."order", OLD.rolls,
           OLD.events, OLD.turn, OLD.phase, OLD.created_at, OLD.chain, OLD.body) THEN
        RAISE EXCEPTION 'an action can only be marked undone, once'
            USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN NEW;
END $$;
