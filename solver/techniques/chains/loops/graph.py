"""The link graph of one grid state: nodes, strong and weak links, group and ALS nodes.

Nodes are ints. Candidate nodes come first, then (grouped search only) the group nodes,
digit by digit, then the ALS nodes:

    ============================  ====================================================
    node id                       node
    ============================  ====================================================
    0 .. CELL_NODES - 1 (728)     candidate: ``cell * 9 + digit - 1`` (``grid.candidate``)
    CELL_NODES .. als_base - 1    group node: 2-3 cells of a box-line intersection that
                                  hold a digit ("the digit is in one of them")
    als_base ..                   ALS node: (almost locked set, entry digit j); on, its
                                  j are all off and the rest of the set is locked
    ============================  ====================================================

The search walks *states*: a node, whether it is assumed on (true) or off (false), and
the highest *level* on the chain that reached it, so that the shortest grouped chain
(and the shortest one with an ALS) is kept beside the shortest plain one. In the style
of HoDoKu's ``Chain.java`` node layout:

    ======  ========  ==================================================  ==================
    bits    field     values                                              names
    ======  ========  ==================================================  ==================
    0       on        1 the node is on (true), 0 off (false)              ``STATE_ON``
    1 - 2   level     0 cell, 1 group node, 2 ALS node, 3 cell forced by  ``STATE_LEVEL``,
                      an ALS (kept in place: ``level << 1``)              ``*_LEVEL``
    3 -     node      the node id (above)                                 ``STATE_NODE_SHIFT``
    ======  ========  ==================================================  ==================

    ``state = node << STATE_NODE_SHIFT | level | on`` (``make_state``, ``state_node``,
    ``state_level``, ``state_on``); e.g. ``ALS_ON`` (5) is an ALS node's state on.

A found chain is a list of *entries*, a state without its level:

    ======  ========  ==================================================  ==================
    bits    field     values                                              names
    ======  ========  ==================================================  ==================
    0       on        1 on, 0 off                                         ``ENTRY_ON``
    1 -     node      the node id                                         ``ENTRY_NODE_SHIFT``
    ======  ========  ==================================================  ==================

    (``entry_of``, ``entry_node``, ``entry_on``.)

Flat tables of the graph build, indexed by two small numbers:

    ``in_house[house_slot(digit, house)]``  (``(digit - 1) * 27 + house``): group nodes
    ``by_entry[entry_slot(digit, cell)]``   (``digit * 81 + cell``): ALS nodes by entry
    digit and the lowest cell of the set holding it

The hot loops (the graph build, the breadth-first search) spell these out with the named
constants rather than call the accessors: a call per link would cost plain Python time.
"""

from __future__ import annotations

from typing import Final

from ....grid import (
    BIT,
    DIGITS_IN,
    HALF_BITS,
    HOUSE_BITS,
    LOW_HALF,
    PEER_BITS,
    PEER_HI,
    PEER_LO,
    POPCOUNT,
    Grid,
    candidate_cell,
    candidate_digit,
    cells_of_bits,
    common_peers,
)
from ....statecache import digit_patterns
from ...als.sets import Als, small_alses

MAX_ALS_NODE_CELLS = 3
# A second, wider search (sets of up to 5 cells, as HoDoKu's tables allow; its breadth-first
# chains differ, so it finds loops the first one kept another chain for) runs only for a
# caller asking for more than the first search's steps (see GROUPED_ORDER).
WIDE_ALS_NODE_CELLS = 5

# Node ids (see the module's docstring).
CELL_NODES: Final = 729  # node id of candidate (cell, digit) is cell * 9 + digit - 1
HOUSE_SLOTS: Final = 243  # 9 digits * 27 houses: the size of a ``house_slot`` table
ENTRY_SLOTS: Final = 810  # 10 digits (0 unused) * 81 cells: an ``entry_slot`` table

# A search state's fields (see the module's docstring).
STATE_ON: Final = 1  # bit 0: on
STATE_LEVEL: Final = 6  # bits 1-2: the level, in place
STATE_NODE_SHIFT: Final = 3  # bits 3-: the node
CELL_LEVEL: Final = 0  # a plain chain (candidates only)
GROUP_LEVEL: Final = 2  # 1 << 1: a group node on the chain
ALS_LEVEL: Final = 4  # 2 << 1: an ALS node on the chain
FORCED_LEVEL: Final = 6  # 3 << 1: a cell forced by an ALS on the chain
# The states links lead to, by the kind of node they enter (at the node's own level):
CELL_ON: Final = 1  # CELL_LEVEL | STATE_ON
GROUP_ON: Final = 3  # GROUP_LEVEL | STATE_ON
ALS_ON: Final = 5  # ALS_LEVEL | STATE_ON
FORCED_ON: Final = 7  # FORCED_LEVEL | STATE_ON
GROUP_OFF: Final = 2  # GROUP_LEVEL, off
# The states of one cell's nine candidates: cell * CELL_STATES up to (cell + 1) * CELL_STATES.
CELL_STATES: Final = 72  # 9 << STATE_NODE_SHIFT

# A chain entry's fields (see the module's docstring).
ENTRY_ON: Final = 1  # bit 0: on
ENTRY_NODE_SHIFT: Final = 1  # bits 1-: the node

State = int  # node << STATE_NODE_SHIFT | level | on
Entry = int  # node << ENTRY_NODE_SHIFT | on: a node of a found chain


def make_state(node: int, level: int, on: bool) -> State:
    """A search state: ``node`` on or off, at ``level`` (one of the ``*_LEVEL``)."""
    return node << STATE_NODE_SHIFT | level | (STATE_ON if on else 0)


def state_node(state: State) -> int:
    """The node of a search state."""
    return state >> STATE_NODE_SHIFT


def state_level(state: State) -> int:
    """The level of a search state, in place (one of the ``*_LEVEL``)."""
    return state & STATE_LEVEL


def state_on(state: State) -> bool:
    """Whether a search state assumes its node on."""
    return bool(state & STATE_ON)


def entry_of(state: State) -> Entry:
    """A search state as a chain entry (its level dropped)."""
    return (state >> STATE_NODE_SHIFT) << ENTRY_NODE_SHIFT | state & STATE_ON


def entry_node(entry: Entry) -> int:
    """The node of a chain entry."""
    return entry >> ENTRY_NODE_SHIFT


def entry_on(entry: Entry) -> bool:
    """Whether a chain entry's node is on."""
    return bool(entry & ENTRY_ON)


def house_slot(digit: int, house: int) -> int:
    """The index of (digit, house) in a table of ``HOUSE_SLOTS`` entries."""
    return (digit - 1) * 27 + house


def entry_slot(digit: int, cell: int) -> int:
    """The index of (digit, cell) in a table of ``ENTRY_SLOTS`` entries."""
    return digit * 81 + cell


_BOX_BITS: tuple[int, ...] = HOUSE_BITS[18:]
# per line (rows, then columns): the boxes it crosses, ascending
_LINE_BOXES: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(9) if HOUSE_BITS[line] & _BOX_BITS[b]) for line in range(18)
)
# the candidate nodes' attributes, copied for every graph
_CELL_DIGIT: tuple[int, ...] = tuple(candidate_digit(n) for n in range(CELL_NODES))
_CELL_CELL: tuple[int, ...] = tuple(candidate_cell(n) for n in range(CELL_NODES))
_CELL_CELLS: tuple[int, ...] = tuple(1 << candidate_cell(n) for n in range(CELL_NODES))
_CELL_BUDDIES: tuple[int, ...] = tuple(PEER_BITS[candidate_cell(n)] for n in range(CELL_NODES))
# The links of a node that has none, shared (never appended to: ``link`` gives a node its
# own list): most nodes have none, and a list each would cost time (and garbage collections).
NO_LINKS: Final[list[int]] = []


def link(lists: list[list[int]], n: int, m: int) -> None:
    """Append ``m`` to ``lists[n]``, giving ``n`` a list of its own on its first one."""
    if lists[n] is NO_LINKS:
        lists[n] = [m]
    else:
        lists[n].append(m)


class Graph:
    """Nodes and their links for one grid state; group nodes get ids from 729 up.

    ``strong`` holds every strong link (as the nodes it leads to, on), ``enter`` the ALS
    nodes an on node switches on or the cells an ALS forces; ``weak_go`` the weak links as
    the search states they lead to, at the target's level (see ``State``), into nodes with
    a strong link (off; an off node without one is a dead end inside a chain, and loop
    closures into the start cell are found from ``seen_groups`` and the cells instead)."""

    __slots__ = (
        "als",
        "als_base",
        "alses",
        "buddies",
        "cell",
        "cells",
        "digit",
        "enter",
        "seen_groups",
        "strong",
        "weak_go",
    )

    def __init__(self, grid: Grid, grouped: bool, max_als: int = MAX_ALS_NODE_CELLS) -> None:
        digit_bits = digit_patterns(grid)
        self.digit: list[int] = list(_CELL_DIGIT)
        self.cell: list[int] = list(_CELL_CELL)
        self.cells: list[int] = list(_CELL_CELLS)
        self.buddies: list[int] = list(_CELL_BUDDIES)
        # group nodes, keyed by (digit, cell set) to find "the rest of a house is a group"
        group_of: dict[tuple[int, int], int] = {}
        homes: list[tuple[int, int]] = []  # per group node: its line and its box (houses)
        in_house = [NO_LINKS] * HOUSE_SLOTS  # per house_slot(digit, house): its group nodes
        by_digit = [CELL_NODES]  # group nodes of digit d: by_digit[d - 1] up to by_digit[d]
        if grouped:
            self._add_groups(digit_bits, group_of, homes, in_house, by_digit)
        size = len(self.digit)
        self.strong = [NO_LINKS] * size
        self._add_strong(grid.candidates, digit_bits, group_of, in_house)
        self.seen_groups = [NO_LINKS] * CELL_NODES
        self.weak_go = [NO_LINKS] * size  # each node with a candidate gets its own below
        self._add_weak(grid.candidates, digit_bits, homes, in_house)
        # ALS nodes, from als_base up: (set, entry digit j). All its j being off (a j seen
        # by all of them is on), the rest is locked: its other digits k leave every k
        # seeing all k of the set. enter[n]: the ALS nodes an "on" node switches on.
        self.als_base = len(self.digit)
        self.als: list[int] = []  # per ALS node: index into self.alses
        self.alses: tuple[Als, ...] = ()
        self.enter = [NO_LINKS] * size
        if grouped:
            self._add_als(grid, by_digit, max_als)
        assert not NO_LINKS

    def _add_groups(
        self,
        digit_bits: list[int],
        group_of: dict[tuple[int, int], int],
        homes: list[tuple[int, int]],
        in_house: list[list[int]],
        by_digit: list[int],
    ) -> None:
        """The group nodes: per digit, line and box the line crosses, the line's cells
        with the digit in the box, if two or more."""
        house_bits, box_bits, line_boxes = HOUSE_BITS, _BOX_BITS, _LINE_BOXES  # (locals)
        for d in range(1, 10):
            for line in range(18):
                in_line = house_bits[line] & digit_bits[d]
                if not in_line & (in_line - 1):
                    continue  # fewer than two cells
                for box in line_boxes[line]:
                    part = in_line & box_bits[box]
                    if part & (part - 1):  # two cells or more
                        group_of[(d, part)] = len(self.digit)
                        self.digit.append(d)
                        self.cell.append(-1)
                        self.cells.append(part)
                        self.buddies.append(common_peers(part))
                        homes.append((line, 18 + box))
                        g = len(self.digit) - 1
                        link(in_house, house_slot(d, line), g)
                        link(in_house, house_slot(d, 18 + box), g)
            by_digit.append(len(self.digit))

    def _add_strong(
        self,
        cands: list[int],
        digit_bits: list[int],
        group_of: dict[tuple[int, int], int],
        in_house: list[list[int]],
    ) -> None:
        """The strong links: a bivalue cell's two candidates; a house whose other places
        for a digit are exactly one node (a cell or a group node)."""
        strong = self.strong
        house_bits, digits_in, popcount = HOUSE_BITS, DIGITS_IN, POPCOUNT  # (locals: faster)
        for c in range(81):
            mask = cands[c]
            if popcount[mask] == 2:
                digits = digits_in[mask]
                a, b = c * 9 + digits[0] - 1, c * 9 + digits[1] - 1
                link(strong, a, b)
                link(strong, b, a)
        for d in range(1, 10):
            for house in range(27):
                placed = house_bits[house] & digit_bits[d]
                if not placed & (placed - 1):
                    continue  # fewer than two cells
                rest = placed & (placed - 1)
                if not rest & (rest - 1):  # exactly two cells
                    a = ((placed & -placed).bit_length() - 1) * 9 + d - 1
                    b = (rest.bit_length() - 1) * 9 + d - 1
                    if b not in strong[a]:  # once for a line and a box
                        link(strong, a, b)
                        link(strong, b, a)
                if not group_of:
                    continue
                # nodes inside this house: its cells and the group nodes it contains
                for n in in_house[house_slot(d, house)]:  # cell-to-cell pairs are done above
                    rest = placed & ~self.cells[n]
                    if rest and not rest & (rest - 1):
                        m = (rest.bit_length() - 1) * 9 + d - 1
                    else:
                        m = group_of.get((d, rest), -1)
                        if m < 0:
                            continue
                    if m not in strong[n]:
                        link(strong, n, m)
                    if n not in strong[m]:
                        link(strong, m, n)

    def _add_weak(
        self,
        cands: list[int],
        digit_bits: list[int],
        homes: list[tuple[int, int]],
        in_house: list[list[int]],
    ) -> None:
        """The weak links: the cell's other digits, the peers with the digit, the group
        nodes of the digit whose cells it all sees (the group nodes' own links: their
        cells' peers, the other group nodes of its line or box)."""
        strong, seen_groups, weak_go = self.strong, self.seen_groups, self.weak_go
        strong_bits = [0] * 10  # per digit: the cells whose candidate has a strong link
        for n in range(CELL_NODES):
            if strong[n]:
                strong_bits[candidate_digit(n)] |= 1 << candidate_cell(n)
        for g in range(CELL_NODES, len(self.digit)):
            d, part = self.digit[g], self.cells[g]
            for p in cells_of_bits(self.buddies[g] & digit_bits[d]):
                link(seen_groups, p * 9 + d - 1, g)
            go = weak_go[g] = [
                (p * 9 + d - 1) << STATE_NODE_SHIFT
                for p in cells_of_bits(self.buddies[g] & strong_bits[d])
            ]
            # the other group nodes of its line and box (those inside them), ascending
            line, box = homes[g - CELL_NODES]
            for h in sorted(in_house[house_slot(d, line)] + in_house[house_slot(d, box)]):
                if h != g and strong[h] and not self.cells[h] & part:
                    go.append(h << STATE_NODE_SHIFT | GROUP_OFF)
        self._add_cell_weak(cands, strong_bits)

    def _add_cell_weak(self, cands: list[int], strong_bits: list[int]) -> None:
        """The weak links of the candidate nodes (see ``_add_weak``)."""
        strong, seen_groups, weak_go = self.strong, self.seen_groups, self.weak_go
        digits_in = DIGITS_IN  # (a local: faster)
        strong_lo = [b & LOW_HALF for b in strong_bits]
        strong_hi = [b >> HALF_BITS for b in strong_bits]
        peer_lo, peer_hi = PEER_LO, PEER_HI
        for c in range(81):
            mask = cands[c]
            if not mask:
                continue
            digits = digits_in[mask]
            for d in digits:
                n = c * 9 + d - 1
                go = weak_go[n] = [
                    (c * 9 + e - 1) << STATE_NODE_SHIFT
                    for e in digits
                    if e != d and strong[c * 9 + e - 1]
                ]
                bits = peer_lo[c] & strong_lo[d]
                while bits:
                    low = bits & -bits
                    go.append(((low.bit_length() - 1) * 9 + d - 1) << STATE_NODE_SHIFT)
                    bits ^= low
                bits = peer_hi[c] & strong_hi[d]
                while bits:
                    low = bits & -bits
                    go.append(((low.bit_length() + HALF_BITS - 1) * 9 + d - 1) << STATE_NODE_SHIFT)
                    bits ^= low
                for g in seen_groups[n]:
                    if strong[g]:
                        go.append(g << STATE_NODE_SHIFT | GROUP_OFF)

    def _add_als(self, grid: Grid, by_digit: list[int], max_als: int) -> None:
        """The ALS nodes of the sets of up to ``max_als`` cells, their links in and out."""
        alses = self.alses = small_alses(grid, max_als)
        # the group nodes' cells by halves (see PEER_LO), to test "inside a set" fast
        part_lo = [part & LOW_HALF for part in self.cells]
        part_hi = [part >> HALF_BITS for part in self.cells]
        lost_at = [0] * 81  # per cell, scratch: the digits of a set it sees all of
        by_entry = [NO_LINKS] * ENTRY_SLOTS  # per entry_slot(digit, lowest cell): ALS nodes
        nodes_of: list[tuple[Als, range]] = []  # per set with nodes: the set, its node ids
        for i, a in enumerate(alses):
            locking, seeing, weak_of = self._als_locks(a, by_digit, part_lo, part_hi, lost_at)
            if not locking:
                continue
            losing = _losing(grid.candidates, seeing, lost_at)
            first = len(self.digit)
            for j in DIGITS_IN[a.mask]:
                if not locking & ~BIT[j]:
                    continue  # nothing is eliminated: a dead end
                n = self._add_als_node(grid.candidates, i, a, j, weak_of, losing)
                self._link_into_als(n, a, j, by_digit, part_lo, part_hi, by_entry)
            nodes_of.append((a, range(first, len(self.digit))))
        self._link_als_to_als(nodes_of, by_entry)

    def _als_locks(
        self,
        a: Als,
        by_digit: list[int],
        part_lo: list[int],
        part_hi: list[int],
        lost_at: list[int],
    ) -> tuple[int, int, list[list[int]]]:
        """A set's digits k with buddies (``locking``), the cells seeing all k of some k
        (``seeing``, each with those digits in ``lost_at``) and per k the nodes a locked k
        switches off (its cells, then the group nodes inside them), as the states of weak
        links into those with a strong link."""
        strong, bit = self.strong, BIT
        buddies = a.buddies
        locking = 0
        weak_of = [NO_LINKS] * 10
        seeing = 0
        for k in DIGITS_IN[a.mask]:
            kb = buddies[k]
            if not kb:
                continue
            locking |= bit[k]
            seeing |= kb
            k_weak = []
            for c in cells_of_bits(kb):
                lost_at[c] |= bit[k]
                if strong[c * 9 + k - 1]:
                    k_weak.append((c * 9 + k - 1) << STATE_NODE_SHIFT)
            kb_lo = kb & LOW_HALF
            kb_hi = kb >> HALF_BITS
            for gid in range(by_digit[k - 1], by_digit[k]):
                lo, hi = part_lo[gid], part_hi[gid]
                if lo & kb_lo == lo and hi & kb_hi == hi and strong[gid]:
                    k_weak.append(gid << STATE_NODE_SHIFT | GROUP_OFF)
            weak_of[k] = k_weak
        return locking, seeing, weak_of

    def _add_als_node(
        self,
        cands: list[int],
        i: int,
        a: Als,
        j: int,
        weak_of: list[list[int]],
        losing: list[tuple[int, int]],
    ) -> int:
        """Add the node of set ``i`` entered by ``j``: its weak links out (its digits but
        ``j``) and the cells it forces; its id."""
        n = len(self.digit)
        self.digit.append(j)
        self.cell.append(-1)
        self.cells.append(a.bits)
        self.buddies.append(0)
        self.als.append(i)
        go: list[int] = []
        for k in DIGITS_IN[a.mask]:
            if k != j:
                go.extend(weak_of[k])
        self.weak_go.append(go)
        self.strong.append(NO_LINKS)
        forced = []
        for c, lost in losing:
            left = cands[c] & ~(lost & ~BIT[j])
            if POPCOUNT[left] == 1:
                forced.append(c * 9 + DIGITS_IN[left][0] - 1)
        self.enter.append(forced)
        return n

    def _link_into_als(
        self,
        n: int,
        a: Als,
        j: int,
        by_digit: list[int],
        part_lo: list[int],
        part_hi: list[int],
        by_entry: list[list[int]],
    ) -> None:
        """The links into ALS node ``n`` (set ``a`` entered by ``j``): from the candidates
        and group nodes of ``j`` that see every ``j`` of the set; and ``by_entry``."""
        enter = self.enter
        jb = a.buddies[j]
        if jb:
            for c in cells_of_bits(jb):
                link(enter, c * 9 + j - 1, n)
            jb_lo = jb & LOW_HALF
            jb_hi = jb >> HALF_BITS
            for gid in range(by_digit[j - 1], by_digit[j]):
                lo, hi = part_lo[gid], part_hi[gid]
                if lo & jb_lo == lo and hi & jb_hi == hi:
                    link(enter, gid, n)
        dc = a.dcells[j]
        link(by_entry, entry_slot(j, (dc & -dc).bit_length() - 1), n)

    def _link_als_to_als(
        self, nodes_of: list[tuple[Als, range]], by_entry: list[list[int]]
    ) -> None:
        """One ALS switches on another when its eliminations of a digit k cover all the
        other's k (worked out once per set and k, then given to its nodes entered by
        j != k)."""
        alses, enter, base = self.alses, self.enter, self.als_base
        digits_in = DIGITS_IN  # (a local: faster)
        for a, nodes in nodes_of:
            if not nodes:
                continue
            switched = [NO_LINKS] * 10
            for k in digits_in[a.mask]:
                kb = a.buddies[k]
                if not kb:
                    continue
                hits = []
                for c in cells_of_bits(kb):
                    for m in by_entry[entry_slot(k, c)]:
                        b = alses[self.als[m - base]]
                        if not b.bits & a.bits and b.dcells[k] & kb == b.dcells[k]:
                            hits.append(m)
                if hits:
                    switched[k] = hits
            for n in nodes:
                j = self.digit[n]
                for k in digits_in[a.mask]:
                    if k != j:
                        enter[n].extend(switched[k])

    def set_of(self, node: int) -> Als:
        """The almost locked set of an ALS node."""
        return self.alses[self.als[node - self.als_base]]


def _losing(cands: list[int], seeing: int, lost_at: list[int]) -> list[tuple[int, int]]:
    """The cells seeing all of some digits of a set that may lose all their digits but
    one, with those digits (``lost_at``, reset here): that one is forced (HoDoKu; a
    bivalue cell gets there by its own strong link)."""
    popcount = POPCOUNT
    losing = []
    for c in cells_of_bits(seeing):
        lost = lost_at[c]
        lost_at[c] = 0
        if popcount[cands[c]] > 2 and popcount[cands[c] & ~lost] <= 1:
            losing.append((c, lost))
    return losing
