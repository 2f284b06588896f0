"""The African Campaign (game id ``tac``): the data pack so far; the rules engine is yet to come."""
