-- A game's deadline policy (ARCHITECTURE: Asynchronous play): how long a phase and a
-- mid-turn reply may take, and the reminders before a deadline, as json; NULL means the
-- front end's defaults. Setting it is still audited as a moderator's act.
ALTER TABLE games ADD COLUMN deadline_policy TEXT;
