"""The evidence of ALS steps: made by ``als_step``, read back by ``als_groups``; and one
step per result (``new_result``).

Evidence of every ALS step: ``cells`` all cells of the sets involved, ``houses`` the house
of each set, ``chain`` one node ``(set cells, digit, on)`` per digit of each set, in order,
where ``on`` says the digit links the set to the next one (see ``als_groups``), ``digits``
the restricted commons.
"""

from __future__ import annotations

from ...grid import DIGITS_IN
from ...steps import ChainNode, Step
from .sets import Als


def new_result(reported: set[frozenset[tuple[int, int]]], elims: set[tuple[int, int]]) -> bool:
    """True the first time a set of eliminations is seen (one instance per result)."""
    key = frozenset(elims)
    if key in reported:
        return False
    reported.add(key)
    return True


def _nodes(alses: list[Als], links: list[int]) -> tuple[ChainNode, ...]:
    """One node per digit of each set, ``on`` for the digits linking it to the next set
    (``links``: per set, a digit mask)."""
    return tuple(
        (a.cells, d, bool(link >> (d - 1) & 1))
        for a, link in zip(alses, links, strict=True)
        for d in DIGITS_IN[a.mask]
    )


def als_step(
    tech: str, alses: list[Als], links: list[int], rc_mask: int, elims: set[tuple[int, int]]
) -> Step:
    """The step of the sets ``alses`` in order, each linked to the next by the digits of
    ``links`` (a digit mask per set), the RCs ``rc_mask``."""
    cells: list[int] = []
    for a in alses:
        cells.extend(c for c in a.cells if c not in cells)
    return Step(
        tech,
        eliminations=tuple(sorted(elims)),
        cells=tuple(cells),
        houses=tuple(a.house for a in alses),
        digits=DIGITS_IN[rc_mask],
        chain=_nodes(alses, links),
    )


def als_groups(step: Step) -> list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]]:
    """The sets of an ALS step as ``(cells, digits, linking digits)``, in order."""
    groups: list[tuple[tuple[int, ...], list[int], list[int]]] = []
    for cells, d, on in step.chain:
        # a set's digits ascend: a new set starts at new cells or where the digits restart
        if not groups or groups[-1][0] != cells or d <= groups[-1][1][-1]:
            groups.append((cells, [], []))
        groups[-1][1].append(d)
        if on:
            groups[-1][2].append(d)
    return [(c, tuple(ds), tuple(ls)) for c, ds, ls in groups]
