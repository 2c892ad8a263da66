"""Nice Loops and Alternating Inference Chains (AIC), plain and grouped (HoDoKu 0706-0711).

A node is a candidate (one cell, one digit) or, in the grouped search, a group node: the
2-3 cells of a box-line intersection that hold a digit ("the digit is in one of them").
If a node is true, every node it weakly links to is false; if a node is false, every
node it strongly links to is true. From every candidate, once assumed true and once
assumed false, a breadth-first search follows these alternating implications; the
shortest chain to each node is kept. Then, as HoDoKu does:

- a chain that comes back to its start cell is a Nice Loop: discontinuous when the two
  ends contradict each other (the start candidate goes, or is the only one left),
  continuous when they agree (every weak link of the loop becomes strong, so candidates
  seeing both ends of a weak link go, and cells entered and left by strong links keep
  only their two loop digits);
- a chain from "candidate off" to another cell's "candidate on" is an AIC: one of its
  ends is true, so a candidate seeing both ends of the same digit goes (at least two of
  them, else HoDoKu calls it a Nice Loop), or, with different digits in cells that see
  each other, each end's digit leaves the other end.

A step is grouped when its chain holds a group node or an ALS node (an almost locked set
whose entry digit is all off, so that its other digits are locked: a cell seeing all of
some of them may be left one digit, forced); the grouped techniques only report those (the
plain ones come first in the solve order). Both searches run once per grid state and are
shared by the three techniques of their kind. The grouped search uses sets of up to 3
cells; a second, wider one (up to 5 cells, as HoDoKu's tables) keeps other chains per node
and serves callers asking for every instance, never the solve loop (see GROUPED_ORDER).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Final, cast

from ..grid import (
    BIT,
    COL_OF,
    DIGITS_IN,
    HALF_BITS,
    HOUSE_BITS,
    HOUSES,
    LOW_HALF,
    PEER_BITS,
    PEER_HI,
    PEER_LO,
    POPCOUNT,
    ROW_OF,
    Grid,
    cells_of_bits,
    common_peers,
)
from ..steps import ChainNode, Step, cells_text, eliminations_text
from .als import Als, make_als
from .statecache import digit_patterns, last_state

MAX_LINKS: Final = 24  # longer chains explain nothing a person can follow
MAX_ALS_NODE_CELLS = 3
# A second, wider search (sets of up to 5 cells, as HoDoKu's tables allow; its breadth-first
# chains differ, so it finds loops the first one kept another chain for) runs only for a
# caller asking for more than the first search's steps (see GROUPED_ORDER).
WIDE_ALS_NODE_CELLS = 5
CELL_NODES: Final = 729  # node id of candidate (cell, digit) is cell * 9 + digit - 1

CNL: Final = "continuous-nice-loop"
DNL: Final = "discontinuous-nice-loop"
AIC: Final = "aic"
GROUPED = {CNL: "grouped-" + CNL, DNL: "grouped-" + DNL, AIC: "grouped-aic"}
# The solve order of the grouped techniques (the registry keeps it): the wide search serves a
# technique only where the first search found it or one asked before it, so the solve loop,
# which stops at the first technique with a step, never runs the wide search. Discontinuous
# loops come first: where the first search found only those (the most common kind), the wide
# search still serves continuous loops and AICs (HoDoKu's library lines 697 and 747).
GROUPED_ORDER = (GROUPED[DNL], GROUPED[CNL], GROUPED[AIC])


_BOX_BITS: tuple[int, ...] = HOUSE_BITS[18:]
# per line (rows, then columns): the boxes it crosses, ascending
_LINE_BOXES: tuple[tuple[int, ...], ...] = tuple(
    tuple(b for b in range(9) if HOUSE_BITS[line] & _BOX_BITS[b]) for line in range(18)
)
# the candidate nodes' attributes, copied for every graph
_CELL_DIGIT: tuple[int, ...] = tuple(n % 9 + 1 for n in range(CELL_NODES))
_CELL_CELL: tuple[int, ...] = tuple(n // 9 for n in range(CELL_NODES))
_CELL_CELLS: tuple[int, ...] = tuple(1 << (n // 9) for n in range(CELL_NODES))
_CELL_BUDDIES: tuple[int, ...] = tuple(PEER_BITS[n // 9] for n in range(CELL_NODES))
# The links of a node that has none, shared (never appended to: ``_link`` gives a node its
# own list): most nodes have none, and a list each would cost time (and garbage collections).
_NO_LINKS: Final[list[int]] = []


def _link(lists: list[list[int]], n: int, m: int) -> None:
    """Append ``m`` to ``lists[n]``, giving ``n`` a list of its own on its first one."""
    if lists[n] is _NO_LINKS:
        lists[n] = [m]
    else:
        lists[n].append(m)


class _Graph:
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
        cands = grid.candidates
        digit_bits = digit_patterns(grid)
        house_bits, digits_in = HOUSE_BITS, DIGITS_IN  # (locals: faster)
        box_bits, line_boxes, popcount = _BOX_BITS, _LINE_BOXES, POPCOUNT
        self.digit: list[int] = list(_CELL_DIGIT)
        self.cell: list[int] = list(_CELL_CELL)
        self.cells: list[int] = list(_CELL_CELLS)
        self.buddies: list[int] = list(_CELL_BUDDIES)
        # group nodes, keyed by (digit, cell set) to find "the rest of a house is a group"
        group_of: dict[tuple[int, int], int] = {}
        homes: list[tuple[int, int]] = []  # per group node: its line and its box (houses)
        in_house = [_NO_LINKS] * 243  # (digit - 1) * 27 + house: its group nodes
        by_digit = [CELL_NODES]  # group nodes of digit d: by_digit[d - 1] up to by_digit[d]
        if grouped:
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
                            _link(in_house, (d - 1) * 27 + line, g)
                            _link(in_house, (d - 1) * 27 + 18 + box, g)
                by_digit.append(len(self.digit))
        size = len(self.digit)
        self.strong = [_NO_LINKS] * size
        strong = self.strong
        for c in range(81):
            mask = cands[c]
            if popcount[mask] == 2:
                digits = digits_in[mask]
                a, b = c * 9 + digits[0] - 1, c * 9 + digits[1] - 1
                _link(strong, a, b)
                _link(strong, b, a)
        # strong links: a house whose other places for the digit are exactly one node
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
                        _link(strong, a, b)
                        _link(strong, b, a)
                if not group_of:
                    continue
                # nodes inside this house: its cells and the group nodes it contains
                for n in in_house[(d - 1) * 27 + house]:  # cell-to-cell pairs are done above
                    rest = placed & ~self.cells[n]
                    if rest and not rest & (rest - 1):
                        m = (rest.bit_length() - 1) * 9 + d - 1
                    else:
                        m = group_of.get((d, rest), -1)
                        if m < 0:
                            continue
                    if m not in strong[n]:
                        _link(strong, n, m)
                    if n not in strong[m]:
                        _link(strong, m, n)
        # weak links: the cell's other digits, the peers with the digit, the group nodes
        # of the digit whose cells it all sees (the group nodes' own links: their cells'
        # peers, the other group nodes of its line or box)
        strong_bits = [0] * 10  # per digit: the cells whose candidate has a strong link
        for n in range(CELL_NODES):
            if strong[n]:
                strong_bits[n % 9 + 1] |= 1 << (n // 9)
        self.seen_groups = [_NO_LINKS] * CELL_NODES
        seen_groups = self.seen_groups
        weak_go = [_NO_LINKS] * size  # each node with a candidate gets its own below
        self.weak_go = weak_go
        for g in range(CELL_NODES, size):
            d, part = self.digit[g], self.cells[g]
            for p in cells_of_bits(self.buddies[g] & digit_bits[d]):
                _link(seen_groups, p * 9 + d - 1, g)
            go = weak_go[g] = [
                p * 72 + (d - 1) * 8 for p in cells_of_bits(self.buddies[g] & strong_bits[d])
            ]
            # the other group nodes of its line and box (those inside them), ascending
            line, box = homes[g - CELL_NODES]
            for h in sorted(in_house[(d - 1) * 27 + line] + in_house[(d - 1) * 27 + box]):
                if h != g and strong[h] and not self.cells[h] & part:
                    go.append(h * 8 + 2)
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
                    c * 72 + (e - 1) * 8 for e in digits if e != d and strong[c * 9 + e - 1]
                ]
                bits = peer_lo[c] & strong_lo[d]
                while bits:
                    low = bits & -bits
                    go.append((low.bit_length() - 1) * 72 + (d - 1) * 8)
                    bits ^= low
                bits = peer_hi[c] & strong_hi[d]
                while bits:
                    low = bits & -bits
                    go.append((low.bit_length() + HALF_BITS - 1) * 72 + (d - 1) * 8)
                    bits ^= low
                for g in seen_groups[n]:
                    if strong[g]:
                        go.append(g * 8 + 2)
        # ALS nodes, from als_base up: (set, entry digit j). All its j being off (a j seen
        # by all of them is on), the rest is locked: its other digits k leave every k
        # seeing all k of the set. enter[n]: the ALS nodes an "on" node switches on.
        self.als_base = len(self.digit)
        self.als: list[int] = []  # per ALS node: index into self.alses
        self.alses: tuple[Als, ...] = ()
        self.enter = [_NO_LINKS] * size
        if grouped:
            self._add_als(grid, by_digit, max_als)
        assert not _NO_LINKS

    def _add_als(self, grid: Grid, by_digit: list[int], max_als: int) -> None:
        alses = self.alses = _small_alses(grid, max_als)
        cands = grid.candidates
        digits_in, popcount, bit = DIGITS_IN, POPCOUNT, BIT  # (locals: faster)
        strong, weak_go, enter = self.strong, self.weak_go, self.enter
        # the group nodes' cells by halves (see PEER_LO), to test "inside a set" fast
        part_lo = [part & LOW_HALF for part in self.cells]
        part_hi = [part >> HALF_BITS for part in self.cells]
        lost_at = [0] * 81  # per cell, scratch: the digits of a set it sees all of
        by_entry = [_NO_LINKS] * 810  # digit * 81 + its lowest cell in the set: ALS nodes
        nodes_of: list[tuple[Als, range]] = []  # per set with nodes: the set, its node ids
        for i, a in enumerate(alses):
            digits = digits_in[a.mask]
            buddies = a.buddies
            # per digit k with buddies (in ``locking``): the nodes a locked k switches off
            # (its cells, then the group nodes inside them), as the states of weak links
            # into those with a strong link
            locking = 0
            weak_of = [_NO_LINKS] * 10
            seeing = 0
            for k in digits:
                kb = buddies[k]
                if not kb:
                    continue
                locking |= bit[k]
                seeing |= kb
                k_weak = []
                for c in cells_of_bits(kb):
                    lost_at[c] |= bit[k]
                    if strong[c * 9 + k - 1]:
                        k_weak.append((c * 9 + k - 1) * 8)
                kb_lo = kb & LOW_HALF
                kb_hi = kb >> HALF_BITS
                for gid in range(by_digit[k - 1], by_digit[k]):
                    lo, hi = part_lo[gid], part_hi[gid]
                    if lo & kb_lo == lo and hi & kb_hi == hi and strong[gid]:
                        k_weak.append(gid * 8 + 2)
                weak_of[k] = k_weak
            if not locking:
                continue
            # a cell seeing all of some digits of the set may lose all its digits but one:
            # that one is forced (HoDoKu; a bivalue cell gets there by its own strong link)
            losing = []
            for c in cells_of_bits(seeing):
                lost = lost_at[c]
                lost_at[c] = 0
                if popcount[cands[c]] > 2 and popcount[cands[c] & ~lost] <= 1:
                    losing.append((c, lost))
            first = len(self.digit)
            for j in digits:
                if not locking & ~bit[j]:
                    continue  # nothing is eliminated: a dead end
                n = len(self.digit)
                self.digit.append(j)
                self.cell.append(-1)
                self.cells.append(a.bits)
                self.buddies.append(0)
                self.als.append(i)
                go: list[int] = []
                for k in digits:
                    if k != j:
                        go.extend(weak_of[k])
                weak_go.append(go)
                strong.append(_NO_LINKS)
                forced = []
                for c, lost in losing:
                    left = cands[c] & ~(lost & ~bit[j])
                    if popcount[left] == 1:
                        forced.append(c * 9 + digits_in[left][0] - 1)
                enter.append(forced)
                jb = buddies[j]
                if jb:
                    for c in cells_of_bits(jb):
                        _link(enter, c * 9 + j - 1, n)
                    jb_lo = jb & LOW_HALF
                    jb_hi = jb >> HALF_BITS
                    for gid in range(by_digit[j - 1], by_digit[j]):
                        lo, hi = part_lo[gid], part_hi[gid]
                        if lo & jb_lo == lo and hi & jb_hi == hi:
                            _link(enter, gid, n)
                dc = a.dcells[j]
                _link(by_entry, j * 81 + (dc & -dc).bit_length() - 1, n)
            nodes_of.append((a, range(first, len(self.digit))))
        # one ALS switches on another when its eliminations of a digit k cover all the
        # other's k (worked out once per set and k, then given to its nodes entered by j != k)
        base = self.als_base
        for a, nodes in nodes_of:
            if not nodes:
                continue
            switched = [_NO_LINKS] * 10
            for k in digits_in[a.mask]:
                kb = a.buddies[k]
                if not kb:
                    continue
                hits = []
                for c in cells_of_bits(kb):
                    for m in by_entry[k * 81 + c]:
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


def _small_alses(grid: Grid, max_cells: int) -> tuple[Als, ...]:
    """The ALS of 2..``max_cells`` cells of the grid (those a chain can use)."""
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


# A chain node is node * 2 + (1 if true else 0); a search state also says whether the
# chain to it went through a group node or an ALS, so that the shortest grouped chain is
# kept too: level * 2 of a node is 0 a cell, 1 a group node, 2 an ALS, 3 a cell forced by
# an ALS; a state keeps the highest level on its chain, so that ALS chains never displace
# the shortest chain without one (nor a grouped chain a plain one).
State = int  # node * 8 + level * 2 + on
# The parent of the start state. The parents are kept as the states' own (boxed) int
# objects, None where not reached: the search then tests them by identity, and neither
# stores nor reads a state without allocating or unboxing an int.
_ROOT: Final[object] = object()


def _search(grid: Grid, grouped: bool, max_als: int = MAX_ALS_NODE_CELLS) -> list[Step]:
    """Every Nice Loop and AIC of the grid (grouped search: those with a group node or an
    ALS of up to ``max_als`` cells)."""
    return _Search(grid, grouped, max_als).run()


class _Search:
    """One search over one grid state: the graph, the breadth-first search's scratch
    arrays (reused by every start, as a flat ``parent`` array instead of a dict) and the
    steps found. Methods rather than closures: mypyc compiles them to direct calls."""

    def __init__(self, grid: Grid, grouped: bool, max_als: int) -> None:
        g = self.g = _Graph(grid, grouped, max_als)
        self.cands: list[int] = grid.candidates
        self.digit_bits: list[int] = digit_patterns(grid)
        self.grouped = grouped
        self.als_base: int = g.als_base
        self.cell_of: list[int] = g.cell
        self.cells_of: list[int] = g.cells
        size = len(g.digit)
        self.strong: list[list[int]] = g.strong
        self.enter: list[list[int]] = g.enter
        self.weak_go: list[list[State]] = g.weak_go
        als_base = g.als_base
        # per cell, the loops an ALS node closes into it: the node (less als_base) and the
        # off state of the cell's candidate k, for each digit k of the set other than the
        # entry digit whose buddies hold the cell (flat pairs, nodes and then k ascending)
        als_exits_at: list[list[int]] = [_NO_LINKS] * 81
        digit_of = g.digit
        for n in range(als_base, size):
            a = g.set_of(n)
            buddies = a.buddies
            for k in DIGITS_IN[a.mask & ~BIT[digit_of[n]]]:
                bits = buddies[k]
                while bits:
                    low = bits & -bits
                    c = low.bit_length() - 1
                    bits ^= low
                    if als_exits_at[c] is _NO_LINKS:
                        als_exits_at[c] = [n - als_base, (c * 9 + k - 1) * 8]
                    else:
                        als_exits_at[c].append(n - als_base)
                        als_exits_at[c].append((c * 9 + k - 1) * 8)
        self.als_exits_at = als_exits_at
        # per ALS node (less als_base), for the current start cell: the off states of its
        # candidates the node closes a loop on when on (see ``als_exits_at``)
        self.als_close: list[list[int]] = [_NO_LINKS] * (size - als_base)
        # per state, the index in ``order`` of the state it was reached from
        self.parent: list[object] = [None] * (size * 8)
        self.order: list[object] = []  # the states reached, in order (also the BFS queue)
        # the states of ``order`` in the start cell (but the start), and (when asked for)
        # those of candidates on outside it, in order: the ends of loops and of AICs
        self.ends: list[object] = []
        self.ons: list[object] = []
        # per state, the states its links lead to (at its level or higher, see ``State``):
        # ``links[go_from[state]:go_to[state]]``, made on its first visit and kept for the
        # searches from the other starts (one flat list: no list per state to collect)
        # (each followed by None)
        self.go_from: list[int] = [-1] * (size * 8)
        self.links: list[object] = []
        # per node below als_base, for the current start cell: the off state of the start
        # cell's candidate it closes a loop on when on (it sees it, same digit), else -1
        self.close: list[int] = [-1] * g.als_base
        # per (technique, eliminations): the shortest chain's length, the technique, the
        # chain and the eliminations (its step is made once the search is done)
        self.found: dict[
            tuple[str, frozenset[tuple[int, int]]],
            tuple[int, str, list[State], set[tuple[int, int]]],
        ] = {}

    def run(self) -> list[Step]:
        """Search from both assumptions on every candidate: the steps, shortest chain first."""
        cands, close, digit_bits = self.cands, self.close, self.digit_bits
        strong, enter, weak_go = self.strong, self.enter, self.weak_go
        seen_groups = self.g.seen_groups
        als_exits_at, als_close = self.als_exits_at, self.als_close
        peer_bits, popcount, digits_in = PEER_BITS, POPCOUNT, DIGITS_IN  # (locals: faster)
        for s_cell in range(81):
            s_mask = cands[s_cell]
            if not s_mask:
                continue
            bivalue = popcount[s_mask] == 2
            digits = digits_in[s_mask]
            # the nodes seeing a start cell's candidate, of its digit: the cells, the groups
            closing: list[int] = []  # (to reset them after)
            for d in digits:
                s_node = s_cell * 9 + d - 1
                for p in cells_of_bits(peer_bits[s_cell] & digit_bits[d]):
                    close[p * 9 + d - 1] = s_node * 8
                    closing.append(p * 9 + d - 1)
                for m in seen_groups[s_node]:
                    close[m] = s_node * 8
                    closing.append(m)
            # the ALS nodes closing loops into the start cell
            exits_at = als_exits_at[s_cell]
            for i in range(0, len(exits_at), 2):
                n = exits_at[i]
                if als_close[n] is _NO_LINKS:
                    als_close[n] = [exits_at[i + 1]]
                else:
                    als_close[n].append(exits_at[i + 1])
            # per digit, the AICs of the search with it off, then (bivalue) of the other
            # digit's search with it on, after the start's strong link inside the cell; the
            # loops of all searches come first (the order of the steps found matters)
            own: dict[int, list[tuple[list[State], set[tuple[int, int]]]]] = {}
            via: dict[int, list[tuple[list[State], set[tuple[int, int]]]]] = {}
            for d in digits:
                start = s_cell * 9 + d - 1
                own[d] = []
                for on in (True, False):
                    # a start without a link out reaches nothing: no chain, no search
                    if not ((enter[start] or weak_go[start]) if on else strong[start]):
                        continue
                    self.bfs(start, on, not on or bivalue)
                    self.loops(s_cell, d, on, bivalue)
                    if not on:
                        own[d] = self.aics(s_cell, d, -1)
                    elif bivalue:
                        other = digits[0] if digits[1] == d else digits[1]
                        via[other] = self.aics(s_cell, other, (s_cell * 9 + other - 1) * 8)
            for d in digits:
                for chain, elims in own[d]:
                    self.add(AIC, chain, elims)
                for chain, elims in via.get(d, []):
                    self.add(AIC, chain, elims)
            for m in closing:
                close[m] = -1
            for i in range(0, len(exits_at), 2):
                als_close[exits_at[i]] = _NO_LINKS
        kept = sorted(self.found.values(), key=lambda found: found[0])
        return [self.step(tech, chain, elims) for _n, tech, chain, elims in kept]

    def bfs(self, start: int, on: bool, aics: bool) -> None:
        """Shortest chains from one assumption (into ``parent`` and ``order``, the loops'
        ends into ``ends``, with ``aics`` the AICs' into ``ons``); the first link leaves
        the start cell, a chain back into it ends there (a loop)."""
        parent, order, ends, ons = self.parent, self.order, self.ends, self.ons
        for obj in order:
            parent[cast(int, obj)] = None
        order.clear()
        ends.clear()
        ons.clear()
        go_from, links = self.go_from, self.links
        close, als_base = self.close, self.als_base
        als_close = self.als_close
        s_cell = start // 9
        # the states of the start cell's candidates (cell nodes only): lo <= st < hi
        lo = s_cell * 72
        hi = lo + 72
        parent[start * 8 + (1 if on else 0)] = _ROOT
        order.append(start * 8 + (1 if on else 0))
        # ``order`` is the queue (it grows while read): the states before ``level_end`` are
        # ``depth`` links away
        level_end = 1
        depth = 0
        stop = -1  # where the queue was left at the depth limit
        for at, obj in enumerate(order):
            if at == level_end:
                depth += 1
                if depth >= MAX_LINKS:
                    stop = at
                    break
                level_end = len(order)
            state = cast(int, obj)
            if at and lo <= state < hi:
                ends.append(obj)
                continue  # back in the start cell: a loop, not expanded
            if state & 1:
                node = state >> 3
                if node < als_base:
                    if aics and node < CELL_NODES:
                        ons.append(obj)
                    closure = close[node]
                    if closure >= 0 and parent[closure + (state & 6)] is None:
                        parent[closure + (state & 6)] = obj
                        order.append(closure + (state & 6))
                else:
                    for closure in als_close[node - als_base]:
                        closure += state & 6
                        if parent[closure] is None:
                            parent[closure] = obj
                            order.append(closure)
            i = go_from[state]
            if i < 0:
                i = self.add_links(state)
            x = links[i]
            while x is not None:
                st = cast(int, x)
                # not seen, and the first link leaves the start cell
                if parent[st] is None and (at or not lo <= st < hi):
                    parent[st] = obj
                    order.append(x)
                i += 1
                x = links[i]
        if stop >= 0:  # the states left in the queue end chains too
            for at in range(stop, len(order)):
                obj = order[at]
                state = cast(int, obj)
                if lo <= state < hi:
                    ends.append(obj)
                elif aics and state & 1 and state < CELL_NODES * 8:
                    ons.append(obj)

    def add_links(self, state: State) -> int:
        """Put the states a state's links lead to in ``links``, then None; their first
        index. Its node's links: when off, the strong ones (to nodes on); when on, into
        ALS nodes (on) or cells forced by one (on, at level 3), then the weak ones (off).
        At the state's level where theirs is lower."""
        node = state >> 3
        level = state & 6
        links = self.links
        first = len(links)
        if state & 1:
            als_base = self.als_base
            for m in self.enter[node]:
                x = m * 8 + 5 if m >= als_base else m * 8 + 7
                own = x & 6
                links.append(x if own >= level else x - own + level)
            for x in self.weak_go[node]:
                own = x & 6
                links.append(x if own >= level else x - own + level)
        else:
            for m in self.strong[node]:
                x = m * 8 + 1 if m < CELL_NODES else m * 8 + 3
                own = x & 6
                links.append(x if own >= level else x - own + level)
        links.append(None)
        self.go_from[state] = first
        return first

    def loops(self, s_cell: int, d: int, on: bool, bivalue: bool) -> None:
        """The Nice Loops of the last search: its chains back into the start cell."""
        grouped = self.grouped
        start = s_cell * 9 + d - 1
        first_strong = not on
        for obj in self.ends:
            end = cast(int, obj)
            if (end & 6 != 0) != grouped:
                continue
            end_node = end >> 3
            last_strong = end & 1 == 1
            if end_node == start and last_strong == on:
                continue
            e = end_node % 9 + 1
            if (first_strong == last_strong) == (e == d):
                kind = DNL  # the ends contradict each other
            elif e != d and (first_strong or bivalue):  # the ends agree, two digits
                kind = CNL
            else:
                continue
            chain = self.path(end)
            if chain is None or len(chain) < 4:
                continue
            if kind == CNL:
                elims = self.continuous(chain, s_cell)
            elif e != d:
                elims = {(s_cell, e if first_strong else d)}
            elif first_strong:
                elims = {(s_cell, x) for x in DIGITS_IN[self.cands[s_cell]] if x != d}
            else:
                elims = {(s_cell, d)}
            self.add(kind, chain, elims)

    def aics(
        self, s_cell: int, d: int, prefix: State
    ) -> list[tuple[list[State], set[tuple[int, int]]]]:
        """The AICs of the last search (after ``prefix`` if given): chains with ``d`` off in
        the start cell to a candidate on in another cell."""
        cands, grouped = self.cands, self.grouped
        peer_bits, bit = PEER_BITS, BIT
        s_mask = cands[s_cell]
        # cells seeing the start cell and holding d: those seeing both ends lose d
        s_seen = peer_bits[s_cell] & self.digit_bits[d]
        out: list[tuple[list[State], set[tuple[int, int]]]] = []
        for obj in self.ons:
            end = cast(int, obj)
            if (end & 6 != 0) != grouped:
                continue
            end_node = end >> 3
            t_cell = end_node // 9
            e = end_node % 9 + 1
            if e == d:
                bits = s_seen & peer_bits[t_cell]
                if not bits & (bits - 1):
                    continue  # one elimination is a discontinuous nice loop
                elims = {(c, d) for c in cells_of_bits(bits)}
            elif peer_bits[s_cell] >> t_cell & 1 and s_mask & bit[e] and cands[t_cell] & bit[d]:
                elims = {(s_cell, e), (t_cell, d)}
            else:
                continue
            chain = self.path(end, prefix, aic=True)
            if chain is None or len(chain) < 4:
                continue
            out.append((chain, elims))
        return out

    def primary(self, node: int) -> int:
        """The cell HoDoKu names a node by: its first cell (an ALS: its first entry cell)."""
        g = self.g
        cs = self.cells_of[node] if node < self.als_base else g.set_of(node).dcells[g.digit[node]]
        return (cs & -cs).bit_length() - 1

    def hodoku_lasso_free(self, out: list[int], aic: bool) -> bool:
        """HoDoKu's test for chains with ALS: no node's first cell lies in an earlier
        node (but the one just before it, and, in a loop, those in the start cell)."""
        start = self.primary(out[0] >> 1)
        lasso = 0
        last = -1
        for st in out:
            node = st >> 1
            if lasso >> self.primary(node) & 1:
                return False
            if last >= 0 and (aic or self.primary(last) != start):
                lasso |= self.cells_of[last]
            last = node
        return True

    def path(self, end: State, prefix: State = -1, aic: bool = False) -> list[State] | None:
        """The last search's chain to ``end`` (after ``prefix`` if given), or None for a
        lasso."""
        parent, cells_of, als_base = self.parent, self.cells_of, self.als_base
        out = [end]
        at = parent[end]
        while at is not _ROOT:
            st = cast(int, at)
            out.append(st)
            at = parent[st]
        if prefix >= 0:
            out.append(prefix)
        out.reverse()
        out = [(st >> 3) * 2 + (st & 1) for st in out]
        if any(st >> 1 >= als_base for st in out):
            return out if self.hodoku_lasso_free(out, aic) else None
        start_cells = cells_of[out[0] >> 1]
        seen = 0
        prev = 0
        last = len(out) - 1
        for k, st in enumerate(out):
            cs = cells_of[st >> 1]
            # a group may cover the start cell: the loop closes through a single cell
            node = st >> 1
            again = cs & seen & ~start_cells if CELL_NODES <= node < als_base else cs & seen
            if again and cs != prev and not (k == last and cs == start_cells):
                return None  # a cell left and entered again
            seen |= cs
            prev = cs
        return out

    def add(self, kind: str, chain: list[State], elims: set[tuple[int, int]]) -> None:
        if not elims:
            return
        cells_of, als_base, grouped = self.cells_of, self.als_base, self.grouped
        is_grouped = any(st >> 1 >= CELL_NODES for st in chain)
        if grouped != is_grouped:
            return
        tech = GROUPED[kind] if grouped else kind
        key = (tech, frozenset(elims))
        old = self.found.get(key)
        # an ALS counts as its cells (HoDoKu's penalty): a set is harder to see than a link
        length = len(chain)
        length += sum(cells_of[st >> 1].bit_count() for st in chain if st >> 1 >= als_base)
        if old is not None and old[0] <= length:
            return
        self.found[key] = (length, tech, chain, elims)

    def step(self, tech: str, chain: list[State], elims: set[tuple[int, int]]) -> Step:
        """The step of a chain kept in ``found``."""
        g, cells_of, als_base = self.g, self.cells_of, self.als_base
        nodes: list[ChainNode] = []
        cells: list[int] = []
        for i, st in enumerate(chain):
            node = st >> 1
            cells.extend(c for c in cells_of_bits(cells_of[node]) if c not in cells)
            if node < als_base:
                nodes.append((tuple(cells_of_bits(cells_of[node])), g.digit[node], bool(st & 1)))
                continue
            # an ALS is two nodes: its entry digit off (weak link in), its exit digit on
            a, j, k = g.set_of(node), g.digit[node], self.exit_digit(chain, i)
            nodes.append((tuple(cells_of_bits(a.dcells[j])), j, False))
            nodes.append((tuple(cells_of_bits(a.dcells[k])), k, True))
        return Step(
            tech,
            eliminations=tuple(sorted(elims)),
            cells=tuple(cells),
            digits=tuple(sorted({d for _c, d, _o in nodes})),
            chain=tuple(nodes),
            houses=tuple(g.set_of(st >> 1).house for st in chain if st >> 1 >= als_base),
            extra=tuple(c for st in chain if st >> 1 >= als_base for c in g.set_of(st >> 1).cells),
        )

    def exit_digit(self, chain: list[State], i: int) -> int:
        """The digit by which the ALS at ``chain[i]`` acts on the next node."""
        g = self.g
        a, nxt = g.set_of(chain[i] >> 1), chain[i + 1]
        if not nxt & 1 or nxt >> 1 >= self.als_base:
            return g.digit[nxt >> 1]
        # a forced cell: the set took all its other digits, name the first of them
        c = self.cell_of[nxt >> 1]
        j = g.digit[chain[i] >> 1]
        return min(k for k in DIGITS_IN[a.mask] if k != j and a.buddies[k] >> c & 1)

    def seen_by(self, node: int, d: int) -> int:
        """Cells seeing every cell of a node that holds ``d`` (all its cells but an ALS's)."""
        g = self.g
        return g.buddies[node] if node < self.als_base else g.set_of(node).buddies[d]

    def continuous(self, chain: list[State], s_cell: int) -> set[tuple[int, int]]:
        g, cands, cell_of, als_base = self.g, self.cands, self.cell_of, self.als_base
        elims: set[tuple[int, int]] = set()
        chain_cells = 0
        for st in chain:
            chain_cells |= self.cells_of[st >> 1]
        first_strong = not chain[0] & 1
        last_strong = bool(chain[-1] & 1)
        last = len(chain) - 1
        if first_strong and last_strong:
            keep = BIT[g.digit[chain[0] >> 1]] | BIT[g.digit[chain[-1] >> 1]]
            elims.update((s_cell, e) for e in DIGITS_IN[cands[s_cell] & ~keep])
        for i in range(1, last + 1):
            node, prev = chain[i] >> 1, chain[i - 1] >> 1
            if node >= als_base:
                # weak link into an ALS, then the set is locked without its entry digit j:
                # j leaves cells seeing both ends, its digits other than j and the exit
                # digit leave cells seeing all of theirs in the set
                a, j, k = g.set_of(node), g.digit[node], self.exit_digit(chain, i)
                bits = self.seen_by(prev, j) & a.buddies[j] & ~chain_cells & ~(1 << s_cell)
                elims.update((c, j) for c in cells_of_bits(bits) if cands[c] & BIT[j])
                nxt = chain[i + 1] >> 1
                if chain[i + 1] & 1 and nxt < als_base:
                    # the set forces a cell: all that cell's other digits are exits, each
                    # leaves cells seeing it in the set and in the cell (HoDoKu)
                    c = cell_of[nxt]
                    exits = cands[c] & ~BIT[g.digit[nxt]]
                    for x in DIGITS_IN[exits]:
                        bits = a.buddies[x] & PEER_BITS[c]
                        elims.update((p, x) for p in cells_of_bits(bits))
                else:
                    exits = BIT[k]
                for e in DIGITS_IN[a.mask & ~BIT[j] & ~exits]:
                    elims.update((c, e) for c in cells_of_bits(a.buddies[e]))
            elif chain[i] & 1:
                # entered by a strong link, weak link inside the cell, strong link out
                if (
                    i <= last - 2
                    and node < CELL_NODES
                    and cell_of[prev] != cell_of[node]
                    and not chain[i + 1] & 1
                    and cell_of[chain[i + 1] >> 1] == cell_of[node]
                    and chain[i + 2] & 1
                    and cell_of[chain[i + 2] >> 1] != cell_of[node]
                ):
                    c = cell_of[node]
                    keep = BIT[g.digit[node]] | BIT[g.digit[chain[i + 2] >> 1]]
                    elims.update((c, e) for e in DIGITS_IN[cands[c] & ~keep])
            elif cell_of[prev] != cell_of[node] or node >= CELL_NODES:
                # weak link between cells: its digit leaves cells seeing both ends
                d = g.digit[node]
                bits = self.seen_by(prev, d) & g.buddies[node] & ~chain_cells & ~(1 << s_cell)
                elims.update((c, d) for c in cells_of_bits(bits) if cands[c] & BIT[d])
        return elims


# Searches run so far, per largest ALS node size (read by tests and profiling; a counter,
# not a patched function, because compiled modules call each other directly).
SEARCHES: dict[int, int] = {}


@last_state
def _steps(grid: Grid, grouped: bool, max_als: int = MAX_ALS_NODE_CELLS) -> list[Step]:
    """The search's result for this grid state, computed once for the techniques sharing it."""
    SEARCHES[max_als] = SEARCHES.get(max_als, 0) + 1
    return _search(grid, grouped, max_als)


def _finder(tech: str, grouped: bool) -> Callable[[Grid], Iterator[Step]]:
    def find(grid: Grid) -> Iterator[Step]:
        seen: set[frozenset[tuple[int, int]]] = set()
        first = _steps(grid, grouped)
        for step in first:
            if step.technique == tech:
                seen.add(frozenset(step.eliminations))
                yield step
        if not grouped:
            return
        # the solve loop takes the first step of the first technique that has one: it
        # gets here only when no step of this one or one asked before it was found
        asked = GROUPED_ORDER[: GROUPED_ORDER.index(tech) + 1]
        if not any(step.technique in asked for step in first):
            return
        for step in _steps(grid, grouped, WIDE_ALS_NODE_CELLS):
            if step.technique == tech and frozenset(step.eliminations) not in seen:
                yield step

    find.__name__ = "find_" + tech.replace("-", "_")
    find.__doc__ = (
        f"Every {tech} of the grid, shortest chain first. Evidence: ``chain`` the nodes "
        "(cells, digit, on) in order of inference, ``cells`` and ``digits`` those it uses."
    )
    return find


find_continuous_nice_loop = _finder(CNL, False)
find_discontinuous_nice_loop = _finder(DNL, False)
find_aic = _finder(AIC, False)
find_grouped_continuous_nice_loop = _finder(GROUPED[CNL], True)
find_grouped_discontinuous_nice_loop = _finder(GROUPED[DNL], True)
find_grouped_aic = _finder(GROUPED[AIC], True)


def node_name(cells: tuple[int, ...]) -> str:
    """``r3c7`` for one cell, ``r3c78`` or ``r12c7`` for a group in a row or a column."""
    rows = sorted({ROW_OF[c] + 1 for c in cells})
    cols = sorted({COL_OF[c] + 1 for c in cells})
    return "r" + "".join(map(str, rows)) + "c" + "".join(map(str, cols))


def eureka(chain: tuple[ChainNode, ...]) -> str:
    """Eureka notation: ``(5)r1c2=(5)r3c2-(5)r3c7=(8)r3c7`` (``=`` strong, ``-`` weak)."""
    out = []
    for i, (cells, digit, on) in enumerate(chain):
        if i:
            out.append("=" if on else "-")
        out.append(f"({digit}){node_name(cells)}")
    return "".join(out)


_NAMES = {
    CNL: "Continuous Nice Loop",
    DNL: "Discontinuous Nice Loop",
    AIC: "AIC",
}


def _als_text(step: Step) -> str:
    """``r9c4, r9c6 is an almost locked set`` (the sets, one per house in ``houses``)."""
    sets: list[list[int]] = []
    k = -1
    for c in step.extra:
        if k < 0 or c not in HOUSES[step.houses[k]]:
            k += 1
            sets.append([])
        sets[-1].append(c)
    if len(sets) == 1:
        return f"{cells_text(sets[0])} is an almost locked set"
    return " and ".join(cells_text(cs) for cs in sets) + " are almost locked sets"


def describe_chain(step: Step) -> str:
    """One line: the chain in Eureka notation and what it proves."""
    grouped = step.technique.startswith("grouped-")
    kind = step.technique.removeprefix("grouped-")
    name = ("Grouped " if grouped else "") + _NAMES[kind]
    chain = step.chain
    text = eliminations_text(step.eliminations)
    first_cells, first_digit, first_on = chain[0]
    last_cells, last_digit, _ = chain[-1]
    start = node_name(first_cells)
    if kind == AIC:
        end = node_name(last_cells)
        if first_digit == last_digit:
            why = f"either {start} or {end} is {first_digit}, so cells seeing both lose it"
        else:
            why = (
                f"{start} is {first_digit} or {end} is {last_digit}; the two cells see each "
                f"other, so neither can hold the other's digit"
            )
    elif kind == DNL:
        d, e = first_digit, last_digit
        if first_on and d == e:
            why = f"if {start} were {d}, the loop would take {d} out of it again"
        elif first_on:
            why = f"if {start} were {d}, the loop would make it {e} as well"
        elif d == e:
            why = f"if {start} were not {d}, the loop would put {d} back, so {start} is {d}"
        else:
            why = f"if {start} were {e}, the loop read backwards would make it {d} as well"
    else:
        why = "the loop closes, so every weak link in it is strong as well"
    if step.extra:
        # an ALS shows as (j)cells=(k)cells: its j all off, the set is locked with k
        why = f"{_als_text(step)}; {why}"
    return f"{name}: {eureka(chain)}: {why}: {text}"
