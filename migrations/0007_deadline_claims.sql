-- Claims on due deadlines and notices (issue 16, the scheduler across processes).
--
-- A scheduler takes a due row by writing who holds it and until when (a lease), acts,
-- then marks it fired or sent. Another process skips a row whose lease has not run out,
-- and takes it back once it has: a process that died mid-act releases its rows that way.
-- A notice the channel refused is held the same way until it is tried again.
ALTER TABLE deadlines ADD COLUMN claimed_by TEXT;
ALTER TABLE deadlines ADD COLUMN claimed_until REAL;
ALTER TABLE notifications ADD COLUMN claimed_by TEXT;
ALTER TABLE notifications ADD COLUMN claimed_until REAL;
