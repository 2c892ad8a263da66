"""The packed integers of the forcing search: facts, their parents, and digit places.

Following a premise infers hundreds of facts; the propagation engine
(:mod:`.propagation`) keeps each as a small int (compiled code holds it in a machine
word, never as a tuple) and records why it holds in the same way. This module defines
those encodings, names their fields and holds the functions that make and read them, as
HoDoKu's ``Chain.java`` documents its packed chain entries.

A *candidate* ``(cell, digit)`` is numbered ``cell * 9 + digit - 1`` (``grid.candidate``: 0
to 728, in cell order; steps' evidence holds ``(cell, digit)`` pairs, as ``Step.refuted``).

Fact: one candidate found true or false (``fact``, ``fact_candidate``, ``fact_on``)::

    bits   field       meaning
    0      on          1: the candidate is true ("r1c2=5"); 0: it is false ("r1c2<>5")
    1-10   candidate   cell * 9 + digit - 1          (FACT_BITS = 11, FACT_MASK)

Log entry: a run logs its facts in order of inference, one int each (``log_entry``)::

    bits   field       meaning
    0-10   fact        the fact inferred                              (FACT_MASK)
    11     UNQUEUED    found both true and false (a clash): consequences never drawn
    12-    why         the parents' code below                        (WHY_SHIFT)

Only "off" facts are drawn from (an "on" fact's consequences are set at once, when it is
set): ``entry & SKIP`` (UNQUEUED or the "on" bit) tells the entries to pass over.

Parents' code ("why"): what a fact was inferred from, told apart by range::

    code                          parents
    0                             none: the premise                    (NO_PARENTS)
    1 + fact                      one: that fact                       (ONE_PARENT)
    MULTI + k                     several: ``multi[k]`` of the outcome (MULTI = 2048)
    CELL_WHY | ...                the "off" facts of some digits of one cell
    HOUSE_WHY | ...               the "off" facts of one digit in some slots of a house

so that ``0 < 1 + fact < MULTI <= MULTI + k < CELL_WHY < HOUSE_WHY`` (an outcome holds far
fewer than ``CELL_WHY - MULTI`` multi-parent facts: at most one per fact logged). The two
grouped codes name several parents without making a tuple while following; they become
facts only when read (``parents_of``). A group of one is coded as that fact's code and
an empty one as 0 (``cell_why``, ``house_why``)::

    CELL_WHY code:                          HOUSE_WHY code:
    bits   field                            bits   field
    0-8    digits (9-bit mask)              0-8    slots (9-bit mask of the house's slots)
    9-15   cell (0-80)                      9-12   digit (1-9)
                                            13-17  house (0-26)
    22     CELL_WHY kind bit                23     HOUSE_WHY kind bit

(``WHY_MEMBERS``; ``WHY_CELL_SHIFT``/``WHY_CELL_MASK``, ``WHY_DIGIT_SHIFT``/``WHY_DIGIT_MASK``,
``WHY_HOUSE_SHIFT``/``WHY_HOUSE_MASK``; ``WHY_KIND_SHIFT``.)

Digit places: per digit and house, where the digit can still go (``house_places``), in a
list of 270 at index ``digit * 27 + house`` (``place_index``; digit 0's entries unused)::

    bits   field       meaning
    0-8    slots       the house's slots still holding the digit as a candidate (SLOTS);
                       slot ``s`` of house ``h`` is cell ``HOUSES[h][s]``, so ascending
                       slots are ascending cells
    9      PLACED      the digit is placed in the house

Small integers again: compiled code works on them without allocating (list items are
updated as ``places[i] = places[i] & m``: mypyc compiles ``places[i] &= m`` as a generic
operation). The inner loops of :mod:`.propagation` spell the constants out inline rather
than call the small functions here.
"""

from __future__ import annotations

from typing import Final

from ....grid import DIGITS_IN, HOUSES, HOUSES_OF, POPCOUNT, SINGLE
from ....steps import ChainNode

# Candidates.
CANDIDATES: Final = 729
ALL_CANDIDATES: Final = (1 << CANDIDATES) - 1  # every candidate, as a 729-bit set

# Facts.
FACT_ON: Final = 1  # the "on" bit: the candidate is true
CANDIDATE_SHIFT: Final = 1  # fact >> CANDIDATE_SHIFT: the candidate
FACT_BITS: Final = 11
FACT_MASK: Final = (1 << FACT_BITS) - 1

# Log entries.
UNQUEUED: Final = 1 << FACT_BITS
SKIP: Final = UNQUEUED | FACT_ON
WHY_SHIFT: Final = FACT_BITS + 1

# Parents' codes.
NO_PARENTS: Final = 0
ONE_PARENT: Final = 1  # one parent ``f`` is coded ``ONE_PARENT + f``
MULTI: Final = 1 << FACT_BITS
WHY_MEMBERS: Final = 0x1FF  # the digits (CELL_WHY) or slots (HOUSE_WHY) of a group
WHY_CELL_SHIFT: Final = 9
WHY_CELL_MASK: Final = 0x7F
WHY_DIGIT_SHIFT: Final = 9
WHY_DIGIT_MASK: Final = 0xF
WHY_HOUSE_SHIFT: Final = 13
WHY_HOUSE_MASK: Final = 0x1F
WHY_KIND_SHIFT: Final = 22
CELL_WHY: Final = 1 << WHY_KIND_SHIFT
HOUSE_WHY: Final = 2 << WHY_KIND_SHIFT

# Digit places.
SLOTS: Final = 0x1FF
PLACED: Final = 1 << 9
HOUSE_COUNT: Final = 27  # places of digit ``d`` start at ``d * HOUSE_COUNT``
PLACES_SIZE: Final = 10 * HOUSE_COUNT
BOX_ROW_SLOTS: Final = 0x7  # a box's slots in one of its rows (slots 3r..3r+2)
BOX_ROW_SHIFT: Final = 3  # box slots >> (BOX_ROW_SHIFT * r): those of its row r and below

# Per cell ``c``, at ``3 * c + j`` for its row, column and box (``HOUSES_OF[c][j]``): the
# house and the cell's slot bit in it.
SLOT_HOUSE: Final[tuple[int, ...]] = tuple(h for c in range(81) for h in HOUSES_OF[c])
SLOT_BIT: Final[tuple[int, ...]] = tuple(
    1 << HOUSES[h].index(c) for c in range(81) for h in HOUSES_OF[c]
)
# The cell of slot ``s`` of house ``h``, at ``9 * h + s``.
HOUSE_CELL: Final[tuple[int, ...]] = tuple(c for h in HOUSES for c in h)


def fact_of(cand: int, on: bool) -> int:
    """The fact "candidate ``cand`` is true" (``on``) or "is false"."""
    return (cand << CANDIDATE_SHIFT) | on


def fact(cell: int, digit: int, on: bool) -> int:
    """The fact "``cell`` is ``digit``" (``on``) or "``cell`` is not ``digit``"."""
    return ((cell * 9 + digit - 1) << CANDIDATE_SHIFT) | on


def fact_candidate(f: int) -> int:
    return f >> CANDIDATE_SHIFT


def fact_on(f: int) -> bool:
    return bool(f & FACT_ON)


def fact_cell(f: int) -> int:
    return (f >> CANDIDATE_SHIFT) // 9


def fact_digit(f: int) -> int:
    return (f >> CANDIDATE_SHIFT) % 9 + 1


def fact_node(f: int) -> ChainNode:
    """A fact as a step's chain node."""
    i = f >> CANDIDATE_SHIFT
    return ((i // 9,), i % 9 + 1, bool(f & FACT_ON))


def log_entry(f: int, why: int, unqueued: bool = False) -> int:
    """The log entry of fact ``f`` inferred from the parents' code ``why``."""
    return (why << WHY_SHIFT) | (UNQUEUED if unqueued else 0) | f


def one_why(f: int) -> int:
    """The parents' code of the single parent ``f``."""
    return f + ONE_PARENT


def place_index(digit: int, house: int) -> int:
    """Where the places of ``digit`` in ``house`` are kept."""
    return digit * HOUSE_COUNT + house


def cell_offs(c: int, mask: int) -> tuple[int, ...]:
    """The facts "d is off" in cell ``c`` for the digits of ``mask``."""
    base = c * 9 - 1
    return tuple([(base + d) << CANDIDATE_SHIFT for d in DIGITS_IN[mask]])


def house_offs(h: int, slots: int, d: int) -> tuple[int, ...]:
    """The facts "d is off" in the cells of the slots ``slots`` of house ``h``."""
    base = 9 * h - 1
    off = d - 1
    return tuple([(HOUSE_CELL[base + s] * 9 + off) << CANDIDATE_SHIFT for s in DIGITS_IN[slots]])


def cell_why(c: int, mask: int) -> int:
    """The parents' code of the facts "d is off" in cell ``c`` for the digits of ``mask``
    (several: CELL_WHY with the cell and mask, turned into facts when read)."""
    if POPCOUNT[mask] == 1:
        return ((c * 9 + SINGLE[mask] - 1) << CANDIDATE_SHIFT) + ONE_PARENT
    if not mask:
        return NO_PARENTS
    return CELL_WHY | c << WHY_CELL_SHIFT | mask


def house_why(h: int, slots: int, d: int) -> int:
    """The parents' code of the facts "d is off" in the slots ``slots`` of house ``h``
    (several: HOUSE_WHY with the house, digit and slots, turned into facts when read)."""
    if POPCOUNT[slots] == 1:
        return ((HOUSE_CELL[9 * h + SINGLE[slots] - 1] * 9 + d - 1) << CANDIDATE_SHIFT) + ONE_PARENT
    if not slots:
        return NO_PARENTS
    return HOUSE_WHY | h << WHY_HOUSE_SHIFT | d << WHY_DIGIT_SHIFT | slots


def why_cell(code: int) -> int:
    """The cell of a CELL_WHY code."""
    return (code >> WHY_CELL_SHIFT) & WHY_CELL_MASK


def why_house(code: int) -> int:
    """The house of a HOUSE_WHY code."""
    return (code >> WHY_HOUSE_SHIFT) & WHY_HOUSE_MASK


def why_digit(code: int) -> int:
    """The digit of a HOUSE_WHY code."""
    return (code >> WHY_DIGIT_SHIFT) & WHY_DIGIT_MASK


def why_members(code: int) -> int:
    """The digits (CELL_WHY) or slots (HOUSE_WHY) of a grouped code."""
    return code & WHY_MEMBERS


def parents_of(code: int, multi: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The facts a parents' code stands for (``multi``: the outcome's several-parent
    tuples)."""
    if code >= HOUSE_WHY:
        return house_offs(why_house(code), why_members(code), why_digit(code))
    if code >= CELL_WHY:
        return cell_offs(why_cell(code), why_members(code))
    if code >= MULTI:
        return multi[code - MULTI]
    return (code - ONE_PARENT,) if code else ()


def house_places(values: list[int], cands: list[int]) -> list[int]:
    """The places of each digit in each house (see the module's table), at
    ``place_index(digit, house)``."""
    places = [0] * PLACES_SIZE
    for c in range(81):
        k = c * 3
        v = values[c]
        if v:
            for j in range(3):
                i = v * HOUSE_COUNT + SLOT_HOUSE[k + j]
                places[i] = places[i] | PLACED
        for d in DIGITS_IN[cands[c]]:
            for j in range(3):
                i = d * HOUSE_COUNT + SLOT_HOUSE[k + j]
                places[i] = places[i] | SLOT_BIT[k + j]
    return places
