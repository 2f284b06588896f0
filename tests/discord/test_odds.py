"""``/odds`` through the real command tree: exact A&A Revised odds, private by default."""

from __future__ import annotations

from tests.discord.conftest import ALICE
from tests.discord.harness import posts, replies


async def test_odds_answers_the_caller_privately_with_exact_figures(harness):
    sent = await harness.command(ALICE, "odds", attacker="1 infantry", defender="1 infantry")
    assert sent[0].kind == "defer" and sent[0].ephemeral
    [answer] = replies(sent)
    assert answer.ephemeral and posts(sent) == []
    # one infantry (hits on 1) against one infantry (hits on 2): 1/4, 5/8, 1/8
    assert "attacker wins    25.00%" in answer.content
    assert "defender holds   62.50%" in answer.content
    assert "both destroyed   12.50%" in answer.content


async def test_odds_can_be_shared_and_refuses_nonsense_in_one_sentence(harness):
    shared = await harness.command(
        ALICE, "odds", attacker="3 inf, 1 art, 1 arm", defender="2 inf, 1 ftr", share=True
    )
    assert not shared[0].ephemeral and "attacker wins" in replies(shared)[-1].content
    refused = await harness.command(ALICE, "odds", attacker="3 dragons", defender="1 infantry")
    [answer] = replies(refused)
    assert answer.ephemeral and "dragons" in answer.content and "Traceback" not in answer.content
