"""Basic fish: X-Wing, Swordfish, Jellyfish (rows or columns as base), plain or with fins."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations
from typing import Final

from ...grid import BIT, BOX_OF, POPCOUNT, Grid, cell_name, cells_of_bits, house_name
from ...registry import Finder
from ...statecache import by_digit_pattern, digit_patterns
from ...steps import Candidate, Role, Step, eliminations_text, mark

FISH_IDS = {2: "x-wing", 3: "swordfish", 4: "jellyfish"}
FISH_NAMES = {2: "X-Wing", 3: "Swordfish", 4: "Jellyfish"}


def _line_places(bits: int) -> tuple[list[int], list[int]]:
    """A digit's places per row and per column (9-bit masks) from its cell set."""
    rows = [0] * 9
    cols = [0] * 9
    for c in cells_of_bits(bits):
        rows[c // 9] |= 1 << c % 9
        cols[c % 9] |= 1 << c // 9
    return rows, cols


def _base_sets(
    bits: int, size: int, per_line: tuple[int, int], in_all: tuple[int, int]
) -> list[tuple[bool, tuple[tuple[int, int], ...], int]]:
    """Base sets of ``size`` rows (then columns) for one digit (its cell set ``bits``):
    ``(by_rows, lines, union)`` where each line is ``(index, 9-bit positions)`` with
    ``per_line`` (min, max) places and the union of positions has ``in_all`` (min, max)
    bits; lines in lexicographic order, as ``combinations`` gives them."""
    out: list[tuple[bool, tuple[tuple[int, int], ...], int]] = []
    for by_rows, places in zip((True, False), _line_places(bits), strict=True):
        lines: list[tuple[int, int]] = []
        for line in range(9):
            pos = places[line]
            if per_line[0] <= POPCOUNT[pos] <= per_line[1]:
                lines.append((line, pos))
        if len(lines) >= size:
            _extend_base(lines, size, in_all, by_rows, 0, 0, [], out)
    return out


def _extend_base(
    lines: list[tuple[int, int]],
    size: int,
    in_all: tuple[int, int],
    by_rows: bool,
    start: int,
    union: int,
    chosen: list[tuple[int, int]],
    out: list[tuple[bool, tuple[tuple[int, int], ...], int]],
) -> None:
    """Depth first in lexicographic order; a union past ``in_all``'s max is pruned (it
    only grows)."""
    for i in range(start, len(lines) - (size - len(chosen)) + 1):
        grown = union | lines[i][1]
        count = POPCOUNT[grown]
        if count > in_all[1]:
            continue
        chosen.append(lines[i])
        if len(chosen) < size:
            _extend_base(lines, size, in_all, by_rows, i + 1, grown, chosen, out)
        elif count >= in_all[0]:
            out.append((by_rows, tuple(chosen), grown))
        chosen.pop()


def _fish(grid: Grid, size: int) -> Iterator[Step]:
    patterns = digit_patterns(grid)
    for digit in range(1, 10):
        yield from _fish_on_digit(grid, digit, patterns[digit], size)


@by_digit_pattern
def _fish_on_digit(grid: Grid, digit: int, bits: int, size: int) -> list[Step]:
    """Every basic fish of ``size`` on one digit (rows as base, then columns)."""
    cands = grid.candidates
    bit = BIT[digit]
    found: list[Step] = []
    for by_rows, combo, union in _base_sets(bits, size, (2, size), (size, size)):
        base = {line for line, _ in combo}
        covers = [i for i in range(9) if union >> i & 1]
        elims = []
        for cover in covers:
            for line in range(9):
                if line in base:
                    continue
                c = line * 9 + cover if by_rows else cover * 9 + line
                if cands[c] & bit:
                    elims.append((c, digit))
        if not elims:
            continue
        base_houses = [line if by_rows else 9 + line for line, _ in combo]
        cover_houses = [9 + i if by_rows else i for i in covers]
        cells = tuple(
            sorted(
                (line * 9 + i if by_rows else i * 9 + line)
                for line, pos in combo
                for i in range(9)
                if pos >> i & 1
            )
        )
        found.append(
            Step(
                FISH_IDS[size],
                eliminations=tuple(sorted(elims)),
                cells=cells,
                houses=tuple(base_houses + cover_houses),
                digits=(digit,),
            )
        )
    return found


def find_fish(size: int) -> Finder:
    """Finder of basic fish with ``size`` base lines. Evidence: ``cells`` the fish's cells,
    ``houses`` its ``size`` base lines then its ``size`` cover lines, ``digits=(digit,)``."""

    def find(grid: Grid) -> Iterator[Step]:
        return _fish(grid, size)

    return find


def _lines_text(houses: tuple[int, ...]) -> str:
    kind = "rows" if houses[0] < 9 else "columns"
    return f"{kind} " + ", ".join(str(h % 9 + 1) for h in houses)


def describe_fish(step: Step) -> str:
    size = len(step.houses) // 2
    base, cover = step.houses[:size], step.houses[size:]
    d = step.digits[0]
    name = FISH_NAMES[size]
    return (
        f"{name} on {d}: in {_lines_text(base)} it lies only in {_lines_text(cover)}, "
        f"so {eliminations_text(step.eliminations)}"
    )


# --- Finned and Sashimi fish -------------------------------------------------------------
#
# A basic fish with fins: ``size`` base lines whose candidates lie in ``size`` cover lines
# apart from a few fin cells. Either the fish holds (the cover lines lose the digit outside
# the base) or one fin is true, so only cover cells that see every fin lose the digit.
# Such a cell sits in a cover line and sees every fin through a box (it cannot share the
# fin's line, which is a base line, nor its cross line, which is not a cover), so all fins
# share one box: the fin lines lie in one band/stack. A fish is Sashimi when some base line
# keeps at most one candidate once its fins are removed (HoDoKu's definition).

FINNED_IDS = {2: "finned-x-wing", 3: "finned-swordfish", 4: "finned-jellyfish"}
SASHIMI_IDS = {2: "sashimi-x-wing", 3: "sashimi-swordfish", 4: "sashimi-jellyfish"}
_FIN_NAMES = {
    **{v: f"Finned {FISH_NAMES[k]}" for k, v in FINNED_IDS.items()},
    **{v: f"Sashimi {FISH_NAMES[k]}" for k, v in SASHIMI_IDS.items()},
}
_SIZE_OF = {v: k for ids in (FINNED_IDS, SASHIMI_IDS) for k, v in ids.items()}

# Per stack (three adjacent lines): every non-empty subset of a 9-bit position mask that
# lies inside the stack, by size; the fin lines of a finned fish are one of them.
_STACK_MASKS: Final = (0b000000111, 0b000111000, 0b111000000)


def _subsets_of(mask: int, k: int) -> list[int]:
    bits = [1 << i for i in range(9) if mask >> i & 1]
    out = []
    for combo in combinations(bits, k):
        s = 0
        for b in combo:
            s |= b
        out.append(s)
    return out


# _STACK_SUBSETS[mask][k]: the k-element subsets of a position mask lying in one stack.
_STACK_SUBSETS: Final[dict[int, list[list[int]]]] = {
    m << (3 * stack): [_subsets_of(m << (3 * stack), k) for k in range(4)]
    for stack in range(3)
    for m in range(8)
}


_FinnedFish = tuple[str, tuple[int, ...], tuple[Candidate, ...], tuple[int, ...], tuple[int, ...]]


def _finned_fish_for_base(
    places: list[int],
    digit: int,
    by_rows: bool,
    combo: tuple[tuple[int, int], ...],
    size: int,
    union: int,
) -> list[_FinnedFish]:
    """Every finned/sashimi fish on one base; each ``(id, covers, elims, body, fins)``,
    in HoDoKu's order (covers lexicographic) so that Siamese pairs name the same first fish."""
    n_fins = POPCOUNT[union] - size
    base_mask = 0  # the base lines, as bits
    for line, _ in combo:
        base_mask |= 1 << line
    found: list[tuple[tuple[int, ...], _FinnedFish]] = []
    for stack, smask in enumerate(_STACK_MASKS):
        inside = union & smask
        if POPCOUNT[inside] < n_fins:
            continue
        for fin_pos in _STACK_SUBSETS[inside][n_fins]:
            band = -1
            for line, pos in combo:
                if pos & fin_pos:
                    if band < 0:
                        band = line // 3
                    elif line // 3 != band:
                        band = 9  # fins in two boxes: no cell sees them all
            if band == 9:
                continue
            cover = union & ~fin_pos
            # the fins' box, outside the base lines and inside the cover, loses the digit
            elims: list[Candidate] = []
            for line in range(band * 3, band * 3 + 3):
                if base_mask >> line & 1:
                    continue
                hits = places[line] & cover & smask
                for i in range(stack * 3, stack * 3 + 3):
                    if hits >> i & 1:
                        elims.append((line * 9 + i if by_rows else i * 9 + line, digit))
            if not elims:
                continue
            sashimi = any(POPCOUNT[pos & cover] <= 1 for _, pos in combo)
            tech = (SASHIMI_IDS if sashimi else FINNED_IDS)[size]
            body: list[int] = []
            fins: list[int] = []
            for line, pos in combo:
                for i in range(9):
                    if pos >> i & 1:
                        c = line * 9 + i if by_rows else i * 9 + line
                        (fins if fin_pos >> i & 1 else body).append(c)
            covers = tuple(i for i in range(9) if cover >> i & 1)
            found.append(
                (covers, (tech, covers, tuple(sorted(elims)), tuple(sorted(body)), tuple(fins)))
            )
    found.sort(key=lambda item: item[0])
    return [fish for _, fish in found]


@by_digit_pattern
def _finned_on_digit(grid: Grid, digit: int, bits: int, size: int) -> list[Step]:
    """Every finned and sashimi fish of ``size`` on one digit (both kinds), each base
    followed by its Siamese pairs."""
    found: list[Step] = []
    # size cover positions plus fin positions inside one stack
    limits = (1, size + 3), (size + 1, size + 3)
    rows, cols = _line_places(bits)
    for by_rows, combo, union in _base_sets(bits, size, *limits):
        fishes = _finned_fish_for_base(
            rows if by_rows else cols, digit, by_rows, combo, size, union
        )
        if not fishes:
            continue
        base = tuple(line if by_rows else 9 + line for line, _ in combo)
        cross = 9 if by_rows else 0
        for tech, covers, elims, body, fins in fishes:
            found.append(
                Step(
                    tech,
                    eliminations=elims,
                    cells=body,
                    houses=base + tuple(cross + i for i in covers),
                    digits=(digit,),
                    marked=mark((Role.FIN, fins)),
                )
            )
        # Siamese: two fish on the same base with different eliminations, one step
        # (HoDoKu's library codes 03111, 03121, 03211, 03221).
        for i, first in enumerate(fishes):
            for second in fishes[i + 1 :]:
                if first[2][0] == second[2][0]:
                    continue
                found.append(
                    Step(
                        first[0],
                        eliminations=tuple(sorted(set(first[2]) | set(second[2]))),
                        cells=tuple(sorted(set(first[3]) & set(second[3]))),
                        houses=base
                        + tuple(cross + c for c in first[1])
                        + tuple(cross + c for c in second[1]),
                        digits=(digit,),
                        marked=mark((Role.FIN, sorted(set(first[4]) | set(second[4])))),
                    )
                )
    return found


def find_finned_fish(size: int, sashimi: bool) -> Finder:
    """Finder of finned (or sashimi) basic fish with ``size`` base lines, Siamese pairs
    included. Evidence: ``cells`` the fish body (base cells that are not fins), ``houses``
    the base lines then the cover lines (a Siamese step lists a second set of cover lines),
    ``digits=(digit,)``, ``Role.FIN`` the fins."""
    wanted = (SASHIMI_IDS if sashimi else FINNED_IDS)[size]

    def find(grid: Grid) -> Iterator[Step]:
        # the finned and the sashimi finder of one size share one search per digit
        patterns = digit_patterns(grid)
        for digit in range(1, 10):
            for step in _finned_on_digit(grid, digit, patterns[digit], size):
                if step.technique == wanted:
                    yield step

    return find


def describe_finned_fish(step: Step) -> str:
    size = _SIZE_OF[step.technique]
    name = _FIN_NAMES[step.technique]
    d = step.digits[0]
    base = step.houses[:size]
    fin_cells = step.marked_cells(Role.FIN)
    fins = ", ".join(cell_name(c) for c in fin_cells)
    plural = "s" if len(fin_cells) > 1 else ""
    elims = eliminations_text(step.eliminations)
    if len(step.houses) > 2 * size:
        first, second = step.houses[size : 2 * size], step.houses[2 * size :]
        return (
            f"Siamese {name} on {d}: in {_lines_text(base)} it lies in {_lines_text(first)} "
            f"or in {_lines_text(second)} apart from the fin{plural} {fins}; each fish holds "
            f"unless its fin is {d}, so cover cells seeing the fins lose it: {elims}"
        )
    cover = step.houses[size:]
    box = house_name(18 + BOX_OF[fin_cells[0]])
    return (
        f"{name} on {d}: in {_lines_text(base)} it lies only in {_lines_text(cover)} apart "
        f"from the fin{plural} {fins} in {box}; either the {FISH_NAMES[size]} holds or a fin "
        f"is {d}, so the cover cells of {box} lose it: {elims}"
    )
