"""The chains of this family in plain words (:mod:`solver.words`): the walk from the
premise to the far end, then what it proves."""

from __future__ import annotations

from ...grid import cell_name
from ...steps import ChainNode, Step, cells_text
from ...words import walk_text


def _sees_both(step: Step, digit: int) -> str:
    targets = sorted({c for c, _ in step.eliminations})
    sees = "sees" if len(targets) == 1 else "see"
    return f"so {cells_text(targets)}, which {sees} both, cannot be {digit}"


def x_chain_facts(step: Step) -> list[ChainNode]:
    """The walk of an X-Chain: its start without the digit, then on, off, on, ..."""
    d = step.digits[0]
    return [((c,), d, i % 2 == 1) for i, c in enumerate(step.cells)]


def xy_chain_facts(step: Step) -> list[ChainNode]:
    """The walk of an XY-Chain: its start without ``x``, so with its other digit, so the
    next cell without that digit, so with its other one, ... the last cell with ``x``."""
    x, *ons = step.digits
    facts: list[ChainNode] = [((step.cells[0],), x, False)]
    previous = x
    for cell, on in zip(step.cells, ons, strict=True):
        if cell != step.cells[0]:
            facts.append(((cell,), previous, False))
        facts.append(((cell,), on, True))
        previous = on
    return facts


def _either_end(step: Step, facts: list[ChainNode], digit: int, intro: str = "") -> str:
    start, end = cell_name(step.cells[0]), cell_name(step.cells[-1])
    return (
        f"{intro}{walk_text(facts)} So if {start} is not {digit}, {end} is: one of the two "
        f"is {digit}, {_sees_both(step, digit)}."
    )


def words_x_chain(step: Step) -> str:
    return _either_end(step, x_chain_facts(step), step.digits[0])


def words_xy_chain(step: Step) -> str:
    intro = "Each of these cells holds only two digits. "
    return _either_end(step, xy_chain_facts(step), step.digits[0], intro)


def words_remote_pair(step: Step) -> str:
    x, y = step.digits
    names = [cell_name(c) for c in step.cells]
    pairs = ", ".join(f"{n} is {y if i % 2 else x}" for i, n in enumerate(names) if i)
    return (
        f"Each of {', '.join(names)} holds only {x} and {y}, and each sees the next, so "
        f"their digits alternate: if {names[0]} is {x}, then {pairs} (and the other way "
        f"round if it is {y}). Either way {names[0]} and {names[-1]} hold one {x} and one "
        f"{y}, so a cell that sees both can be neither."
    )
