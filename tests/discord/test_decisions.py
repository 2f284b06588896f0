"""Every kind of decision of every game can be given from the command tree (issue 15
item 2): random legal play of each registered game, and every legal order offered on
the way checked against the commands that would give it."""

from __future__ import annotations

import hashlib
import random

import pytest

from bot.discord.choices import CHOICE_LIMIT, VERBS, slots_of, stamp, text_of
from bot.discord.formatting import commands_for
from engine.core import registry
from engine.core.game import Game
from engine.fuzz import random_order

#: the longest order ``/order text:`` takes (its option's max length)
ORDER_LIMIT = 200
#: actions played per game: enough for set-up, movement, battles and their aftermath
ACTIONS = {"pfv": 900, "aa-revised": 300}


def offered_orders(ruleset_id: str, seed: int) -> tuple[set[str], dict[str, str]]:
    """The verbs prompts named, and one legal order text per verb, over random play."""
    options = dict(getattr(registry.ruleset(ruleset_id), "fuzz_options", {}))
    secret = hashlib.sha256(f"tree-{seed}".encode()).digest()
    game = Game.new(ruleset_id, options=options, secret=secret, game_id=f"tree-{seed}")
    rng = random.Random(seed)
    verbs: set[str] = set()
    examples: dict[str, str] = {}
    problems: list[str] = []
    for _ in range(ACTIONS.get(ruleset_id, 500)):
        prompt = game.ruleset.prompt(game.state)
        if prompt.role is None:
            break
        verbs.update(prompt.verbs)
        for order in game.ruleset.legal_orders(game.state, prompt.role):
            text = order.text()
            verb = text.split()[0]
            examples.setdefault(verb, text)
            problems += order_problems(text)
        role, order = random_order(game.ruleset, game.state, rng)
        game.play(order, role)
    assert problems == [], problems[:10]
    return verbs, examples


def order_problems(text: str) -> list[str]:
    """Why ``text`` could not be given from the tree, if it could not."""
    verb = text.split()[0]
    if verb not in VERBS:
        # only through /order text:, typed or picked from autocomplete
        return [] if len(text) <= ORDER_LIMIT else [f"{text!r} is longer than /order takes"]
    command = VERBS[verb]
    values = slots_of(command, text)
    out = []
    if text_of(command, values) != " ".join(text.split()):
        out.append(f"/{verb} would give {text_of(command, values)!r}, not {text!r}")
    for slot, value in zip(command.slots, values, strict=True):
        if value is None and slot.required:
            out.append(f"/{verb} needs {slot.name}, which {text!r} does not have")
        if value is not None and len(stamp(value, 10**9)) > CHOICE_LIMIT:
            out.append(f"/{verb} {slot.name}: {value!r} does not fit an autocomplete choice")
    return out


@pytest.mark.parametrize("ruleset_id", registry.available())
async def test_every_decision_of_every_game_can_be_given_from_the_tree(harness, ruleset_id):
    tree = {c.name for c in harness.bot.tree.get_commands()}
    assert "order" in tree  # the one command that takes any order as text
    verbs, examples = offered_orders(ruleset_id, seed=3)
    assert len(examples) >= 3, examples  # play went far enough to offer several kinds
    for verb in verbs | set(examples):
        [listed] = commands_for([verb])
        name = listed.strip("`/").split()[0]
        assert name in tree, f"{ruleset_id}: {verb} is listed as {listed}, not in the tree"
    print(ruleset_id, sorted(examples))


def test_the_check_finds_an_order_the_tree_cannot_give():
    assert order_problems("move 1arm 8113 8114") == []
    assert order_problems("frobnicate " + "x" * ORDER_LIMIT) != []
    assert order_problems("move " + "p" * CHOICE_LIMIT + " 8114") != []
    assert order_problems("advance") != []  # /advance needs its pieces (or none)
