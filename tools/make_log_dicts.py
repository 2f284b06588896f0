"""Write a preset dictionary for compressing a ruleset's log entries (issue 16, item 4).

    python tools/make_log_dicts.py RULESET [--version N]

Plays fuzzed games of RULESET with the engine alone (seeds 101-105, 1,000 orders each,
game ids ``dict-<seed>``: none of them is a game the benches or tests measure), turns
each order into the JSON a log entry's body holds (``[order, rolls, events, role, user,
phase]`` as ``bot.logdicts.pack`` writes it, the user left empty: users are per game),
and keeps distinct entries in a fixed shuffled order
until 32 KB (deflate's window) are full. The file goes to ``bot/logdicts/RULESET-N.txt``
and its SHA-256 is printed for ``bot.logdicts.DICTIONARIES``. A dictionary is never
rewritten once rows use it: an existing file is refused.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot.service_fuzz import random_order  # noqa: E402
from engine.core.dice import ActionDice  # noqa: E402

WINDOW = 32 * 1024
SEEDS = (101, 102, 103, 104, 105)
LONG_OPTIONS = {"pfv": {"last_turn": 60}}


def entries(ruleset_id: str, seed: int, length: int = 1000) -> list[str]:
    """The bodies of ``length`` random orders of one game (fewer if it ends)."""
    rs = engine.ruleset(ruleset_id)
    secret, game_id = bytes([seed % 256]) * 32, f"dict-{seed}"
    from engine.core.game import Game

    state = Game(rs, rs.scenarios()[0].id, LONG_OPTIONS.get(ruleset_id, {}), secret, game_id).state
    rng = random.Random(seed)
    out = []
    for seq in range(1, length + 1):
        if rs.prompt(state).role is None:
            break
        role, order = random_order(rs, state, rng)
        phase = rs.progress(state).phase
        dice = ActionDice(secret, game_id, seq)
        state, events = rs.apply(state, role, order, dice)
        rolls = [{"sides": r.sides, "value": r.value, "purpose": r.purpose} for r in dice.rolls]
        body = [order.to_dict(), rolls, [e.to_dict() for e in events], role, "", phase]
        out.append(json.dumps(body, separators=(",", ":"), sort_keys=True))
    return out


def build(ruleset_id: str) -> bytes:
    seen = list(dict.fromkeys(e for seed in SEEDS for e in entries(ruleset_id, seed)))
    random.Random(0).shuffle(seen)
    kept, size = [], 0
    for text in seen:
        data = text.encode("utf-8") + b"\n"
        if size + len(data) > WINDOW:
            continue
        kept.append(data)
        size += len(data)
    return b"".join(kept)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ruleset")
    parser.add_argument("--version", type=int, default=1)
    args = parser.parse_args()
    target = ROOT / "bot" / "logdicts" / f"{args.ruleset}-{args.version}.txt"
    if target.exists():
        print(f"{target} exists and rows may use it; choose another --version", file=sys.stderr)
        return 1
    data = build(args.ruleset)
    target.write_bytes(data)
    print(
        f"{target.relative_to(ROOT)}: {len(data)} bytes, sha256 {hashlib.sha256(data).hexdigest()}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
