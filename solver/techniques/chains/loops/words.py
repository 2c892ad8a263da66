"""Nice Loops and AICs in plain words (:mod:`solver.words`): the walk along the chain
from its premise, then what it proves (the same reason the one-line text gives)."""

from __future__ import annotations

from ....steps import ChainNode, Step
from ....words import walk_text
from .texts import chain_reason


def walk_facts(chain: tuple[ChainNode, ...]) -> list[ChainNode]:
    """The chain's nodes as facts, each true once the first is assumed.

    A node's ``on`` names the link that reaches it (strong ``=`` or weak ``-``): a strong
    link makes the next fact true (one of the two must be), a weak one false (at most one
    can be). The premise is false when the first link is strong, true when it is weak.
    """
    cells, digit, _ = chain[0]
    return [(cells, digit, not chain[1][2]), *chain[1:]]


def words_chain(step: Step) -> str:
    """``Suppose r1c2 is not 5. Then ... So <the reason>.``"""
    reason = chain_reason(step)
    return f"{walk_text(walk_facts(step.chain))} So {reason}."
