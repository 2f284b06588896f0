"""Hostile-input fuzzers (issue 10): every game's order parser, and ``umpire import``.

    .venv/bin/python -m tests.hostile.fuzz [--orders N] [--imports N] [--seed S]

``fuzz_orders`` feeds each game of ``engine.core.registry.available()`` mutated order
text (legal orders of real positions with words swapped, dropped, repeated, lengthened,
or replaced by digits of other scripts, control characters, lone surrogates...) and
mutated stored orders (``load_order``). The only answers allowed are an order (which the
rules then apply or refuse in its position) or an
:class:`~engine.core.errors.IllegalOrder` whose message is short.

``fuzz_imports`` mutates and crafts exports of a real finished game and imports each
through the service (and, for damaged bytes, through ``umpire import`` itself) into a
database that already holds games. Allowed: an import, or one sentence (``ServiceError``
/ exit code 2). Not allowed: any other exception or exit code 70, a case slower than
``SLOW_CASE`` seconds, an import that takes over an existing game, its channel or names
another creator, or any change to the games already there.

Both print what failed and exit 1 if anything did; the tests run them with a small
count (``UMPIRE_FUZZ_CASES``), CI with thousands.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import copy
import io
import json
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import engine
from bot.service import Service, ServiceError, verify_export
from engine.core.dice import ActionDice
from engine.core.errors import IllegalOrder
from engine.core.registry import available
from engine.core.registry import ruleset as get_ruleset
from engine.fuzz import random_order

#: import cases a test runs unless UMPIRE_FUZZ_CASES says (CI runs thousands)
CASES_DEFAULT = 150
#: the longest refusal a parser may give (its usage hint included)
MAX_REFUSAL = 500
#: the longest refusal of the rules (they may list the legal choices: aircraft and where
#: each can land, say)
MAX_RULE_REFUSAL = 2000
#: a single import case slower than this is a failure; one that runs for HANG seconds is
#: stopped by an alarm (it would have hung) and ends the fuzz
SLOW_CASE = 10.0
HANG = 60.0


class _Hang(BaseException):
    """Raised by the alarm in a case that runs for ``HANG`` seconds (a BaseException, so
    that no ``except Exception`` in the code under test swallows it)."""


def _alarm(signum: int, frame: Any) -> None:
    raise _Hang


#: words that break naive parsers: digits of other scripts, huge counts, odd spaces
HOSTILE_WORDS = [
    "²", "①", "1①", "٣", "३", "߃", "𝟗", "８１１３", "Ⅻ", "½", "¹²", "0", "-1", "+2", "1e9", "nan",
    "9" * 7, "9" * 40, "9" * 5000, "u" + "9" * 5000, "u٣", "u-1", "u", "x" * 41, "x" * 100_000,
    "\u200b", "\u00a0", "\x00", "\n", "\t", "\ud800", "\udfff", "'", '"', "\\", "{}", "[]",
    "None", "none", ",", "/", ",,", "//", "é", "İ", "ß", "ﬀ", "\u0301", "🙂",
]  # fmt: skip


@dataclass
class Findings:
    cases: int = 0
    failures: list[str] = field(default_factory=list)
    slowest: float = 0.0
    outcomes: Counter[str] = field(default_factory=Counter)  # how the cases ended

    def fail(self, text: str) -> None:
        if len(self.failures) < 50:
            self.failures.append(text)


# -- order parsers ---------------------------------------------------------------------


def _positions(rid: str, rng: random.Random, count: int = 8) -> list[tuple[Any, str, list[str]]]:
    """A few positions of a random game of ``rid``: the state, the role to decide and the
    texts of its legal orders."""
    rs = get_ruleset(rid)
    scenario = rs.scenarios()[0].id
    state = rs.setup(scenario, dict(getattr(rs, "fuzz_options", {})), ActionDice(b"f" * 32, "f", 0))
    out = []
    for step in range(count * 25):
        prompt = rs.prompt(state)
        if prompt.role is None:
            break
        if step % 25 == 0:
            texts = [o.text() for o in rs.legal_orders(state, prompt.role)][:200]
            if texts:
                out.append((state, prompt.role, texts))
        role, order = random_order(rs, state, rng)
        state = rs.apply(state, role, order, ActionDice(b"f" * 32, "f", step + 1))[0]
    return out


def _mutate_text(text: str, rng: random.Random, vocabulary: list[str]) -> str:
    words = text.split() or [""]
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(words))
        how = rng.randrange(9)
        if how == 0:
            words[i] = rng.choice(HOSTILE_WORDS)
        elif how == 1:
            words.insert(i, rng.choice(HOSTILE_WORDS))
        elif how == 2 and len(words) > 1:
            del words[i]
        elif how == 3 and len(words[i]) <= 1000:
            words[i] = words[i] * rng.randint(2, 50)
        elif how == 4:
            words.insert(i, rng.choice(vocabulary))
        elif how == 5 and len(words[i]) <= 100:
            words[i] = "".join(
                rng.choice(HOSTILE_WORDS) if rng.random() < 0.3 else ch for ch in words[i]
            )
        elif how == 6:
            words[i] = words[i].upper() if rng.random() < 0.5 else words[i].title()
        elif how == 7:
            words = words + words[: rng.randint(1, len(words))]
        else:
            words[i] = chr(rng.randrange(0x20, 0x30000))
    sep = rng.choice([" ", " ", "  ", "\t", ",", "/", "\u3000"])
    return sep.join(words)


def _mutate_dict(data: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(data)
    keys = list(data) or ["verb"]
    key = rng.choice(keys + ["extra", "verb"])
    data[key] = rng.choice(
        [None, -1, 2**70, 1e308, "", "x" * 10_000, [], {}, {"a": 1}, ["u1"] * 3, "\ud800",
         ["u" + "9" * 5000], {"inf": 2**70}, {"²": 1}, True, 0.5]
    )  # fmt: skip
    if rng.random() < 0.2:
        data.pop(rng.choice(keys), None)
    return data


def fuzz_orders(cases: int, seed: int = 1) -> Findings:
    """``cases`` mutated texts and stored orders for each game; what went wrong."""
    found = Findings()
    for rid in available():
        rng = random.Random(f"{seed}-{rid}")
        rs = get_ruleset(rid)
        positions = _positions(rid, rng)
        vocabulary = sorted({w for _, _, texts in positions for t in texts for w in t.split()})
        legal = [t for _, _, texts in positions for t in texts]
        for _ in range(cases):
            found.cases += 1
            state, role, texts = rng.choice(positions)
            text = _mutate_text(rng.choice(texts), rng, vocabulary)
            limit, step = MAX_REFUSAL, "parse_order"
            try:
                order = rs.parse_order(text)
                # what parses goes to the rules in the position it was written for: a
                # parser that lets a malformed order through is found there. A rule's
                # refusal may list what is legal, but quotes only words of at most
                # MAX_WORD characters of what was typed
                limit, step = MAX_RULE_REFUSAL, "apply"
                found.outcomes[f"{rid}: parsed"] += 1
                rs.apply(state, role, order, ActionDice(b"f" * 32, "f", 1))
                found.outcomes[f"{rid}: applied"] += 1
            except IllegalOrder as exc:
                if len(exc.message) > limit:
                    found.fail(
                        f"{rid}: {step} refused {text[:60]!r} in {len(exc.message)} characters"
                    )
            except Exception as exc:  # noqa: BLE001 - that is what the fuzz looks for
                found.fail(f"{rid}: {step}({text[:60]!r}) raised {exc!r:.200}")
            try:
                stored = rs.parse_order(rng.choice(legal)).to_dict()
                rs.load_order(_mutate_dict(stored, rng))
            except IllegalOrder as exc:
                if len(exc.message) > MAX_REFUSAL:
                    found.fail(f"{rid}: load_order refused in {len(exc.message)} characters")
            except Exception as exc:  # noqa: BLE001
                found.fail(f"{rid}: load_order raised {exc!r:.200}")
    return found


# -- imports ---------------------------------------------------------------------------

VICTIM_CHANNEL = "123456789012345678"


async def _finished_export(db: str, rid: str, seed: int, orders: int) -> dict[str, Any]:
    """The export (with its secret) of a short finished game of ``rid``."""
    rng = random.Random(seed)
    rs = get_ruleset(rid)
    scenario = rs.scenarios()[0].id
    service = await Service.open(db, synchronous="NORMAL")
    try:
        created = await service.create(
            rid,
            created_by="alice",
            scenario=scenario,
            options=dict(getattr(rs, "fuzz_options", {})),
            seats={role: f"player-{role}" for role in rs.roles(scenario)},
            channel="999",
            secret=rng.randbytes(32),
            game_id=f"base-{rid}-{seed}",
        )
        game = created.game
        await service.start(game, "alice")
        for n in range(orders):
            ruleset, state, seq = await service.live_state(game)
            if ruleset.prompt(state).role is None:
                break
            role, order = random_order(ruleset, state, rng)
            user = f"player-{role}"
            await service.submit(game, user, order, role=role, seen=seq)
            if n % 7 == 3:
                with contextlib.suppress(ServiceError):
                    await service.undo(game, user)
        if (await service.status(game)).status != "finished":
            await service.end(game, "alice", "long enough")
        return await service.export(game)
    finally:
        await service.close()


async def _victims(service: Service) -> list[str]:
    """Games already in the database the imports go into: one in a Discord channel."""
    out = []
    for rid, game in (("pfv", "victim"), ("pfv", "victim-2")):
        rs = get_ruleset(rid)
        scenario = rs.scenarios()[0].id
        created = await service.create(
            rid,
            created_by="owner",
            scenario=scenario,
            seats={role: "owner" for role in rs.roles(scenario)},
            channel=VICTIM_CHANNEL if game == "victim" else None,
            secret=b"v" * 32,
            game_id=game,
        )
        await service.start(created.game, "owner")
        out.append(created.game)
    return out


async def _fingerprint(service: Service, games: list[str]) -> Any:
    out = []
    for game in games:
        status = await service.status(game)
        data = await service.export(game)
        out.append((status.created_by, status.channel, status.status, status.seq, data))
    return json.dumps(out, sort_keys=True, default=str)


def _paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value inside ``data`` (keys and list indexes), sampled if large."""
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data[:6]):
            out += _paths(v, (*prefix, i))
    return out


def _set(data: Any, path: tuple, value: Any) -> None:
    for k in path[:-1]:
        data = data[k]
    data[path[-1]] = value


def _deep(n: int) -> Any:
    value: Any = 1
    for _ in range(n):
        value = [value]
    return value


HOSTILE_VALUES: list[Any] = [
    None, True, 0, -1, 1, 2, 2**31, 2**32 + 1, 2**33, 2**63, 2**64, 10**30, 1e308, -1e308,
    float("nan"), float("inf"), 0.5, "", "x" * 100_000, "../../tmp/x", "a\nb", "\ud800",
    "finished", "open", [], {}, [None], {"a": None}, _deep(40), "pfv", "aa-revised", "toy",
    "victim", VICTIM_CHANNEL, "owner", "0" * 64, "f" * 64, "zz",
]  # fmt: skip


def _crafted(base: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A hand-made attack on ``base`` (a fresh copy)."""
    data = copy.deepcopy(base)
    g = data["game"]
    kind = rng.randrange(14)
    if kind == 0:  # a die too large to sample
        rolled = [a for a in data["actions"] if a["rolls"]] or [{"rolls": data["setup_rolls"]}]
        if rolled[0]["rolls"]:
            rolled[0]["rolls"][0]["sides"] = rng.choice([2**32 + 1, 2**33, 2**40, 2**53])
    elif kind == 1:  # take over the channel of a game in play, named as another's
        g["channel"], g["created_by"] = VICTIM_CHANNEL, "owner"
    elif kind == 2:
        g["id"] = rng.choice(["../../tmp/x", "a\nb", "x" * 100_000, "", " ", "victim", "-x"])
    elif kind == 3:
        g["created_at"] = rng.choice([1e308, -1.0, 0.0, float("nan"), 2**60])
    elif kind == 4:
        data["seats"] = rng.choice([[], data["seats"][:1], data["seats"] * 2])
    elif kind == 5:
        data["seats"][0]["role"] = rng.choice(["ghost", "", "x" * 10_000])
    elif kind == 6:
        g["head"] = rng.choice([-1, len(data["actions"]) + 5, 2**40])
    elif kind == 7:
        rng.shuffle(data["actions"])
    elif kind == 8 and data["actions"]:
        data["actions"].append(copy.deepcopy(data["actions"][-1]))
    elif kind == 9 and data["actions"]:
        a = rng.choice(data["actions"])
        a["undone_by"] = rng.choice([None, 0, 10**9, -5])
    elif kind == 10 and data["actions"]:
        rng.choice(data["actions"])["order"] = rng.choice(
            [{}, {"verb": "x" * 10_000}, {"verb": "move", "pieces": ["a"] * 1000}, {"verb": None}]
        )
    elif kind == 11:
        g["options"] = rng.choice([{"last_turn": -1}, {"nope": 1}, {"last_turn": 2**40}, []])
    elif kind == 12:
        g["status"], g["ended_at"] = "active", None
    else:  # many undo cycles at one point, cheap to check
        if data["actions"]:
            last = data["actions"][-1]
            for _ in range(rng.randint(1, 200)):
                extra = copy.deepcopy(last)
                extra["entry"] = len(data["actions"]) + 1
                data["actions"].append(extra)
    return data


def _mutated(base: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    data = copy.deepcopy(base)
    paths = [p for p in _paths(data) if p]
    for _ in range(rng.randint(1, 3)):
        path = rng.choice(paths)
        how = rng.random()
        try:
            if how < 0.7:
                _set(data, path, copy.deepcopy(rng.choice(HOSTILE_VALUES)))
            elif how < 0.85:
                parent = data
                for k in path[:-1]:
                    parent = parent[k]
                if isinstance(parent, dict):
                    parent.pop(path[-1], None)
                else:
                    parent.pop(path[-1])
            else:
                parent = data
                for k in path[:-1]:
                    parent = parent[k]
                if isinstance(parent, dict):
                    parent[rng.choice(["extra", "x" * 1000, "\ud800"])] = 1
        except (KeyError, IndexError, TypeError, AttributeError):
            pass  # an earlier mutation replaced or removed that path
    return data


def _damaged_bytes(base: dict[str, Any], rng: random.Random) -> bytes:
    raw = bytearray(json.dumps(base).encode())
    how = rng.randrange(8)
    if how == 0:
        for _ in range(rng.randint(1, 20)):
            raw[rng.randrange(len(raw))] = rng.randrange(256)
    elif how == 1:
        del raw[rng.randrange(len(raw)) :]
    elif how == 2:
        return b"\xff\xfe" + bytes(raw)
    elif how == 3:
        return b"[" * 100_000 + b"]" * 100_000
    elif how == 4:
        return bytes(raw).replace(b'"created_at": ', b'"created_at": NaN, "x": ', 1)
    elif how == 5:
        return bytes(raw).replace(b'"purpose": "', b'"purpose": "\\ud800', 1)
    elif how == 6:
        return b'{"format": "umpire-game", "n": ' + b"9" * 6000 + b"}"
    else:
        return bytes(raw).replace(b'"created_at": ', b'"created_at": 1e999, "y": ', 1)
    return bytes(raw)


async def _one_case(
    n: int,
    service: Service,
    db: str,
    tmp: str,
    base: dict[str, Any],
    kind: float,
    rng: random.Random,
    found: Findings,
    victims: list[str],
) -> Service:
    """One import case; the service to go on with (the CLI path reopens it)."""
    from bot.cli import main

    if kind < 0.15:  # damaged bytes through `umpire import`, as a user would
        path = os.path.join(tmp, f"case-{n}.json")
        with open(path, "wb") as f:
            f.write(_damaged_bytes(base, rng))
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            await service.close()
            code = await asyncio.to_thread(main, ["import", path, "--db", db])
            service = await Service.open(db, synchronous="NORMAL")
        found.outcomes[f"umpire import exit {code}"] += 1
        if code not in (0, 2):
            found.fail(f"case {n}: umpire import exited {code}: {err.getvalue()[:200]}")
        if "Traceback" in err.getvalue() or err.getvalue().count("\n") > 1:
            found.fail(f"case {n}: more than one sentence: {err.getvalue()[:300]!r}")
        os.remove(path)
    else:
        data = _crafted(base, rng) if kind < 0.5 else _mutated(base, rng)
        try:
            created = await service.import_game(data, by="importer")
        except ServiceError as exc:
            found.outcomes[" ".join(str(exc).split()[:5])] += 1
            if len(str(exc)) > 1000:
                found.fail(f"case {n}: a refusal of {len(str(exc))} characters: {str(exc)[:150]!r}")
        except Exception as exc:  # noqa: BLE001 - that is what the fuzz looks for
            found.fail(f"case {n}: import raised {exc!r:.300}")
        else:
            found.outcomes["imported"] += 1
            status = await service.status(created.game)
            if created.game in victims or status.created_by != "importer":
                found.fail(f"case {n}: the import made {created.game} by {status.created_by}")
            if status.channel == VICTIM_CHANNEL:
                found.fail(f"case {n}: the import took the channel of a game in play")
        if rng.random() < 0.2:
            try:
                verify_export(data)
            except ServiceError:
                pass
            except Exception as exc:  # noqa: BLE001
                found.fail(f"case {n}: verify raised {exc!r:.300}")
    return service


async def _import_cases(
    cases: int, seed: int, tmp: str, found: Findings, bases: list[dict[str, Any]]
) -> None:
    rng = random.Random(seed)
    db = os.path.join(tmp, "target.db")
    service = await Service.open(db, synchronous="NORMAL")
    try:
        victims = await _victims(service)
        before = await _fingerprint(service, victims)
        for n in range(cases):
            found.cases += 1
            base = rng.choice(bases)
            kind = rng.random()
            t0 = time.perf_counter()
            signal.setitimer(signal.ITIMER_REAL, HANG)
            try:
                service = await _one_case(n, service, db, tmp, base, kind, rng, found, victims)
            except _Hang:
                found.fail(f"case {n} ran for {HANG:.0f} s and was stopped: a hang")
                break
            finally:
                signal.setitimer(signal.ITIMER_REAL, 0)
            spent = time.perf_counter() - t0
            found.slowest = max(found.slowest, spent)
            if spent > SLOW_CASE:
                found.fail(f"case {n} took {spent:.1f} s")
        if await _fingerprint(service, victims) != before:
            found.fail("the games already in the database changed")
    finally:
        await service.close()


def fuzz_imports(cases: int, seed: int = 1) -> Findings:
    """``cases`` mutated, crafted and damaged exports imported into a database that
    holds games already; what went wrong."""
    found = Findings()
    old = {k: os.environ.get(k) for k in ("UMPIRE_DEBUG", "UMPIRE_ERROR_LOG")}
    previous = signal.signal(signal.SIGALRM, _alarm)
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.pop("UMPIRE_DEBUG", None)
        os.environ["UMPIRE_ERROR_LOG"] = os.path.join(tmp, "errors.log")
        try:
            bases = [
                asyncio.run(
                    _finished_export(os.path.join(tmp, f"base-{rid}.db"), rid, seed + k, 40)
                )
                for rid in available()
                for k in range(3)
            ]
            asyncio.run(_import_cases(cases, seed, tmp, found, bases))
            if os.path.exists(os.environ["UMPIRE_ERROR_LOG"]):
                with open(os.environ["UMPIRE_ERROR_LOG"], encoding="utf-8") as f:
                    found.fail(f"something was written to the error log: {f.read()[:500]}")
        finally:
            signal.signal(signal.SIGALRM, previous)
            for k, v in old.items():
                if v is None:
                    os.environ.pop(k, None)
                else:
                    os.environ[k] = v
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Hostile-input fuzzers (issue 10).")
    parser.add_argument("--orders", type=int, default=2000, help="texts per game's parser")
    parser.add_argument("--imports", type=int, default=2000, help="import cases")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--verbose", action="store_true", help="count how the cases ended")
    args = parser.parse_args(argv)
    verbose = args.verbose
    engine.available()
    bad = False
    for name, run, n in (
        ("order parsers", fuzz_orders, args.orders),
        ("imports", fuzz_imports, args.imports),
    ):
        if n <= 0:
            continue
        t0 = time.perf_counter()
        found = run(n, args.seed)
        print(
            f"{name}: {found.cases} cases in {time.perf_counter() - t0:.1f} s, "
            f"{len(found.failures)} failures"
            + (f", slowest case {found.slowest:.2f} s" if found.slowest else "")
        )
        if verbose:
            for outcome, count in found.outcomes.most_common():
                print(f"  {count:5}  {outcome}")
        for failure in found.failures:
            print(f"  {failure}")
        bad = bad or bool(found.failures)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
