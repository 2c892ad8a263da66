"""The Nice Loop and AIC search over a link graph (see ``graph``), and the finders.

From every candidate, once assumed true and once assumed false, a breadth-first search
follows the graph's alternating implications; the shortest chain to each node is kept.
Chains back into the start cell are Nice Loops, chains from a candidate off to another
cell's candidate on are AICs (see the package's docstring). Search states and chain
entries are ints: see the bit-layout tables of ``graph``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final, cast

from ....grid import (
    BIT,
    DIGITS_IN,
    PEER_BITS,
    POPCOUNT,
    Grid,
    candidate,
    candidate_cell,
    cells_of_bits,
)
from ....statecache import digit_patterns, last_state
from ....steps import ChainNode, Role, Step, mark
from .graph import (
    ALS_ON,
    CELL_LEVEL,
    CELL_NODES,
    CELL_ON,
    CELL_STATES,
    ENTRY_NODE_SHIFT,
    FORCED_ON,
    GROUP_ON,
    MAX_ALS_NODE_CELLS,
    NO_LINKS,
    STATE_LEVEL,
    STATE_NODE_SHIFT,
    STATE_ON,
    WIDE_ALS_NODE_CELLS,
    Entry,
    Graph,
    State,
    entry_node,
    entry_of,
    entry_on,
    make_state,
)

MAX_LINKS: Final = 24  # longer chains explain nothing a person can follow

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
        g = self.g = Graph(grid, grouped, max_als)
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
        als_exits_at: list[list[int]] = [NO_LINKS] * 81
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
                    if als_exits_at[c] is NO_LINKS:
                        als_exits_at[c] = [n - als_base, (c * 9 + k - 1) << STATE_NODE_SHIFT]
                    else:
                        als_exits_at[c].append(n - als_base)
                        als_exits_at[c].append((c * 9 + k - 1) << STATE_NODE_SHIFT)
        self.als_exits_at = als_exits_at
        # per ALS node (less als_base), for the current start cell: the off states of its
        # candidates the node closes a loop on when on (see ``als_exits_at``)
        self.als_close: list[list[int]] = [NO_LINKS] * (size - als_base)
        # per state, the index in ``order`` of the state it was reached from
        self.parent: list[object] = [None] * (size << STATE_NODE_SHIFT)
        self.order: list[object] = []  # the states reached, in order (also the BFS queue)
        # the states of ``order`` in the start cell (but the start), and (when asked for)
        # those of candidates on outside it, in order: the ends of loops and of AICs
        self.ends: list[object] = []
        self.ons: list[object] = []
        # per state, the states its links lead to (at its level or higher, see ``State``):
        # ``links[go_from[state]:go_to[state]]``, made on its first visit and kept for the
        # searches from the other starts (one flat list: no list per state to collect)
        # (each followed by None)
        self.go_from: list[int] = [-1] * (size << STATE_NODE_SHIFT)
        self.links: list[object] = []
        # per node below als_base, for the current start cell: the off state of the start
        # cell's candidate it closes a loop on when on (it sees it, same digit), else -1
        self.close: list[int] = [-1] * g.als_base
        # per (technique, eliminations): the shortest chain's length, the technique, the
        # chain and the eliminations (its step is made once the search is done)
        self.found: dict[
            tuple[str, frozenset[tuple[int, int]]],
            tuple[int, str, list[Entry], set[tuple[int, int]]],
        ] = {}

    def run(self) -> list[Step]:
        """Search from both assumptions on every candidate: the steps, shortest chain first."""
        cands, digits_in, popcount = self.cands, DIGITS_IN, POPCOUNT  # (locals: faster)
        strong, enter, weak_go = self.strong, self.enter, self.weak_go
        for s_cell in range(81):
            s_mask = cands[s_cell]
            if not s_mask:
                continue
            bivalue = popcount[s_mask] == 2
            digits = digits_in[s_mask]
            closing = self.set_closures(s_cell, digits)
            exits_at = self.als_exits_at[s_cell]
            # per digit, the AICs of the search with it off, then (bivalue) of the other
            # digit's search with it on, after the start's strong link inside the cell; the
            # loops of all searches come first (the order of the steps found matters)
            own: dict[int, list[tuple[list[Entry], set[tuple[int, int]]]]] = {}
            via: dict[int, list[tuple[list[Entry], set[tuple[int, int]]]]] = {}
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
                        prefix = (s_cell * 9 + other - 1) << STATE_NODE_SHIFT
                        via[other] = self.aics(s_cell, other, prefix)
            for d in digits:
                for chain, elims in own[d]:
                    self.add(AIC, chain, elims)
                for chain, elims in via.get(d, []):
                    self.add(AIC, chain, elims)
            self.reset_closures(closing, exits_at)
        kept = sorted(self.found.values(), key=lambda found: found[0])
        return [self.step(tech, chain, elims) for _n, tech, chain, elims in kept]

    def set_closures(self, s_cell: int, digits: tuple[int, ...]) -> list[int]:
        """Mark the nodes closing a loop into the start cell when on: the nodes seeing one
        of its candidates, of its digit (cells, groups: in ``close``; the nodes, to reset
        them after) and the ALS nodes (in ``als_close``)."""
        close, digit_bits, peer_bits = self.close, self.digit_bits, PEER_BITS
        seen_groups, als_close = self.g.seen_groups, self.als_close
        closing: list[int] = []
        for d in digits:
            s_node = candidate(s_cell, d)
            for p in cells_of_bits(peer_bits[s_cell] & digit_bits[d]):
                close[p * 9 + d - 1] = s_node << STATE_NODE_SHIFT
                closing.append(p * 9 + d - 1)
            for m in seen_groups[s_node]:
                close[m] = s_node << STATE_NODE_SHIFT
                closing.append(m)
        exits_at = self.als_exits_at[s_cell]
        for i in range(0, len(exits_at), 2):
            n = exits_at[i]
            if als_close[n] is NO_LINKS:
                als_close[n] = [exits_at[i + 1]]
            else:
                als_close[n].append(exits_at[i + 1])
        return closing

    def reset_closures(self, closing: list[int], exits_at: list[int]) -> None:
        """Undo ``set_closures``."""
        close, als_close = self.close, self.als_close
        for m in closing:
            close[m] = -1
        for i in range(0, len(exits_at), 2):
            als_close[exits_at[i]] = NO_LINKS

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
        s_cell = candidate_cell(start)
        # the states of the start cell's candidates (cell nodes only): lo <= st < hi
        lo = s_cell * CELL_STATES
        hi = lo + CELL_STATES
        parent[make_state(start, CELL_LEVEL, on)] = _ROOT
        order.append(make_state(start, CELL_LEVEL, on))
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
            if state & STATE_ON:
                node = state >> STATE_NODE_SHIFT
                if node < als_base:
                    if aics and node < CELL_NODES:
                        ons.append(obj)
                    closure = close[node]
                    if closure >= 0 and parent[closure + (state & STATE_LEVEL)] is None:
                        parent[closure + (state & STATE_LEVEL)] = obj
                        order.append(closure + (state & STATE_LEVEL))
                else:
                    for closure in als_close[node - als_base]:
                        closure += state & STATE_LEVEL
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
                elif aics and state & STATE_ON and state < CELL_NODES << STATE_NODE_SHIFT:
                    ons.append(obj)

    def add_links(self, state: State) -> int:
        """Put the states a state's links lead to in ``links``, then None; their first
        index. Its node's links: when off, the strong ones (to nodes on); when on, into
        ALS nodes (on) or cells forced by one (on, at level 3), then the weak ones (off).
        At the state's level where theirs is lower."""
        node = state >> STATE_NODE_SHIFT
        level = state & STATE_LEVEL
        links = self.links
        first = len(links)
        if state & STATE_ON:
            als_base = self.als_base
            for m in self.enter[node]:
                x = m << STATE_NODE_SHIFT | (ALS_ON if m >= als_base else FORCED_ON)
                own = x & STATE_LEVEL
                links.append(x if own >= level else x - own + level)
            for x in self.weak_go[node]:
                own = x & STATE_LEVEL
                links.append(x if own >= level else x - own + level)
        else:
            for m in self.strong[node]:
                x = m << STATE_NODE_SHIFT | (CELL_ON if m < CELL_NODES else GROUP_ON)
                own = x & STATE_LEVEL
                links.append(x if own >= level else x - own + level)
        links.append(None)
        self.go_from[state] = first
        return first

    def loops(self, s_cell: int, d: int, on: bool, bivalue: bool) -> None:
        """The Nice Loops of the last search: its chains back into the start cell."""
        grouped = self.grouped
        start = candidate(s_cell, d)
        first_strong = not on
        for obj in self.ends:
            end = cast(int, obj)
            if (end & STATE_LEVEL != 0) != grouped:
                continue
            end_node = end >> STATE_NODE_SHIFT
            last_strong = end & STATE_ON == STATE_ON
            if end_node == start and last_strong == on:
                continue
            e = end_node % 9 + 1  # (a candidate node's digit)
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
    ) -> list[tuple[list[Entry], set[tuple[int, int]]]]:
        """The AICs of the last search (after ``prefix`` if given): chains with ``d`` off in
        the start cell to a candidate on in another cell."""
        cands, grouped = self.cands, self.grouped
        peer_bits, bit = PEER_BITS, BIT
        s_mask = cands[s_cell]
        # cells seeing the start cell and holding d: those seeing both ends lose d
        s_seen = peer_bits[s_cell] & self.digit_bits[d]
        out: list[tuple[list[Entry], set[tuple[int, int]]]] = []
        for obj in self.ons:
            end = cast(int, obj)
            if (end & STATE_LEVEL != 0) != grouped:
                continue
            end_node = end >> STATE_NODE_SHIFT
            t_cell = end_node // 9  # (a candidate node: its cell and digit)
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

    def hodoku_lasso_free(self, out: list[Entry], aic: bool) -> bool:
        """HoDoKu's test for chains with ALS: no node's first cell lies in an earlier
        node (but the one just before it, and, in a loop, those in the start cell)."""
        start = self.primary(entry_node(out[0]))
        lasso = 0
        last = -1
        for st in out:
            node = st >> ENTRY_NODE_SHIFT
            if lasso >> self.primary(node) & 1:
                return False
            if last >= 0 and (aic or self.primary(last) != start):
                lasso |= self.cells_of[last]
            last = node
        return True

    def path(self, end: State, prefix: State = -1, aic: bool = False) -> list[Entry] | None:
        """The last search's chain to ``end`` (after ``prefix`` if given), or None for a
        lasso."""
        parent, cells_of, als_base = self.parent, self.cells_of, self.als_base
        states = [end]
        at = parent[end]
        while at is not _ROOT:
            st = cast(int, at)
            states.append(st)
            at = parent[st]
        if prefix >= 0:
            states.append(prefix)
        states.reverse()
        out = [entry_of(st) for st in states]
        if any(entry_node(st) >= als_base for st in out):
            return out if self.hodoku_lasso_free(out, aic) else None
        start_cells = cells_of[entry_node(out[0])]
        seen = 0
        prev = 0
        last = len(out) - 1
        for k, st in enumerate(out):
            node = st >> ENTRY_NODE_SHIFT
            cs = cells_of[node]
            # a group may cover the start cell: the loop closes through a single cell
            again = cs & seen & ~start_cells if CELL_NODES <= node < als_base else cs & seen
            if again and cs != prev and not (k == last and cs == start_cells):
                return None  # a cell left and entered again
            seen |= cs
            prev = cs
        return out

    def add(self, kind: str, chain: list[Entry], elims: set[tuple[int, int]]) -> None:
        if not elims:
            return
        cells_of, als_base, grouped = self.cells_of, self.als_base, self.grouped
        is_grouped = any(entry_node(st) >= CELL_NODES for st in chain)
        if grouped != is_grouped:
            return
        tech = GROUPED[kind] if grouped else kind
        key = (tech, frozenset(elims))
        old = self.found.get(key)
        # an ALS counts as its cells (HoDoKu's penalty): a set is harder to see than a link
        length = len(chain)
        length += sum(
            cells_of[entry_node(st)].bit_count() for st in chain if entry_node(st) >= als_base
        )
        if old is not None and old[0] <= length:
            return
        self.found[key] = (length, tech, chain, elims)

    def step(self, tech: str, chain: list[Entry], elims: set[tuple[int, int]]) -> Step:
        """The step of a chain kept in ``found``."""
        g, cells_of, als_base = self.g, self.cells_of, self.als_base
        nodes: list[ChainNode] = []
        cells: list[int] = []
        for i, st in enumerate(chain):
            node = entry_node(st)
            cells.extend(c for c in cells_of_bits(cells_of[node]) if c not in cells)
            if node < als_base:
                nodes.append((tuple(cells_of_bits(cells_of[node])), g.digit[node], entry_on(st)))
                continue
            # an ALS is two nodes: its entry digit off (weak link in), its exit digit on
            a, j, k = g.set_of(node), g.digit[node], self.exit_digit(chain, i)
            nodes.append((tuple(cells_of_bits(a.dcells[j])), j, False))
            nodes.append((tuple(cells_of_bits(a.dcells[k])), k, True))
        alses = [g.set_of(entry_node(st)) for st in chain if entry_node(st) >= als_base]
        return Step(
            tech,
            eliminations=tuple(sorted(elims)),
            cells=tuple(cells),
            digits=tuple(sorted({d for _c, d, _o in nodes})),
            chain=tuple(nodes),
            houses=tuple(a.house for a in alses),
            marked=mark((Role.ALS, [c for a in alses for c in a.cells])),
        )

    def exit_digit(self, chain: list[Entry], i: int) -> int:
        """The digit by which the ALS at ``chain[i]`` acts on the next node."""
        g = self.g
        a, nxt = g.set_of(entry_node(chain[i])), chain[i + 1]
        if not entry_on(nxt) or entry_node(nxt) >= self.als_base:
            return g.digit[entry_node(nxt)]
        # a forced cell: the set took all its other digits, name the first of them
        c = self.cell_of[entry_node(nxt)]
        j = g.digit[entry_node(chain[i])]
        return min(k for k in DIGITS_IN[a.mask] if k != j and a.buddies[k] >> c & 1)

    def seen_by(self, node: int, d: int) -> int:
        """Cells seeing every cell of a node that holds ``d`` (all its cells but an ALS's)."""
        g = self.g
        return g.buddies[node] if node < self.als_base else g.set_of(node).buddies[d]

    def continuous(self, chain: list[Entry], s_cell: int) -> set[tuple[int, int]]:
        """The eliminations of a Continuous Nice Loop: every weak link in it is strong."""
        g, cands, cell_of, als_base = self.g, self.cands, self.cell_of, self.als_base
        elims: set[tuple[int, int]] = set()
        chain_cells = 0
        for st in chain:
            chain_cells |= self.cells_of[entry_node(st)]
        first_strong = not entry_on(chain[0])
        last_strong = entry_on(chain[-1])
        last = len(chain) - 1
        if first_strong and last_strong:
            keep = BIT[g.digit[entry_node(chain[0])]] | BIT[g.digit[entry_node(chain[-1])]]
            elims.update((s_cell, e) for e in DIGITS_IN[cands[s_cell] & ~keep])
        for i in range(1, last + 1):
            node, prev = entry_node(chain[i]), entry_node(chain[i - 1])
            if node >= als_base:
                self.als_continuous(chain, i, s_cell, chain_cells, elims)
            elif entry_on(chain[i]):
                # entered by a strong link, weak link inside the cell, strong link out
                if (
                    i <= last - 2
                    and node < CELL_NODES
                    and cell_of[prev] != cell_of[node]
                    and not entry_on(chain[i + 1])
                    and cell_of[entry_node(chain[i + 1])] == cell_of[node]
                    and entry_on(chain[i + 2])
                    and cell_of[entry_node(chain[i + 2])] != cell_of[node]
                ):
                    c = cell_of[node]
                    keep = BIT[g.digit[node]] | BIT[g.digit[entry_node(chain[i + 2])]]
                    elims.update((c, e) for e in DIGITS_IN[cands[c] & ~keep])
            elif cell_of[prev] != cell_of[node] or node >= CELL_NODES:
                # weak link between cells: its digit leaves cells seeing both ends
                d = g.digit[node]
                bits = self.seen_by(prev, d) & g.buddies[node] & ~chain_cells & ~(1 << s_cell)
                elims.update((c, d) for c in cells_of_bits(bits) if cands[c] & BIT[d])
        return elims

    def als_continuous(
        self,
        chain: list[Entry],
        i: int,
        s_cell: int,
        chain_cells: int,
        elims: set[tuple[int, int]],
    ) -> None:
        """A continuous loop's eliminations at the ALS node ``chain[i]`` (into ``elims``):
        weak link into the set, then the set is locked without its entry digit j: j leaves
        cells seeing both ends, its digits other than j and the exit digit leave cells
        seeing all of theirs in the set."""
        g, cands, cell_of, als_base = self.g, self.cands, self.cell_of, self.als_base
        node, prev = entry_node(chain[i]), entry_node(chain[i - 1])
        a, j, k = g.set_of(node), g.digit[node], self.exit_digit(chain, i)
        bits = self.seen_by(prev, j) & a.buddies[j] & ~chain_cells & ~(1 << s_cell)
        elims.update((c, j) for c in cells_of_bits(bits) if cands[c] & BIT[j])
        nxt = entry_node(chain[i + 1])
        if entry_on(chain[i + 1]) and nxt < als_base:
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
