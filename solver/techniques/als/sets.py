"""Finding almost locked sets and the restricted commons (RCs) between them.

``als_index`` collects every ALS of a pencil-mark state (up to ``MAX_ALS_CELLS`` cells)
and the RCs of every pair, once per state (cached); ``small_alses`` the sets of a few
cells that chains use as nodes (``solver.techniques.chains.loops``). Sets are bitmasks: an
81-bit cell set, a digit mask (bit ``d - 1`` for digit ``d``) and per-digit cell sets.

The packed ints, in the style of HoDoKu's ``Chain.java`` node-layout table:

A link (``AlsIndex.links``, ``overlap_links``): another set and the RCs shared with it.

    ======  ========  ==================================================  ==================
    bits    field     values                                              names
    ======  ========  ==================================================  ==================
    0 - 8   rc        the restricted commons, a digit mask                ``LINK_RC``
    9 -     set       the other set's index in ``AlsIndex.alses``         ``LINK_SET_SHIFT``
    ======  ========  ==================================================  ==================

    ``make_link(j, rc)``, ``link_set(link)``, ``link_rc(link)``.

A subset of a house's empty cells while the sets are collected (``_collect_alses``):

    ======  ========  ==================================================  ==================
    bits    field     values                                              names
    ======  ========  ==================================================  ==================
    0 - 3   size      how many cells                                      ``SUBSET_SIZE``
    4 - 12  cells     the cells, by their index in the house              ``SUBSET_CELLS_SHIFT``
    13 -    digits    the cells' digits, a digit mask                     ``SUBSET_DIGITS_SHIFT``
    ======  ========  ==================================================  ==================

    Each cell adds ``(digits << 9 | 1 << index) << 4``: a subset is the previous one OR
    its last cell's, plus one.

A candidate RC while they are collected (``als_index``): digit ``d`` of sets ``i < j``.

    ======  ========  ==================================================  ==================
    bits    field     values                                              names
    ======  ========  ==================================================  ==================
    0 - 3   digit     the digit (1-9)                                     ``HIT_DIGIT``
    4 - 17  second    ``j`` (at most 27 * 512 sets: 14 bits)              ``HIT_PAIR_SHIFT``,
                                                                          ``PAIR_SECOND``
    18 -    first     ``i``                                               ``PAIR_FIRST_SHIFT``
    ======  ========  ==================================================  ==================

A *pattern* (a set's cells holding one digit, as a house and cells in it) is
``house << PATTERN_HOUSE_SHIFT | house cells`` (``pattern``): ``PATTERNS`` of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations
from typing import Final, cast

from ...grid import (
    DIGITS_IN,
    HALF_BITS,
    HIGH_HALF,
    HOUSES,
    LOW_HALF,
    PEER_HI,
    PEER_LO,
    POPCOUNT,
    Grid,
    cells_of_bits,
    common_peers,
)
from ...statecache import digit_patterns, last_state

MAX_ALS_CELLS: Final = 8  # HoDoKu's bound: an ALS of 9 cells would be a whole house

# A link's fields (see the module's docstring).
LINK_RC: Final = 0x1FF  # bits 0-8: the RC digits
LINK_SET_SHIFT: Final = 9  # bits 9-: the other set
# A house subset's fields.
SUBSET_SIZE: Final = 15  # bits 0-3: its size
SUBSET_CELLS_SHIFT: Final = 4  # bits 4-12: its cells (house indexes)
SUBSET_DIGITS_SHIFT: Final = 13  # bits 13-: its digits
HOUSE_CELLS: Final = 0x1FF  # the nine cells of a house, by their index in it
# A candidate RC's fields.
HIT_DIGIT: Final = 15  # bits 0-3: the digit
HIT_PAIR_SHIFT: Final = 4  # bits 4-: the pair of sets
PAIR_SECOND: Final = 0x3FFF  # a pair's bits 0-13: the second set
PAIR_FIRST_SHIFT: Final = 14  # a pair's bits 14-: the first set
# Patterns: a house and cells in it.
PATTERN_HOUSE_SHIFT: Final = 9
PATTERNS: Final = 27 * 512


def make_link(other: int, rc: int) -> int:
    """A link to set ``other`` by the RC digits ``rc``."""
    return other << LINK_SET_SHIFT | rc


def link_set(link: int) -> int:
    """The set a link leads to."""
    return link >> LINK_SET_SHIFT


def link_rc(link: int) -> int:
    """The RC digits of a link."""
    return link & LINK_RC


def pattern(house: int, cells: int) -> int:
    """The pattern of ``cells`` (a mask of house indexes) in ``house``."""
    return house << PATTERN_HOUSE_SHIFT | cells


class Als:
    """One almost locked set: cells (81-bit set and tuple), digits and per-digit sets.

    A plain class (not a dataclass): compiled, its ``__init__`` is a direct call."""

    bits: int
    cells: tuple[int, ...]
    mask: int
    house: int
    # dcells[d]: the ALS cells holding d; buddies[d]: the cells outside the ALS that hold
    # d and see every d of the ALS (d is false there if the ALS holds it).
    dcells: tuple[int, ...]
    buddies: tuple[int, ...]
    # The cells (lo, hi) and the buddies (blo[d], bhi[d]) in 54/27-bit halves (machine
    # words): filled for the sets of ``als_index`` only (``make_als`` leaves them empty).
    lo: int
    hi: int
    blo: tuple[int, ...]
    bhi: tuple[int, ...]

    def __init__(
        self,
        bits: int,
        cells: tuple[int, ...],
        mask: int,
        house: int,
        dcells: tuple[int, ...],
        buddies: tuple[int, ...],
        lo: int = 0,
        hi: int = 0,
        blo: tuple[int, ...] = (),
        bhi: tuple[int, ...] = (),
    ) -> None:
        self.bits = bits
        self.cells = cells
        self.mask = mask
        self.house = house
        self.dcells = dcells
        self.buddies = buddies
        self.lo = lo
        self.hi = hi
        self.blo = blo
        self.bhi = bhi

    def _key(self) -> tuple[int, tuple[int, ...], int, int, tuple[int, ...], tuple[int, ...]]:
        return (self.bits, self.cells, self.mask, self.house, self.dcells, self.buddies)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Als) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        return (
            f"Als(bits={self.bits!r}, cells={self.cells!r}, mask={self.mask!r}, "
            f"house={self.house!r}, dcells={self.dcells!r}, buddies={self.buddies!r})"
        )


@dataclass(frozen=True, slots=True)
class AlsIndex:
    """Every ALS of a state, the restricted commons between them and per-digit cell sets."""

    alses: tuple[Als, ...]
    # links[i]: make_link(j, rc mask) for every ALS j that does not overlap i and shares
    # an RC, j ascending
    links: list[list[int]]
    # overlap_links: the same, also for overlapping ALS (the RC digits outside the overlap)
    overlap_links: list[list[int]]
    digit_bits: tuple[int, ...]  # digit_bits[d]: cells with candidate d
    masks: list[int]  # masks[i]: the digits of ALS i
    seen_masks: list[int]  # seen_masks[i]: its digits with buddies (cells seeing all of them)


_NO_PATTERNS: Final = [-1] * 9
# A box's cells (index bitmask) in one of its rows or columns: such a set lies in an
# earlier house (a row or a column) too.
_BOX_LINES: Final = (0x7, 0x38, 0x1C0, 0x49, 0x92, 0x124)


def _collect_alses(
    grid: Grid,
    digit_bits: tuple[int, ...],
    pats: list[int],
    by_digit: list[list[object]],
    seen_masks: list[int],
) -> list[Als]:
    """The ALS of ``grid``, house by house (a set lying in two houses belongs to the
    first). ``pats[i * 9 + d - 1]`` gets the ``pattern`` of ALS i's d-cells (-1: no d),
    ``by_digit[d]`` the ALS holding d (boxed ints, one box per set) and ``seen_masks[i]``
    the digits of ALS i with buddies.

    Cell sets are worked out from the cells (small per-cell tables) rather than read
    from per-house tables of every subset: those are too big to stay in the cache
    between two states."""
    cands, values = grid.candidates, grid.values
    found: list[Als] = []
    popcount = POPCOUNT
    peer_lo, peer_hi = PEER_LO, PEER_HI
    dlo = [d & LOW_HALF for d in digit_bits]
    dhi = [d >> HALF_BITS for d in digit_bits]
    dloc = [0] * 10
    for h in range(27):
        house = HOUSES[h]
        # per empty cell of the house (in house order): the subset of that one cell, less
        # its size, so that a subset's entry (see the module's docstring) is the previous
        # one's OR it, plus one
        add: list[int] = []
        for d in range(10):
            dloc[d] = 0
        for k in range(9):
            c = house[k]
            if not values[c]:
                m = cands[c]
                add.append(m << SUBSET_DIGITS_SHIFT | 1 << k << SUBSET_CELLS_SHIFT)
                for d in DIGITS_IN[m]:
                    dloc[d] |= 1 << k
        n = len(add)
        if n < 2:
            continue
        base = h << PATTERN_HOUSE_SHIFT  # the house's patterns: base | house cells
        kind = h // 9  # row, column, box
        entry = [0] * (1 << n)
        for s in range(1, 1 << n):
            r = s & (s - 1)
            v = (entry[r] | add[(s ^ r).bit_length() - 1]) + 1
            entry[s] = v
            m = v >> SUBSET_DIGITS_SHIFT
            k = v & SUBSET_SIZE
            if popcount[m] != k + 1 or k > MAX_ALS_CELLS:
                continue
            pm = v >> SUBSET_CELLS_SHIFT & HOUSE_CELLS
            if kind and k == 1:
                continue  # one cell: found in its row
            if kind == 2 and any(not pm & ~line for line in _BOX_LINES):
                continue  # in one row or column of the box: found there
            i = len(found)
            i_box: object = i
            pats.extend(_NO_PATTERNS)
            cells: list[int] = []
            lo = 0
            hi = 0
            t = pm
            while t:
                low = t & -t
                t ^= low
                c = house[low.bit_length() - 1]
                cells.append(c)
                if c < HALF_BITS:
                    lo |= 1 << c
                else:
                    hi |= 1 << (c - HALF_BITS)
            dcells = [0] * 10
            buddies = [0] * 10
            blo = [0] * 10
            bhi = [0] * 10
            seen = 0
            for d in DIGITS_IN[m]:
                dm = pm & dloc[d]
                plo = 0
                phi = 0
                slo = LOW_HALF
                shi = HIGH_HALF
                t = dm
                while t:
                    low = t & -t
                    t ^= low
                    c = house[low.bit_length() - 1]
                    if c < HALF_BITS:
                        plo |= 1 << c
                    else:
                        phi |= 1 << (c - HALF_BITS)
                    slo &= peer_lo[c]
                    shi &= peer_hi[c]
                dcells[d] = plo | phi << HALF_BITS
                slo &= dlo[d]
                shi &= dhi[d]
                blo[d] = slo
                bhi[d] = shi
                if slo or shi:
                    buddies[d] = slo | shi << HALF_BITS
                    seen |= 1 << (d - 1)
                pats[i * 9 + d - 1] = base | dm
                by_digit[d].append(i_box)
            seen_masks.append(seen)
            found.append(
                Als(
                    lo | hi << HALF_BITS,
                    tuple(cells),
                    m,
                    h,
                    tuple(dcells),
                    tuple(buddies),
                    lo,
                    hi,
                    tuple(blo),
                    tuple(bhi),
                )
            )
    return found


def make_als(
    bits: int, mask: int, house: int, digit_bits: tuple[int, ...], seen_memo: dict[int, int]
) -> Als:
    """The ALS of the cells ``bits`` (81-bit set) of ``house`` with the digits ``mask``
    (without the halves of ``als_index``'s sets); ``seen_memo`` caches common peers."""
    dcells = [0] * 10
    buddies = [0] * 10
    for d in DIGITS_IN[mask]:
        dc = bits & digit_bits[d]
        dcells[d] = dc
        seen = seen_memo.get(dc)
        if seen is None:
            seen = seen_memo[dc] = common_peers(dc)
        buddies[d] = seen & digit_bits[d] & ~bits
    return Als(bits, tuple(cells_of_bits(bits)), mask, house, tuple(dcells), tuple(buddies))


def small_alses(grid: Grid, max_cells: int) -> tuple[Als, ...]:
    """The ALS of 2..``max_cells`` cells of the grid (those a chain can use), house by
    house, without the halves of ``als_index``'s sets."""
    cands = grid.candidates
    popcount = POPCOUNT  # (a local: faster)
    digit_bits = tuple(digit_patterns(grid))
    found: dict[int, Als] = {}
    seen_memo: dict[int, int] = {}
    for h, house in enumerate(HOUSES):
        empty = [c for c in house if cands[c]]
        n = len(empty)
        top = min(max_cells, n - 1)
        # pairs and triples (as ``combinations`` orders them), a pair whose digits are
        # already too many for a triple left out
        if top >= 2:
            for i in range(n):
                mi = cands[empty[i]]
                for j in range(i + 1, n):
                    mask = mi | cands[empty[j]]
                    if popcount[mask] == 3:
                        bits = 1 << empty[i] | 1 << empty[j]
                        if bits not in found:
                            found[bits] = make_als(bits, mask, h, digit_bits, seen_memo)
        if top >= 3:
            for i in range(n):
                mi = cands[empty[i]]
                for j in range(i + 1, n):
                    mij = mi | cands[empty[j]]
                    if popcount[mij] > 4:
                        continue
                    for k in range(j + 1, n):
                        mask = mij | cands[empty[k]]
                        if popcount[mask] == 4:
                            bits = 1 << empty[i] | 1 << empty[j] | 1 << empty[k]
                            if bits not in found:
                                found[bits] = make_als(bits, mask, h, digit_bits, seen_memo)
        for size in range(4, top + 1):
            for combo in combinations(empty, size):
                mask = 0
                for c in combo:
                    mask |= cands[c]
                if popcount[mask] != size + 1:
                    continue
                bits = sum(1 << c for c in combo)
                if bits not in found:
                    found[bits] = make_als(bits, mask, h, digit_bits, seen_memo)
    return tuple(found.values())


@last_state
def als_index(grid: Grid) -> AlsIndex:
    """The ALS and restricted commons of ``grid``'s state (cached for the last state)."""
    digit_bits = tuple(digit_patterns(grid))
    pats: list[int] = []
    by_digit: list[list[object]] = [[] for _ in range(10)]
    seen_masks: list[int] = []
    alses = _collect_alses(grid, digit_bits, pats, by_digit, seen_masks)
    count = len(alses)
    # Whether d is an RC depends only on the two sets' d-cells: group the ALS by them
    # (their house and house cells: a cell set in two houses makes two groups, which
    # changes no result) and test each pair of groups once instead of every pair of
    # ALS. hits: the candidate RCs d of sets i < j (see the module's docstring).
    hits: list[int] = []
    # per pattern: its last ALS, then through ``after`` (None: no more), as the boxed
    # ints of by_digit (no int boxed anew)
    head: list[object] = [None] * PATTERNS
    after: list[object] = [None] * count
    for d in range(1, 10):
        members = by_digit[d]
        if not members:
            continue
        # per pattern (in order met): its index, its cells and the cells with d seeing
        # all of them, in halves
        patterns: list[int] = []
        pattern_lo: list[int] = []
        pattern_hi: list[int] = []
        seeing_lo: list[int] = []
        seeing_hi: list[int] = []
        # per cell: the patterns whose lowest cell it is (through ``next_pattern``)
        by_low = [-1] * 81
        next_pattern: list[int] = []
        for i_box in members:
            i = cast(int, i_box)
            p = pats[i * 9 + d - 1]
            last = head[p]
            if last is None:
                a = alses[i]
                dc = a.dcells[d]
                plo = dc & LOW_HALF
                phi = dc >> HALF_BITS
                c = (
                    (plo & -plo).bit_length() - 1
                    if plo
                    else HALF_BITS + (phi & -phi).bit_length() - 1
                )
                next_pattern.append(by_low[c])
                by_low[c] = len(patterns)
                patterns.append(p)
                pattern_lo.append(plo)
                pattern_hi.append(phi)
                seeing_lo.append(a.blo[d])
                seeing_hi.append(a.bhi[d])
            after[i] = last
            head[p] = i_box
        for a_at in range(len(patterns)):
            p = patterns[a_at]
            slo = seeing_lo[a_at]
            shi = seeing_hi[a_at]
            half = 0
            while half < 2:
                rest = slo if half == 0 else shi
                offset = 0 if half == 0 else HALF_BITS
                half += 1
                while rest:
                    low = rest & -rest
                    rest ^= low
                    b = by_low[low.bit_length() - 1 + offset]
                    while b >= 0:
                        q = patterns[b]
                        q_lo = pattern_lo[b]
                        q_hi = pattern_hi[b]
                        b = next_pattern[b]
                        if q_lo & ~slo or q_hi & ~shi:
                            continue
                        i_at = head[p]
                        while i_at is not None:
                            i = cast(int, i_at)
                            j_at = head[q]
                            while j_at is not None:
                                j = cast(int, j_at)
                                if i < j:
                                    hits.append((i << PAIR_FIRST_SHIFT | j) << HIT_PAIR_SHIFT | d)
                                j_at = after[j]
                            i_at = after[i]
        for p in patterns:
            head[p] = None
    hits.sort()
    # (lists of objects: a boxed int goes into two lists as it is; read as lists of ints)
    links: list[list[object]] = [[] for _ in range(count)]
    overlap_links: list[list[object]] = [[] for _ in range(count)]
    n = len(hits)
    k = 0
    while k < n:
        pair = hits[k] >> HIT_PAIR_SHIFT
        rc = 0
        while k < n and hits[k] >> HIT_PAIR_SHIFT == pair:
            rc |= 1 << ((hits[k] & HIT_DIGIT) - 1)
            k += 1
        i = pair >> PAIR_FIRST_SHIFT
        j = pair & PAIR_SECOND
        one, two = alses[i], alses[j]
        if one.lo & two.lo or one.hi & two.hi:
            # an RC digit may not lie in the overlap (it would be in both sets)
            shared = one.bits & two.bits
            for d in DIGITS_IN[rc]:
                if (one.dcells[d] | two.dcells[d]) & shared:
                    rc &= ~(1 << (d - 1))
            if rc:
                overlap_links[i].append(j << LINK_SET_SHIFT | rc)
                overlap_links[j].append(i << LINK_SET_SHIFT | rc)
        else:
            to_j: object = j << LINK_SET_SHIFT | rc  # boxed once for both lists
            to_i: object = i << LINK_SET_SHIFT | rc
            links[i].append(to_j)
            links[j].append(to_i)
            overlap_links[i].append(to_j)
            overlap_links[j].append(to_i)
    masks = [a.mask for a in alses]
    return AlsIndex(
        tuple(alses),
        cast(list[list[int]], links),
        cast(list[list[int]], overlap_links),
        digit_bits,
        masks,
        seen_masks,
    )


def common_elims(a: Als, b: Als, digits: int) -> set[tuple[int, int]]:
    """Digits of ``digits`` leave cells seeing every such digit of both ALS."""
    out: set[tuple[int, int]] = set()
    for z in DIGITS_IN[digits]:
        for c in cells_of_bits(a.buddies[z] & b.buddies[z]):
            out.add((c, z))
    return out


def sees_common(a: Als, b: Als, digits: int) -> bool:
    """Whether ``common_elims(a, b, digits)`` is not empty (on the halves: no sets)."""
    alo, ahi, blo, bhi = a.blo, a.bhi, b.blo, b.bhi
    return any(alo[z] & blo[z] or ahi[z] & bhi[z] for z in DIGITS_IN[digits])
