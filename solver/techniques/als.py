"""Almost locked sets: ALS-XZ, ALS-XY-Wing, ALS-Chain and Death Blossom.

An almost locked set (ALS) is ``n`` cells of one house holding ``n + 1`` digits: remove
any one digit and the rest is locked. A digit ``x`` is a restricted common (RC) of two
ALS that do not overlap when every ``x`` of one sees every ``x`` of the other: ``x`` can
then be true in at most one of them, so the other one is locked.

The ALS of a grid and the RCs between them are collected once per pencil-mark state
(bitmasks: an 81-bit cell set, a digit mask and per-digit cell sets) and cached, since
the four finders run one after the other on the same state. Eliminations follow
HoDoKu's ``AlsSolver``: one instance per ALS pair / triple / chain / blossom, with all of
its eliminations.

Evidence of every ALS step: ``cells`` all cells of the sets involved, ``houses`` the house
of each set, ``chain`` one node ``(set cells, digit, on)`` per digit of each set, in order,
and ``on`` says the digit links the set to the next one (see ``als_groups``), ``digits``
the restricted commons.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Final, cast

from ..grid import (
    ALL_CELLS,
    DIGITS_IN,
    HALF_BITS,
    HIGH_HALF,
    HOUSES,
    LOW_HALF,
    PEER_HI,
    PEER_LO,
    POPCOUNT,
    Grid,
    cell_name,
    cells_of_bits,
    common_peers,
)
from ..steps import ChainNode, Step, cells_text, eliminations_text
from .statecache import digit_patterns, last_state

MAX_ALS_CELLS: Final = 8  # HoDoKu's bound: an ALS of 9 cells would be a whole house
MAX_CHAIN_ALS: Final = 8  # ALS in one chain (4..8): HoDoKu's library needs 8
BLOSSOM_BUDGET: Final = 20000  # petal combinations tried per search


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
    # links[i]: j << 9 | rc mask for every ALS j that does not overlap i and shares an
    # RC, j ascending
    links: list[list[int]]
    # overlap_links: the same, also for overlapping ALS (the RC digits outside the overlap)
    overlap_links: list[list[int]]
    digit_bits: tuple[int, ...]  # digit_bits[d]: cells with candidate d
    masks: list[int]  # masks[i]: the digits of ALS i
    seen_masks: list[int]  # seen_masks[i]: its digits with buddies (cells seeing all of them)


_PATTERNS: Final = 27 * 512
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
    first). ``pats[i * 9 + d - 1]`` gets the index (house * 512 + house cells mask) of
    ALS i's d-cells (-1: no d), ``by_digit[d]`` the ALS holding d (boxed ints, one box
    per set) and ``seen_masks[i]`` the digits of ALS i with buddies.

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
        # per empty cell of the house (in house order): (its digits << 9 | its house
        # bit) << 4, so that a subset's entry (digits << 9 | house cells) << 4 | size
        # is the previous one's OR it, plus one
        add: list[int] = []
        for d in range(10):
            dloc[d] = 0
        for k in range(9):
            c = house[k]
            if not values[c]:
                m = cands[c]
                add.append((m << 9 | 1 << k) << 4)
                for d in DIGITS_IN[m]:
                    dloc[d] |= 1 << k
        n = len(add)
        if n < 2:
            continue
        base = h * 512
        kind = h // 9  # row, column, box
        entry = [0] * (1 << n)
        for s in range(1, 1 << n):
            r = s & (s - 1)
            v = (entry[r] | add[(s ^ r).bit_length() - 1]) + 1
            entry[s] = v
            m = v >> 13
            k = v & 15
            if popcount[m] != k + 1 or k > MAX_ALS_CELLS:
                continue
            pm = v >> 4 & 0x1FF
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
                pats[i * 9 + d - 1] = base + dm
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
    # ALS. hits: (i << 14 | j) << 4 | d for i < j (at most 27 * 512 sets: 14 bits).
    hits: list[int] = []
    # per pattern: its last ALS, then through ``after`` (None: no more), as the boxed
    # ints of by_digit (no int boxed anew)
    head: list[object] = [None] * _PATTERNS
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
                                    hits.append((i << 14 | j) << 4 | d)
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
        pair = hits[k] >> 4
        rc = 0
        while k < n and hits[k] >> 4 == pair:
            rc |= 1 << ((hits[k] & 15) - 1)
            k += 1
        i = pair >> 14
        j = pair & 0x3FFF
        one, two = alses[i], alses[j]
        if one.lo & two.lo or one.hi & two.hi:
            # an RC digit may not lie in the overlap (it would be in both sets)
            shared = one.bits & two.bits
            for d in DIGITS_IN[rc]:
                if (one.dcells[d] | two.dcells[d]) & shared:
                    rc &= ~(1 << (d - 1))
            if rc:
                overlap_links[i].append(j << 9 | rc)
                overlap_links[j].append(i << 9 | rc)
        else:
            to_j: object = j << 9 | rc  # boxed once for both lists
            to_i: object = i << 9 | rc
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


def _common_elims(a: Als, b: Als, digits: int) -> set[tuple[int, int]]:
    """Digits of ``digits`` leave cells seeing every such digit of both ALS."""
    out: set[tuple[int, int]] = set()
    for z in DIGITS_IN[digits]:
        for c in cells_of_bits(a.buddies[z] & b.buddies[z]):
            out.add((c, z))
    return out


def _sees_common(a: Als, b: Als, digits: int) -> bool:
    """Whether ``_common_elims(a, b, digits)`` is not empty (on the halves: no sets)."""
    alo, ahi, blo, bhi = a.blo, a.bhi, b.blo, b.bhi
    return any(alo[z] & blo[z] or ahi[z] & bhi[z] for z in DIGITS_IN[digits])


def _new(reported: set[frozenset[tuple[int, int]]], elims: set[tuple[int, int]]) -> bool:
    """True the first time a set of eliminations is seen (one instance per result)."""
    key = frozenset(elims)
    if key in reported:
        return False
    reported.add(key)
    return True


def _nodes(alses: list[Als], links: list[int]) -> tuple[ChainNode, ...]:
    """One node per digit of each set, ``on`` for the digits linking it to the next set."""
    return tuple(
        (a.cells, d, bool(link >> (d - 1) & 1))
        for a, link in zip(alses, links, strict=True)
        for d in DIGITS_IN[a.mask]
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


def _set_text(cells: tuple[int, ...], digits: tuple[int, ...]) -> str:
    return f"{cells_text(cells)} {{{''.join(map(str, digits))}}}"


def _als_step(
    tech: str, alses: list[Als], links: list[int], rc_mask: int, elims: set[tuple[int, int]]
) -> Step:
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


def find_als_xz(grid: Grid) -> Iterator[Step]:
    """Two ALS A and B with a restricted common x: one of them is locked, so a digit z
    common to both is in A or in B and leaves cells seeing all of its cells in both.
    Doubly linked (two RCs): both ALS are locked without the RCs, so their other digits
    leave every cell seeing all of them, and each RC leaves cells seeing it in both."""
    index = als_index(grid)
    reported: set[frozenset[tuple[int, int]]] = set()
    for i in range(len(index.alses)):
        yield from _xz_from(index, i, reported)


def _xz_from(index: AlsIndex, i: int, reported: set[frozenset[tuple[int, int]]]) -> list[Step]:
    """The ALS-XZ of set ``i`` with the sets after it (a plain function: C locals)."""
    alses = index.alses
    found: list[Step] = []
    a = alses[i]
    for link in index.links[i]:
        j = link >> 9
        if j < i:
            continue
        rc = link & 0x1FF
        b = alses[j]
        common = a.mask & b.mask
        if POPCOUNT[rc] != 2:
            sees = False
            for z in DIGITS_IN[common]:
                if rc & ~(1 << (z - 1)) and (a.blo[z] & b.blo[z] or a.bhi[z] & b.bhi[z]):
                    sees = True
                    break
            if not sees:
                continue  # no cell sees a common digit (but the RC) in both sets
        elims: set[tuple[int, int]] = set()
        for x in DIGITS_IN[rc]:
            elims |= _common_elims(a, b, common & ~(1 << (x - 1)))
        if POPCOUNT[rc] == 2:
            for own, other in ((a, b), (b, a)):
                for d in DIGITS_IN[own.mask & ~rc]:
                    for c in cells_of_bits(own.buddies[d] & ~other.bits):
                        elims.add((c, d))
        if elims and _new(reported, elims):
            found.append(_als_step("als-xz", [a, b], [rc, 0], rc, elims))
    return found


def describe_als_xz(step: Step) -> str:
    (a, da, _), (b, db, _) = als_groups(step)
    rcs = step.digits
    if len(rcs) == 2:
        why = (
            f"{rcs[0]} and {rcs[1]} are both restricted commons (each can be in only one "
            "set), so each set gets exactly one of them and the rest of both sets is locked"
        )
    else:
        zs = "/".join(map(str, sorted({d for _, d in step.eliminations})))
        why = (
            f"{rcs[0]} is a restricted common (it can be in only one of them), so the other "
            f"set is locked and {zs}, found in both, must be in one of the two"
        )
    return (
        f"ALS-XZ: {_set_text(a, da)} and {_set_text(b, db)} are almost locked sets; "
        f"{why}: {eliminations_text(step.eliminations)}"
    )


def find_als_xy_wing(grid: Grid) -> Iterator[Step]:
    """ALS A and B each joined to a pivot ALS C by a restricted common (x with A, y with
    B, not both the same single digit): C holds x or y, so A or B is locked and a digit z
    common to A and B (not an RC) leaves cells seeing all of its cells in both."""
    index = als_index(grid)
    reported: set[frozenset[tuple[int, int]]] = set()
    for k in range(len(index.alses)):
        yield from _xy_wings(index, k, reported)


def _xy_wings(index: AlsIndex, k: int, reported: set[frozenset[tuple[int, int]]]) -> list[Step]:
    """The ALS-XY-Wings with pivot set ``k`` (a plain function: C locals)."""
    alses, seen_masks = index.alses, index.seen_masks
    links = index.overlap_links[k]
    c = alses[k]
    found: list[Step] = []
    # per link: the digits of its set, but the RC, with buddies: a wing's eliminations
    # are among the digits both ends have here
    sees = [seen_masks[link >> 9] & ~link & 0x1FF for link in links]
    for n in range(len(links)):
        sn = sees[n]
        if not sn:
            continue
        i = links[n] >> 9
        rc1 = links[n] & 0x1FF
        a = alses[i]
        for m in range(n + 1, len(links)):
            both = sn & sees[m]
            if not both:
                continue  # no eliminations
            j = links[m] >> 9
            rc2 = links[m] & 0x1FF
            if rc1 == rc2 and POPCOUNT[rc1] == 1:
                continue  # C may hold neither: it can miss the one digit
            b = alses[j]
            if not (b.lo & ~a.lo or b.hi & ~a.hi) or not (a.lo & ~b.lo or a.hi & ~b.hi):
                continue  # the sets may overlap, but neither may contain the other
            if not _sees_common(a, b, both):
                continue  # no eliminations
            zs = a.mask & b.mask & ~rc1 & ~rc2
            elims = _common_elims(a, b, zs)
            if elims and _new(reported, elims):
                found.append(_als_step("als-xy-wing", [a, c, b], [rc1, rc2, 0], rc1 | rc2, elims))
    return found


def describe_als_xy_wing(step: Step) -> str:
    (a, da, x), (c, dc, y), (b, db, _) = als_groups(step)
    zs = sorted({d for _, d in step.eliminations})
    return (
        f"ALS-XY-Wing: pivot set {_set_text(c, dc)} shares the restricted common "
        f"{'/'.join(map(str, x))} with {_set_text(a, da)} and {'/'.join(map(str, y))} with "
        f"{_set_text(b, db)}; the pivot holds one of them, so one outer set is locked and "
        f"{'/'.join(map(str, zs))} is in one of the outer sets: "
        f"{eliminations_text(step.eliminations)}"
    )


def find_als_chain(grid: Grid) -> Iterator[Step]:
    """A chain of 4+ ALS, each joined to the next by a restricted common that differs
    from the one before: if the first set lacks z it is locked, so is every next set, and
    the last holds z. A digit z common to both ends (not the end RCs) leaves cells seeing
    all of its cells in both ends.

    Breadth first from every set over states (set, RC just used, first RC, length up to
    4): the eliminations depend only on the ends and their RCs, so every result is found
    by a shortest chain, in time bounded by the number of states rather than of paths.
    """
    search = _ChainSearch(als_index(grid))
    for start in range(len(search.alses)):
        yield from search.from_start(start)


class _ChainSearch:
    """The ALS-Chain search of one state, one start set at a time (a plain method: its
    locals are C locals, where a generator keeps them in its frame object)."""

    def __init__(self, index: AlsIndex) -> None:
        alses = self.alses = index.alses
        count = self.count = len(alses)
        self.packed = index.links  # per set, its links as next set << 9 | RC mask
        self.set_masks = index.masks
        self.seen_masks = index.seen_masks
        # A state is one int, its flag: (actual id * count + set) << 5 | (min(sets so
        # far, 4) - 2) * 9 + first RC digit - 1, where an RC mask gets a small id when
        # first met (most are one digit). parent[flag]: None unseen, ``_ROOT`` a first
        # link, else the (boxed) flag it was reached from, the very object of the
        # frontier: no int is boxed twice. Reset after each start through the frontiers.
        # (Ints kept in lists stay below 2 ** 30: one digit, quick to unbox.)
        self.mask_id = [-1] * 512
        self.id_mask: list[int] = []
        self.parent: list[object] = []
        # moves[actual id * count + set]: from the set reached by that RC, its next links
        # (the RC used next must differ) as (next actual id * count + next set) << 14 |
        # next set: the same for every start, first RC and length (``_UNSET``: not yet
        # listed)
        self.moves: list[list[int]] = []
        # seeing[end]: the digits z of the start and ``end`` with a cell seeing every z
        # of both, known where seeing_for[end] is the start
        self.seeing = [0] * count
        self.seeing_for = [-1] * count
        self.reported: set[frozenset[tuple[int, int]]] = set()

    def from_start(self, start: int) -> list[Step]:
        """The chains from ``start``, in the order found."""
        alses, count, packed, set_masks = self.alses, self.count, self.packed, self.set_masks
        mask_id, id_mask, parent, moves = self.mask_id, self.id_mask, self.parent, self.moves
        seeing, seeing_for, seen_masks = self.seeing, self.seeing_for, self.seen_masks
        root = _ROOT
        found: list[Step] = []
        first = alses[start]
        first_seen = seen_masks[start]
        if not first_seen:
            return found  # nothing outside the first set sees any of its digits
        first_mask = first.mask
        frontier: list[object] = []
        for link in packed[start]:
            nxt = link >> 9
            for x in DIGITS_IN[link & 0x1FF]:
                bit = 1 << (x - 1)
                aid = mask_id[bit]
                if aid < 0:
                    aid = _new_mask_id(bit, count, mask_id, id_mask, parent, moves)
                flag = (aid * count + nxt) << 5 | (x - 1)
                if parent[flag] is None:
                    parent[flag] = root
                    first_box: object = flag
                    frontier.append(first_box)
        levels = [frontier]
        shown: set[int] = set()  # (end set, z digits) already reported from this start
        length = 2
        while frontier and length < MAX_CHAIN_ALS:
            offset = (min(length, 4) - 2) * 9  # of the frontier's flags
            length += 1
            short = length < 4
            next_offset = (min(length, 4) - 2) * 9
            nxt_frontier: list[object] = []
            for box in frontier:
                state = cast(int, box)
                node = state >> 5
                first_digit = (state & 31) - offset  # the first RC's digit - 1
                x1 = 1 << first_digit
                flag_tail = next_offset + first_digit
                at = moves[node]
                if at is _UNSET:
                    at = _moves(node, count, packed, mask_id, id_mask, parent, moves)
                for move in at:
                    nxt = move & 0x3FFF
                    if nxt == start:
                        continue
                    target = move >> 14
                    flag = target << 5 | flag_tail
                    if parent[flag] is not None:
                        continue
                    parent[flag] = box
                    new_box: object = flag
                    nxt_frontier.append(new_box)
                    if short:
                        continue
                    actual = id_mask[target // count]
                    zs = first_mask & set_masks[nxt] & ~x1 & ~actual
                    if not zs & first_seen:
                        continue
                    if seeing_for[nxt] == start:
                        sees = seeing[nxt]
                    else:
                        sees = 0
                        end = alses[nxt]
                        for z in DIGITS_IN[first_seen & seen_masks[nxt]]:
                            if first.blo[z] & end.blo[z] or first.bhi[z] & end.bhi[z]:
                                sees |= 1 << (z - 1)
                        seeing[nxt] = sees
                        seeing_for[nxt] = start
                    if not zs & sees or (nxt << 9 | zs) in shown:
                        continue  # the eliminations depend only on the ends and zs
                    states = _chain_states(parent, flag, root)
                    path = [start, *((st >> 5) % count for st in states)]
                    if len(set(path)) < len(path):
                        continue  # a set used twice is no chain to show
                    shown.add(nxt << 9 | zs)
                    end = alses[nxt]
                    elims = _common_elims(first, end, zs)
                    if not _new(self.reported, elims):
                        continue
                    rcs = [id_mask[(st >> 5) // count] for st in states]
                    chain = [alses[i] for i in path]
                    found.append(_als_step("als-chain", chain, [*rcs, 0], _or(rcs), elims))
            frontier = nxt_frontier
            levels.append(frontier)
        for level in levels:
            for box in level:
                parent[cast(int, box)] = None
        return found


_UNSET: Final[list[int]] = []
_ROOT: Final = object()


def _new_mask_id(
    rc: int,
    count: int,
    mask_id: list[int],
    id_mask: list[int],
    parent: list[object],
    moves: list[list[int]],
) -> int:
    """Give the RC mask ``rc`` the next id and make room for its states."""
    aid = mask_id[rc] = len(id_mask)
    id_mask.append(rc)
    parent.extend([None] * (count * 32))
    moves.extend([_UNSET] * count)
    return aid


def _moves(
    node: int,
    count: int,
    packed: list[list[int]],
    mask_id: list[int],
    id_mask: list[int],
    parent: list[object],
    moves: list[list[int]],
) -> list[int]:
    """The next links from set ``node % count`` reached by RC id ``node // count``."""
    here = node % count
    last = id_mask[node // count]
    out: list[int] = []
    for link in packed[here]:
        actual = link & 0x1FF & ~last  # the RC used next must differ from the last
        if not actual:
            continue
        nxt = link >> 9
        aid = mask_id[actual]
        if aid < 0:
            aid = _new_mask_id(actual, count, mask_id, id_mask, parent, moves)
        out.append((aid * count + nxt) << 14 | nxt)
    moves[node] = out
    return out


def _chain_states(parent: list[object], flag: int, root: object) -> list[int]:
    """The search states (flags) of the chain ending in ``flag``, from the start."""
    out = [flag]
    up = parent[flag]
    while up is not root:
        flag = cast(int, up)
        out.append(flag)
        up = parent[flag]
    return out[::-1]


def _or(masks: list[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out


def describe_als_chain(step: Step) -> str:
    groups = als_groups(step)
    links = [g[2] for g in groups[:-1]]
    parts = []
    for n, (cells, digits, _) in enumerate(groups):
        parts.append(_set_text(cells, digits))
        if n < len(links):
            parts.append(f"-{'/'.join(map(str, links[n]))}-")
    zs = sorted({d for _, d in step.eliminations})
    return (
        f"ALS-Chain: {' '.join(parts)} (sets joined by restricted commons); a first set "
        f"without one of {'/'.join(map(str, zs))} is locked, and so, link by link, is every "
        f"set down the chain, so each of them is in the first or the last set: "
        f"{eliminations_text(step.eliminations)}"
    )


def find_death_blossom(grid: Grid) -> Iterator[Step]:
    """A stem cell whose every candidate d has a petal: an ALS holding d whose every d
    sees the stem. Whatever the stem holds, one petal is locked, so a digit z common to
    all petals (not a stem candidate) leaves cells seeing every z of every petal.

    Evidence: ``extra=(stem,)``; the petals in ``chain`` in the order of the stem digits,
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
        per_digit = [petals_of[d * 81 + stem] for d in digits]
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
                if elims and _new(reported, elims):
                    petal_sets = [alses[i] for i in chosen]
                    step = _als_step(
                        "death-blossom", petal_sets, [1 << (d - 1) for d in digits], 0, elims
                    )
                    yield Step(
                        step.technique,
                        eliminations=step.eliminations,
                        cells=(stem, *step.cells),
                        houses=step.houses,
                        digits=digits,
                        extra=(stem,),
                        chain=step.chain,
                    )
            if budget[0] <= 0:
                return


def _petal_digits(per_digit: list[list[int]], seen_masks: list[int], stem_mask: int) -> int:
    """The digits z (not stem candidates) that every stem digit has a petal holding, with
    buddies (z can leave cells only then)."""
    out = 0x1FF & ~stem_mask
    for ps in per_digit:
        union = 0
        for i in ps:
            union |= seen_masks[i]
        out &= union
    return out


def _petals(alses: tuple[Als, ...]) -> list[list[int]]:
    """petals_of[d * 81 + cell]: the ALS holding d whose every d the cell sees."""
    petals_of: list[list[int]] = [_NO_PETALS] * 810
    for i, a in enumerate(alses):
        for d in DIGITS_IN[a.mask]:
            half = 0
            while half < 2:
                rest = a.blo[d] if half == 0 else a.bhi[d]
                at = d * 81 + (0 if half == 0 else HALF_BITS)
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
    common = 0x1FF
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


def describe_death_blossom(step: Step) -> str:
    stem = step.extra[0]
    petals = "; ".join(
        f"{d}: {_set_text(cells, digits)}"
        for (cells, digits, _), d in zip(als_groups(step), step.digits, strict=True)
    )
    zs = sorted({d for _, d in step.eliminations})
    return (
        f"Death Blossom: stem {cell_name(stem)} {{{''.join(map(str, step.digits))}}} with "
        f"one petal per candidate ({petals}); whatever the stem holds, that petal loses the "
        f"digit and is locked, so {'/'.join(map(str, zs))} is in one of the petals: "
        f"{eliminations_text(step.eliminations)}"
    )
