-- Patton's First Victory games created before the rulings R14, R17, R22, R24-R26 and R32
-- were re-read against the rulebook keep the defaults they were played with: their
-- options (and the options inside their snapshots) are marked `rules_revision: 1`, which
-- engine/games/pfv/options.py reads as the old defaults for every option left unset.
UPDATE games SET options = json_set(options, '$.rules_revision', 1)
 WHERE ruleset = 'pfv' AND json_extract(options, '$.rules_revision') IS NULL;
UPDATE snapshots SET state = json_set(state, '$.options.rules_revision', 1)
 WHERE game IN (SELECT id FROM games WHERE ruleset = 'pfv')
   AND json_type(state, '$.options') = 'object'
   AND json_extract(state, '$.options.rules_revision') IS NULL;
