"""Chains: Remote Pairs, X-Chain and XY-Chain.

Each chain is an alternation of strong links (if one end is false the other is true)
and weak links (two candidates that cannot both be true). A chain that starts and ends
with strong links proves that one of its two ends is true, so a candidate seeing both
ends goes. Chains are found breadth first, so the shortest proof is the one shown.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import Final

from ...grid import (
    BIT,
    DIGITS_IN,
    PEER_BITS,
    PEERS,
    POPCOUNT,
    Grid,
    cell_name,
    cells_of_bits,
)
from ...statecache import by_digit_pattern, digit_patterns
from ...steps import Step, eliminations_text
from ..single_digit.links import strong_links

MAX_CHAIN_NODES: Final = 24  # long chains explain nothing a person can follow


def find_remote_pair(grid: Grid) -> Iterator[Step]:
    """A chain of 4+ cells holding the same pair, each seeing the next: cells seeing two
    ends of opposite parity lose both digits. Evidence: ``cells`` the chain, ``digits``."""
    cands = grid.candidates
    masks = {cands[c] for c in range(81) if POPCOUNT[cands[c]] == 2}
    for mask in sorted(masks):
        members = [c for c in range(81) if cands[c] == mask]
        if len(members) < 4:
            continue
        member_set = set(members)
        reported: set[frozenset[tuple[int, int]]] = set()
        for start in members:
            parent = {start: -1}
            depth = {start: 0}
            queue = deque([start])
            while queue:
                cell = queue.popleft()
                for nxt in PEERS[cell]:
                    if nxt in member_set and nxt not in depth:
                        depth[nxt] = depth[cell] + 1
                        parent[nxt] = cell
                        queue.append(nxt)
            for end, dist in depth.items():
                if dist < 3 or dist % 2 == 0 or end < start:
                    continue
                path = [end]
                while parent[path[-1]] >= 0:
                    path.append(parent[path[-1]])
                targets = PEER_BITS[start] & PEER_BITS[end]
                elims = frozenset(
                    (c, d)
                    for c in cells_of_bits(targets)
                    if c not in path
                    for d in DIGITS_IN[cands[c] & mask]
                )
                if elims and elims not in reported:
                    reported.add(elims)
                    yield Step(
                        "remote-pair",
                        eliminations=tuple(sorted(elims)),
                        cells=tuple(reversed(path)),
                        digits=DIGITS_IN[mask],
                    )


def describe_remote_pair(step: Step) -> str:
    x, y = step.digits
    chain = "-".join(cell_name(c) for c in step.cells)
    return (
        f"Remote pair: {chain} all hold {x}/{y} and alternate, so the two ends hold different "
        f"digits: {eliminations_text(step.eliminations)}"
    )


def find_x_chain(grid: Grid) -> Iterator[Step]:
    """Single-digit chain of 3+ strong links: ``d`` leaves cells seeing both ends.

    Evidence: ``cells`` the chain in order, ``digits=(d,)``.
    """
    patterns = digit_patterns(grid)
    for digit in range(1, 10):
        yield from _x_chains_on_digit(grid, digit, patterns[digit])


@by_digit_pattern
def _x_chains_on_digit(grid: Grid, digit: int, digit_bits: int) -> list[Step]:
    found: list[Step] = []
    strong: dict[int, set[int]] = {}
    for a, b, _h in strong_links(grid, digit):
        strong.setdefault(a, set()).add(b)
        strong.setdefault(b, set()).add(a)
    # per cell of the digit, the cells it links to: weakly (its peers holding the digit,
    # read when the cell is on) and strongly (when off); made once for every start
    weak_next: list[list[int]] = [[] for _ in range(81)]
    strong_next: list[list[int]] = [[] for _ in range(81)]
    for cell in cells_of_bits(digit_bits):
        weak_next[cell] = cells_of_bits(PEER_BITS[cell] & digit_bits)
        strong_next[cell] = sorted(strong.get(cell, ()))
    # state: cell * 2 + on, where on = "true if start is false"; parent: the state it was
    # reached from (-1 for the start, _UNSEEN not yet), reset after each start
    parent = [_UNSEEN] * 162
    depth = [0] * 162  # strong and weak links from the start
    reported: set[frozenset[int]] = set()
    for start in sorted(strong):
        parent[start * 2] = -1
        depth[start * 2] = 0
        queue = [start * 2]  # grows while read: the BFS queue, then the states to reset
        for here in queue:
            length = depth[here]
            if length >= MAX_CHAIN_NODES:
                continue
            cell, on = here >> _STATE_CELL_SHIFT, here & _STATE_ON
            for nxt in weak_next[cell] if on else strong_next[cell]:
                state = nxt * 2 + (on ^ 1)
                if parent[state] != _UNSEEN or nxt == start:
                    continue
                parent[state] = here
                depth[state] = length + 1
                queue.append(state)
                if not on and length + 1 >= 3 and nxt > start:
                    targets = PEER_BITS[start] & PEER_BITS[nxt] & digit_bits
                    if not targets:
                        continue
                    elim_cells = frozenset(cells_of_bits(targets))
                    if elim_cells in reported:
                        continue
                    reported.add(elim_cells)
                    path = []
                    at = state
                    while at >= 0:
                        path.append(at >> _STATE_CELL_SHIFT)
                        at = parent[at]
                    found.append(
                        Step(
                            "x-chain",
                            eliminations=tuple((c, digit) for c in sorted(elim_cells)),
                            cells=tuple(reversed(path)),
                            digits=(digit,),
                        )
                    )
        for st in queue:
            parent[st] = _UNSEEN
    return found


def describe_x_chain(step: Step) -> str:
    d = step.digits[0]
    chain = "".join(
        cell_name(c) + ("=" if i % 2 == 0 else "-") for i, c in enumerate(step.cells[:-1])
    ) + cell_name(step.cells[-1])
    return (
        f"X-Chain on {d}: {chain} (= strong, - weak link), so {cell_name(step.cells[0])} or "
        f"{cell_name(step.cells[-1])} is {d}: {eliminations_text(step.eliminations)}"
    )


def find_xy_chain(grid: Grid) -> Iterator[Step]:
    """Chain of bivalue cells, each linked to the next by a shared digit: if the chain
    starts and ends on ``x``, one end is ``x`` and cells seeing both lose it.

    Evidence: ``cells`` the chain, ``digits`` the digit each cell is "on" when the start is
    not ``x`` (the first entry is ``x`` itself).

    Breadth first from each start and ``x`` over states ``cell * 10 + digit`` (the digit
    true in the cell if the start is not ``x``), in flat arrays reset after each search.
    """
    cands = grid.candidates
    x_cells = digit_patterns(grid)
    bivalue = [c for c in range(81) if POPCOUNT[cands[c]] == 2]
    bivalue_bits = 0
    for c in bivalue:
        bivalue_bits |= 1 << c
    # per bivalue cell, the bivalue cells it sees
    linked: list[list[int]] = [[] for _ in range(81)]
    for c in bivalue:
        linked[c] = cells_of_bits(PEER_BITS[c] & bivalue_bits)
    parent = [_UNSEEN] * 810  # the state a state was reached from (-1: the start)
    depth = [0] * 810  # cells in the chain up to a state
    reported: set[frozenset[tuple[int, int]]] = set()
    for start in bivalue:
        for x in DIGITS_IN[cands[start]]:
            first = start * 10 + DIGITS_IN[cands[start] & ~BIT[x]][0]
            parent[first] = -1
            depth[first] = 1
            queue = [first]  # grows while read: the BFS queue, then the states to reset
            for at in queue:
                cell, on = divmod(at, 10)
                length = depth[at]
                if length >= MAX_CHAIN_NODES:
                    continue
                for nxt in linked[cell]:
                    if not cands[nxt] & BIT[on] or nxt == start:
                        continue
                    nxt_on = DIGITS_IN[cands[nxt] & ~BIT[on]][0]
                    state = nxt * 10 + nxt_on
                    if parent[state] != _UNSEEN:
                        continue
                    parent[state] = at
                    depth[state] = length + 1
                    queue.append(state)
                    if nxt_on != x or length + 1 < 3:
                        continue
                    targets = PEER_BITS[start] & PEER_BITS[nxt] & x_cells[x]
                    if not targets:
                        continue  # no cell sees both ends' x
                    chain = [state]
                    while parent[chain[-1]] >= 0:
                        chain.append(parent[chain[-1]])
                    chain.reverse()
                    for st in chain:
                        targets &= ~(1 << st // 10)
                    elims = frozenset((c, x) for c in cells_of_bits(targets))
                    if elims and elims not in reported:
                        reported.add(elims)
                        yield Step(
                            "xy-chain",
                            eliminations=tuple(sorted(elims)),
                            cells=tuple(st // 10 for st in chain),
                            digits=(x, *(st % 10 for st in chain)),
                        )
            for st in queue:
                parent[st] = _UNSEEN


_UNSEEN: Final = -2
# An X-chain search state packs a cell and a truth value: cell << _STATE_CELL_SHIFT | on.
_STATE_CELL_SHIFT: Final = 1
_STATE_ON: Final = 1


def describe_xy_chain(step: Step) -> str:
    x = step.digits[0]
    chain = " - ".join(cell_name(c) for c in step.cells)
    return (
        f"XY-Chain: {chain} (each cell holds two digits and passes the other on), so "
        f"{cell_name(step.cells[0])} or {cell_name(step.cells[-1])} is {x}: "
        f"{eliminations_text(step.eliminations)}"
    )
