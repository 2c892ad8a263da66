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
as cover, with at least one box somewhere (else the fish is a basic one). At most two
fins (HoDoKu allows five; every library case needs two at most, and each extra fin
multiplies the search), two of them endo fins.

Speed: cover houses never span two cross groups (stacks when rows are the lines), so a
precomputed table gives, per group, the fewest covers its base cells need; base sets
whose bound (less what two fins can save) exceeds the size are cut while being built.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from ...grid import (
    BOX_OF,
    HOUSE_BITS,
    PEER_BITS,
    Grid,
    cell_name,
    cells_of_bits,
    common_peers,
    house_name,
)
from ...registry import Finder
from ...statecache import by_digit_pattern, digit_patterns, last_state
from ...steps import Role, Step, eliminations_text, mark

# Fins allowed per size: HoDoKu allows five, but each fin multiplies the search and
# every library case needs at most two (X-Wing, Jellyfish) or one (Swordfish).
MAX_FINS: Final = {2: 2, 3: 1, 4: 2}
MAX_ENDO_FINS: Final = 2

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


class _CoverSearch:
    """Every (finned) franken fish on one base, covers in HoDoKu's (lexicographic) order.

    Branches on the first base cell not yet covered: one of the (at most two) cover houses
    through it takes it, or it is a fin; fins must keep a candidate that sees them all. A
    class rather than nested closures, which mypyc compiles to slower calls and which leave
    reference cycles for the garbage collector.
    """

    def __init__(
        self,
        digit_bits: int,
        size: int,
        base_bits: int,
        endo: int,
        through: list[tuple[tuple[int, int], ...]],
        base_mask: int,
        cross_first: int,
        base_has_box: bool,
        shape: tuple[int, int, int],
    ) -> None:
        self.digit_bits = digit_bits
        self.size = size
        self.base_bits = base_bits
        self.endo = endo
        self.through = through
        self.base_mask = base_mask
        self.cross_first = cross_first
        self.base_has_box = base_has_box
        self.multi = shape[1]
        self.flags = shape[2]
        self.found: dict[tuple[int, ...], _Fish] = {}
        self.chosen: list[int] = []
        self.max_fins: int = MAX_FINS[size]
        orient = 0 if cross_first == 9 else 1
        self.pattern_bit: tuple[int, ...] = _PATTERN_BIT[orient]
        self.cover_mask: tuple[int, ...] = _COVER_MASK[orient]
        self.pattern = shape[0]

    def run(self) -> list[_Fish]:
        seen = self.digit_bits & common_peers(self.endo)
        if seen:
            nfins = 0 if not self.endo else 2 if _more_bits_than(self.endo, 1) else 1
            self.dfs(0, self.endo, nfins, seen, 0, self.pattern)
        found = self.found
        return [found[k] for k in sorted(found)]

    def record(self, union: int, cannibal: int, fins: int, seen: int) -> None:
        houses = tuple(sorted(self.chosen))
        if houses in self.found:
            return
        if not self.base_has_box and not any(h >= 18 for h in houses):
            return  # rows against columns only: a basic fish
        cross_first = self.cross_first
        if not any(cross_first <= h < cross_first + 9 for h in houses):
            return  # boxes only on one side: HoDoKu calls it a mutant
        targets = ((union & ~self.base_bits & self.digit_bits) | cannibal) & seen
        if targets:
            tech = (FINNED_FRANKEN_IDS if fins else FRANKEN_IDS)[self.size]
            self.found[houses] = (tech, houses, targets, fins & ~self.endo, self.endo)

    def last_cover(self, union: int, fins: int, nfins: int, seen: int, cannibal: int) -> None:
        """The last cover: any that leaves at most the spare fins (cells it misses)."""
        base_bits, base_mask, chosen = self.base_bits, self.base_mask, self.chosen
        remaining = base_bits & ~union & ~fins
        spare = self.max_fins - nfins
        # the cover takes one of the first ``spare + 1`` cells left
        tried = 0  # cover houses tried, as bits
        bits = remaining
        for _ in range(spare + 1):
            if not bits:
                break
            low = bits & -bits
            bits ^= low
            for house, cover in self.through[low.bit_length() - 1]:
                if (base_mask | tried) >> house & 1:
                    continue
                tried |= 1 << house
                missed = remaining & ~cover
                if _more_bits_than(missed, spare):
                    continue
                sees = seen
                while missed:
                    one = missed & -missed
                    sees &= PEER_BITS[one.bit_length() - 1]
                    missed ^= one
                if sees:
                    chosen.append(house)
                    self.record(
                        union | cover,
                        cannibal | (union & cover & base_bits),
                        fins | (remaining & ~cover),
                        sees,
                    )
                    chosen.pop()

    def dfs(self, union: int, fins: int, nfins: int, seen: int, cannibal: int, left: int) -> None:
        # nfins: how many fins (a count: int.bit_count is a method call once compiled);
        # seen: digit cells that see every fin so far (all digit cells while finless);
        # left: the base pattern bits not yet covered nor emptied by a fin
        base_bits, chosen, size = self.base_bits, self.chosen, self.size
        remaining = base_bits & ~union & ~fins
        if not remaining:
            return  # covered with fewer houses: a smaller fish
        spare = self.max_fins - nfins
        if chosen and _min_covers(left, self.multi, self.flags, spare) > size - len(chosen):
            return  # what is left needs more covers than remain
        low = remaining & -remaining
        last = len(chosen) == size - 2
        base_mask, cover_mask = self.base_mask, self.cover_mask
        for house, bits in self.through[low.bit_length() - 1]:
            if base_mask >> house & 1:
                continue  # a base box is no cover
            chosen.append(house)
            cannibal_now = cannibal | (union & bits & base_bits)
            if last:
                self.last_cover(union | bits, fins, nfins, seen, cannibal_now)
            else:
                self.dfs(union | bits, fins, nfins, seen, cannibal_now, left & ~cover_mask[house])
            chosen.pop()
        if spare:
            cell = low.bit_length() - 1
            seen &= PEER_BITS[cell]
            if seen:
                one = self.pattern_bit[cell]
                self.dfs(union, fins | low, nfins + 1, seen, cannibal, left & ~(one & ~self.multi))


def _cover_masks(orient: int) -> tuple[int, ...]:
    """Per cover house, the base pattern bits (see ``_PATTERN_BIT``) it covers."""
    masks = [0] * 27
    for x in range(9):  # a cross line: one bit in each sub-block of its group
        masks[x if orient else 9 + x] = sum(
            1 << ((x // 3) * 9 + sub * 3 + x % 3) for sub in range(3)
        )
    for b in range(9):
        group, sub = (b % 3, b // 3) if orient == 0 else (b // 3, b % 3)
        masks[18 + b] = 7 << (group * 9 + sub * 3)
    return tuple(masks)


_COVER_MASK: Final = (_cover_masks(0), _cover_masks(1))
_CROSS_OF: Final = (tuple(9 + c % 9 for c in range(81)), tuple(c // 9 for c in range(81)))


# The 27-bit base pattern is three cross groups of _CROSS_BITS (below); the 9-bit box
# flag set three groups of _FLAGS_BITS. A table index of _MIN_COVERS and _SAVERS packs one
# group: bits 0-8 its pattern bits, bits 9-11 its box flags.
_CROSS_BITS: Final = 9
_CROSS_MASK: Final = (1 << _CROSS_BITS) - 1
_FLAGS_BITS: Final = 3
_FLAGS_MASK: Final = (1 << _FLAGS_BITS) - 1
# A sub-block's cross mask: which of its three cross lines its base cells meet.
_SUB_BLOCK_BITS: Final = 3
_SUB_BLOCK_MASK: Final = (1 << _SUB_BLOCK_BITS) - 1


def _min_covers_table() -> tuple[int, ...]:
    """Fewest covers for the base cells of one stack (rows orientation; bands when
    columns are the lines): index = three 3-bit cross masks, one per sub-block, plus three
    flags for sub-blocks whose box is in the base (its cells need their cross lines)."""
    table = []
    for index in range(1 << (_CROSS_BITS + _FLAGS_BITS)):
        masks = [(index >> (_SUB_BLOCK_BITS * s)) & _SUB_BLOCK_MASK for s in range(3)]
        flags = index >> _CROSS_BITS
        best = 99
        for boxes in range(8):
            if any(boxes >> s & 1 and (not masks[s] or flags >> s & 1) for s in range(3)):
                continue
            rest = 0
            for s in range(3):
                if not boxes >> s & 1:
                    rest |= masks[s]
            best = min(best, boxes.bit_count() + rest.bit_count())
        table.append(best)
    return tuple(table)


_MIN_COVERS: Final = _min_covers_table()
# Per orientation (0: rows are lines, 1: columns), where a cell goes in a 27-bit base
# pattern: 9 bits per cross group (stack, or band), 3 per sub-block, 1 per cross line.
_PATTERN_BIT: Final = tuple(
    tuple(
        1 << ((x // 3) * 9 + (line // 3) * 3 + x % 3)
        for line, x in ((c // 9, c % 9) if o == 0 else (c % 9, c // 9) for c in range(81))
    )
    for o in (0, 1)
)
# The box flag of a box in a 9-bit flag set: 3 per cross group, 1 per sub-block.
_BOX_FLAG: Final = tuple(
    tuple(1 << ((b % 3) * 3 + b // 3) if o == 0 else 1 << ((b // 3) * 3 + b % 3) for b in range(9))
    for o in (0, 1)
)


def _savers_table() -> tuple[int, ...]:
    """Per cross-group table index, the pattern bits whose removal (a fin there) lowers
    the fewest covers (by one: a cover of the rest plus one through the cell covers all)."""
    table = []
    for index in range(4096):
        best = _MIN_COVERS[index]
        table.append(
            sum(1 << b for b in range(9) if index >> b & 1 and _MIN_COVERS[index ^ 1 << b] < best)
        )
    return tuple(table)


_SAVERS: Final = _savers_table()


def _min_covers(pattern: int, multi: int, flags: int, fins: int) -> int:
    """A lower bound on the covers a base needs with at most ``fins`` (<= 2) fins.

    Cover houses never span two cross groups, so the groups add up; a fin saves at most
    one cover, in its group, and a second fin in the same group at most one more. Per
    group, a table index holds its 9 pattern bits and 3 box flags; a fin saves a cover
    only on a pattern bit that stands for one cell (not in ``multi``).
    """
    single = pattern & ~multi
    # a table index per cross group: its 9 pattern bits, then its 3 box flags
    a = (pattern & _CROSS_MASK) | (flags & _FLAGS_MASK) << _CROSS_BITS
    b = (pattern >> _CROSS_BITS & _CROSS_MASK) | (flags >> _FLAGS_BITS & _FLAGS_MASK) << _CROSS_BITS
    c = (pattern >> 2 * _CROSS_BITS) | (flags >> 2 * _FLAGS_BITS) << _CROSS_BITS
    total = _MIN_COVERS[a] + _MIN_COVERS[b] + _MIN_COVERS[c]
    if not fins or not single:
        return total
    # some single fin saves a cover
    saves = (
        1
        if single & _CROSS_MASK & _SAVERS[a]
        or single >> _CROSS_BITS & _CROSS_MASK & _SAVERS[b]
        or single >> 2 * _CROSS_BITS & _SAVERS[c]
        else 0
    )
    if fins == 1:
        return total - saves
    # two fins: each saves one at most, and the first saves none unless some fin can
    return total - 1 - saves


def _more_bits_than(bits: int, limit: int) -> bool:
    """Whether ``bits`` has more than ``limit`` bits set (int.bit_count is a method call
    once compiled; this clears at most ``limit`` bits)."""
    for _ in range(limit):
        if not bits:
            return False
        bits &= bits - 1
    return bits != 0


# One result of a digit's search, digit left out: (technique, base houses, cover houses,
# eliminations, base candidates, fins, endo fins)
_Found = tuple[str, tuple[int, ...], tuple[int, ...], int, int, int, int]


def fish_steps(
    grid: Grid, size: int, on_digit: Callable[[Grid, int, int, int], tuple[_Found, ...]]
) -> Iterator[Step]:
    """The steps of a per-digit fish search, digit by digit: ``on_digit(grid, digit,
    digit_bits, size)`` is the search memoised with
    :func:`~.statecache.by_digit_pattern` (a digit's fish depend on its candidates only,
    and a solve step changes the candidates of few digits)."""
    patterns = digit_patterns(grid)
    for digit in range(1, 10):
        for tech, base, covers, targets, base_bits, fins, endo in on_digit(
            grid, digit, patterns[digit], size
        ):
            yield _step(tech, digit, base, covers, targets, base_bits, fins, endo)


@by_digit_pattern
def _franken_on_digit(grid: Grid, digit: int, bits: int, size: int) -> tuple[_Found, ...]:
    return tuple(_search_digit(bits, size))


def _franken(grid: Grid, size: int) -> Iterator[Step]:
    return fish_steps(grid, size, _franken_on_digit)


def _search_digit(digit_bits: int, size: int) -> Iterator[_Found]:
    """Every Franken fish of one size on one digit's candidates, both orientations."""
    max_endo = min(MAX_ENDO_FINS, MAX_FINS[size])  # endo fins are fins
    units = [(h, HOUSE_BITS[h] & digit_bits) for h in range(27)]
    for orient, lines_first in ((0, 0), (1, 9)):
        cross_first = 9 - lines_first
        pattern_bit = _PATTERN_BIT[orient]
        base_units = []
        for h, bits in units:
            if not bits or lines_first > h or (h >= lines_first + 9 and h < 18):
                continue
            pattern = multi = 0
            cells = bits
            while cells:
                low = cells & -cells
                one = pattern_bit[low.bit_length() - 1]
                multi |= pattern & one  # two cells of a box in one cross line
                pattern |= one
                cells ^= low
            flag = _BOX_FLAG[orient][h - 18] if h >= 18 else 0
            base_units.append((h, bits, pattern, multi, flag))
        # the two cover houses through each cell: its cross line and its box
        through: list[tuple[tuple[int, int], ...]] = [()] * 81
        cells = digit_bits
        while cells:
            low = cells & -cells
            c = low.bit_length() - 1
            through[c] = (units[_CROSS_OF[orient][c]], units[18 + BOX_OF[c]])
            cells ^= low
        for combo in _base_sets(base_units, size, MAX_FINS[size]):
            base_bits = 0
            endo = 0
            for _, bits, _, _, _ in combo:
                endo |= base_bits & bits
                base_bits |= bits
            if _more_bits_than(endo, max_endo):
                continue
            base = tuple(u[0] for u in combo)
            base_mask = 0
            for h in base:
                base_mask |= 1 << h
            shape = (0, 0, 0)
            for u in combo:
                shape = (
                    shape[0] | u[2],
                    shape[1] | u[3] | (shape[0] & u[2]),
                    shape[2] | u[4],
                )
            fishes = _CoverSearch(
                digit_bits,
                size,
                base_bits,
                endo,
                through,
                base_mask,
                cross_first,
                base[-1] >= 18,
                shape,
            ).run()
            for tech, houses, targets, fins, endo_fins in fishes:
                yield (tech, base, houses, targets, base_bits, fins, endo_fins)
            # Siamese: two fish of one kind on the same base with different eliminations
            for i, first in enumerate(fishes):
                for second in fishes[i + 1 :]:
                    if first[0] != second[0] or _first(first[2]) == _first(second[2]):
                        continue
                    yield (
                        first[0],
                        base,
                        first[1] + second[1],
                        first[2] | second[2],
                        base_bits,
                        first[3] | second[3],
                        first[4] | second[4],
                    )


_Unit = tuple[int, int, int, int, int]  # house, candidates, pattern, multi, box flag


def _base_sets(units: list[_Unit], size: int, max_fins: int) -> list[tuple[_Unit, ...]]:
    """Base sets in lexicographic order, a line first, pruned as soon as a partial base
    needs more than ``size`` covers (adding houses never lowers that bound)."""
    out: list[tuple[_Unit, ...]] = []
    _extend_base(units, size, max_fins, [], 0, 0, 0, 0, out)
    return out


def _extend_base(
    units: list[_Unit],
    size: int,
    max_fins: int,
    chosen: list[_Unit],
    start: int,
    pattern: int,
    multi: int,
    flags: int,
    out: list[tuple[_Unit, ...]],
) -> None:
    for i in range(start, len(units) - (size - len(chosen)) + 1):
        unit = units[i]
        if not chosen and unit[0] >= 18:
            return  # no line in the base: not a franken fish
        p = pattern | unit[2]
        m = multi | unit[3] | (pattern & unit[2])
        f = flags | unit[4]
        if _min_covers(p, m, f, max_fins) > size:
            continue
        chosen.append(unit)
        if len(chosen) == size:
            out.append(tuple(chosen))
        else:
            _extend_base(units, size, max_fins, chosen, i + 1, p, m, f, out)
        chosen.pop()


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
        marked=mark((Role.FIN, cells_of_bits(fins | endo))),
    )


@last_state
def _cached(grid: Grid, size: int) -> list[Step]:
    """Both finders of one size share one search per state."""
    return list(_franken(grid, size))


def find_franken_fish(size: int, finned: bool) -> Finder:
    """Finder of (finned) Franken fish with ``size`` base houses, Siamese pairs included.
    Evidence: ``cells`` the base candidates that are not fins, ``houses`` the base houses
    then the cover houses (a Siamese step lists two cover sets), ``digits=(digit,)``,
    ``Role.FIN`` the fins (endo fins included)."""
    return one_kind_finder(_cached, size, (FINNED_FRANKEN_IDS if finned else FRANKEN_IDS)[size])


def one_kind_finder(search: Callable[[Grid, int], list[Step]], size: int, wanted: str) -> Finder:
    """Finder of the ``wanted`` steps of ``search(grid, size)``, a search shared by the
    plain and finned finders of one size."""

    def find(grid: Grid) -> Iterator[Step]:
        return (s for s in search(grid, size) if s.technique == wanted)

    return find


def describe_franken_fish(step: Step) -> str:
    size = _SIZE_OF[step.technique]
    return describe_fish_text(step, size, f"Franken {_NAMES[size]}")


def describe_fish_text(step: Step, size: int, kind: str) -> str:
    """The text of a Franken or Mutant fish step; ``kind`` names it (``Franken X-Wing``)."""
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
    name += kind
    elims = eliminations_text(step.eliminations)
    fin_cells = step.marked_cells(Role.FIN)
    if not fin_cells:
        return (
            f"{name} on {d}: every {d} of {base} lies in {cover}; each of those houses "
            f"takes one of them, so {elims}"
        )
    # an endo fin lies in two base houses: either of them may take the digit there
    endo = [sum(HOUSE_BITS[h] >> c & 1 for h in step.houses[:size]) > 1 for c in fin_cells]
    listed = [cell_name(c) + (" (in two base houses)" if e else "") for c, e in zip(
        fin_cells, endo, strict=True)]  # fmt: skip
    if len(fin_cells) == 1:
        fin = cell_name(fin_cells[0])
        return (
            f"{name} on {d}: every {d} of {base} lies in {cover} apart from the fin "
            f"{listed[0]}; "
            f"either the fish holds or {fin} is {d}, so cells that also see {fin} lose it: "
            f"{elims}"
        )
    fins = ", ".join(listed)
    return (
        f"{name} on {d}: every {d} of {base} lies in {cover} apart from the fins {fins}; "
        f"either the fish holds or one of the fins is {d}, so cells seeing every fin lose "
        f"it: {elims}"
    )
