"""Provably fair deals: every server table is dealt from a 128-bit seed the players can
check after the match.

When a table is created the server draws a seed and a nonce from the operating
system (:mod:`secrets`) and publishes only the **commitment**::

    sha256("dominohall-deal-v1:" + str(seed) + ":" + nonce)     (hex)

in the table info, to every seat and spectator.  The seed decides every deal, the
boneyard order and the bots' random streams, so nobody (the table's creator
included) can know a hidden tile before play.  When the match is over (or the table
expired) the seed and nonce are revealed, and ``GET /api/tables/{id}/record`` returns
the full game record with a ``fairness`` section.  Anyone can then check the deal::

    python -m dominohall.server.fair record.json     # recomputes the commitment and replays
    dominohall replay record.json                     # step through the match

:func:`verify` checks that the commitment matches the seed and nonce, that the
record deals from that seed (no explicit hands or boneyard), that the record
replays under the rules (every action legal), and that it is the whole record: when
the match ends the table also shows the **final record hash** (:func:`record_hash`,
over the commitment, how the table ended and every action), which the record carries
and must match; a record of a finished match must reach its end.

>>> seed, nonce = 2**130 + 7, "ab" * 16
>>> len(commitment(seed, nonce))
64
>>> commitment(seed, nonce) == commitment(seed + 1, nonce)
False
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sys
from typing import Any

SCHEME = "sha256(dominohall-deal-v1:{seed}:{nonce})"
RECORD_SCHEME = "sha256(dominohall-record-v1:{commitment}:{ending}:{actions as JSON})"
SEED_BITS = 128


def new_seed() -> int:
    """A seed with 128 random bits from the OS; always at least 2**128, so a small
    (searchable) seed can never come out of this function."""
    return (1 << SEED_BITS) | secrets.randbits(SEED_BITS)


def new_nonce() -> str:
    return secrets.token_hex(16)


def commitment(seed: int | str, nonce: str) -> str:
    return hashlib.sha256(f"dominohall-deal-v1:{seed}:{nonce}".encode()).hexdigest()


class NotFair(Exception):
    """A record whose deal does not match its commitment."""


def record_hash(promised: str, actions: list[str], ending: str) -> str:
    """The final record's hash, published with the seed when the match ends: it commits
    the server to every action (and to how the table ended: ``over`` or ``expired``), so
    a record cut short or changed later no longer verifies.

    >>> h = record_hash("ab" * 32, ["12-5>t0", "draw"], "over")
    >>> h == record_hash("ab" * 32, ["12-5>t0"], "over"), len(h)
    (False, 64)
    """
    text = json.dumps(actions, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(
        f"dominohall-record-v1:{promised}:{ending}:{text}".encode()).hexdigest()


def verify(record: dict[str, Any], final: str | None = None) -> str:
    """Check a downloaded record; returns a one-line summary or raises NotFair."""
    from ..engine import replay

    fair = record.get("fairness")
    if not isinstance(fair, dict):
        raise NotFair("the record has no 'fairness' section (download it from "
                      "/api/tables/ID/record once the match is over)")
    seed, nonce, promised = fair.get("seed"), fair.get("nonce"), fair.get("commitment")
    if seed is None or nonce is None:
        raise NotFair("the seed is not revealed yet: the match is not over")
    if not isinstance(nonce, str) or commitment(seed, nonce) != promised:
        raise NotFair("the seed and nonce do not match the commitment shown at the table")
    if record.get("seed") != seed:
        raise NotFair("the record is not dealt from the committed seed")
    deck = record.get("deck") or {}
    if deck.get("hands") or deck.get("boneyard"):
        raise NotFair("the record sets its own hands: they are not dealt from the seed")
    game = replay(record)           # BadRecord if any action is illegal
    ending, published = fair.get("ending"), fair.get("record_hash")
    if ending not in ("over", "expired") or not isinstance(published, str):
        raise NotFair("the record has no final hash (fairness.record_hash): its end is "
                      "not committed")
    if record_hash(promised, list(record.get("actions") or []), ending) != published:
        raise NotFair("the actions do not match the final record hash: the record was "
                      "cut short or changed")
    if ending == "over" and not game.is_over:
        raise NotFair("the record stops before the end of the match (cut short)")
    if final is not None and final.strip().lower() != published:
        raise NotFair("the final record hash is not the one you were shown at the table")
    chosen = " (the creator chose this seed: a solo or all-bot table)" \
        if fair.get("seed_chosen") else ""
    end = "to the end of the match" if ending == "over" else "until the table expired"
    return (f"fair deal: commitment {promised[:16]}... matches the seed{chosen}; "
            f"{len(game.actions)} actions replay under the rules, {end}; final record "
            f"hash {published[:16]}...")


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    final = None
    if len(args) == 3 and args[1] == "--final":
        args, final = args[:1], args[2]
    if len(args) != 1:
        print("usage: python -m dominohall.server.fair RECORD.json [--final HASH]\n"
              "  --final HASH: the final record hash the table showed when the match "
              "ended", file=sys.stderr)
        return 2
    try:
        with open(args[0]) as f:
            record = json.load(f)
        print(verify(record, final))
    except (OSError, ValueError, NotFair) as err:
        print(f"NOT VERIFIED: {err}", file=sys.stderr)
        return 1
    except Exception as err:  # noqa: BLE001  BadRecord and friends: the record is wrong
        print(f"NOT VERIFIED: {err}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
