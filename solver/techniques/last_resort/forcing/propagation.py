"""The propagation engine: follow one premise through its consequences.

A :class:`_Propagator` holds one grid state and the choice of inferences (chains: one
parent each; nets: every single and locked candidates; nested nets: also inner nets
that refute a candidate). Each premise it follows gets a :class:`_Run`, the premise's
working copy of the state, which logs every fact it infers with the code of its parents
(:mod:`.facts`) in an :class:`_Outcome`. A run advances in stages of growing fact
budgets (``BUDGETS``), so that the contradiction search can report short proofs first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from ....grid import ALL_DIGITS, BIT, BOXES, DIGITS_IN, HOUSES, HOUSES_OF, POPCOUNT, SINGLE, Grid
from .facts import (
    BOX_ROW_SHIFT,
    BOX_ROW_SLOTS,
    CANDIDATE_SHIFT,
    FACT_MASK,
    FACT_ON,
    HOUSE_CELL,
    HOUSE_COUNT,
    MULTI,
    NO_PARENTS,
    ONE_PARENT,
    PLACED,
    SKIP,
    SLOT_BIT,
    SLOT_HOUSE,
    SLOTS,
    WHY_SHIFT,
    cell_offs,
    cell_why,
    fact,
    house_offs,
    house_places,
    house_why,
    log_entry,
    one_why,
    parents_of,
)

# The kinds of clash: a candidate both true and false, a cell without candidates, a
# digit without a place in a house.
CLASH_BOTH: Final = 0
CLASH_CELL: Final = 1
CLASH_HOUSE: Final = 2
# A premise is followed in stages of growing fact budgets, so that short proofs come out
# first and a caller taking only the first few steps never pays for a full search.
BUDGETS: Final = (16, 64, 256, 1 << 30)
# Places of the boxes of digit ``d`` start at ``d * HOUSE_COUNT + BOX_HOUSES``.
BOX_HOUSES: Final = 18
# Locked candidates: per box (0-8), its three row and three column segments in the order
# of their lines (rows, then columns), each as ``(line, the segment as box slots, the
# segment as line slots)``.
_BOX_SEGMENTS: Final[tuple[tuple[tuple[int, int, int], ...], ...]] = tuple(
    tuple(
        (
            line,
            sum(1 << i for i, c in enumerate(BOXES[b]) if c in HOUSES[line]),
            sum(1 << i for i, c in enumerate(HOUSES[line]) if c in BOXES[b]),
        )
        for line in sorted({h for c in BOXES[b] for h in HOUSES_OF[c][:2]})
    )
    for b in range(9)
)

# A clash: (kind, cell or house, digit or 0, the facts that clash).
Clash = tuple[int, int, int, tuple[int, ...]]


@dataclass
class _Outcome:
    """What following one premise produced."""

    premise: int
    log: list[int]  # the facts in order of inference, as log entries (see .facts)
    clash: Clash | None
    bits: tuple[int, int] | None = None  # see fact_bits
    truncated: bool = False  # stopped at the fact budget, before the fixpoint
    refuted: list[int] = field(default_factory=list)  # off facts proved by inner nets
    inner_nodes: dict[int, int] = field(default_factory=dict)  # refuted fact -> inner net size
    stops: list[int] = field(default_factory=list)  # facts known at each truncated yield
    multi: list[tuple[int, ...]] = field(default_factory=list)  # parents of multi-parent facts
    orders: dict[int, int] | None = None  # see reason
    # A fact found both true and false twice (only in a state whose placed cells keep
    # candidates) keeps its place in the log but takes the later order and parents, as
    # a rewritten dict entry would: fact -> (order, parents' code).
    moved: dict[int, tuple[int, int]] | None = None

    def reason(self) -> dict[int, int]:
        """Fact -> its order of inference (built on demand, once the outcome is final)."""
        orders = self.orders
        if orders is None:
            orders = {}
            for i, e in enumerate(self.log):
                orders[e & FACT_MASK] = i
            if self.moved is not None:
                for f, (order, _code) in self.moved.items():
                    orders[f] = order
            self.orders = orders
        return orders

    def order(self, fact: int) -> int:
        """When ``fact`` was inferred (0 for the premise)."""
        return self.reason()[fact]

    def parents(self, fact: int) -> tuple[int, ...]:
        """The facts ``fact`` was inferred from."""
        moved = self.moved
        if moved is not None and fact in moved:
            code = moved[fact][1]
        else:
            code = self.log[self.reason()[fact]] >> WHY_SHIFT
        return parents_of(code, self.multi)

    def fact_bits(self) -> tuple[int, int]:
        """The candidates found true and found false, as two 729-bit sets (built on
        demand: only verities read them). For an outcome without a clash."""
        if self.bits is None:
            on = off = 0
            for e in self.log:
                f = e & FACT_MASK
                if f & FACT_ON:
                    on |= 1 << (f >> CANDIDATE_SHIFT)
                else:
                    off |= 1 << (f >> CANDIDATE_SHIFT)
            self.bits = (on, off)
        return self.bits

    def stage(self, fact: int) -> int:
        """The first yield at which ``fact`` was known (``len(stops)``: the final one)."""
        order = self.order(fact)
        return next((i for i, n in enumerate(self.stops) if order < n), len(self.stops))


def _queued(log: list[int], head: int) -> bool:
    """Whether the log holds a queued fact from ``head`` on."""
    return any(not log[i] & SKIP for i in range(head, len(log)))


class _Run:
    """The working state of one premise being followed, and what it inferred so far."""

    def __init__(self, prop: _Propagator, cell: int, digit: int, on: bool) -> None:
        self.prop = prop
        self.val: list[int] = prop.values[:]
        self.cand: list[int] = prop.cands[:]
        self.places: list[int] = prop.places0[:]
        self.log: list[int] = []  # the facts, drawn from (if queued) from a head index
        self.clash: list[Clash] = []
        self.out = _Outcome(fact(cell, digit, on), self.log, None)
        self.multi = self.out.multi
        self.dirty: int = prop.locked0  # digits whose places changed since the last locked pass
        self.head = 0  # where to look for the next queued fact to draw consequences from
        self.level = 0  # the budget of BUDGETS in force
        self.paused = False  # stopped at the budget, with a queued fact still to draw from
        self.written: list[int] | None = None  # the facts log_clash logged
        if on:
            self.set_on(cell, digit, NO_PARENTS)
        else:
            self.set_off(cell, digit, NO_PARENTS)

    def advance(self) -> _Outcome:
        """Follow the premise on until it passes the next of ``BUDGETS`` facts (the outcome
        so far, ``truncated`` set), or to its first clash or fixpoint."""
        prop = self.prop
        values, cands0, net = self.val, prop.cands, prop.net
        cand, places, places0 = self.cand, self.places, prop.places0
        log, clash, out = self.log, self.clash, self.out
        head = self.head
        budget = BUDGETS[self.level]
        resumed = self.paused
        self.paused = False
        while True:
            while not clash:
                n = len(log)
                while head < n and log[head] & SKIP:
                    head += 1
                if head == n:
                    break
                if resumed:
                    resumed = False
                elif n > budget:
                    out.truncated = True
                    out.stops.append(n)
                    self.paused = True
                    self.head = head
                    self.level += 1
                    return out
                f = log[head] & FACT_MASK
                head += 1
                i = f >> CANDIDATE_SHIFT
                c = i // 9
                d = i - c * 9 + 1
                if not values[c]:
                    m = cand[c]
                    orig = cands0[c]
                    if not m:
                        clash.append((CLASH_CELL, c, 0, cell_offs(c, orig)))
                        break
                    e = SINGLE[m]
                    if e and (net or POPCOUNT[orig] == 2):
                        self.set_on(c, e, cell_why(c, orig & ~m))
                base = d * HOUSE_COUNT
                k = c * 3
                for j in range(3):
                    h = SLOT_HOUSE[k + j]
                    m = places[base + h]
                    if m & PLACED:
                        continue
                    if not m:
                        clash.append((CLASH_HOUSE, h, d, house_offs(h, places0[base + h], d)))
                        break
                    s = SINGLE[m]
                    if s:
                        orig = places0[base + h]
                        if net or POPCOUNT[orig] == 2:
                            why = house_why(h, orig ^ m, d)
                            self.set_on(HOUSE_CELL[9 * h + s - 1], d, why)
            if clash or not net:
                break
            digits, self.dirty = self.dirty, prop.locked0
            if prop._locked(places, self, digits) and _queued(log, head):
                continue
            if not prop.nested or not prop._refute_inside(values, cand, out, self):
                break
        self.head = head
        out.clash = clash[0] if clash else None
        out.truncated = False
        return out

    def why(self, parents: tuple[int, ...]) -> int:
        """The code of ``parents`` (see ``_Outcome.parents``)."""
        if len(parents) == 1:
            return one_why(parents[0])
        if not parents:
            return NO_PARENTS
        self.multi.append(parents)
        return MULTI + len(self.multi) - 1

    def log_clash(self, f: int, why: int) -> None:
        """Log ``f``, found both true and false (see ``_Outcome.moved``)."""
        written = self.written
        if written is None:
            written = self.written = []
        if f in written:
            out = self.out
            if out.moved is None:
                out.moved = {}
            out.moved[f] = (len(self.log), why)
            return
        written.append(f)
        self.log.append(log_entry(f, why, unqueued=True))

    def set_off(self, c: int, d: int, why: int) -> None:
        f = (c * 9 + d - 1) << CANDIDATE_SHIFT
        if self.val[c] == d:
            self.log_clash(f, why)
            self.clash.append((CLASH_BOTH, c, d, (f | FACT_ON, f)))
            return
        bit = BIT[d]
        cand = self.cand
        m = cand[c]
        if not m & bit:
            return
        self.log.append((why << WHY_SHIFT) | f)
        self.dirty |= bit
        cand[c] = m ^ bit
        places = self.places
        base = d * HOUSE_COUNT
        k = c * 3
        i = base + SLOT_HOUSE[k]
        places[i] = places[i] & ~SLOT_BIT[k]
        i = base + SLOT_HOUSE[k + 1]
        places[i] = places[i] & ~SLOT_BIT[k + 1]
        i = base + SLOT_HOUSE[k + 2]
        places[i] = places[i] & ~SLOT_BIT[k + 2]

    def set_on(self, c: int, d: int, why: int) -> None:
        val, cand, log = self.val, self.cand, self.log
        v = val[c]
        if v == d:
            return
        f = ((c * 9 + d - 1) << CANDIDATE_SHIFT) | FACT_ON
        m = cand[c]
        bit = BIT[d]
        if v or not m & bit:
            self.log_clash(f, why)
            self.clash.append((CLASH_BOTH, c, d, (f, f ^ FACT_ON)))
            return
        log.append((why << WHY_SHIFT) | f)
        val[c] = d
        own = f + ONE_PARENT
        for e in DIGITS_IN[m & ~bit]:
            self.set_off(c, e, own)
        cand[c] = 0
        places = self.places
        base = d * HOUSE_COUNT
        k = c * 3
        i = base + SLOT_HOUSE[k]
        in_row = places[i] & ~SLOT_BIT[k]
        places[i] = in_row | PLACED
        i = base + SLOT_HOUSE[k + 1]
        in_col = places[i] & ~SLOT_BIT[k + 1]
        places[i] = in_col | PLACED
        i = base + SLOT_HOUSE[k + 2]
        in_box = places[i] & ~SLOT_BIT[k + 2]
        places[i] = in_box | PLACED
        self.dirty |= bit
        # The peers still holding d (their places), in ascending order as in PEERS[c]:
        # row by row, the row's own places, the box's in its other rows, else the column's.
        in_row &= SLOTS
        in_col &= SLOTS
        in_box &= SLOTS
        if in_row | in_col | in_box:
            r = c // 9
            col = c - 9 * r
            top = r - r % 3
            left = col - col % 3
            for rho in range(9):
                if rho == r:
                    for s in DIGITS_IN[in_row]:
                        self.set_off(9 * r + s - 1, d, own)
                elif top <= rho < top + 3:
                    row_slots = (in_box >> (BOX_ROW_SHIFT * (rho - top))) & BOX_ROW_SLOTS
                    for s in DIGITS_IN[row_slots]:
                        self.set_off(9 * rho + left + s - 1, d, own)
                elif in_col >> rho & 1:
                    self.set_off(9 * rho + col, d, own)


class _Propagator:
    """Follows premises in one grid state; ``net`` selects multi-parent inferences."""

    def __init__(self, grid: Grid, net: bool, nested: bool = False) -> None:
        self.values = values = grid.values
        self.cands = cands = grid.candidates
        self.net = net
        self.nested = nested
        places = house_places(values, cands)
        self.places0 = places
        # Locked candidates can only appear for a digit whose places changed, unless the
        # state already holds some: those digits are always checked.
        self.locked0 = 0
        self.locked0 = self._locked(places, None, ALL_DIGITS)

    def barren(self, cell: int, digit: int, on: bool) -> _Outcome | None:
        """The outcome of a premise that infers nothing but itself, without following it:
        in a chain, "not d" for a cell with three candidates or more and a digit with
        three places or more in each of its houses (where not placed). None otherwise."""
        if on or self.net or POPCOUNT[self.cands[cell]] < 3:
            return None
        places0 = self.places0
        base = digit * HOUSE_COUNT
        k = cell * 3
        for j in range(3):
            m = places0[base + SLOT_HOUSE[k + j]]
            if not m & PLACED and POPCOUNT[m] < 3:
                return None
        f = fact(cell, digit, False)
        return _Outcome(f, [f], None)

    def follow(self, cell: int, digit: int, on: bool) -> _Outcome:
        """Follow the premise to its first clash or fixpoint."""
        run = _Run(self, cell, digit, on)
        out = run.advance()
        while out.truncated:
            out = run.advance()
        return out

    def _refute_inside(
        self,
        val: list[int],
        cand: list[int],
        out: _Outcome,
        run: _Run,
    ) -> bool:
        """At a fixpoint, try each candidate of a bivalue cell with a net of its own; the
        first that clashes is false (resting on the outer facts the inner net used)."""
        inner_grid = Grid(val, givens=[False] * 81, candidates=cand)
        inner = _Propagator(inner_grid, True)
        # Candidates of bivalue cells, then those of a digit with two places in a house.
        tries = [(c, d) for c in range(81) if POPCOUNT[cand[c]] == 2 for d in DIGITS_IN[cand[c]]]
        places = inner.places0
        for h in range(27):
            for d in range(1, 10):
                m = places[d * HOUSE_COUNT + h] & SLOTS
                if POPCOUNT[m] == 2:
                    tries.extend((HOUSE_CELL[9 * h + s - 1], d) for s in DIGITS_IN[m])
        for c, d in dict.fromkeys(tries):
            sub = inner.follow(c, d, True)
            if sub.clash is None:
                continue
            used = set(sub.clash[3])
            inner_net = _ancestors(sub, sub.clash[3])
            for f in inner_net:
                used.update(sub.parents(f))
            known = {e & FACT_MASK for e in run.log}
            sub_facts = sub.reason()
            deps = tuple(sorted(f for f in used if f not in sub_facts and f in known))
            refuted = fact(c, d, False)
            out.refuted.append(refuted)
            out.inner_nodes[refuted] = len(inner_net)
            run.set_off(c, d, run.why(deps))
            return True
        return False

    def _locked(self, places: list[int], run: _Run | None, digits: int) -> int:
        """One pass of pointing and claiming for the digits of mask ``digits`` (taking out
        the candidates it finds through ``run``, if given); the mask of those that found
        some."""
        places0 = self.places0
        found = 0
        for d in DIGITS_IN[digits]:
            base = d * HOUSE_COUNT
            for b in range(9):
                box = base + BOX_HOUSES + b
                if not places[box] & SLOTS:
                    continue
                for line, seg, inbox in _BOX_SEGMENTS[b]:
                    bm = places[box]
                    if not bm & seg:
                        continue
                    # Pointing: the box's places lie in the segment.
                    if not bm & PLACED and not bm & SLOTS & ~seg:
                        victims = places[base + line] & SLOTS & ~inbox
                        if victims:
                            if run is not None:
                                why = house_why(BOX_HOUSES + b, places0[box] & SLOTS & ~seg, d)
                                for s in DIGITS_IN[victims]:
                                    run.set_off(HOUSE_CELL[9 * line + s - 1], d, why)
                            found |= BIT[d]
                    # Claiming: the line's places lie in the segment.
                    lm = places[base + line]
                    if not lm & PLACED and not lm & SLOTS & ~inbox:
                        victims = places[box] & SLOTS & ~seg
                        if victims:
                            if run is not None:
                                slots = places0[base + line] & SLOTS & ~inbox
                                why = house_why(line, slots, d)
                                for s in DIGITS_IN[victims]:
                                    run.set_off(HOUSE_CELL[9 * (BOX_HOUSES + b) + s - 1], d, why)
                            found |= BIT[d]
        return found


def _ancestors(out: _Outcome, facts: Sequence[int]) -> list[int]:
    """The facts ``facts`` rest on (themselves included), in order of inference."""
    reason = out.reason()
    seen: set[int] = set()
    stack = list(facts)
    while stack:
        f = stack.pop()
        if f in seen or f not in reason:
            continue
        seen.add(f)
        stack.extend(out.parents(f))
    return sorted(seen, key=out.order)


def _ancestor_count(out: _Outcome, facts: tuple[int, ...]) -> int:
    """``len(_ancestors(out, facts))``, counted in one pass back over the log (a fact's
    parents come before it) without ordering them."""
    if out.moved is not None:
        return len(_ancestors(out, facts))
    log, multi = out.log, out.multi
    need = set(facts)
    count = 0
    for i in range(len(log) - 1, -1, -1):
        e = log[i]
        if e & FACT_MASK in need:
            count += 1
            code = e >> WHY_SHIFT
            if code >= MULTI:
                need.update(parents_of(code, multi))
            elif code:
                need.add(code - ONE_PARENT)
    return count
