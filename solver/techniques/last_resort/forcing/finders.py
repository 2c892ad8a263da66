"""The forcing finders: contradictions and verities of chains and nets, nested nets.

The four finders of chains and nets run in this order in a solve, each on the state the
one before found nothing in; what one learns about the state, the next reads from the
state's :class:`ForcingState` rather than search again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import replace

from ....grid import BIT, DIGITS_IN, HOUSES, POPCOUNT, Grid
from ....search import solutions_from_candidates
from ....statecache import last_state
from ....steps import NetEvidence, Step
from .facts import (
    ALL_CANDIDATES,
    fact_cell,
    fact_digit,
    fact_node,
    fact_of,
    fact_on,
)
from .graph import _Closure
from .propagation import (
    CLASH_HOUSE,
    _ancestor_count,
    _ancestors,
    _Outcome,
    _Propagator,
    _Run,
)

# A premise: (cell, digit, true or false).
Premise = tuple[int, int, bool]
# A verity's premises, one of which holds, with the step's evidence: (premises, cells,
# digits, houses).
Group = tuple[list[Premise], tuple[int, ...], tuple[int, ...], tuple[int, ...]]
# A verity's conclusion: (stage, size, 0 if "on" else 1, group number, fact, the group's
# outcomes, the group); sorted on the first five.
Conclusion = tuple[int, int, int, int, int, list[_Outcome], Group]


class ForcingState:
    """What the forcing finders share about one grid state (its values and candidates):

    * ``closure``: the one-parent inference graph, built by the first chain finder to
      meet the state (contradictions) and read by the next (verities);
    * ``finals``: keyed by ``net``, the outcome of every premise followed to its end,
      left by a contradiction search that found nothing (only nets leave them: chains
      read their verities from the graph). The net verity finder, next in the solve
      order, follows exactly those premises and reads them from here;
    * ``solution``: a solution of the state (None: none), once ``solution_known``.

    :func:`forcing_state` keeps the one of the last state met (``statecache.last_state``):
    a finder asks for it each time it reads or writes, so a changed grid never reads
    another state's.
    """

    def __init__(self) -> None:
        self.closure: _Closure | None = None
        self.finals: dict[bool, dict[Premise, _Outcome]] = {}
        self.solution: list[int] | None = None
        self.solution_known = False


@last_state
def forcing_state(grid: Grid) -> ForcingState:
    """The :class:`ForcingState` of the grid's state (the same object while the state is
    unchanged)."""
    return ForcingState()


def _chain_closure(grid: Grid) -> _Closure:
    """The one-parent inference graph of the state."""
    state = forcing_state(grid)
    closure = state.closure
    if closure is None:
        closure = state.closure = _Closure(grid)
    return closure


def _a_solution(grid: Grid) -> list[int] | None:
    """A solution of the state, or None when it has none."""
    state = forcing_state(grid)
    if not state.solution_known:
        sols = solutions_from_candidates(grid.values, grid.candidates, limit=1)
        state.solution = sols[0] if sols else None
        state.solution_known = True
    return state.solution


def _premises(grid: Grid, both: bool) -> list[Premise]:
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


def _branches_of_clash(out: _Outcome, net: bool) -> list[list[int]]:
    assert out.clash is not None
    parents = out.clash[3]
    if net:
        return [_ancestors(out, parents)]
    return [_ancestors(out, (p,)) for p in parents]


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
        net=NetEvidence(branch_lengths=tuple(len(b) for b in branches)),
        chain=tuple(fact_node(f) for branch in branches for f in branch),
    )


def _contradictions(grid: Grid, net: bool) -> Iterator[Step]:
    prop = _Propagator(grid, net)
    technique = "forcing-net-contradiction" if net else "forcing-chain-contradiction"
    premises = _premises(grid, both=not net)
    # Only premises that can clash are followed (the others are never reported, and the
    # order of those that are stays the same): for chains, those whose one-parent
    # consequences hold a clash at all; for nets, those false in a solution of the state
    # (every inference is sound, so a premise true in a solution never clashes).
    held: list[Premise] = []
    if net:
        sol = _a_solution(grid)
        if sol is not None:
            held = [p for p in premises if (sol[p[0]] == p[1]) == p[2]]
            premises = [p for p in premises if (sol[p[0]] == p[1]) != p[2]]
    else:
        closure = _chain_closure(grid)
        premises = [p for p in premises if closure.clashes(p[0], p[1], p[2])]
    final: dict[Premise, _Outcome] = {}
    # Runs start as the first round comes to them (a run's working lists are short-lived
    # for most premises: fewer objects alive at once, less work for the garbage collector).
    runs: list[tuple[Premise, _Run | None]] = []
    for p in premises:
        barren = prop.barren(p[0], p[1], p[2])
        if barren is None:
            runs.append((p, None))
        else:
            final[p] = barren
    while runs:
        found: list[tuple[int, int, _Outcome]] = []
        left: list[tuple[Premise, _Run | None]] = []
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
        forcing_state(grid).finals[net] = final


def _final_outcomes(grid: Grid, net: bool, premises: Sequence[Premise]) -> dict[Premise, _Outcome]:
    """Every premise followed to its end (clash or fixpoint)."""
    outcomes = forcing_state(grid).finals.get(net)
    if outcomes is not None and all(p in outcomes for p in premises):
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
    c, d, on = fact_cell(out.premise), fact_digit(out.premise), fact_on(out.premise)
    # a clash in a house names the house; a clash in a cell names the cell
    in_house = kind == CLASH_HOUSE
    return _step(
        technique,
        branches,
        eliminations=((c, d),) if on else (),
        placements=() if on else ((c, d),),
        cells=(c,) if in_house else (c, where),
        digits=(d, digit),
        houses=(where,) if in_house else (),
    )


def _verity_groups(grid: Grid, net: bool) -> list[Group]:
    """The premise groups of which one holds: a cell's candidates, a digit's places in a
    house, and (chains only) a candidate true or false."""
    values, cands = grid.values, grid.candidates
    groups: list[Group] = []
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
    return groups


def _agree_somewhere(closure: _Closure, premises: list[Premise]) -> bool:
    """Whether no premise of the group clashes and all reach a common fact (by the
    inference graph)."""
    if any(closure.clashes(p[0], p[1], p[2]) for p in premises):
        return False
    common = -1
    for p in premises:
        common &= closure.reached(p[0], p[1], p[2])
    return bool(common)


def _follow_missing(
    grid: Grid,
    net: bool,
    prop: _Propagator | None,
    premises: list[Premise],
    outcomes: dict[Premise, _Outcome],
) -> _Propagator | None:
    """Follow the premises not in ``outcomes`` yet (into it); the propagator, made on
    first need."""
    for p in premises:
        if p not in outcomes:
            if prop is None:
                prop = _Propagator(grid, net)
            barren = prop.barren(p[0], p[1], p[2])
            if barren is None:
                barren = prop.follow(p[0], p[1], p[2])
            outcomes[p] = barren
    return prop


def _add_conclusions(found: list[Conclusion], k: int, group: Group, outs: list[_Outcome]) -> None:
    """Add the facts every branch of group ``k`` reaches (``outs``: their outcomes)."""
    on_all = off_all = ALL_CANDIDATES
    for o in outs:
        trues, falses = o.fact_bits()
        on_all &= trues
        off_all &= falses
    for bits, on in ((on_all, True), (off_all, False)):
        while bits:
            low = bits & -bits
            bits ^= low
            f = fact_of(low.bit_length() - 1, on)
            # Short proofs first: those known within a small budget of facts in every
            # branch (as the contradiction search stages them), then by how far into
            # each branch the conclusion comes.
            stage = max(o.stage(f) for o in outs)
            size = sum(o.order(f) for o in outs)
            found.append((stage, size, 0 if on else 1, k, f, outs, group))


def _verity_steps(technique: str, found: list[Conclusion]) -> Iterator[Step]:
    """The steps of the conclusions, each fact once, in order."""
    found.sort(key=lambda t: t[:5])
    seen: set[int] = set()
    for _stage, _size, _kind, _k, f, outs, (_group, cells, digits, houses) in found:
        if f in seen:
            continue
        seen.add(f)
        c, d = fact_cell(f), fact_digit(f)
        yield _step(
            technique,
            [_ancestors(o, (f,)) for o in outs],
            placements=((c, d),) if fact_on(f) else (),
            eliminations=() if fact_on(f) else ((c, d),),
            cells=cells,
            digits=digits,
            houses=houses,
        )


def _verities(grid: Grid, net: bool) -> Iterator[Step]:
    technique = "forcing-net-verity" if net else "forcing-chain-verity"
    groups = _verity_groups(grid, net)
    # Nets follow every premise; chains read from the inference graph which premises
    # clash and which facts all branches of a group reach, and follow only the premises
    # of groups with a common fact.
    closure: _Closure | None = None
    if not net:
        closure = _chain_closure(grid)
        if not closure.exact:
            closure = None
    if closure is None:
        premises_all = list(dict.fromkeys(p for g in groups for p in g[0]))
        outcomes = _final_outcomes(grid, net, premises_all)
    else:
        outcomes = {}
    found: list[Conclusion] = []
    prop: _Propagator | None = None
    for k, group in enumerate(groups):
        premises = group[0]
        # A branch that clashes is a contradiction step, found first; a verity needs all.
        if closure is not None:
            if not _agree_somewhere(closure, premises):
                continue
            prop = _follow_missing(grid, net, prop, premises, outcomes)
        outs = [outcomes[p] for p in premises]
        if any(o.clash is not None for o in outs):
            continue
        _add_conclusions(found, k, group, outs)
    yield from _verity_steps(technique, found)


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

    Evidence as for contradictions, plus ``refuted``: the candidates inner nets refuted,
    and ``inner_sizes``: in the same order, the number of facts of the inner net that
    refuted each (SE counts nested chains in a chain's size). Candidates of cells with
    fewest candidates are tried first and steps come out as found: the search is costly.
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
        net = NetEvidence(
            branch_lengths=step.branch_lengths,
            refuted=tuple((fact_cell(f), fact_digit(f)) for f in refuted),
            inner_sizes=sizes,
        )
        yield replace(step, net=net)
