"""Graded hints: the next step told a little at a time, as a teacher would.

Glossary
--------
level 1 (where)      where to look: the houses of the step, or its cells when it names none
level 2 (technique)  where, and the technique to use there
level 3 (evidence)   the cells and candidates the step rests on, without its result
level 4 (answer)     the whole step: its placements or eliminations, in words

Levels 1 to 3 never carry a placement or an elimination, and never name a digit the step
places; level 4 is the step the solver takes next from the same position (the solve
order puts what a person sees first, see ``solver.techniques.ORDER``).
"""

from __future__ import annotations

from enum import IntEnum

from .grid import cell_name, house_name
from .steps import Step


class HintLevel(IntEnum):
    """How much of the next step a hint tells (see the module's glossary)."""

    WHERE = 1
    TECHNIQUE = 2
    EVIDENCE = 3
    ANSWER = 4


_CELL_FIRST = frozenset({"naked-single"})
# Level 3 of the singles: what to see, without the digit (their evidence is the digit).
_SINGLES = {
    "full-house": "it is the last empty cell of its house; which digit is missing there?",
    "naked-single": (
        "the digits its row, column and box hold (and what the steps before ruled out) "
        "leave it one candidate; which?"
    ),
    "hidden-single": (
        "one of the digits it still needs can go into only one of its empty cells; "
        "check each missing digit against the rows, columns and boxes that cross it"
    ),
}


def hint_where(step: Step) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The houses and cells to look at: the step's houses, else its cells, else the
    cells it places into or eliminates from; a naked single's is its cell (its houses
    are evidence, shown from level 3)."""
    if step.technique in _CELL_FIRST:
        return (), step.cells
    if step.houses:
        return step.houses, ()
    cells = step.cells or tuple(dict.fromkeys(c for c, _d in step.placements + step.eliminations))
    return (), cells


def _names(houses: tuple[int, ...], cells: tuple[int, ...]) -> str:
    parts = [house_name(h) for h in houses] + [cell_name(c) for c in cells]
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _evidence_digits(step: Step) -> tuple[int, ...]:
    """The step's evidence digits, less any digit it places."""
    placed = {d for _c, d in step.placements}
    return tuple(d for d in step.digits if d not in placed)


def hint_text(step: Step, level: HintLevel) -> str:
    """The hint for ``step`` at ``level``, one line of plain English."""
    from .techniques import TECHNIQUES

    if level >= HintLevel.ANSWER:
        return step.text
    houses, cells = hint_where(step)
    where = _names(houses, cells)
    if level == HintLevel.WHERE:
        return f"Look at {where}."
    name = TECHNIQUES[step.technique].name
    if level == HintLevel.TECHNIQUE:
        return f"Look at {where}: there is a {name} there."
    single = _SINGLES.get(step.technique)
    if single is not None:
        return f"{name} in {where}: {single}" + ("" if single.endswith("?") else ".")
    evidence = tuple(dict.fromkeys(step.cells + step.all_marked()))
    text = f"{name} in {where}"
    if evidence and evidence != cells:
        text += f", resting on {_names((), evidence)}"
    digits = _evidence_digits(step)
    if digits:
        noun = "candidate" if len(digits) == 1 else "candidates"
        text += f", with the {noun} {', '.join(map(str, digits))}"
    return text + "."


def hint_dict(step: Step, level: HintLevel) -> dict[str, object]:
    """The hint as JSON: ``{"level", "text", "houses", "cells"}``, plus ``"technique"``
    and ``"name"`` from level 2, ``"evidence"`` and ``"digits"`` from level 3, and the
    whole step (``"placements"``, ``"eliminations"``, every evidence field) at level 4."""
    from .techniques import TECHNIQUES

    houses, cells = hint_where(step)
    out: dict[str, object] = {
        "level": int(level),
        "text": hint_text(step, level),
        "houses": [house_name(h) for h in houses],
        "cells": [cell_name(c) for c in cells],
    }
    if level >= HintLevel.TECHNIQUE:
        tech = TECHNIQUES[step.technique]
        out.update({"technique": tech.id, "name": tech.name, "code": tech.code})
    if level >= HintLevel.EVIDENCE:
        out["evidence"] = [cell_name(c) for c in dict.fromkeys(step.cells + step.all_marked())]
        out["digits"] = list(_evidence_digits(step))
    if level >= HintLevel.ANSWER:
        out.update(step.to_dict())
        out["level"] = int(level)
    return out
