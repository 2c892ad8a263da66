"""Franken fish (HoDoKu 033x, 034x): fish whose base or cover sets include boxes.

A fish on a digit: ``n`` base houses and ``n`` cover houses such that every base
candidate lies in a cover house. The digit is true exactly once in each base house, and
at most once in each cover house; base houses that share no candidate hold ``n``
distinct true cells, all inside the covers, so each cover house holds one of them and
nothing else: cover candidates outside the base go, and so does a base candidate in two
cover houses (cannibalism). With fins (base candidates outside the covers, and "endo
fins" shared by two base houses) either the fish holds or a fin is true, so only the
cells that also see every fin lose the digit.

Franken fish take rows (or columns) plus boxes as base and columns (or rows) plus boxes
as cover, with at least one box somewhere (else the fish is a basic one). HoDoKu's
limits are kept: at most five fins, two of them endo fins.

Not registered yet: the search passes all of HoDoKu's library cases (0331, 0332, 0340,
0341, 03411, 0342, 03421) but costs 0.1 s (size 2) to 2-5 s (size 4) on a stuck state of a
hard puzzle, which the solve loop cannot afford; it needs pruning on the base sets first.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations

from ..grid import BIT, HOUSE_BITS, PEER_BITS, Grid, cell_name, cells_of_bits, house_name
from ..steps import Finder, Step, eliminations_text

MAX_FINS = 5
MAX_ENDO_FINS = 2
ALL_CELLS = (1 << 81) - 1

FRANKEN_IDS = {2: "franken-x-wing", 3: "franken-swordfish", 4: "franken-jellyfish"}
FINNED_FRANKEN_IDS = {
    2: "finned-franken-x-wing",
    3: "finned-franken-swordfish",
    4: "finned-franken-jellyfish",
}
_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}
_SIZE_OF = {v: k for ids in (FRANKEN_IDS, FINNED_FRANKEN_IDS) for k, v in ids.items()}

# One fish: (technique, cover houses, eliminations as 81-bit set, fins, endo fins)
_Fish = tuple[str, tuple[int, ...], int, int, int]


def _buddies(bits: int) -> int:
    """Cells that see every cell of ``bits``."""
    seen = ALL_CELLS
    while bits:
        low = bits & -bits
        seen &= PEER_BITS[low.bit_length() - 1]
        bits ^= low
    return seen


def _covers_for_base(
    digit_bits: int,
    size: int,
    base_bits: int,
    endo: int,
    covers: list[tuple[int, int]],
    cross_first: int,
    base_has_box: bool,
) -> list[_Fish]:
    """Every (finned) franken fish on one base, covers in HoDoKu's (lexicographic) order.

    Branches on the first base cell not yet covered: one of the (at most two) cover houses
    through it takes it, or it is a fin; fins must keep a candidate that sees them all.
    """
    by_cell: dict[int, list[tuple[int, int]]] = {}
    for unit in covers:
        bits = unit[1] & base_bits
        while bits:
            low = bits & -bits
            by_cell.setdefault(low.bit_length() - 1, []).append(unit)
            bits ^= low
    found: dict[tuple[int, ...], _Fish] = {}
    chosen: list[int] = []

    def record(union: int, cannibal: int) -> None:
        houses = tuple(sorted(chosen))
        if houses in found:
            return
        if not base_has_box and not any(h >= 18 for h in houses):
            return  # rows against columns only: a basic fish
        if not any(cross_first <= h < cross_first + 9 for h in houses):
            return  # boxes only on one side: HoDoKu calls it a mutant
        fins = (base_bits & ~union) | endo
        targets = (union & ~base_bits & digit_bits) | cannibal
        if fins:
            targets &= _buddies(fins)
        if targets:
            tech = (FINNED_FRANKEN_IDS if fins else FRANKEN_IDS)[size]
            found[houses] = (tech, houses, targets, fins & ~endo, endo)

    def dfs(union: int, fins: int, cannibal: int) -> None:
        remaining = base_bits & ~union & ~fins
        if len(chosen) == size:
            fins |= remaining
            if fins.bit_count() <= MAX_FINS and (not fins or _buddies(fins) & digit_bits):
                record(union, cannibal)
            return
        if not remaining:
            return  # covered with fewer houses: a smaller fish
        low = remaining & -remaining
        for house, bits in by_cell.get(low.bit_length() - 1, ()):
            if house in chosen:
                continue
            chosen.append(house)
            dfs(union | bits, fins, cannibal | (union & bits & base_bits))
            chosen.pop()
        fins |= low
        if fins.bit_count() <= MAX_FINS and _buddies(fins) & digit_bits:
            dfs(union, fins, cannibal)

    if endo and not _buddies(endo) & digit_bits:
        return []
    dfs(0, endo, 0)
    return [found[k] for k in sorted(found)]


def _franken(grid: Grid, size: int) -> Iterator[Step]:
    cands = grid.candidates
    for digit in range(1, 10):
        bit = BIT[digit]
        digit_bits = 0
        for c in range(81):
            if cands[c] & bit:
                digit_bits |= 1 << c
        units = [(h, HOUSE_BITS[h] & digit_bits) for h in range(27)]
        for lines_first in (0, 9):
            cross_first = 9 - lines_first
            base_units = [
                u for u in units if u[1] and (lines_first <= u[0] < lines_first + 9 or u[0] >= 18)
            ]
            cover_units = [
                u for u in units if u[1] and (cross_first <= u[0] < cross_first + 9 or u[0] >= 18)
            ]
            for combo in combinations(base_units, size):
                if combo[0][0] >= 18:
                    continue  # no line in the base: not a franken fish
                base_bits = 0
                endo = 0
                for _, bits in combo:
                    endo |= base_bits & bits
                    base_bits |= bits
                if endo.bit_count() > MAX_ENDO_FINS:
                    continue
                base = tuple(h for h, _ in combo)
                covers = [u for u in cover_units if u[0] not in base and u[1] & base_bits]
                if len(covers) < size:
                    continue
                fishes = _covers_for_base(
                    digit_bits, size, base_bits, endo, covers, cross_first, base[-1] >= 18
                )
                for tech, houses, targets, fins, endo_fins in fishes:
                    yield _step(tech, digit, base, houses, targets, base_bits, fins, endo_fins)
                # Siamese: two fish of one kind on the same base with different eliminations
                for i, first in enumerate(fishes):
                    for second in fishes[i + 1 :]:
                        if first[0] != second[0] or _first(first[2]) == _first(second[2]):
                            continue
                        yield _step(
                            first[0],
                            digit,
                            base,
                            first[1] + second[1],
                            first[2] | second[2],
                            base_bits,
                            first[3] | second[3],
                            first[4] | second[4],
                        )


def _first(bits: int) -> int:
    return (bits & -bits).bit_length()


def _step(
    tech: str,
    digit: int,
    base: tuple[int, ...],
    covers: tuple[int, ...],
    targets: int,
    base_bits: int,
    fins: int,
    endo: int,
) -> Step:
    return Step(
        tech,
        eliminations=tuple((c, digit) for c in cells_of_bits(targets)),
        cells=tuple(cells_of_bits(base_bits & ~fins & ~endo)),
        houses=base + covers,
        digits=(digit,),
        extra=tuple(cells_of_bits(fins | endo)),
    )


# Both finders of one size share one search per state (keyed by the candidates).
_CACHE: dict[int, tuple[tuple[int, ...], list[Step]]] = {}


def _cached(grid: Grid, size: int) -> list[Step]:
    key = tuple(grid.candidates)
    hit = _CACHE.get(size)
    if hit is not None and hit[0] == key:
        return hit[1]
    steps = list(_franken(grid, size))
    _CACHE[size] = (key, steps)
    return steps


def find_franken_fish(size: int, finned: bool) -> Finder:
    """Finder of (finned) Franken fish with ``size`` base houses, Siamese pairs included.
    Evidence: ``cells`` the base candidates that are not fins, ``houses`` the base houses
    then the cover houses (a Siamese step lists two cover sets), ``digits=(digit,)``,
    ``extra`` the fins (endo fins included)."""
    wanted = (FINNED_FRANKEN_IDS if finned else FRANKEN_IDS)[size]

    def find(grid: Grid) -> Iterator[Step]:
        return (s for s in _cached(grid, size) if s.technique == wanted)

    return find


def describe_franken_fish(step: Step) -> str:
    size = _SIZE_OF[step.technique]
    d = step.digits[0]
    base = ", ".join(house_name(h) for h in step.houses[:size])
    covers = step.houses[size:]
    siamese = len(covers) > size
    cover = ", ".join(house_name(h) for h in covers[:size])
    if siamese:
        cover += " (or " + ", ".join(house_name(h) for h in covers[size:]) + ")"
    name = ("Siamese " if siamese else "") + (
        "Finned " if step.technique.startswith("finned") else ""
    )
    name += f"Franken {_NAMES[size]}"
    elims = eliminations_text(step.eliminations)
    if not step.extra:
        return (
            f"{name} on {d}: every {d} of {base} lies in {cover}; each of those houses "
            f"takes one of them, so {elims}"
        )
    fins = ", ".join(cell_name(c) for c in step.extra)
    return (
        f"{name} on {d}: every {d} of {base} lies in {cover} apart from the fins {fins}; "
        f"either the fish holds or a fin is {d}, so cells seeing every fin lose it: {elims}"
    )
