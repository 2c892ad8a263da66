"""Mutant fish (HoDoKu 035x, 036x): fish whose base and cover sets mix rows, columns and
boxes freely.

The logic is the Franken fish's (see :mod:`.frankenfish`): ``n`` base houses holding
``n`` distinct true cells of the digit, all inside ``n`` cover houses, so every cover
holds exactly one of them; cover candidates outside the base go, and so does a base
candidate in two covers (cannibalism). Fins (base candidates outside the covers, and
endo fins shared by two base houses) limit the eliminations to cells that see them all.
HoDoKu names a fish by its house types: rows against columns is basic, lines plus boxes
against the other lines plus boxes is Franken, anything else (a row and a column on one
side) is Mutant; only Mutant fish come out of this module.

Search, per digit: base sets in lexicographic order, each partial base cut when a greedy
set of its cells that share no possible cover house (each needs its own cover, or is a
fin) outgrows the size plus the fins left; then, per base, a depth-first choice of the
cover for the first uncovered base cell (its row, column or box, whichever is not a base
house) or a fin. Fins are capped per size (HoDoKu allows five: each one multiplies the
search; the library needs three for a Jellyfish, four for a Squirmbag).
"""

from __future__ import annotations

from collections.abc import Iterator

from ..grid import BIT, BOX_OF, HOUSE_BITS, PEER_BITS, Grid, cells_of_bits, common_peers
from ..steps import Finder, Step
from .frankenfish import describe_fish_text
from .statecache import last_state

SIZES = (2, 3, 4, 5, 6)
# Fins (endo fins included) per size: every library case fits, and each one more costs.
MAX_FINS = {2: 2, 3: 2, 4: 3, 5: 4, 6: 2}
MAX_ENDO_FINS = 2
NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish", 5: "Squirmbag", 6: "Whale"}
MUTANT_IDS = {n: "mutant-" + NAMES[n].lower() for n in SIZES}
FINNED_MUTANT_IDS = {n: "finned-mutant-" + NAMES[n].lower() for n in SIZES}
_SIZE_OF = {v: k for ids in (MUTANT_IDS, FINNED_MUTANT_IDS) for k, v in ids.items()}

# The three houses of each cell, and each house's type bit (row 1, column 2, box 4).
_HOUSES_OF = tuple((c // 9, 9 + c % 9, 18 + BOX_OF[c]) for c in range(81))
_TYPE_BIT = tuple(1 if h < 9 else 2 if h < 18 else 4 for h in range(27))


def _is_mutant(base_types: int, cover_types: int) -> bool:
    """HoDoKu's naming: not rows against columns (basic), nor lines and boxes against
    the other lines and boxes (Franken)."""
    if (base_types, cover_types) in ((1, 2), (2, 1)):
        return False
    if not base_types & ~5 and not cover_types & ~6:
        return False
    return bool(base_types & ~6 or cover_types & ~5)


def _independent(cells: int, base_mask: int, limit: int) -> int:
    """Greedily, how many of ``cells`` pairwise share no house outside ``base_mask``
    (stops past ``limit``): each needs a cover of its own, or is a fin."""
    count = 0
    while cells:
        low = cells & -cells
        r, k, b = _HOUSES_OF[low.bit_length() - 1]
        reach = low
        if not base_mask >> r & 1:
            reach |= HOUSE_BITS[r]
        if not base_mask >> k & 1:
            reach |= HOUSE_BITS[k]
        if not base_mask >> b & 1:
            reach |= HOUSE_BITS[b]
        cells &= ~reach
        count += 1
        if count > limit:
            break
    return count


# One fish of a digit's search: (technique, base houses, cover houses, eliminations,
# base candidates, fins, endo fins)
_Found = tuple[str, tuple[int, ...], tuple[int, ...], int, int, int, int]
_DIGIT_CACHE: dict[tuple[int, int], tuple[_Found, ...]] = {}
_DIGIT_CACHE_SIZE = 4096


def _search_digit(digit_bits: int, size: int) -> Iterator[_Found]:
    """Every (finned) Mutant fish of one size on one digit's candidates."""
    max_fins = MAX_FINS[size]
    unit_bits = [HOUSE_BITS[h] & digit_bits for h in range(27)]
    units = [h for h in range(27) if unit_bits[h]]
    count = len(units)
    base: list[int] = []

    def extend(start: int, base_bits: int, endo: int, base_mask: int) -> Iterator[_Found]:
        for i in range(start, count - (size - len(base)) + 1):
            house = units[i]
            bits = unit_bits[house]
            new_endo = endo | (base_bits & bits)
            spare = max_fins - new_endo.bit_count()
            if spare < 0 or new_endo.bit_count() > MAX_ENDO_FINS:
                continue
            new_bits = base_bits | bits
            new_mask = base_mask | 1 << house
            if _independent(new_bits & ~new_endo, new_mask, size + spare) > size + spare:
                continue  # more covers (or fins) needed than the fish may have
            base.append(house)
            if len(base) == size:
                yield from _fish_on_base(
                    digit_bits, size, tuple(base), new_bits, new_endo, new_mask, unit_bits
                )
            else:
                yield from extend(i + 1, new_bits, new_endo, new_mask)
            base.pop()

    return extend(0, 0, 0, 0)


def _fish_on_base(
    digit_bits: int,
    size: int,
    base: tuple[int, ...],
    base_bits: int,
    endo: int,
    base_mask: int,
    unit_bits: list[int],
) -> Iterator[_Found]:
    """The Mutant fish on one base set, covers in lexicographic order, then Siamese pairs
    (two fish on one base with different eliminations, shown as one step)."""
    max_fins = MAX_FINS[size]
    base_types = 0
    for h in base:
        base_types |= _TYPE_BIT[h]
    found: dict[tuple[int, ...], tuple[int, int]] = {}  # covers -> (eliminations, fins)
    chosen: list[int] = []

    def record(union: int, cannibal: int) -> None:
        covers = tuple(sorted(chosen))
        if covers in found:
            return
        cover_types = 0
        for h in covers:
            cover_types |= _TYPE_BIT[h]
        if not _is_mutant(base_types, cover_types):
            return
        # the fins of these covers (a cell taken as a fin may have been covered later)
        fins = (base_bits & ~union) | endo
        targets = ((union & ~base_bits) | cannibal) & digit_bits & common_peers(fins)
        if targets:
            found[covers] = (targets, fins)

    def dfs(union: int, fins: int, seen: int, cannibal: int) -> None:
        # seen: digit cells that see every fin so far (all digit cells while finless)
        remaining = base_bits & ~union & ~fins
        if not remaining:
            return  # covered by fewer houses: a smaller fish
        left = size - len(chosen)
        spare = max_fins - fins.bit_count()
        if _independent(remaining, base_mask, left + spare) > left + spare:
            return
        low = remaining & -remaining
        cell = low.bit_length() - 1
        for house in _HOUSES_OF[cell]:
            if base_mask >> house & 1:
                continue  # a base house is no cover
            bits = unit_bits[house]
            chosen.append(house)
            if left == 1:
                missed = remaining & ~bits
                if missed.bit_count() <= spare and seen & common_peers(missed):
                    record(union | bits, cannibal | (union & bits))
            else:
                dfs(union | bits, fins, seen, cannibal | (union & bits))
            chosen.pop()
        if spare:
            sees = seen & PEER_BITS[cell]
            if sees:
                dfs(union, fins | low, sees, cannibal)

    seen = digit_bits & common_peers(endo)
    if seen:
        dfs(0, endo, seen, 0)
    fishes = sorted(found.items())
    for covers, (targets, fins) in fishes:
        tech = (FINNED_MUTANT_IDS if fins else MUTANT_IDS)[size]
        yield (tech, base, covers, targets, base_bits, fins & ~endo, endo)
    for i, (covers, (targets, fins)) in enumerate(fishes):
        for other, (other_targets, other_fins) in fishes[i + 1 :]:
            if bool(fins) != bool(other_fins) or targets == other_targets:
                continue
            tech = (FINNED_MUTANT_IDS if fins else MUTANT_IDS)[size]
            all_fins = fins | other_fins
            yield (tech, base, covers + other, targets | other_targets, base_bits,
                   all_fins & ~endo, endo)  # fmt: skip


def _mutant(grid: Grid, size: int) -> Iterator[Step]:
    cands = grid.candidates
    for digit in range(1, 10):
        bit = BIT[digit]
        digit_bits = 0
        for c in range(81):
            if cands[c] & bit:
                digit_bits |= 1 << c
        key = (size, digit_bits)
        found = _DIGIT_CACHE.get(key)
        if found is None:
            if len(_DIGIT_CACHE) >= _DIGIT_CACHE_SIZE:
                _DIGIT_CACHE.clear()
            found = _DIGIT_CACHE[key] = tuple(_search_digit(digit_bits, size))
        for tech, base, covers, targets, base_bits, fins, endo in found:
            yield Step(
                tech,
                eliminations=tuple((c, digit) for c in cells_of_bits(targets)),
                cells=tuple(cells_of_bits(base_bits & ~fins & ~endo)),
                houses=base + covers,
                digits=(digit,),
                extra=tuple(cells_of_bits(fins | endo)),
            )


@last_state
def _cached(grid: Grid, size: int) -> list[Step]:
    """The plain and finned finders of one size share one search per state."""
    return list(_mutant(grid, size))


def find_mutant_fish(size: int, finned: bool) -> Finder:
    """Finder of (finned) Mutant fish with ``size`` base houses, Siamese pairs included.
    Evidence as for Franken fish: ``cells`` the base candidates that are not fins,
    ``houses`` the base houses then the cover houses (a Siamese step lists two cover
    sets), ``digits=(digit,)``, ``extra`` the fins (endo fins included)."""
    wanted = (FINNED_MUTANT_IDS if finned else MUTANT_IDS)[size]

    def find(grid: Grid) -> Iterator[Step]:
        return (s for s in _cached(grid, size) if s.technique == wanted)

    return find


def describe_mutant_fish(step: Step) -> str:
    size = _SIZE_OF[step.technique]
    return describe_fish_text(step, size, f"Mutant {NAMES[size]}")
