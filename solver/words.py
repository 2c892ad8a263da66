"""Chains in plain words: a walk through a chain as a teacher would say it aloud.

The one-line texts use Eureka notation (``(5)r1c2=(5)r1c8-(5)r7c8``), compact for a
player who knows it. A casual player reads the same chain here as sentences::

    Suppose r1c2 is not 5. Then r1c8 must be 5, so r7c8 cannot be 5, so r7c2 must be 5.
    So r1c2 or r7c2 is 5, and a cell that sees both cannot be 5.

Glossary
--------
fact
    ``(cells, digit, on)``: the digit is in one of the cells (on) or in none of them
    (off); a chain's nodes are facts.
strong link
    of two facts, at least one is true: if the first is false the next is true.
weak link
    of two facts, at most one is true: if the first is true the next is false.
walk
    the facts of a chain in order, each true once the premise (the first) is assumed.
"""

from __future__ import annotations

from collections.abc import Sequence

from .grid import cell_name
from .steps import ChainNode, cells_text

__all__ = ["fact_text", "walk_text"]


def fact_text(cells: Sequence[int], digit: int, on: bool, *, first: bool = False) -> str:
    """``r1c8 must be 5``, ``r7c8 cannot be 5``; a group: ``one of r1c2, r1c3 is 5``.

    ``first`` words the premise (``r1c2 is not 5``) rather than a consequence.
    """
    if len(cells) > 1:
        where = cells_text(cells)
        return f"one of {where} is {digit}" if on else f"none of {where} is {digit}"
    name = cell_name(cells[0])
    if first:
        return f"{name} is {digit}" if on else f"{name} is not {digit}"
    return f"{name} must be {digit}" if on else f"{name} cannot be {digit}"


def walk_text(facts: Sequence[ChainNode]) -> str:
    """``Suppose A. Then B, so C, so D.``: a walk, each fact following from the last.

    A fact repeated on the same cells (a cell's digit followed by the same cell's other
    digit) reads as one clause: ``r3c7 cannot be 5 and must be 8``.
    """
    cells0, digit0, on0 = facts[0]
    out = f"Suppose {fact_text(cells0, digit0, on0, first=True)}."
    clauses: list[str] = []
    previous = cells0
    for cells, digit, on in facts[1:]:
        same_cell = len(cells) == 1 and cells == previous
        if same_cell and clauses:
            clauses[-1] += " and " + ("must be" if on else "cannot be") + f" {digit}"
        elif same_cell:
            clauses.append(("it must be" if on else "it cannot be") + f" {digit}")
        else:
            clauses.append(fact_text(cells, digit, on))
        previous = cells
    if clauses:
        out += " Then " + ", so ".join(clauses) + "."
    return out
