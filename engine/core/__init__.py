"""What every game shares: the ruleset contract, orders, dice, the log, geometry, data packs."""
