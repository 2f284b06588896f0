-- Dice bound to the live history (ARCHITECTURE: Dice). A game records the scheme its
-- dice are derived with: 'plain' for games created before this migration (a roll
-- depends on the secret, the game and the action number only), 'chain-v1' for new ones
-- (a roll also depends on the hash chain of the live orders up to and including its
-- own). `chain` holds that hash after each action (hex, NULL under 'plain'), so a
-- replay from a snapshot needs no earlier order. application_id marks the file as
-- Umpire's ("UMPI"), so that a database written by another program is recognised.
ALTER TABLE games ADD COLUMN dice_scheme TEXT NOT NULL DEFAULT 'plain'
    CHECK (dice_scheme IN ('plain', 'chain-v1'));
ALTER TABLE actions ADD COLUMN chain TEXT;

DROP TRIGGER actions_only_get_marked_undone;
CREATE TRIGGER actions_only_get_marked_undone BEFORE UPDATE ON actions
WHEN OLD.undone_by IS NOT NULL
  OR NEW.undone_by IS NULL
  OR NEW.game IS NOT OLD.game OR NEW.entry IS NOT OLD.entry OR NEW.seq IS NOT OLD.seq
  OR NEW.role IS NOT OLD.role OR NEW.user IS NOT OLD.user OR NEW."order" IS NOT OLD."order"
  OR NEW.rolls IS NOT OLD.rolls OR NEW.events IS NOT OLD.events
  OR NEW.turn IS NOT OLD.turn OR NEW.phase IS NOT OLD.phase
  OR NEW.created_at IS NOT OLD.created_at OR NEW.chain IS NOT OLD.chain
BEGIN
    SELECT RAISE(ABORT, 'an action can only be marked undone, once');
END;

PRAGMA application_id = 1431130185;
