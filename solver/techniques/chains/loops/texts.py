"""The texts of Nice Loops and AICs: Eureka notation, node names, one line per step."""

from __future__ import annotations

from ....grid import COL_OF, HOUSES, ROW_OF
from ....steps import ChainNode, Role, Step, cells_text, eliminations_text
from .search import AIC, CNL, DNL


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
    for c in step.marked_cells(Role.ALS):
        if k < 0 or c not in HOUSES[step.houses[k]]:
            k += 1
            sets.append([])
        sets[-1].append(c)
    if len(sets) == 1:
        return f"{cells_text(sets[0])} is an almost locked set"
    return " and ".join(cells_text(cs) for cs in sets) + " are almost locked sets"


def chain_reason(step: Step) -> str:
    """What the chain proves, in words: ``either r1c2 or r7c2 is 5, so cells seeing
    both lose it`` (an AIC), or why a loop's weak links are strong (a nice loop)."""
    kind = step.technique.removeprefix("grouped-")
    chain = step.chain
    first_cells, first_digit, first_on = chain[0]
    last_cells, last_digit, _ = chain[-1]
    start = node_name(first_cells)
    if kind == AIC:
        end = node_name(last_cells)
        if first_digit == last_digit:
            return f"either {start} or {end} is {first_digit}, so cells seeing both lose it"
        return (
            f"{start} is {first_digit} or {end} is {last_digit}; the two cells see each "
            f"other, so neither can hold the other's digit"
        )
    if kind == DNL:
        d, e = first_digit, last_digit
        if first_on and d == e:
            return f"if {start} were {d}, the loop would take {d} out of it again"
        if first_on:
            return f"if {start} were {d}, the loop would make it {e} as well"
        if d == e:
            return f"if {start} were not {d}, the loop would put {d} back, so {start} is {d}"
        return f"if {start} were {e}, the loop read backwards would make it {d} as well"
    return "the loop closes, so every weak link in it is strong as well"


def describe_chain(step: Step) -> str:
    """One line: the chain in Eureka notation and what it proves."""
    grouped = step.technique.startswith("grouped-")
    name = ("Grouped " if grouped else "") + _NAMES[step.technique.removeprefix("grouped-")]
    why = chain_reason(step)
    if step.marked_cells(Role.ALS):
        # an ALS shows as (j)cells=(k)cells: its j all off, the set is locked with k
        why = f"{_als_text(step)}; {why}"
    return f"{name}: {eureka(step.chain)}: {why}: {eliminations_text(step.eliminations)}"
