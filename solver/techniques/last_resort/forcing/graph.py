"""The inference graph of forcing chains: which premises clash, which facts they reach.

A chain infers along one-parent edges only, so what a premise leads to is what it
reaches in a fixed graph of the state's facts (:class:`_Closure`). Its strongly
connected components (:func:`tarjan_scc`) give, for every premise at once, whether its
consequences clash and which facts it reaches, without following any premise.
"""

from __future__ import annotations

from ....grid import BIT, DIGITS_IN, PEERS, POPCOUNT, SINGLE, Grid, candidate
from .facts import (
    CANDIDATE_SHIFT,
    HOUSE_CELL,
    HOUSE_COUNT,
    PLACED,
    SLOT_BIT,
    SLOT_HOUSE,
    SLOTS,
    fact_of,
    house_places,
    place_index,
)


def tarjan_scc(succ: list[list[int]]) -> tuple[list[int], list[list[int]]]:
    """The strongly connected components of the graph whose node ``v`` has the edges
    ``v -> w`` for ``w`` in ``succ[v]`` (Tarjan's algorithm, iterative: no recursion
    limit).

    Returns ``(comp, comps)``: ``comp[v]`` the number of ``v``'s component, and
    ``comps[t]`` the nodes of component ``t``. Components come sinks first (in reverse
    topological order): an edge between two components goes from a higher number to a
    lower one.
    """
    count = len(succ)
    comp = [-1] * count
    low = [0] * count
    num = [-1] * count
    stack: list[int] = []
    comps: list[list[int]] = []
    counter = 0
    for root in range(count):
        if num[root] >= 0:
            continue
        work = [root]
        pos = [0]
        num[root] = low[root] = counter
        counter += 1
        stack.append(root)
        while work:
            v = work[-1]
            edges = succ[v]
            j = pos[-1]
            if j < len(edges):
                pos[-1] = j + 1
                w = edges[j]
                if num[w] < 0:
                    num[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    work.append(w)
                    pos.append(0)
                elif comp[w] < 0 and num[w] < low[v]:
                    low[v] = num[w]
                continue
            work.pop()
            pos.pop()
            if work and low[v] < low[work[-1]]:
                low[work[-1]] = low[v]
            if low[v] == num[v]:
                members: list[int] = []
                while True:
                    w = stack.pop()
                    comp[w] = len(comps)
                    members.append(w)
                    if w == v:
                        break
                comps.append(members)
    return comp, comps


def _edges(
    cands: list[int], places: list[int], index: list[int], facts: list[int]
) -> tuple[list[list[int]], list[int]]:
    """The one-parent inferences between the nodes of ``facts`` (see :class:`_Closure`),
    as successor lists, and the nodes that clash at once (a cell or house left empty)."""
    n = len(facts)
    succ: list[list[int]] = [[] for _ in range(2 * n)]
    ends: list[int] = []
    for i in range(n):
        ci = facts[i] >> CANDIDATE_SHIFT
        c = ci // 9
        d = ci - c * 9 + 1
        bit = BIT[d]
        m = cands[c]
        on_succ = succ[2 * i + 1]
        for e in DIGITS_IN[m & ~bit]:
            on_succ.append(2 * index[c * 9 + e - 1])
        for p in PEERS[c]:
            if cands[p] & bit:
                on_succ.append(2 * index[p * 9 + d - 1])
        off_succ = succ[2 * i]
        k = POPCOUNT[m]
        if k == 1:
            ends.append(2 * i)
        elif k == 2:
            off_succ.append(2 * index[c * 9 + SINGLE[m & ~bit] - 1] + 1)
        for j in range(3):
            h = SLOT_HOUSE[c * 3 + j]
            hm = places[d * HOUSE_COUNT + h]
            if hm & PLACED:
                continue
            hm = hm & SLOTS & ~SLOT_BIT[c * 3 + j]
            if not hm:
                ends.append(2 * i)
            elif POPCOUNT[hm] == 1:
                other = HOUSE_CELL[9 * h + SINGLE[hm] - 1]
                off_succ.append(2 * index[other * 9 + d - 1] + 1)
    return succ, ends


def _reaching(succ: list[list[int]], comp: list[int], comps: list[list[int]]) -> list[int]:
    """Per component, the set of nodes that reach it (as bits): sources first, pushed
    along the edges."""
    pre = [0] * len(comps)
    for t in range(len(comps)):
        for v in comps[t]:
            pre[t] |= 1 << v
    for t in range(len(comps) - 1, -1, -1):
        bits = pre[t]
        for v in comps[t]:
            for w in succ[v]:
                u = comp[w]
                if u != t:
                    pre[u] |= bits
    return pre


class _Closure:
    """The one-parent inferences of a state (those chains use) as a graph on its facts:
    node ``2 * i + on`` for the ``i``-th open candidate in cell order (whose "off" fact is
    ``facts[i]``; ``index`` maps a candidate's number to ``i``). A chain follows a
    premise through exactly the facts the premise reaches, so it clashes (at some
    budget) exactly when they hold a candidate both true and false, a cell without
    candidates or a digit without a place in a house; without a clash, its outcome's
    facts are the reached ones."""

    def __init__(self, grid: Grid) -> None:
        values, cands = grid.values, grid.candidates
        # A placed cell keeping candidates (not a state the solver makes) is outside the
        # graph: then every premise counts as clashing, and verities follow them all.
        self.exact = not any(values[c] and cands[c] for c in range(81))
        self.clashing = -1
        self.reach: list[int] = []
        index = [-1] * 729
        facts: list[int] = []  # the "off" fact of each candidate
        self.index = index
        self.facts = facts
        self.succ: list[list[int]] = []
        self.comp: list[int] = []
        self.comps: list[list[int]] = []
        if not self.exact:
            return
        for c in range(81):
            if not values[c]:
                for d in DIGITS_IN[cands[c]]:
                    i = candidate(c, d)
                    index[i] = len(facts)
                    facts.append(fact_of(i, False))
        places = house_places(values, cands)
        succ, ends = _edges(cands, places, index, facts)
        self.succ = succ
        comp, comps = tarjan_scc(succ)  # sinks first
        self.comp = comp
        self.comps = comps
        self.clashing = self._clashing(values, cands, places, _reaching(succ, comp, comps), ends)

    def _clashing(
        self,
        values: list[int],
        cands: list[int],
        places: list[int],
        pre: list[int],
        ends: list[int],
    ) -> int:
        """The nodes whose consequences clash (as bits), given ``pre``, the nodes that
        reach each component, and ``ends``, the nodes that clash at once."""
        comp, index = self.comp, self.index
        clashing = 0
        for v in ends:
            clashing |= pre[comp[v]]
        # A candidate reached both true and false.
        for i in range(len(self.facts)):
            clashing |= pre[comp[2 * i]] & pre[comp[2 * i + 1]]
        # Every candidate of a cell reached false.
        for c in range(81):
            if not values[c] and POPCOUNT[cands[c]] >= 3:
                every = -1
                for d in DIGITS_IN[cands[c]]:
                    every &= pre[comp[2 * index[c * 9 + d - 1]]]
                clashing |= every
        # Every place of a digit in a house reached false.
        for d in range(1, 10):
            for h in range(27):
                hm = places[place_index(d, h)]
                if not hm & PLACED and POPCOUNT[hm] >= 3:
                    every = -1
                    for s in DIGITS_IN[hm]:
                        every &= pre[comp[2 * index[HOUSE_CELL[9 * h + s - 1] * 9 + d - 1]]]
                    clashing |= every
        return clashing

    def node(self, cell: int, digit: int, on: bool) -> int:
        return 2 * self.index[cell * 9 + digit - 1] + on

    def clashes(self, cell: int, digit: int, on: bool) -> bool:
        """Whether the premise's consequences hold a clash."""
        return not self.exact or bool(self.clashing >> self.node(cell, digit, on) & 1)

    def reached(self, cell: int, digit: int, on: bool) -> int:
        """The nodes the premise reaches (itself included), as a set of bits."""
        reach = self.reach
        comp = self.comp
        if not reach:
            succ = self.succ
            for t, members in enumerate(self.comps):  # sinks first
                bits = 0
                for v in members:
                    bits |= 1 << v
                for v in members:
                    for w in succ[v]:
                        u = comp[w]
                        if u != t:
                            bits |= reach[u]
                reach.append(bits)
        return reach[comp[self.node(cell, digit, on)]]
