"""Death Blossom: a stem cell with one almost locked set per candidate (HoDoKu 0904).

The petals of a stem are looked up in one flat table, ``petals_of[petal_slot(d, cell)]``
(``d * 81 + cell``, ``PETAL_SLOTS`` entries): the sets holding ``d`` whose every ``d``
the cell sees.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ...grid import ALL_CELLS, ALL_DIGITS, DIGITS_IN, HALF_BITS, Grid, cells_of_bits, common_peers
from ...steps import Role, Step, mark
from .evidence import als_step, new_result
from .sets import Als, als_index

BLOSSOM_BUDGET: Final = 20000  # petal combinations tried per search
PETAL_SLOTS: Final = 810  # 10 digits (0 unused) * 81 cells


def petal_slot(digit: int, cell: int) -> int:
    """The index of (digit, cell) in ``petals_of``."""
    return digit * 81 + cell


def find_death_blossom(grid: Grid) -> Iterator[Step]:
    """A stem cell whose every candidate d has a petal: an ALS holding d whose every d
    sees the stem. Whatever the stem holds, one petal is locked, so a digit z common to
    all petals (not a stem candidate) leaves cells seeing every z of every petal.

    Evidence: ``Role.STEM`` the stem; the petals in ``chain`` in the order of the stem digits,
    each linked by the stem digit it answers.
    """
    cands, values = grid.candidates, grid.values
    index = als_index(grid)
    alses, digit_bits, seen_masks = index.alses, index.digit_bits, index.seen_masks
    reported: set[frozenset[tuple[int, int]]] = set()
    budget = [BLOSSOM_BUDGET]
    petals_of = _petals(alses)
    for stem in range(81):
        if values[stem]:
            continue
        stem_mask = cands[stem]
        digits = DIGITS_IN[stem_mask]
        per_digit = [petals_of[petal_slot(d, stem)] for d in digits]
        if not all(per_digit):
            continue
        for z in DIGITS_IN[_petal_digits(per_digit, seen_masks, stem_mask)]:
            zbit = 1 << (z - 1)
            # only petals holding z with cells outside them seeing all their z can help
            options = [[i for i in ps if seen_masks[i] & zbit] for ps in per_digit]
            if not all(options):
                continue
            for chosen in _blossoms(alses, options, [], z, ALL_CELLS, budget):
                elims = _blossom_elims(alses, chosen, stem, stem_mask, digit_bits)
                if elims and new_result(reported, elims):
                    petal_sets = [alses[i] for i in chosen]
                    step = als_step(
                        "death-blossom", petal_sets, [1 << (d - 1) for d in digits], 0, elims
                    )
                    yield Step(
                        step.technique,
                        eliminations=step.eliminations,
                        cells=(stem, *step.cells),
                        houses=step.houses,
                        digits=digits,
                        marked=mark((Role.STEM, (stem,))),
                        chain=step.chain,
                    )
            if budget[0] <= 0:
                return


def _petal_digits(per_digit: list[list[int]], seen_masks: list[int], stem_mask: int) -> int:
    """The digits z (not stem candidates) that every stem digit has a petal holding, with
    buddies (z can leave cells only then)."""
    out = ALL_DIGITS & ~stem_mask
    for ps in per_digit:
        union = 0
        for i in ps:
            union |= seen_masks[i]
        out &= union
    return out


def _petals(alses: tuple[Als, ...]) -> list[list[int]]:
    """petals_of[petal_slot(d, cell)]: the ALS holding d whose every d the cell sees."""
    petals_of: list[list[int]] = [_NO_PETALS] * PETAL_SLOTS
    for i, a in enumerate(alses):
        for d in DIGITS_IN[a.mask]:
            half = 0
            while half < 2:
                rest = a.blo[d] if half == 0 else a.bhi[d]
                at = petal_slot(d, 0 if half == 0 else HALF_BITS)
                half += 1
                while rest:
                    low = rest & -rest
                    rest ^= low
                    k = at + low.bit_length() - 1
                    petals = petals_of[k]
                    if petals is _NO_PETALS:
                        petals = petals_of[k] = []
                    petals.append(i)
    return petals_of


_NO_PETALS: Final[list[int]] = []


def _blossom_elims(
    alses: tuple[Als, ...],
    chosen: list[int],
    stem: int,
    stem_mask: int,
    digit_bits: tuple[int, ...],
) -> set[tuple[int, int]]:
    """Every digit common to the petals (not a stem candidate) leaves the cells outside
    petals and stem that see all of its cells in every petal."""
    common = ALL_DIGITS
    used = 1 << stem
    for i in chosen:
        common &= alses[i].mask
        used |= alses[i].bits
    elims: set[tuple[int, int]] = set()
    for z in DIGITS_IN[common & ~stem_mask]:
        zcells = 0
        for i in chosen:
            zcells |= alses[i].dcells[z]
        targets = common_peers(zcells) & digit_bits[z] & ~used
        elims.update((c, z) for c in cells_of_bits(targets))
    return elims


def _blossoms(
    alses: tuple[Als, ...],
    options: list[list[int]],
    chosen: list[int],
    z: int,
    targets: int,
    budget: list[int],
) -> Iterator[list[int]]:
    """Petal choices, one per stem digit, all holding ``z`` with some cell seeing every z
    of every petal (petals may overlap: whichever petal loses its stem digit is locked
    all the same)."""
    level = len(chosen)
    if level == len(options):
        yield chosen
        return
    for i in options[level]:
        left = targets & alses[i].buddies[z]
        if not left:
            continue
        budget[0] -= 1
        if budget[0] <= 0:
            return
        chosen.append(i)
        yield from _blossoms(alses, options, chosen, z, left, budget)
        chosen.pop()
