-- Claims on due deadlines and notices (issue 16; as migrations/0007_deadline_claims.sql).
-- A scheduler takes due rows with FOR UPDATE SKIP LOCKED and writes a lease on them; a
-- row whose lease ran out (its process died mid-act) is taken again by another.
ALTER TABLE deadlines ADD COLUMN claimed_by text;
ALTER TABLE deadlines ADD COLUMN claimed_until double precision;
ALTER TABLE notifications ADD COLUMN claimed_by text;
ALTER TABLE notifications ADD COLUMN claimed_until double precision;
