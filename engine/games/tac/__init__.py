"""The African Campaign, Designer Signature Edition (game id ``tac``): the data pack and the rules
engine that registers the ``tac`` ruleset (:mod:`.rules`), its map view (:mod:`.mapview`)
and combat odds (:mod:`.odds`). Rulebook sections are cited as ``TAC n``; rulings on its
ambiguities, and what is not adjudicated yet, are in RULINGS.md."""

from engine.core.registry import register
from engine.games.tac.rules import RULESET, TheAfricanCampaign

register(RULESET)

__all__ = ["RULESET", "TheAfricanCampaign"]
