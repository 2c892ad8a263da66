"""What a technique is: its row in the registry, and the vocabularies its row uses.

A technique is one :class:`Technique` row, declared by its family's package beside its
finder and its text (``solver/techniques/<family>/__init__.py``); the solve order is the
list of ids in ``solver/techniques/__init__.py``. This module imports no technique: the
rows are handed to :func:`register` when :mod:`solver.techniques` loads (``import
solver`` does that first), and :func:`technique` finds one by id.

Adding a technique touches its family folder (finder, text, row) and the order list
only; see ARCHITECTURE.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from .grid import Grid
    from .steps import Step

Finder = Callable[["Grid"], Iterator["Step"]]
Describer = Callable[["Step"], str]


class Family(StrEnum):
    """A technique's family: one colour on the photo and in the legend each."""

    SINGLES = "singles"
    INTERSECTIONS = "intersections"
    SUBSETS = "subsets"
    FISH = "fish"
    SINGLE_DIGIT = "single-digit"
    WINGS = "wings"
    CHAINS = "chains"
    COLOURING = "colouring"
    UNIQUENESS = "uniqueness"  # assume a unique solution: left out by --no-uniqueness
    ALS = "als"
    LAST_RESORT = "last-resort"


class Level(StrEnum):
    """A technique's difficulty level, easiest first; a puzzle's level is its hardest
    technique's (a step up when it needed many hard steps)."""

    EASY = "easy"
    MEDIUM = "medium"
    HARD = "hard"
    UNFAIR = "unfair"
    EXTREME = "extreme"


LEVELS: tuple[Level, ...] = tuple(Level)


class SerEntry(NamedTuple):
    """A technique's Sudoku Explainer rating (see :mod:`solver.rating`): SE's base rating,
    whether SE's chain-length increment applies, where the figure comes from, and the
    lower base SE gives the chain's one-digit instances (X-cycles, X-chains), if any."""

    base: float
    chain: bool
    source: str
    one_digit: float | None = None


# The sources a SerEntry cites.
SE = "SE 1.2.1"
SK = "Sukaku Explainer"
EST = "estimate"


@dataclass(frozen=True, kw_only=True)
class Technique:
    """A solving technique: its row in the registry.

    ``id`` is stable (the JSON's ``technique``); ``name`` its display name; ``code`` the
    short code of the photo's badges and the legend; ``family`` its colour; ``level`` and
    ``weight`` its share of a puzzle's difficulty; ``ser`` its Sudoku Explainer rating;
    ``hodoku`` the codes of HoDoKu's regression library it answers; ``find(grid)``
    yields every instance as a :class:`~solver.steps.Step`, ``describe(step)`` says one
    in plain English, and ``words(step)``, for chains, walks through one in plain words
    for a casual player (:mod:`solver.words`). ``default`` False keeps it out of the
    default solve order (as HoDoKu ships Mutant fish switched off), there to be asked for
    by name."""

    id: str
    name: str
    code: str
    family: Family
    level: Level
    weight: int
    ser: SerEntry
    hodoku: tuple[str, ...] = ()
    find: Finder = field(compare=False)
    describe: Describer = field(compare=False)
    words: Describer | None = field(default=None, compare=False)
    default: bool = True


_BY_ID: dict[str, Technique] = {}


def register(rows: Iterable[Technique]) -> None:
    """Make the rows findable by id (called once, by :mod:`solver.techniques`)."""
    for row in rows:
        if _BY_ID.get(row.id, row) is not row:
            raise ValueError(f"two techniques with the id {row.id!r}")
        _BY_ID[row.id] = row


def technique(technique_id: str) -> Technique:
    """The registered technique with this id (KeyError for an unknown one)."""
    return _BY_ID[technique_id]
