"""Last resort: forcing chains, forcing nets and, if even they fail, an explained trial.

A premise ("r1c2 is 5", or "r1c2 is not 5") is followed through its consequences:

* chains use only one-parent inferences: a true candidate removes its cell's other
  digits and the digit from its peers; a false candidate makes true the other digit of a
  bivalue cell or the other place of a digit seen twice in a house;
* nets use every single the premise creates (a cell or house left with one place, which
  may depend on several earlier inferences) and locked candidates.

If the consequences clash (a candidate both true and false, a cell without candidates,
a digit without a place in a house), the premise is false: a *contradiction*. If every
candidate of a cell (or every place of a digit in a house, or a candidate both true and
false) leads to one same conclusion, that conclusion holds: a *verity*.

Evidence of the steps, shared by the describers:

* contradiction: ``cells=(premise cell, clash cell or -1)``, ``digits=(premise digit,
  clash digit or 0)``, ``houses=(clash house,)`` when a digit lost its last place in a
  house; the step eliminates the premise (assumed true) or places it (assumed false);
* verity: ``cells`` the premise cells, ``digits`` their digits, ``houses=(house,)`` for
  a house verity; one conclusion per step;
* ``chain``: the inferences, branch after branch, each branch starting with its premise;
  ``extra``: the number of nodes of each branch.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Final

from ..grid import (
    BIT,
    BOXES,
    DIGITS_IN,
    HOUSES,
    HOUSES_OF,
    PEERS,
    POPCOUNT,
    SINGLE,
    Grid,
    cell_name,
    house_name,
)
from ..search import solutions_from_candidates
from ..steps import ChainNode, Step
from .statecache import state_key

# Candidate ``(cell, digit)`` is index ``cell * 9 + digit - 1``; a fact is ``2 * index + on``.
CLASH_BOTH: Final = 0
CLASH_CELL: Final = 1
CLASH_HOUSE: Final = 2
# Describing more inferences than this explains nothing; longer branches are shortened.
MAX_TEXT_NODES: Final = 14
# A fact's parents are coded as an int: 0 for none, 1 + parent for one, MULTI + an index
# into the outcome's ``multi`` for several, or (no tuple made while following) the "off"
# facts of a cell's digits, CELL_WHY | cell << 9 | digits, or of a digit's places in a
# house, HOUSE_WHY | house << 13 | digit << 9 | slots. A run logs its facts in order of
# inference, each as ``code << WHY_SHIFT | fact``, with UNQUEUED set for a fact found both
# true and false (a clash: not drawn from); facts drawn from are the other "off" facts.
MULTI: Final = 2048
CELL_WHY: Final = 1 << 22
HOUSE_WHY: Final = 1 << 23
FACT_MASK: Final = 2047
UNQUEUED: Final = 2048
SKIP: Final = UNQUEUED | 1
WHY_SHIFT: Final = 12
# A premise is followed in stages of growing fact budgets, so that short proofs come out
# first and a caller taking only the first few steps never pays for a full search.
BUDGETS: Final = (16, 64, 256, 1 << 30)


def _fact(cell: int, digit: int, on: bool) -> int:
    return ((cell * 9 + digit - 1) << 1) | on


def _node(fact: int) -> ChainNode:
    i = fact >> 1
    return ((i // 9,), i % 9 + 1, bool(fact & 1))


# Places of digits are kept per house, as 9-bit masks of the house's slots (slot ``i`` of
# house ``h`` is cell ``HOUSES[h][i]``: ascending slots are ascending cells), at index
# ``digit * 27 + house``, with PLACED added once the digit is placed in the house. Small
# integers: compiled code works on them without allocating (list items are updated as
# ``places[i] = places[i] & m``: mypyc compiles ``places[i] &= m`` as a generic operation).
PLACED: Final = 512
SLOTS: Final = 511
# Per cell ``c``, at ``3 * c + j`` for its row, column and box: the house and the cell's
# slot bit in it.
_SLOT_HOUSE: Final[tuple[int, ...]] = tuple(h for c in range(81) for h in HOUSES_OF[c])
_SLOT_BIT: Final[tuple[int, ...]] = tuple(
    1 << HOUSES[h].index(c) for c in range(81) for h in HOUSES_OF[c]
)
# The cell of slot ``s`` of house ``h``, at ``9 * h + s``.
_HOUSE_CELL: Final[tuple[int, ...]] = tuple(c for h in HOUSES for c in h)
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


@dataclass
class _Outcome:
    """What following one premise produced."""

    premise: int
    log: list[int]  # the facts in order of inference, with their parents (see WHY_SHIFT)
    clash: tuple[int, int, int, tuple[int, ...]] | None  # (kind, cell/house, digit, parents)
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
        return _parents_of(code, self.multi)

    def fact_bits(self) -> tuple[int, int]:
        """The candidate indices found true and found false, as two 729-bit sets (built on
        demand: only verities read them). For an outcome without a clash."""
        if self.bits is None:
            on = off = 0
            for e in self.log:
                f = e & FACT_MASK
                if f & 1:
                    on |= 1 << (f >> 1)
                else:
                    off |= 1 << (f >> 1)
            self.bits = (on, off)
        return self.bits

    def stage(self, fact: int) -> int:
        """The first yield at which ``fact`` was known (``len(stops)``: the final one)."""
        order = self.order(fact)
        return next((i for i, n in enumerate(self.stops) if order < n), len(self.stops))


def _cell_offs(c: int, mask: int) -> tuple[int, ...]:
    """The facts "d is off" in cell ``c`` for the digits of ``mask``."""
    base = c * 18 - 2
    return tuple([base + 2 * d for d in DIGITS_IN[mask]])


def _house_offs(h: int, slots: int, d: int) -> tuple[int, ...]:
    """The facts "d is off" in the cells of the slots ``slots`` of house ``h``."""
    base = 9 * h - 1
    off = (d - 1) << 1
    return tuple([_HOUSE_CELL[base + s] * 18 + off for s in DIGITS_IN[slots]])


def _cell_why(c: int, mask: int) -> int:
    """The parents' code of the facts "d is off" in cell ``c`` for the digits of ``mask``
    (several: CELL_WHY with the cell and mask, turned into facts when read)."""
    if POPCOUNT[mask] == 1:
        return c * 18 + 2 * SINGLE[mask] - 1
    if not mask:
        return 0
    return CELL_WHY | c << 9 | mask


def _house_why(h: int, slots: int, d: int) -> int:
    """The parents' code of the facts "d is off" in the slots ``slots`` of house ``h``
    (several: HOUSE_WHY with the house, digit and slots, turned into facts when read)."""
    if POPCOUNT[slots] == 1:
        return _HOUSE_CELL[9 * h + SINGLE[slots] - 1] * 18 + 2 * d - 1
    if not slots:
        return 0
    return HOUSE_WHY | h << 13 | d << 9 | slots


def _parents_of(code: int, multi: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The facts a parents' code stands for (see MULTI)."""
    if code >= HOUSE_WHY:
        return _house_offs((code >> 13) & 31, code & SLOTS, (code >> 9) & 15)
    if code >= CELL_WHY:
        return _cell_offs((code >> 9) & 127, code & SLOTS)
    if code >= MULTI:
        return multi[code - MULTI]
    return (code - 1,) if code else ()


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
        self.clash: list[tuple[int, int, int, tuple[int, ...]]] = []
        self.out = _Outcome(((cell * 9 + digit - 1) << 1) | on, self.log, None)
        self.multi = self.out.multi
        self.dirty: int = prop.locked0  # digits whose places changed since the last locked pass
        self.head = 0  # where to look for the next queued fact to draw consequences from
        self.level = 0  # the budget of BUDGETS in force
        self.paused = False  # stopped at the budget, with a queued fact still to draw from
        self.written: list[int] | None = None  # the facts log_clash logged
        if on:
            self.set_on(cell, digit, 0)
        else:
            self.set_off(cell, digit, 0)

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
                i = f >> 1
                c = i // 9
                d = i - c * 9 + 1
                if not values[c]:
                    m = cand[c]
                    orig = cands0[c]
                    if not m:
                        clash.append((CLASH_CELL, c, 0, _cell_offs(c, orig)))
                        break
                    e = SINGLE[m]
                    if e and (net or POPCOUNT[orig] == 2):
                        self.set_on(c, e, _cell_why(c, orig & ~m))
                base = d * 27
                k = c * 3
                for j in range(3):
                    h = _SLOT_HOUSE[k + j]
                    m = places[base + h]
                    if m & PLACED:
                        continue
                    if not m:
                        clash.append((CLASH_HOUSE, h, d, _house_offs(h, places0[base + h], d)))
                        break
                    s = SINGLE[m]
                    if s:
                        orig = places0[base + h]
                        if net or POPCOUNT[orig] == 2:
                            why = _house_why(h, orig ^ m, d)
                            self.set_on(_HOUSE_CELL[9 * h + s - 1], d, why)
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
            return parents[0] + 1
        if not parents:
            return 0
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
        self.log.append((why << WHY_SHIFT) | UNQUEUED | f)

    def set_off(self, c: int, d: int, why: int) -> None:
        f = (c * 9 + d - 1) << 1
        if self.val[c] == d:
            self.log_clash(f, why)
            self.clash.append((CLASH_BOTH, c, d, (f | 1, f)))
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
        base = d * 27
        k = c * 3
        i = base + _SLOT_HOUSE[k]
        places[i] = places[i] & ~_SLOT_BIT[k]
        i = base + _SLOT_HOUSE[k + 1]
        places[i] = places[i] & ~_SLOT_BIT[k + 1]
        i = base + _SLOT_HOUSE[k + 2]
        places[i] = places[i] & ~_SLOT_BIT[k + 2]

    def set_on(self, c: int, d: int, why: int) -> None:
        val, cand, log = self.val, self.cand, self.log
        v = val[c]
        if v == d:
            return
        f = ((c * 9 + d - 1) << 1) | 1
        m = cand[c]
        bit = BIT[d]
        if v or not m & bit:
            self.log_clash(f, why)
            self.clash.append((CLASH_BOTH, c, d, (f, f ^ 1)))
            return
        log.append((why << WHY_SHIFT) | f)
        val[c] = d
        own = f + 1
        for e in DIGITS_IN[m & ~bit]:
            self.set_off(c, e, own)
        cand[c] = 0
        places = self.places
        base = d * 27
        k = c * 3
        i = base + _SLOT_HOUSE[k]
        in_row = places[i] & ~_SLOT_BIT[k]
        places[i] = in_row | PLACED
        i = base + _SLOT_HOUSE[k + 1]
        in_col = places[i] & ~_SLOT_BIT[k + 1]
        places[i] = in_col | PLACED
        i = base + _SLOT_HOUSE[k + 2]
        in_box = places[i] & ~_SLOT_BIT[k + 2]
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
                    for s in DIGITS_IN[(in_box >> (3 * (rho - top))) & 7]:
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
        places = _house_places(values, cands)
        self.places0 = places
        # Locked candidates can only appear for a digit whose places changed, unless the
        # state already holds some: those digits are always checked.
        self.locked0 = 0
        self.locked0 = self._locked(places, None, 0x1FF)

    def barren(self, cell: int, digit: int, on: bool) -> _Outcome | None:
        """The outcome of a premise that infers nothing but itself, without following it:
        in a chain, "not d" for a cell with three candidates or more and a digit with
        three places or more in each of its houses (where not placed). None otherwise."""
        if on or self.net or POPCOUNT[self.cands[cell]] < 3:
            return None
        places0 = self.places0
        base = digit * 27
        k = cell * 3
        for j in range(3):
            m = places0[base + _SLOT_HOUSE[k + j]]
            if not m & PLACED and POPCOUNT[m] < 3:
                return None
        f = (cell * 9 + digit - 1) << 1
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
                m = places[d * 27 + h] & SLOTS
                if POPCOUNT[m] == 2:
                    tries.extend((_HOUSE_CELL[9 * h + s - 1], d) for s in DIGITS_IN[m])
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
            out.refuted.append(_fact(c, d, False))
            out.inner_nodes[_fact(c, d, False)] = len(inner_net)
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
            base = d * 27
            for b in range(9):
                box = base + 18 + b
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
                                why = _house_why(18 + b, places0[box] & SLOTS & ~seg, d)
                                for s in DIGITS_IN[victims]:
                                    run.set_off(_HOUSE_CELL[9 * line + s - 1], d, why)
                            found |= BIT[d]
                    # Claiming: the line's places lie in the segment.
                    lm = places[base + line]
                    if not lm & PLACED and not lm & SLOTS & ~inbox:
                        victims = places[box] & SLOTS & ~seg
                        if victims:
                            if run is not None:
                                slots = places0[base + line] & SLOTS & ~inbox
                                why = _house_why(line, slots, d)
                                for s in DIGITS_IN[victims]:
                                    run.set_off(_HOUSE_CELL[9 * (18 + b) + s - 1], d, why)
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


def _branches_of_clash(out: _Outcome, net: bool) -> list[list[int]]:
    assert out.clash is not None
    parents = out.clash[3]
    if net:
        return [_ancestors(out, parents)]
    return [_ancestors(out, (p,)) for p in parents]


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
                need.update(_parents_of(code, multi))
            elif code:
                need.add(code - 1)
    return count


def _clash_size(out: _Outcome, net: bool) -> int:
    """The number of nodes of ``_branches_of_clash(out, net)``."""
    assert out.clash is not None
    parents = out.clash[3]
    if net:
        return _ancestor_count(out, parents)
    return sum([_ancestor_count(out, (p,)) for p in parents])


def _step(
    technique: str,
    branches: list[list[int]],
    *,
    placements: tuple[tuple[int, int], ...],
    eliminations: tuple[tuple[int, int], ...],
    cells: tuple[int, ...],
    digits: tuple[int, ...],
    houses: tuple[int, ...],
) -> Step:
    return Step(
        technique,
        placements=placements,
        eliminations=eliminations,
        cells=cells,
        houses=houses,
        digits=digits,
        extra=tuple(len(b) for b in branches),
        chain=tuple(_node(f) for branch in branches for f in branch),
    )


def _premises(grid: Grid, both: bool) -> list[tuple[int, int, bool]]:
    cands = grid.candidates
    out = []
    for c in range(81):
        if grid.values[c]:
            continue
        for d in DIGITS_IN[cands[c]]:
            out.append((c, d, True))
            if both:
                out.append((c, d, False))
    return out


# A solution of the last state that had one (a full grid of digits): any later state it
# still fits (its values, and a candidate in every empty cell) has it as a solution too.
_SOLUTION: list[list[int]] = []


def _a_solution(grid: Grid) -> list[int] | None:
    """A solution of the state, or None when it has none."""
    values, cands = grid.values, grid.candidates
    for sol in _SOLUTION:
        if _fits(sol, values, cands):
            return sol
    sols = solutions_from_candidates(values, cands, limit=1)
    if not sols:
        return None
    _SOLUTION[:] = sols
    return sols[0]


def _fits(sol: list[int], values: list[int], cands: list[int]) -> bool:
    """Whether the full grid ``sol`` holds the state's values and candidates."""
    for c in range(81):
        v = values[c]
        if v:
            if sol[c] != v:
                return False
        elif not cands[c] & BIT[sol[c]]:
            return False
    return True


def _house_places(values: list[int], cands: list[int]) -> list[int]:
    """The places of each digit in each house (see ``PLACED``), at ``digit * 27 + house``."""
    places = [0] * 270
    for c in range(81):
        k = c * 3
        v = values[c]
        if v:
            for j in range(3):
                i = v * 27 + _SLOT_HOUSE[k + j]
                places[i] = places[i] | PLACED
        for d in DIGITS_IN[cands[c]]:
            for j in range(3):
                i = d * 27 + _SLOT_HOUSE[k + j]
                places[i] = places[i] | _SLOT_BIT[k + j]
    return places


class _Closure:
    """The one-parent inferences of a state (those chains use) as a graph on its facts:
    node ``2 * i + on`` for the ``i``-th candidate in cell order. A chain follows a
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
                    index[c * 9 + d - 1] = len(facts)
                    facts.append((c * 9 + d - 1) << 1)
        n = len(facts)
        places = _house_places(values, cands)
        succ: list[list[int]] = [[] for _ in range(2 * n)]
        ends: list[int] = []  # nodes that clash at once (a cell or house left empty)
        for i in range(n):
            ci = facts[i] >> 1
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
                hm = places[d * 27 + _SLOT_HOUSE[c * 3 + j]]
                if hm & PLACED:
                    continue
                hm = hm & SLOTS & ~_SLOT_BIT[c * 3 + j]
                if not hm:
                    ends.append(2 * i)
                elif POPCOUNT[hm] == 1:
                    other = _HOUSE_CELL[9 * _SLOT_HOUSE[c * 3 + j] + SINGLE[hm] - 1]
                    off_succ.append(2 * index[other * 9 + d - 1] + 1)
        self.succ = succ
        # Strongly connected components (Tarjan, iterative), sinks first.
        count = 2 * n
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
        self.comp = comp
        self.comps = comps
        # Which nodes reach each component (sources first, pushed along the edges).
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
        clashing = 0
        for v in ends:
            clashing |= pre[comp[v]]
        for i in range(n):
            clashing |= pre[comp[2 * i]] & pre[comp[2 * i + 1]]
        for c in range(81):
            if not values[c] and POPCOUNT[cands[c]] >= 3:
                every = -1
                for d in DIGITS_IN[cands[c]]:
                    every &= pre[comp[2 * index[c * 9 + d - 1]]]
                clashing |= every
        for d in range(1, 10):
            for h in range(27):
                hm = places[d * 27 + h]
                if not hm & PLACED and POPCOUNT[hm] >= 3:
                    every = -1
                    for s in DIGITS_IN[hm]:
                        every &= pre[comp[2 * index[_HOUSE_CELL[9 * h + s - 1] * 9 + d - 1]]]
                    clashing |= every
        self.clashing = clashing

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


# The one-parent inference graph of the last state a chain search met.
_CLOSURE: list[tuple[tuple[int, ...], _Closure]] = []


def _chain_closure(grid: Grid) -> _Closure:
    key = state_key(grid)
    if _CLOSURE and _CLOSURE[0][0] == key:
        return _CLOSURE[0][1]
    closure = _Closure(grid)
    _CLOSURE[:] = [(key, closure)]
    return closure


# The outcomes of every premise followed to its end, for the last state searched in vain
# for net contradictions (keyed by ``net``: chains read their verities from the inference
# graph instead). The net verity finder, next in the solve order, follows exactly those
# premises and reads them from here.
_FINAL: dict[bool, tuple[tuple[int, ...], dict[tuple[int, int, bool], _Outcome]]] = {}


def _contradictions(grid: Grid, net: bool) -> Iterator[Step]:
    prop = _Propagator(grid, net)
    technique = "forcing-net-contradiction" if net else "forcing-chain-contradiction"
    premises = _premises(grid, both=not net)
    # Only premises that can clash are followed (the others are never reported, and the
    # order of those that are stays the same): for chains, those whose one-parent
    # consequences hold a clash at all; for nets, those false in a solution of the state
    # (every inference is sound, so a premise true in a solution never clashes).
    held: list[tuple[int, int, bool]] = []
    if net:
        sol = _a_solution(grid)
        if sol is not None:
            held = [p for p in premises if (sol[p[0]] == p[1]) == p[2]]
            premises = [p for p in premises if (sol[p[0]] == p[1]) != p[2]]
    else:
        closure = _chain_closure(grid)
        premises = [p for p in premises if closure.clashes(p[0], p[1], p[2])]
    final: dict[tuple[int, int, bool], _Outcome] = {}
    # Runs start as the first round comes to them (a run's working lists are short-lived
    # for most premises: fewer objects alive at once, less work for the garbage collector).
    runs: list[tuple[tuple[int, int, bool], _Run | None]] = []
    for p in premises:
        barren = prop.barren(p[0], p[1], p[2])
        if barren is None:
            runs.append((p, None))
        else:
            final[p] = barren
    while runs:
        found: list[tuple[int, int, _Outcome]] = []
        left: list[tuple[tuple[int, int, bool], _Run | None]] = []
        for k, (premise, started) in enumerate(runs):
            run = _Run(prop, premise[0], premise[1], premise[2]) if started is None else started
            out = run.advance()
            if out.clash is not None:
                found.append((_clash_size(out, net), k, out))
            elif out.truncated:
                left.append((premise, run))
            else:
                final[premise] = out
        runs = left
        found.sort(key=lambda t: t[:2])
        for _size, _k, out in found:
            yield _contradiction_step(technique, out, _branches_of_clash(out, net))
    if net and len(final) == len(premises):  # no clash anywhere: every outcome is complete
        for p in held:
            final[p] = prop.follow(p[0], p[1], p[2])
        _FINAL[net] = (state_key(grid), final)


def _final_outcomes(
    grid: Grid, net: bool, premises: Sequence[tuple[int, int, bool]]
) -> dict[tuple[int, int, bool], _Outcome]:
    """Every premise followed to its end (clash or fixpoint)."""
    cached = _FINAL.get(net)
    if cached is not None and cached[0] == state_key(grid):
        outcomes = cached[1]
        if all(p in outcomes for p in premises):
            return outcomes
    prop = _Propagator(grid, net)
    outcomes = {}
    for p in premises:
        barren = prop.barren(p[0], p[1], p[2])
        if barren is None:
            barren = prop.follow(p[0], p[1], p[2])
        outcomes[p] = barren
    return outcomes


def _contradiction_step(technique: str, out: _Outcome, branches: list[list[int]]) -> Step:
    assert out.clash is not None
    kind, where, digit, _parents = out.clash
    i = out.premise >> 1
    c, d, on = i // 9, i % 9 + 1, bool(out.premise & 1)
    houses: tuple[int, ...]
    if kind == CLASH_HOUSE:
        clash_cell, houses = -1, (where,)
    else:
        clash_cell, houses = where, ()
    return _step(
        technique,
        branches,
        eliminations=((c, d),) if on else (),
        placements=() if on else ((c, d),),
        cells=(c, clash_cell),
        digits=(d, digit),
        houses=houses,
    )


def _verities(grid: Grid, net: bool) -> Iterator[Step]:
    technique = "forcing-net-verity" if net else "forcing-chain-verity"
    values, cands = grid.values, grid.candidates
    groups: list[
        tuple[list[tuple[int, int, bool]], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
    ] = []
    for c in range(81):
        if not values[c] and POPCOUNT[cands[c]] >= 2:
            ds = DIGITS_IN[cands[c]]
            groups.append(([(c, d, True) for d in ds], (c,), ds, ()))
    for h in range(27):
        for d in range(1, 10):
            places = tuple(c for c in HOUSES[h] if cands[c] & BIT[d])
            if len(places) >= 2:
                groups.append(([(c, d, True) for c in places], places, (d,), (h,)))
    if not net:
        for c in range(81):
            for d in DIGITS_IN[cands[c]]:
                groups.append(([(c, d, True), (c, d, False)], (c,), (d,), ()))
    # Nets follow every premise; chains read from the inference graph which premises
    # clash and which facts all branches of a group reach, and follow only the premises
    # of groups with a common fact.
    closure: _Closure | None = None
    prop: _Propagator | None = None
    if not net:
        closure = _chain_closure(grid)
        if not closure.exact:
            closure = None
    if closure is None:
        premises_all = list(dict.fromkeys(p for g in groups for p in g[0]))
        outcomes = _final_outcomes(grid, net, premises_all)
    else:
        outcomes = {}
    found: list[
        tuple[
            int,
            int,
            int,
            int,
            int,
            list[_Outcome],
            tuple[int, ...],
            tuple[int, ...],
            tuple[int, ...],
        ]
    ] = []
    for k, (premises, cells, digits, houses) in enumerate(groups):
        # A branch that clashes is a contradiction step, found first; a verity needs all.
        if closure is not None:
            if any(closure.clashes(p[0], p[1], p[2]) for p in premises):
                continue
            common = -1
            for p in premises:
                common &= closure.reached(p[0], p[1], p[2])
            if not common:
                continue
            for p in premises:
                if p not in outcomes:
                    if prop is None:
                        prop = _Propagator(grid, net)
                    barren = prop.barren(p[0], p[1], p[2])
                    if barren is None:
                        barren = prop.follow(p[0], p[1], p[2])
                    outcomes[p] = barren
        outs = [outcomes[p] for p in premises]
        if any(o.clash is not None for o in outs):
            continue
        on_all = off_all = (1 << 729) - 1
        for o in outs:
            trues, falses = o.fact_bits()
            on_all &= trues
            off_all &= falses
        for bits, on in ((on_all, True), (off_all, False)):
            while bits:
                low = bits & -bits
                bits ^= low
                f = ((low.bit_length() - 1) << 1) | on
                # Short proofs first: those known within a small budget of facts in every
                # branch (as the contradiction search stages them), then by how far into
                # each branch the conclusion comes.
                stage = max(o.stage(f) for o in outs)
                size = sum(o.order(f) for o in outs)
                found.append((stage, size, 0 if on else 1, k, f, outs, cells, digits, houses))
    found.sort(key=lambda t: t[:5])
    seen: set[int] = set()
    for _stage, _size, _kind, _k, f, outs, cells, digits, houses in found:
        if f in seen:
            continue
        seen.add(f)
        i = f >> 1
        c, d = i // 9, i % 9 + 1
        yield _step(
            technique,
            [_ancestors(o, (f,)) for o in outs],
            placements=((c, d),) if f & 1 else (),
            eliminations=() if f & 1 else ((c, d),),
            cells=cells,
            digits=digits,
            houses=houses,
        )


def find_forcing_chain_contradiction(grid: Grid) -> Iterator[Step]:
    """A candidate whose truth (or falsehood) leads by one-parent inferences to a clash."""
    return _contradictions(grid, net=False)


def find_forcing_chain_verity(grid: Grid) -> Iterator[Step]:
    """A conclusion reached by chains from every candidate of a cell or house."""
    return _verities(grid, net=False)


def find_forcing_net_contradiction(grid: Grid) -> Iterator[Step]:
    """A candidate whose truth leads, through singles and locked candidates, to a clash."""
    return _contradictions(grid, net=True)


def find_forcing_net_verity(grid: Grid) -> Iterator[Step]:
    """A conclusion reached by nets from every candidate of a cell or house."""
    return _verities(grid, net=True)


def find_forcing_net_nested(grid: Grid) -> Iterator[Step]:
    """A net that, when singles stall, refutes a candidate of a bivalue cell (or of a
    digit with two places in a house) by a net of its own, and so on, until it clashes.

    Evidence as for contradictions, except that ``extra`` is ``(net size, *refuted,
    *inner sizes)``: the refuted candidates as indices ``cell * 9 + digit - 1``, then, in
    the same order, the number of facts of the inner net that refuted each (SE counts
    nested chains in a chain's size). Candidates of cells
    with fewest candidates are tried first and steps come out as found: the search is
    costly.
    """
    prop = _Propagator(grid, True, nested=True)
    premises = sorted(_premises(grid, both=False), key=lambda p: POPCOUNT[grid.candidates[p[0]]])
    for c, d, on in premises:
        out = prop.follow(c, d, on)
        if out.clash is None:
            continue
        (branch,) = _branches_of_clash(out, True)
        step = _contradiction_step("forcing-net-nested", out, [branch])
        kept = set(branch)
        refuted = [f for f in out.refuted if f in kept]
        sizes = tuple(out.inner_nodes[f] for f in refuted)
        yield replace(step, extra=(len(branch), *(f >> 1 for f in refuted), *sizes))


def nested_refuted(step: Step) -> tuple[int, ...]:
    """The candidates (``cell * 9 + digit - 1``) a nested net's inner nets refuted."""
    return step.extra[1 : 1 + (len(step.extra) - 1) // 2]


def nested_inner_nodes(step: Step) -> tuple[int, ...]:
    """The size (facts) of the inner net that refuted each of :func:`nested_refuted`."""
    return step.extra[1 + (len(step.extra) - 1) // 2 :]


# ---------------------------------------------------------------------------------------
# Describing


def _node_text(node: ChainNode) -> str:
    cells, digit, on = node
    return f"{cell_name(cells[0])}{'=' if on else '<>'}{digit}"


def _branch_text(nodes: Sequence[ChainNode]) -> str:
    texts = [_node_text(n) for n in nodes]
    if len(texts) > MAX_TEXT_NODES:
        cut = MAX_TEXT_NODES // 2
        texts = [*texts[:cut], "...", *texts[-cut:]]
    return " -> ".join(texts)


def _split(step: Step) -> list[tuple[ChainNode, ...]]:
    out, start = [], 0
    for n in step.extra:
        out.append(step.chain[start : start + n])
        start += n
    return out


def _net_text(nodes: Sequence[ChainNode]) -> str:
    """A net in words: its placements in order, and how many eliminations it used."""
    placed = [_node_text(n) for n in nodes[1:] if n[2]]
    removed = sum(1 for n in nodes[1:] if not n[2])
    if len(placed) > MAX_TEXT_NODES:
        placed = [*placed[: MAX_TEXT_NODES - 1], "...", placed[-1]]
    if not placed:
        return f"removes {removed} candidates"
    return f"forces {', '.join(placed)} (using {removed} eliminations on the way)"


def _clash_text(step: Step) -> str:
    (_c, clash_cell), (_d, clash_digit) = step.cells, step.digits
    if step.houses:
        return f"which leaves no place for {clash_digit} in {house_name(step.houses[0])}"
    if clash_digit == 0:
        return f"which leaves {cell_name(clash_cell)} without candidates"
    return f"which makes {cell_name(clash_cell)} both {clash_digit} and not {clash_digit}"


def describe_forcing_contradiction(step: Step) -> str:
    cell, digit = step.cells[0], step.digits[0]
    net = step.technique.startswith("forcing-net")
    assumed_on = bool(step.eliminations)
    premise = f"{cell_name(cell)}{'=' if assumed_on else '<>'}{digit}"
    verdict = f"{cell_name(cell)} <> {digit}" if assumed_on else f"{cell_name(cell)} = {digit}"
    if step.technique == "forcing-net-nested":
        how = _net_text(step.chain)
        inner = [f"{cell_name(i // 9)}={i % 9 + 1}" for i in nested_refuted(step)]
        clash = _clash_text(step).removeprefix("which ")
        if len(inner) > 1:
            within = (
                f"within it, {', '.join(inner)} would each lead to a contradiction of their "
                f"own, so they go too"
            )
        else:
            within = (
                f"within it, {''.join(inner) or 'nothing'} would lead to a contradiction of "
                f"its own, so it goes too"
            )
        return (
            f"Nested forcing net: if {premise}, singles and locked candidates show it {how}; "
            f"{within}; in the end the net {clash}, so {verdict}"
        )
    if net:
        (nodes,) = _split(step)
        how = _net_text(nodes)
        return (
            f"Forcing net: if {premise}, singles and locked candidates show it {how}, "
            f"{_clash_text(step)}, so {verdict}"
        )
    # Every branch starts with the premise: said once.
    chains = "; ".join(_branch_text(b[1:]) for b in _split(step) if len(b) > 1)
    then = f" then {chains}," if chains else ","
    return f"Forcing chain: if {premise}{then} {_clash_text(step)}, so {verdict}"


def describe_forcing_verity(step: Step) -> str:
    net = step.technique.startswith("forcing-net")
    if step.placements:
        cell, digit = step.placements[0]
        result = f"{cell_name(cell)}={digit}"
    else:
        cell, digit = step.eliminations[0]
        result = f"{cell_name(cell)}<>{digit}"
    if step.houses:
        whichever = (
            f"wherever {step.digits[0]} goes in {house_name(step.houses[0])} "
            f"({', '.join(cell_name(c) for c in step.cells)})"
        )
    elif len(step.digits) > 1:
        whichever = (
            f"whichever of {cell_name(step.cells[0])}'s {', '.join(map(str, step.digits))} is true"
        )
    else:
        whichever = f"whether {cell_name(step.cells[0])} is {step.digits[0]} or not"
    if net:
        parts = "; ".join(f"{_node_text(b[0])} {_net_text(b)}" for b in _split(step))
        kind = "Forcing net"
    else:
        parts = "; ".join(_branch_text(b) for b in _split(step))
        kind = "Forcing chain"
    return f"{kind} verity: {whichever}, {result} ({parts}), so {result}"


# ---------------------------------------------------------------------------------------
# Trial


def _refute(values: list[int], cands: list[int], budget: int) -> tuple[int, int] | None:
    """Exhaust the state: (guesses made, first cell guessed) when it has no solution,
    None when it has one or the budget of guesses runs out."""
    from ..search import _propagate, branch_cell

    count = 0
    first = -1
    stack = [(values, cands)]
    while stack:
        vals, cs = stack.pop()
        if not _propagate(vals, cs):
            continue
        best = branch_cell(vals, cs)
        if best < 0:
            return None
        if first < 0:
            first = best
        for d in DIGITS_IN[cs[best]]:
            count += 1
            if count > budget:
                return None
            v2, c2 = vals[:], cs[:]
            c2[best] = BIT[d]
            stack.append((v2, c2))
    return count, first


def find_trial(grid: Grid) -> Iterator[Step]:
    """Assume a candidate and search: if no solution follows, it goes.

    Evidence: ``cells=(cell, first cell guessed or -1)``, ``digits=(digit,)``,
    ``extra=(guesses,)``. Candidates of cells with fewest candidates come first.
    """
    values, cands = grid.values, grid.candidates
    sols = solutions_from_candidates(values, cands, limit=1)
    if not sols:
        return
    solution = sols[0]
    cells = sorted((c for c in range(81) if not values[c]), key=lambda c: POPCOUNT[cands[c]])
    for c in cells:
        for d in DIGITS_IN[cands[c] & ~BIT[solution[c]]]:
            start_cands = [BIT[v] if v else m for v, m in zip(values, cands, strict=True)]
            start_vals = [0] * 81
            start_cands[c] = BIT[d]
            refuted = _refute(start_vals, start_cands, budget=100_000)
            if refuted is None:
                continue
            guesses, first = refuted
            yield Step(
                "trial",
                eliminations=((c, d),),
                cells=(c, first),
                digits=(d,),
                extra=(guesses,),
            )


def describe_trial(step: Step) -> str:
    (cell, digit), first = step.eliminations[0], step.cells[1]
    guesses = step.extra[0]
    if guesses == 0:
        how = "singles alone then run into a contradiction"
    else:
        how = (
            f"a search from there (guessing {cell_name(first)} first, {guesses} guesses in "
            f"all) ends in a contradiction every time"
        )
    return (
        f"Trial: no logical step is left, so try {cell_name(cell)}={digit}: {how}, "
        f"so {cell_name(cell)} <> {digit}"
    )
