"""The African Campaign (game id ``tac``): the data pack and the rules engine so far
(set-up, sequence of play, reinforcements and fuel, zones of control, stacking, movement
with overruns, combat, supply). Not registered yet: see RULINGS.md for what is missing."""
