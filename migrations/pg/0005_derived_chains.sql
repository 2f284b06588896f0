-- Smaller finished games (issue 16, item 4; as migrations/0009_derived_chains.sql):
-- a log entry's dice chain may be stored as no bytes, derived again by the reader from
-- the entry before it (bot/store.py, Tx._derive_chains), which an older Umpire would
-- misread, so the schema version changes; and the notices of finished games nobody will
-- read again are deleted, as ending a game now does (Tx.prune_notifications).
COMMENT ON COLUMN actions.chain IS
    'h_seq of the dice chain: 32 bytes; no bytes: derived from the entry before (bot/store.py)';
DELETE FROM notifications
 WHERE game IN (SELECT id FROM games WHERE status = 'finished')
   AND id < (SELECT MAX(id) FROM notifications)  -- a number is never given twice
   AND (kind IN ('prompt', 'reminder')
        OR ((sent_at IS NOT NULL OR cancelled_at IS NOT NULL)
            AND (NOT EXISTS (SELECT 1 FROM email_seats e WHERE e.game = notifications.game)
                 OR id <= (SELECT value FROM email_cursors WHERE name = 'notifications'))));
