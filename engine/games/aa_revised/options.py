"""Game options: the choices the rulebook leaves to the players at setup, and the rulings
of RULINGS.md that reasonable players could take the other way, each a switch with its
default. ``Q-nn`` refers to the digest's list of ambiguities and to RULINGS.md.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: Appendix 3, National Advantages Table: power -> the six advantages by die roll
ADVANTAGES: dict[str, tuple[str, ...]] = {
    "ussr": ("russian_winter", "nonaggression_treaty", "mobile_industry", "salvage",
             "lend_lease", "trans_siberian_railway"),
    "germany": ("u_boat_interdiction", "atlantic_wall", "panzerblitz", "wolf_packs",
                "luftwaffe_dive_bombers", "fortress_europe"),
    "uk": ("radar", "joint_strike", "enigma_decoded", "mideast_oil", "french_resistance",
           "colonial_garrison"),
    "japan": ("tokyo_express", "kamikaze_attacks", "kaiten_torpedoes", "lightning_assaults",
              "dug_in_defenders", "banzai_attacks"),
    "usa": ("island_bases", "chinese_divisions", "marines", "mechanized_infantry",
            "fast_carriers", "superfortresses"),
}  # fmt: skip


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    #: How the War Is Won: minor (8 victory cities), major (10) or total (12).
    victory_level: Literal["minor", "major", "total"] = "minor"
    #: RULINGS R-40: the game ends after this many rounds if no side has won; the side
    #: holding more victory cities then wins "on points" (with the cities shared equally,
    #: the side with the greater national production; with that equal too, a draw).
    #: ``None``: no limit, as in the rulebook. The default gives every game, random play
    #: (the fuzzer) included, an end.
    max_rounds: int | None = Field(default=None, ge=1)
    #: Appendix 3: national advantages chosen for each power (ids of ADVANTAGES).
    advantages: dict[str, list[str]] = {}
    #: Appendix 3: roll this many national advantages for each power at setup (repeats
    #: are rolled again, RULINGS Q-22); added to those chosen in ``advantages``.
    random_advantages: int = Field(default=0, ge=0, le=6)
    #: Colonial Garrison: the tan territory of the extra industrial complex (RULINGS R-31).
    colonial_garrison_territory: str = "india"
    #: Individual Winner (optional): name the power of the winning side that grew most.
    individual_winner: bool = False
    #: Q-04: aircraft in a noncombat move may fly over hostile territory (AA guns fire).
    ncm_air_overflight: bool = True
    #: Q-14: ``controlled``: units are placed only at industrial complexes the power
    #: controls; ``literal``: also at a friendly power's complexes while its capital is lost.
    allied_ic_when_capital_lost: Literal["controlled", "literal"] = "controlled"
    #: Q-08: warships may end a combat move in a friendly sea zone only to bombard; with
    #: ``True`` they may also escort (end there without fighting).
    allow_escort_in_cm: bool = False
    #: Standing orders for every power at the start (each player may change his own with
    #: the ``standing`` order): casualty choices and submerging decided by the engine
    #: without asking. ``ask`` waits for the player.
    auto_casualties: bool = False
    auto_submerge: Literal["ask", "never", "always"] = "ask"
