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

Search, per digit and per target (a candidate that fins must see): fins can only be
the target's peers, so every other base cell (a "hard" cell) must be covered, and not by
a house of the target, which one cover at least must be. A greedy set of hard cells that
pairwise share no possible cover house (each needs a cover of its own) cuts base sets
(built in a fixed order, units that can never fit dropped first) as soon as it outgrows
the size less one: that prunes as hard as a finless search. Per base, a depth-first
choice of the cover for the first uncovered hard cell (its row, column or box, whichever
is not a base house), then houses that cover more base cells up to the size. A finless
search runs first; fish found through several targets are kept once. Fins (endo fins
included) are capped at HoDoKu's five, at most two of them endo fins.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from ...grid import BOX_OF, HOUSE_BITS, PEER_BITS, Grid, common_peers
from ...registry import Finder
from ...statecache import by_digit_pattern, last_state
from ...steps import Step
from .franken import _Found, describe_fish_text, fish_steps, one_kind_finder

SIZES = (2, 3, 4, 5, 6)
MAX_FINS: Final = 5  # HoDoKu's limits: fins (endo fins included), and endo fins among them
MAX_ENDO_FINS: Final = 2
NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish", 5: "Squirmbag", 6: "Whale"}
MUTANT_IDS = {n: "mutant-" + NAMES[n].lower() for n in SIZES}
FINNED_MUTANT_IDS = {n: "finned-mutant-" + NAMES[n].lower() for n in SIZES}
_SIZE_OF = {v: k for ids in (MUTANT_IDS, FINNED_MUTANT_IDS) for k, v in ids.items()}

# The three houses of each cell, and each house's type bit (row 1, column 2, box 4).
_HOUSES_OF: Final = tuple((c // 9, 9 + c % 9, 18 + BOX_OF[c]) for c in range(81))
_TYPE_BIT: Final = tuple(1 if h < 9 else 2 if h < 18 else 4 for h in range(27))


def _is_mutant(base_types: int, cover_types: int) -> bool:
    """HoDoKu's naming: not rows against columns (basic), nor lines and boxes against
    the other lines and boxes (Franken)."""
    if (base_types, cover_types) in ((1, 2), (2, 1)):
        return False
    if not base_types & ~5 and not cover_types & ~6:
        return False
    return bool(base_types & ~6 or cover_types & ~5)


# Per cell: (house bit, house cells) of its row, column and box.
_REACH: Final = tuple(
    (1 << r, HOUSE_BITS[r], 1 << k, HOUSE_BITS[k], 1 << b, HOUSE_BITS[b]) for r, k, b in _HOUSES_OF
)


def _independent(cells: int, base_mask: int, limit: int) -> int:
    """Greedily, how many of ``cells`` pairwise share no house outside ``base_mask``
    (stops past ``limit``): each needs a cover of its own, or is a fin."""
    count = 0
    while cells:
        low = cells & -cells
        cells ^= low
        rbit, row, kbit, col, bbit, box = _REACH[low.bit_length() - 1]
        if not base_mask & rbit:
            cells &= ~row
        if not base_mask & kbit:
            cells &= ~col
        if not base_mask & bbit:
            cells &= ~box
        count += 1
        if count > limit:
            break
    return count


def _search_digit(digit_bits: int, size: int) -> Iterator[_Found]:
    """Every (finned) Mutant fish of one size on one digit's candidates, by base set."""
    unit_bits = tuple(HOUSE_BITS[h] & digit_bits for h in range(27))
    found: dict[tuple[int, ...], dict[tuple[int, ...], tuple[int, int]]] = {}
    _search(digit_bits, size, unit_bits, 0, found)  # finless fish
    cells = digit_bits
    while cells:
        low = cells & -cells
        cells ^= low
        # fish with fins, all of them seeing a target: the target's peers may be fins
        _search(digit_bits, size, unit_bits, low, found)
    for base in sorted(found):
        yield from _with_siamese(size, base, found[base], unit_bits)


def _search(
    digit_bits: int,
    size: int,
    unit_bits: tuple[int, ...],
    target: int,
    found: dict[tuple[int, ...], dict[tuple[int, ...], tuple[int, int]]],
) -> None:
    """Fish whose fins are all peers of ``target`` (a one-cell set; 0: finless fish).

    Base cells that are neither the target nor its peers (the "hard" cells) must be
    covered, by houses that do not hold the target; so they need at most ``size - 1``
    covers (``size - 2`` when the target is a base cell, a cannibal to be), which cuts the
    base sets far harder than any fin allowance would. Then houses that cover more base
    cells complete the cover set, and fish with too many fins are dropped.
    """
    max_fins = MAX_FINS if target else 0
    free = PEER_BITS[target.bit_length() - 1] & digit_bits if target else 0
    soft = free | target
    # Units whose hard cells alone need too many covers never fit; the others go with
    # the most hard cells first, so that partial bases fail early.
    ranked = []
    for h in range(27):
        bits = unit_bits[h]
        if bits:
            limit = size - (2 if bits & target else 1) if target else size
            need = _independent(bits & ~soft, 1 << h, limit)
            if need <= limit:
                ranked.append((-need, -(bits & ~soft).bit_count(), h))
    units = [h for _, _, h in sorted(ranked)]
    count = len(units)
    base: list[int] = []

    def extend(start: int, base_bits: int, endo: int, base_mask: int) -> None:
        for i in range(start, count - (size - len(base)) + 1):
            house = units[i]
            bits = unit_bits[house]
            new_endo = endo | (base_bits & bits)
            if new_endo and (new_endo & ~free or new_endo.bit_count() > MAX_ENDO_FINS):
                continue  # endo fins are fins: they must see the target
            new_bits = base_bits | bits
            new_mask = base_mask | 1 << house
            reserve = (2 if new_bits & target else 1) if target else 0
            limit = size - reserve
            if _independent(new_bits & ~soft, new_mask, limit) > limit:
                continue  # the hard cells need more covers than the fish has left
            base.append(house)
            if len(base) < size:
                extend(i + 1, new_bits, new_endo, new_mask)
            elif _may_be_mutant(new_mask):
                covers = found.setdefault(tuple(sorted(base)), {})
                _covers(digit_bits, size, unit_bits, new_bits, new_endo, new_mask, soft,
                        reserve, max_fins, covers)  # fmt: skip
            base.pop()

    extend(0, 0, 0, 0)


# House sets as bits (house h at bit h): rows are houses 0-8, columns 9-17, boxes 18-26.
_ROW_HOUSES: Final = (1 << 9) - 1
_COLUMN_HOUSES: Final = _ROW_HOUSES << 9


def _may_be_mutant(base_mask: int) -> bool:
    """Rows alone (or columns alone) meet only columns and boxes: Franken at most."""
    return bool(base_mask & ~_ROW_HOUSES and base_mask & ~_COLUMN_HOUSES)


def _covers(
    digit_bits: int,
    size: int,
    unit_bits: tuple[int, ...],
    base_bits: int,
    endo: int,
    base_mask: int,
    soft: int,
    reserve: int,
    max_fins: int,
    found: dict[tuple[int, ...], tuple[int, int]],
) -> None:
    """Cover sets of one base: first the hard cells, by a depth-first choice of the house
    (row, column or box not in the base) that covers the first one left; then houses that
    cover more base cells, in index order, up to ``size``."""
    base_types = 0
    for h in range(27):
        if base_mask >> h & 1:
            base_types |= _TYPE_BIT[h]
    hard = base_bits & ~soft
    chosen: list[int] = []
    fin_room = max_fins - endo.bit_count()

    def record(union: int, cannibal: int) -> None:
        covers = tuple(sorted(chosen))
        if covers in found:
            return
        cover_types = 0
        for h in covers:
            cover_types |= _TYPE_BIT[h]
        if not _is_mutant(base_types, cover_types):
            return
        fins = (base_bits & ~union) | endo
        if fins.bit_count() > max_fins:
            return
        targets = ((union & ~base_bits) | cannibal) & digit_bits & common_peers(fins)
        if targets:
            found[covers] = (targets, fins)

    def complete(union: int, cannibal: int, start: int, chosen_mask: int) -> None:
        left = size - len(chosen)
        if not left:
            record(union, cannibal)
            return
        uncovered = base_bits & ~union
        if _independent(uncovered & ~endo, base_mask, left + fin_room) > left + fin_room:
            return  # more fins would stay than allowed
        for house in range(start, 27):
            bits = unit_bits[house]
            if bits & uncovered and not (base_mask | chosen_mask) >> house & 1:
                chosen.append(house)
                complete(union | bits, cannibal | (union & bits), house + 1,
                         chosen_mask | 1 << house)  # fmt: skip
                chosen.pop()

    def dfs(union: int, cannibal: int, chosen_mask: int) -> None:
        remaining = hard & ~union
        if not remaining:
            complete(union, cannibal, 0, chosen_mask)
            return
        limit = size - len(chosen) - reserve
        if _independent(remaining, base_mask, limit) > limit:
            return
        low = remaining & -remaining
        for house in _HOUSES_OF[low.bit_length() - 1]:
            if base_mask >> house & 1:
                continue  # a base house is no cover
            bits = unit_bits[house]
            chosen.append(house)
            dfs(union | bits, cannibal | (union & bits), chosen_mask | 1 << house)
            chosen.pop()

    dfs(0, 0, 0)


def _with_siamese(
    size: int,
    base: tuple[int, ...],
    fishes: dict[tuple[int, ...], tuple[int, int]],
    unit_bits: tuple[int, ...],
) -> Iterator[_Found]:
    """The fish of one base, covers in lexicographic order, then Siamese pairs (two fish
    of one kind on one base with different eliminations, shown as one step)."""
    base_bits = 0
    endo = 0
    for h in base:
        endo |= base_bits & unit_bits[h]
        base_bits |= unit_bits[h]
    ordered = sorted(fishes.items())
    for covers, (targets, fins) in ordered:
        tech = (FINNED_MUTANT_IDS if fins else MUTANT_IDS)[size]
        yield (tech, base, covers, targets, base_bits, fins & ~endo, endo)
    for i, (covers, (targets, fins)) in enumerate(ordered):
        for other, (other_targets, other_fins) in ordered[i + 1 :]:
            if bool(fins) != bool(other_fins) or targets == other_targets:
                continue
            tech = (FINNED_MUTANT_IDS if fins else MUTANT_IDS)[size]
            all_fins = fins | other_fins
            yield (tech, base, covers + other, targets | other_targets, base_bits,
                   all_fins & ~endo, endo)  # fmt: skip


@by_digit_pattern
def _mutant_on_digit(grid: Grid, digit: int, bits: int, size: int) -> tuple[_Found, ...]:
    return tuple(_search_digit(bits, size))


def _mutant(grid: Grid, size: int) -> Iterator[Step]:
    return fish_steps(grid, size, _mutant_on_digit)


@last_state
def _cached(grid: Grid, size: int) -> list[Step]:
    """The plain and finned finders of one size share one search per state."""
    return list(_mutant(grid, size))


def find_mutant_fish(size: int, finned: bool) -> Finder:
    """Finder of (finned) Mutant fish with ``size`` base houses, Siamese pairs included.
    Evidence as for Franken fish: ``cells`` the base candidates that are not fins,
    ``houses`` the base houses then the cover houses (a Siamese step lists two cover
    sets), ``digits=(digit,)``, ``Role.FIN`` the fins (endo fins included)."""
    return one_kind_finder(_cached, size, (FINNED_MUTANT_IDS if finned else MUTANT_IDS)[size])


def describe_mutant_fish(step: Step) -> str:
    size = _SIZE_OF[step.technique]
    return describe_fish_text(step, size, f"Mutant {NAMES[size]}")
