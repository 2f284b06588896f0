-- Smaller finished games (issue 16, item 4). Two changes, both read by bot/store.py:
--
-- 1. From this version on, a log entry whose action number is not a multiple of
--    CHAIN_EVERY (4) and whose dice chain follows from the entry before it stores its
--    chain as a BLOB of no bytes (X''): the reader derives it again from that entry's
--    chain and its own order (Tx._derive_chains). An Umpire older than this schema
--    version would take such a row for a chain of no digits, so the version number
--    changes and an older Umpire refuses the database. Rows written before keep their
--    chains as they are; nothing is rewritten, and the log stays append-only.
-- 2. The notices of a finished game that nobody will read again are deleted, as ending
--    a game now does (Tx.prune_notifications): every "your move" and reminder notice,
--    and every other one delivered or cancelled that the mail desk does not still owe
--    to an email seat of the game. The highest-numbered notice stays: SQLite numbers a
--    new row one above the highest, and the mail desk reads notices by number.
DELETE FROM notifications
 WHERE game IN (SELECT id FROM games WHERE status = 'finished')
   AND id < (SELECT MAX(id) FROM notifications)  -- a number is never given twice
   AND (kind IN ('prompt', 'reminder')
        OR ((sent_at IS NOT NULL OR cancelled_at IS NOT NULL)
            AND (NOT EXISTS (SELECT 1 FROM email_seats e WHERE e.game = notifications.game)
                 OR id <= (SELECT value FROM email_cursors WHERE name = 'notifications'))));
