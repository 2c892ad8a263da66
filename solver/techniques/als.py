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
from typing import Final

from ..grid import (
    ALL_CELLS,
    DIGITS_IN,
    HOUSES,
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


@dataclass(frozen=True, slots=True)
class Als:
    """One almost locked set: cells (81-bit set and tuple), digits and per-digit sets."""

    bits: int
    cells: tuple[int, ...]
    mask: int
    house: int
    # dcells[d]: the ALS cells holding d; buddies[d]: the cells outside the ALS that hold
    # d and see every d of the ALS (d is false there if the ALS holds it).
    dcells: tuple[int, ...]
    buddies: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class AlsIndex:
    """Every ALS of a state, the restricted commons between them and per-digit cell sets."""

    alses: tuple[Als, ...]
    # links[i]: (j, rc mask) for every ALS j that does not overlap i and shares an RC.
    links: tuple[tuple[tuple[int, int], ...], ...]
    # overlap_links: the same, also for overlapping ALS (the RC digits outside the overlap)
    overlap_links: tuple[tuple[tuple[int, int], ...], ...]
    digit_bits: tuple[int, ...]  # digit_bits[d]: cells with candidate d


# Subsets s of up to 9 house cells by index bitmask: the lowest index, s without it, |s|.
_LOW: Final = tuple((s & -s).bit_length() - 1 for s in range(512))
_REST: Final = tuple(s & (s - 1) for s in range(512))
_SIZE: Final = tuple(bin(s).count("1") for s in range(512))


def _collect_alses(grid: Grid, digit_bits: tuple[int, ...]) -> list[Als]:
    cands, values = grid.candidates, grid.values
    found: dict[int, Als] = {}
    seen_memo: dict[int, int] = {}
    low_, rest_, size_, popcount = _LOW, _REST, _SIZE, POPCOUNT
    for h, house in enumerate(HOUSES):
        empty = [c for c in house if not values[c]]
        n = len(empty)
        if n < 2:
            continue
        cm = [cands[c] for c in empty]
        masks = [0] * (1 << n)
        for s in range(1, 1 << n):
            m = masks[rest_[s]] | cm[low_[s]]
            masks[s] = m
            k = size_[s]
            if popcount[m] == k + 1 and k <= MAX_ALS_CELLS:
                bits = 0
                t = s
                while t:
                    bits |= 1 << empty[low_[t]]
                    t = rest_[t]
                if bits not in found:
                    found[bits] = make_als(bits, m, h, digit_bits, seen_memo)
    return list(found.values())


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
    alses = _collect_alses(grid, digit_bits)
    # Whether d is an RC depends only on the two sets' d-cells: group the ALS by them and
    # test each pair of groups once instead of every pair of ALS.
    # i << 16 | j (i < j; at most 27 * 512 sets, so j fits 16 bits) -> RC digit mask
    rc_of: dict[int, int] = {}
    seen_memo: dict[int, int] = {}
    for d in range(1, 10):
        groups: dict[int, list[int]] = {}
        for i, a in enumerate(alses):
            dc = a.dcells[d]
            if dc:
                groups.setdefault(dc, []).append(i)
        dbit = 1 << (d - 1)
        by_low: dict[int, list[tuple[int, list[int]]]] = {}
        for s2, l2 in groups.items():
            by_low.setdefault((s2 & -s2).bit_length() - 1, []).append((s2, l2))
        for s1, l1 in groups.items():
            seen = seen_memo.get(s1)
            if seen is None:
                seen = seen_memo[s1] = common_peers(s1)
            seen &= digit_bits[d]
            for c in cells_of_bits(seen):
                for s2, l2 in by_low.get(c, ()):
                    if s2 & ~seen:
                        continue
                    for i in l1:
                        for j in l2:
                            if i < j:
                                key = i << 16 | j
                                rc_of[key] = rc_of.get(key, 0) | dbit
    links: list[list[tuple[int, int]]] = [[] for _ in alses]
    overlap_links: list[list[tuple[int, int]]] = [[] for _ in alses]
    for key, rc in sorted(rc_of.items()):
        i, j = key >> 16, key & 0xFFFF
        a, b = alses[i], alses[j]
        shared = a.bits & b.bits
        if shared:
            # an RC digit may not lie in the overlap (it would be in both sets)
            for d in DIGITS_IN[rc]:
                if (a.dcells[d] | b.dcells[d]) & shared:
                    rc &= ~(1 << (d - 1))
            if rc:
                overlap_links[i].append((j, rc))
                overlap_links[j].append((i, rc))
        else:
            links[i].append((j, rc))
            links[j].append((i, rc))
            overlap_links[i].append((j, rc))
            overlap_links[j].append((i, rc))
    index = AlsIndex(
        tuple(alses),
        tuple(tuple(x) for x in links),
        tuple(tuple(x) for x in overlap_links),
        digit_bits,
    )
    return index


def _common_elims(a: Als, b: Als, digits: int) -> set[tuple[int, int]]:
    """Digits of ``digits`` leave cells seeing every such digit of both ALS."""
    out: set[tuple[int, int]] = set()
    for z in DIGITS_IN[digits]:
        for c in cells_of_bits(a.buddies[z] & b.buddies[z]):
            out.add((c, z))
    return out


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
    alses = index.alses
    reported: set[frozenset[tuple[int, int]]] = set()
    for i, links in enumerate(index.links):
        a = alses[i]
        for j, rc in links:
            if j < i:
                continue
            b = alses[j]
            common = a.mask & b.mask
            if POPCOUNT[rc] != 2 and not any(
                a.buddies[z] & b.buddies[z] and rc & ~(1 << (z - 1)) for z in DIGITS_IN[common]
            ):
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
                yield _als_step("als-xz", [a, b], [rc, 0], rc, elims)


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
    alses = index.alses
    reported: set[frozenset[tuple[int, int]]] = set()
    for k, links in enumerate(index.overlap_links):
        c = alses[k]
        for n, (i, rc1) in enumerate(links):
            a = alses[i]
            for j, rc2 in links[n + 1 :]:
                if rc1 == rc2 and POPCOUNT[rc1] == 1:
                    continue  # C may hold neither: it can miss the one digit
                b = alses[j]
                union = a.bits | b.bits
                if union == a.bits or union == b.bits:
                    continue  # the sets may overlap, but neither may contain the other
                zs = a.mask & b.mask & ~rc1 & ~rc2
                if not zs:
                    continue
                elims = _common_elims(a, b, zs)
                if elims and _new(reported, elims):
                    yield _als_step("als-xy-wing", [a, c, b], [rc1, rc2, 0], rc1 | rc2, elims)


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
    index = als_index(grid)
    alses = index.alses
    count = len(alses)
    # per set, its links packed as next set << 9 | RC mask (no tuple to unpack per link)
    packed = [[j << 9 | rc for j, rc in out] for out in index.links]
    # States seen from the current start, as flags in a flat list instead of a dict of
    # boxed ints: index ((actual id * count + set) * 9 + first RC digit) * 3 + length - 2,
    # where an RC mask gets a small id when first met (most are one digit); reset after
    # each start through ``touched``.
    mask_id = [-1] * 512
    masks = 0
    seen: list[bool] = []
    touched: list[int] = []
    reported: set[frozenset[tuple[int, int]]] = set()
    for start in range(count):
        first = alses[start]
        if not any(first.buddies[z] for z in DIGITS_IN[first.mask]):
            continue  # nothing outside the first set sees any of its digits
        # state: (set, RC mask just used, first RC mask, min(sets so far, 4)) packed in an
        # int (see _state); parent: the state it was reached from, -1 for the first link
        parent: dict[int, int] = {}
        frontier: list[int] = []
        for link in packed[start]:
            nxt = link >> 9
            for x in DIGITS_IN[link & 0x1FF]:
                bit = 1 << (x - 1)
                if mask_id[bit] < 0:
                    mask_id[bit] = masks
                    masks += 1
                    seen.extend([False] * (count * 27))
                flag = ((mask_id[bit] * count + nxt) * 9 + x - 1) * 3
                if not seen[flag]:
                    seen[flag] = True
                    touched.append(flag)
                    state = _state(nxt, bit, bit, 2)
                    parent[state] = -1
                    frontier.append(state)
        shown: set[int] = set()  # (end set, z digits) already reported from this start
        length = 2
        while frontier and length < MAX_CHAIN_ALS:
            length += 1
            nxt_frontier: list[int] = []
            for state in frontier:
                here, last, x1 = state >> 21, state >> 12 & 0x1FF, state >> 3 & 0x1FF
                tail = x1 << 3 | min(length, 4)  # _state's low bits, the same for every link
                flag_tail = (x1.bit_length() - 1) * 3 + min(length, 4) - 2
                for link in packed[here]:
                    actual = link & 0x1FF & ~last  # the RC used next must differ from the last
                    nxt = link >> 9
                    if not actual or nxt == start:
                        continue
                    aid = mask_id[actual]
                    if aid < 0:
                        aid = mask_id[actual] = masks
                        masks += 1
                        seen.extend([False] * (count * 27))
                    flag = (aid * count + nxt) * 27 + flag_tail
                    if seen[flag]:
                        continue
                    seen[flag] = True
                    touched.append(flag)
                    new = (nxt << 9 | actual) << 12 | tail
                    parent[new] = state
                    nxt_frontier.append(new)
                    if length < 4:
                        continue
                    end = alses[nxt]
                    zs = first.mask & end.mask & ~x1 & ~actual
                    if not zs or (nxt << 9 | zs) in shown:
                        continue  # the eliminations depend only on the ends and zs
                    if not any(first.buddies[z] & end.buddies[z] for z in DIGITS_IN[zs]):
                        continue
                    states = _chain_states(parent, new)
                    path = [start, *(st >> 21 for st in states)]
                    if len(set(path)) < len(path):
                        continue  # a set used twice is no chain to show
                    shown.add(nxt << 9 | zs)
                    elims = _common_elims(first, end, zs)
                    if not _new(reported, elims):
                        continue
                    rcs = [st >> 12 & 0x1FF for st in states]
                    chain = [alses[i] for i in path]
                    yield _als_step("als-chain", chain, [*rcs, 0], _or(rcs), elims)
            frontier = nxt_frontier
        for flag in touched:
            seen[flag] = False
        touched.clear()


def _state(als: int, rc: int, first_rc: int, sets: int) -> int:
    """An ALS-chain search state as one int: set index, RC masks (9 bits), 3-bit count."""
    return ((als << 9 | rc) << 9 | first_rc) << 3 | sets


def _chain_states(parent: dict[int, int], state: int) -> list[int]:
    """The search states of the chain ending in ``state``, from the start."""
    out = []
    while state >= 0:
        out.append(state)
        state = parent[state]
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
    alses, digit_bits = index.alses, index.digit_bits
    reported: set[frozenset[tuple[int, int]]] = set()
    budget = [BLOSSOM_BUDGET]
    # petals_of[d][cell]: the ALS holding d whose every d the cell sees
    petals_of: list[list[list[int]]] = [[[] for _ in range(81)] for _ in range(10)]
    for i, a in enumerate(alses):
        for d in DIGITS_IN[a.mask]:
            for c in cells_of_bits(a.buddies[d]):
                petals_of[d][c].append(i)
    for stem in range(81):
        if values[stem]:
            continue
        stem_mask = cands[stem]
        digits = DIGITS_IN[stem_mask]
        per_digit = [petals_of[d][stem] for d in digits]
        if not all(per_digit):
            continue
        zs_possible = 0x1FF & ~stem_mask
        for ps in per_digit:
            union = 0
            for i in ps:
                union |= alses[i].mask
            zs_possible &= union
        for z in DIGITS_IN[zs_possible]:
            zbit = 1 << (z - 1)
            # only petals holding z with cells outside them seeing all their z can help
            options = [
                [i for i in ps if alses[i].mask & zbit and alses[i].buddies[z]] for ps in per_digit
            ]
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
