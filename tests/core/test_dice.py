"""ARCHITECTURE: Dice. Rolls are derived from the secret, reproducible and uniform."""

import hashlib
import hmac
from collections import Counter

import pytest

from engine.core.dice import ActionDice, ScriptedDice, commitment, derive_roll


def test_commitment_is_sha256_of_secret():
    assert commitment(b"s3cret") == hashlib.sha256(b"s3cret").hexdigest()


def test_roll_is_first_accepted_word_of_the_hmac():
    digest = hmac.new(b"k", b"g1|5|0", hashlib.sha256).digest()
    word = int.from_bytes(digest[:4], "big")
    limit = (1 << 32) - ((1 << 32) % 12)
    assert word < limit  # the first word is accepted for this label
    assert derive_roll(b"k", "g1", 5, 0, 12) == word % 12 + 1


def test_same_action_rolls_the_same_dice_again():
    a = ActionDice(b"k", "g", 7)
    b = ActionDice(b"k", "g", 7)
    assert [a.roll(12) for _ in range(5)] == [b.roll(12) for _ in range(5)]
    assert [r.value for r in a.rolls] == [r.value for r in b.rolls]


def test_different_actions_roll_differently():
    def four_rolls(n):
        dice = ActionDice(b"k", "g", n)
        return tuple(dice.roll(12) for _ in range(4))

    assert len({four_rolls(n) for n in range(50)}) > 45


def test_d12_is_uniform_over_many_rolls():
    counts = Counter(derive_roll(b"k", "g", n, 0, 12) for n in range(12000))
    assert set(counts) == set(range(1, 13))
    assert all(850 < c < 1150 for c in counts.values())


def test_scripted_dice_refuse_impossible_values_and_running_out():
    d = ScriptedDice([13])
    with pytest.raises(AssertionError):
        d.roll(12)
    with pytest.raises(AssertionError):
        ScriptedDice([]).roll(6)
