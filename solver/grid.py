"""The grid model: 81 cells, candidates as 9-bit masks, houses and peers precomputed once.

Cells are numbered 0..80 row by row; digit ``d`` (1..9) is bit ``1 << (d - 1)`` of a
candidate mask. Houses are numbered 0..26: rows 0..8, columns 9..17, boxes 18..26.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

# The tables are Final: compiled (mypyc) code then reads them as constants, not through
# the module's dictionary.

ALL_DIGITS: Final = 0x1FF
DIGITS: Final = range(1, 10)
CELLS: Final = range(81)

ROW_OF: Final[tuple[int, ...]] = tuple(c // 9 for c in CELLS)
COL_OF: Final[tuple[int, ...]] = tuple(c % 9 for c in CELLS)
BOX_OF: Final[tuple[int, ...]] = tuple((c // 27) * 3 + (c % 9) // 3 for c in CELLS)

ROWS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(r * 9 + c for c in range(9)) for r in range(9)
)
COLS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(r * 9 + c for r in range(9)) for c in range(9)
)
BOXES: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple((b // 3) * 27 + (b % 3) * 3 + (i // 3) * 9 + i % 3 for i in range(9)) for b in range(9)
)
HOUSES: Final[tuple[tuple[int, ...], ...]] = ROWS + COLS + BOXES
# The three houses of each cell: (row house, column house, box house).
HOUSES_OF: Final[tuple[tuple[int, int, int], ...]] = tuple(
    (ROW_OF[c], 9 + COL_OF[c], 18 + BOX_OF[c]) for c in CELLS
)
PEERS: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(sorted({p for h in HOUSES_OF[c] for p in HOUSES[h]} - {c})) for c in CELLS
)
# 81-bit cell sets ("bitboards") make "cells seeing all of these" a few integer ANDs.
HOUSE_BITS: Final[tuple[int, ...]] = tuple(sum(1 << c for c in h) for h in HOUSES)
PEER_BITS: Final[tuple[int, ...]] = tuple(sum(1 << p for p in PEERS[c]) for c in CELLS)
ALL_CELLS: Final = (1 << 81) - 1
# An 81-bit cell set split in two machine words for compiled code: cells 0..53 (``bits &
# LOW_HALF``) and 54..80 (``bits >> HALF_BITS``); the peers of each cell so split.
HALF_BITS: Final = 54
LOW_HALF: Final = (1 << HALF_BITS) - 1
HIGH_HALF: Final = (1 << (81 - HALF_BITS)) - 1
PEER_LO: Final[tuple[int, ...]] = tuple(p & LOW_HALF for p in PEER_BITS)
PEER_HI: Final[tuple[int, ...]] = tuple(p >> HALF_BITS for p in PEER_BITS)
# SEES[a * 81 + b]: cells a and b share a house (a != b); a table read, where testing a
# bit of an 81-bit int would allocate a long int.
SEES: Final[tuple[bool, ...]] = tuple(
    bool(PEER_BITS[a] >> b & 1) for a in range(81) for b in range(81)
)

BIT: Final[tuple[int, ...]] = (0, *(1 << (d - 1) for d in DIGITS))  # BIT[d] for digit d
POPCOUNT: Final[tuple[int, ...]] = tuple(bin(m).count("1") for m in range(512))
DIGITS_IN: Final[tuple[tuple[int, ...], ...]] = tuple(
    tuple(d for d in DIGITS if m >> (d - 1) & 1) for m in range(512)
)
# SINGLE[m] is the digit when mask m holds exactly one, else 0.
SINGLE: Final[tuple[int, ...]] = tuple(
    DIGITS_IN[m][0] if POPCOUNT[m] == 1 else 0 for m in range(512)
)


def house_name(house: int) -> str:
    """Human name of a house: ``row 4``, ``column 7`` or ``box 5``."""
    kind = ("row", "column", "box")[house // 9]
    return f"{kind} {house % 9 + 1}"


def cell_name(cell: int) -> str:
    """``r4c1`` style name of a cell (1-based)."""
    return f"r{cell // 9 + 1}c{cell % 9 + 1}"


def common_peers(bits: int) -> int:
    """The cells that see every cell of an 81-bit cell set (all cells for an empty set)."""
    seen = ALL_CELLS
    while bits:
        low = bits & -bits
        seen &= PEER_BITS[low.bit_length() - 1]
        bits ^= low
    return seen


def cells_of_bits(bits: int) -> list[int]:
    """The cells of an 81-bit cell set, ascending."""
    # By halves that fit a machine word (see LOW_HALF): arithmetic on the whole 81-bit int
    # would allocate a long int per operation (about 4x slower compiled).
    cells = []
    lo = bits & LOW_HALF
    while lo:
        low = lo & -lo
        cells.append(low.bit_length() - 1)
        lo ^= low
    hi = bits >> HALF_BITS
    while hi:
        low = hi & -hi
        cells.append(low.bit_length() + HALF_BITS - 1)
        hi ^= low
    return cells


def cells_bits(cells: Iterable[int]) -> int:
    """The 81-bit cell set of some cells."""
    bits = 0
    for c in cells:
        bits |= 1 << c
    return bits


def candidate(cell: int, digit: int) -> int:
    """The number of candidate ``(cell, digit)``: ``cell * 9 + digit - 1``, 0 to 728 in
    cell order (the chain searches' candidate nodes, the forcing search's facts)."""
    return cell * 9 + digit - 1


def candidate_cell(cand: int) -> int:
    """The cell of candidate number ``cand``."""
    return cand // 9


def candidate_digit(cand: int) -> int:
    """The digit of candidate number ``cand``."""
    return cand % 9 + 1


def seeing_all(cells: Iterable[int]) -> int:
    """81-bit set of the cells that see every one of ``cells`` (the cells themselves excluded)."""
    bits = (1 << 81) - 1
    for c in cells:
        bits &= PEER_BITS[c]
    return bits


class Grid:
    """Pencil-mark state: placed values, candidate masks and which cells are givens.

    ``values[c]`` is 0 for an empty cell; ``candidates[c]`` is the 9-bit mask of the
    digits still possible there (0 once the cell holds a value).
    """

    __slots__ = ("candidates", "givens", "values")

    def __init__(
        self,
        values: Sequence[int],
        *,
        givens: Sequence[bool] | None = None,
        candidates: list[int] | None = None,
    ) -> None:
        """``candidates``, when given, is taken as it is (not copied, not checked): the
        fast path for copies and for the forcing nets' scratch grids."""
        if len(values) != 81:
            raise ValueError(f"a grid has 81 cells, got {len(values)}")
        self.values: list[int] = list(values)
        self.givens: list[bool] = (
            list(givens) if givens is not None else [v != 0 for v in self.values]
        )
        if candidates is not None:
            self.candidates: list[int] = candidates
            return
        self.candidates = [0] * 81
        for c in CELLS:
            if self.values[c] == 0:
                used = 0
                for p in PEERS[c]:
                    used |= BIT[self.values[p]]
                self.candidates[c] = ALL_DIGITS & ~used

    def copy(self) -> Grid:
        return Grid(self.values, givens=self.givens, candidates=self.candidates[:])

    def place(self, cell: int, digit: int) -> None:
        """Put ``digit`` into ``cell`` and remove it from the peers' candidates."""
        self.values[cell] = digit
        self.candidates[cell] = 0
        clear = ~BIT[digit]
        cands = self.candidates
        for p in PEERS[cell]:
            cands[p] &= clear

    def eliminate(self, cell: int, digit: int) -> None:
        self.candidates[cell] &= ~BIT[digit]

    def empty_cells(self) -> list[int]:
        return [c for c in CELLS if self.values[c] == 0]

    def is_solved(self) -> bool:
        return 0 not in self.values

    def has_contradiction(self) -> bool:
        """An empty cell without candidates, or a digit with no place left in a house."""
        values, cands = self.values, self.candidates
        if any(values[c] == 0 and cands[c] == 0 for c in CELLS):
            return True
        for house in HOUSES:
            seen = 0
            for c in house:
                seen |= cands[c] | BIT[values[c]]
            if seen != ALL_DIGITS:
                return True
        return False

    def digit_cells(self, digit: int, house: int) -> list[int]:
        """The cells of ``house`` that still have ``digit`` as a candidate."""
        bit = BIT[digit]
        cands = self.candidates
        return [c for c in HOUSES[house] if cands[c] & bit]

    def to_string(self, empty: str = ".") -> str:
        return "".join(str(v) if v else empty for v in self.values)

    def __repr__(self) -> str:
        return f"Grid({self.to_string()!r})"


def find_duplicates(values: Sequence[int]) -> list[tuple[int, int, int]]:
    """Pairs of cells holding the same digit in one house, as ``(cell_a, cell_b, house)``."""
    found: list[tuple[int, int, int]] = []
    seen_pairs: set[tuple[int, int]] = set()
    for h, house in enumerate(HOUSES):
        first: dict[int, int] = {}
        for c in house:
            v = values[c]
            if not v:
                continue
            if v in first:
                pair = (first[v], c)
                if pair not in seen_pairs:
                    seen_pairs.add(pair)
                    found.append((first[v], c, h))
            else:
                first[v] = c
    return found
