"""From per-cell digit probabilities to the givens of a puzzle, fixing what the rules expose.

A digit reader is right on almost every cell, but a grid has 81 of them, so a misread
somewhere is common. The puzzle itself is the check: a printed Sudoku has no repeated
digit in a house and exactly one solution. ``revise`` takes the most probable reading;
if it breaks that rule, it tries the next most probable readings of the *doubtful*
cells (those read with less than ``CONFIDENT`` probability), cheapest first (one change,
then two, ...), until one has exactly one solution. A confident cell is never changed,
and a reading is trusted only when no other plausible reading of its doubtful cells is
a different puzzle: a wrong answer is worse than none. Every change is reported as a
``Correction``; none is made silently. Doubtful cells that hold copies of one printed
glyph (``twins``) are one digit: read together, changed together.
"""

from __future__ import annotations

import heapq
import math
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import numpy as np
import numpy.typing as npt

from solver.errors import Status
from solver.grid import cell_name, find_duplicates
from solver.search import solutions
from solver.steps import and_text


class ReadStatus(StrEnum):
    """Whether a grid's reading can be trusted."""

    # The reader's part of the shared vocabulary (solver.errors.Status).
    OK = Status.READ.value  # every cell confident, or the doubtful ones settled by the rules
    MULTIPLE = Status.MULTIPLE.value  # every cell confident; the puzzle has several solutions
    UNREADABLE = Status.UNREADABLE.value  # the reader cannot tell which puzzle is on the page


class Problem(StrEnum):
    """What is wrong with a grid's first reading: one per part of ``Reading.problem``.

    The text tells a person, with the cells and digits; these tell a program (the
    JSON's ``"problems"``, and the reader's own second looks) without parsing it.
    """

    # The puzzle as read (revision's):
    CLASH = "clash"  # a digit twice in a house
    NO_SOLUTION = "no-solution"
    SEVERAL_SOLUTIONS = "several-solutions"
    RIVAL_FIXES = "rival-fixes"  # several different corrections fit about equally well
    TOO_MANY_READINGS = "too-many-readings"  # the search ran out before checking them all
    RIVAL_READING = "rival-reading"  # another reading of the doubtful cells, another puzzle
    SWAPPABLE_DIGITS = "swappable-digits"  # two digits the rules cannot tell apart
    UNTOLD_DIGIT = "untold-digit"  # more likely a digit than empty, but not which
    ENTRY_MAY_BE_PRINT = "entry-may-be-print"  # an entry the reading makes wrong, printed
    # The page (the scanner's checks after revision):
    PRINT_AS_HANDWRITING = "print-as-handwriting"  # several solutions beside written digits
    GLARE = "glare"  # glare hides a cell's digit
    CUT_OFF = "cut-off"  # cells outside the photo
    COVERED = "covered"  # a finger or a pen over the grid
    LINE_THROUGH_CELLS = "line-through-cells"  # the lattice missed a grid line
    FRAME_MISSED = "frame-missed"  # the lattice's outer line runs off the grid's frame
    FOLDED_LATTICE = "folded-lattice"  # a cell squeezed between two of the lattice's lines
    BOX_LINES_OFF = "box-lines-off"  # the grid's bold lines lie off the lattice's thirds
    TWO_COLOURS = "two-colours"  # digits in two inks, neither the print's
    FAINT_INK = "faint-ink"  # faint ink read as the digit the puzzle needs
    UNNAMED_DIGIT = "unnamed-digit"  # ink likelier a digit than not, none surely read
    CLASHING_ENTRIES = "clashing-entries"  # entries clash with a given read in doubt
    UNCLEAR_ENTRIES = "unclear-entries"  # too many handwritten digits not read surely
    UNTOLD_KIND = "untold-kind"  # the solution's digit read where no rule tells its kind
    OFF_SYMMETRY = "off-symmetry"  # ink read empty where the print's symmetry puts a given


# A cell read with at least this probability is *confident*: revision never changes it.
# Below it a cell is doubtful. On the 160 reference photos (CNN engine, trained on
# rendered fonts only) every misread cell is under 0.53, and 1.5% of right cells are
# under 0.9, about one a photo, which the rival check below settles.
CONFIDENT = 0.9
# A reading (as read, or as fixed) is kept only if no reading giving another solution
# is within these odds of it (4 : 1): otherwise the reader cannot tell which of the
# two puzzles is printed, and picking one would be a guess.
RIVAL_ODDS = math.log(4.0)
# A digit read with less than this probability may be junk as well as that digit: if
# the puzzle has the same one solution without it and "empty" is within WEAK_EMPTY_ODDS
# of it (20 : 1; junk spread over three readings leaves "empty" little, while a print
# torn between two digits leaves it none), whether it is printed there is a guess.
WEAK_DIGIT = 0.5
WEAK_EMPTY_ODDS = math.log(20.0)
# Two digits swapped everywhere they are read (or one digit read everywhere as one the
# reading lacks) make a puzzle as proper as the reading: its solution is the same with
# the two swapped, so the puzzle's rules never tell them apart, and a font's glyph
# misread the same way in every copy (a blurred 8 as a 2, on a puzzle without 2s)
# passes every other check. Such a relabelling is a rival unless the network puts the
# reading ahead of it by the odds of a confident cell (0.9 : 0.1), over all the
# cells it changes (copies of one glyph counted once).
RELABEL_ODDS = math.log(CONFIDENT / (1.0 - CONFIDENT))
# A cell read as empty with less than this probability more likely holds a digit than
# not (its digits' shares add up to more): the page is not read without it unnoticed.
LIKELY_INKED = 0.5
# A grid whose digit cells read with UPRIGHT_TOP or more make UPRIGHT_SHARE of them is
# upright (see ``reads_upright``).
UPRIGHT_TOP = 0.8
UPRIGHT_SHARE = 0.75
# Why a reading whose other readings could not all be looked at is refused.
_TOO_MANY = "too many readings of the doubtful cells to check them all"
# Alternatives less probable than this are never tried.
_MIN_ALT_P = 1e-3
# The changes together may cost at most this much log-likelihood (odds 1 : 1000 against
# the reading as read): beyond that a "fix" is guessing, not reading. (On the reference
# photos the CNN's right fixes cost under 0.5.)
_MAX_TOTAL_COST = math.log(1000.0)
# A set of changes that makes a proper puzzle: (cost, [(cost, cell, value)], solution).
_Fix = tuple[float, list[tuple[float, int, int]], list[int]]
# A change that may be tried: (cost, cells, value). One cell, or every copy of one
# printed glyph (``twins`` of :func:`revise`) at once.
_Change = tuple[float, tuple[int, ...], int]


@dataclass(frozen=True)
class Correction:
    """One cell whose most probable reading was replaced to make the puzzle consistent.

    Attributes
    ----------
    cell : int
        0..80, row by row.
    read : int
        The most probable reading, 0 = empty.
    corrected : int
        The reading kept instead, 0 = empty.
    confidence : float
        Probability the classifier gave to ``read``.
    corrected_confidence : float
        Probability the classifier gave to ``corrected``.
    reason : str
        Why, in words that end the sentence of :meth:`describe`.
    """

    cell: int
    read: int
    corrected: int
    confidence: float
    corrected_confidence: float
    reason: str = "so the puzzle has one solution"

    def describe(self) -> str:
        """One line, e.g. ``r3c5: read 8 (p=0.41), corrected to 3 so the puzzle has one
        solution``."""
        return (
            f"{cell_name(self.cell)}: read {_say(self.read)} (p={self.confidence:.2f}), "
            f"corrected to {_say(self.corrected)} {self.reason}"
        )


@dataclass
class Reading:
    """The givens read from a grid, with how sure the reader is of each.

    Attributes
    ----------
    givens : list of int
        81 values, row by row, 0 = empty; corrections applied.
    confidence : list of float
        81 probabilities of the values in ``givens``.
    alternatives : list of list of (int, float)
        Per cell, every reading with probability >= 0.001, most probable first
        (value 0 = empty).
    corrections : list of Correction
        Changes made to the most probable reading, by cell.
    status : ReadStatus
        OK: ``givens`` is the puzzle on the page and has exactly one solution.
        MULTIPLE: every cell was read with confidence and the puzzle has several
        solutions (``problem`` says so). UNREADABLE: no small set of changes to the
        doubtful cells gave one solution, several giving different solutions fit
        about equally well, or a proper reading has a plausible rival; ``givens`` is
        then the most probable reading, uncorrected.
    doubtful_cells : list of int
        Cells that may be misread: for OK, the corrected cells, then those below
        ``CONFIDENT``, least certain first; for UNREADABLE, the cells a rival reading
        or a fix changes, the cells in clashes, then the other doubtful ones.
    solution : list of int or None
        The puzzle's solution when the status is OK and it has exactly one.
    parts : list of (Problem, str)
        Why the most probable reading was not accepted as is (empty when it was): each
        part's kind and its text for people; ``problem`` and ``problems`` read them.
    """

    givens: list[int]
    confidence: list[float]
    alternatives: list[list[tuple[int, float]]]
    corrections: list[Correction] = field(default_factory=list)
    status: ReadStatus = ReadStatus.OK
    doubtful_cells: list[int] = field(default_factory=list)
    solution: list[int] | None = None
    parts: list[tuple[Problem, str]] = field(default_factory=list)

    @property
    def problem(self) -> str:
        """The problem's parts for people, in order ("" when there is none)."""
        return "; ".join(text for _, text in self.parts)

    @property
    def problems(self) -> list[Problem]:
        """The problem's parts' kinds, in order."""
        return [kind for kind, _ in self.parts]

    def add_problem(self, kind: Problem, text: str) -> None:
        """Another part of the problem: ``text`` (for people) of ``kind``."""
        self.parts.append((kind, text))

    def clear_problem(self) -> None:
        """No problem any more (what revision fixed was undone, or a refusal supersedes it)."""
        self.parts = []

    def describe(self) -> list[str]:
        """Human lines about the reading: the problem found, then each correction."""
        lines = [self.problem] if self.problem else []
        lines += [c.describe() for c in self.corrections]
        if self.status == "unreadable":
            cells = ", ".join(cell_name(c) for c in self.doubtful_cells)
            lines.append(f"could not read the digits consistently; doubtful cells: {cells}")
        return lines


def check_probs(probs: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """Validate per-cell probabilities as an (81, 10) float array, rows normalised."""
    p = np.asarray(probs, dtype=np.float64)
    if p.shape != (81, 10):
        raise ValueError(f"probabilities must have shape (81, 10), got {p.shape}")
    if not np.all(np.isfinite(p)) or np.any(p < 0):
        raise ValueError("probabilities must be finite and non-negative")
    total = p.sum(axis=1, keepdims=True)
    if np.any(total <= 0):
        raise ValueError("every cell needs some probability")
    out: npt.NDArray[np.float64] = p / total
    return out


def _say(value: int) -> str:
    """A cell's reading in words: the digit, or "empty"."""
    return str(value) if value else "empty"


def _pooled(p: npt.NDArray[np.float64], twins: Sequence[Sequence[int]]) -> npt.NDArray[np.float64]:
    """Probabilities (81, 10) with each group of ``twins`` given its members' normalised
    geometric mean: copies of one glyph, one reading."""
    if not twins:
        return p
    out = p.copy()
    seen: set[int] = set()
    for group in twins:
        cells = [int(c) for c in group]
        if len(cells) < 2 or any(not 0 <= c < 81 for c in cells) or seen & set(cells):
            raise ValueError("twins must be disjoint groups of at least two cells 0..80")
        seen.update(cells)
        if p[cells].max() >= CONFIDENT:
            raise ValueError("twins must be cells read in doubt (under CONFIDENT)")
        mean = np.exp(np.log(np.maximum(p[cells], 1e-12)).mean(axis=0))
        out[cells] = mean / mean.sum()
    return out


def _problem(values: list[int]) -> tuple[tuple[Problem, str] | None, list[list[int]]]:
    """What is wrong with a reading as a puzzle (None when it has exactly one solution),
    and its solutions (at most two; none when its digits clash)."""
    dups = find_duplicates(values)
    if dups:
        a, b, _ = dups[0]
        clash = f"the digits as read clash: {values[a]} twice, in {cell_name(a)} and {cell_name(b)}"
        return (Problem.CLASH, clash), []
    sols = solutions(values, limit=2)
    if not sols:
        return (Problem.NO_SOLUTION, "the digits as read give a puzzle with no solution"), sols
    if len(sols) > 1:
        several = "the digits as read give a puzzle with several solutions"
        return (Problem.SEVERAL_SOLUTIONS, several), sols
    return None, sols


def proper_solution(values: list[int]) -> list[int] | None:
    """The solution if ``values`` is a proper puzzle (no clash, one solution), else None."""
    if find_duplicates(values):
        return None
    sols = solutions(values, limit=2)
    return sols[0] if len(sols) == 1 else None


def revise(
    probs: npt.ArrayLike,
    *,
    max_changes: int = 81,
    suspects: int = 14,
    max_checks: int = 3000,
    time_limit: float = 1.5,
    inked: Sequence[int] = (),
    twins: Sequence[Sequence[int]] = (),
    kind_in_doubt: Sequence[bool] = (),
    entered: Sequence[int] = (),
    theirs: Sequence[bool] = (),
) -> Reading:
    """Read the givens from per-cell probabilities, correcting doubtful cells if needed.

    The rules, in order:

    1. The most probable reading of each cell is taken. Cells read with probability
       ``CONFIDENT`` or more are never changed.
    2. If the reading is a proper puzzle (no clash, one solution), it is kept, unless
       another reading of the doubtful cells, within odds ``RIVAL_ODDS`` of it, is a
       proper puzzle with another solution, or with the same one but without a digit
       read (pencil marks read as the digit they guess right): then the reader cannot
       tell which puzzle is on the page, and the status is "unreadable". Emptying a
       cell whose ink is surely its solution's digit (``inked``: only whether it was
       printed or written is in doubt) makes no rival: the person's right entry and a
       given draw the same grid. Nor does a reading stand whose other readings within
       those odds were not all looked at (``max_checks`` or ``time_limit`` ran out):
       a rival may be among the rest. Two digits swapped wherever they are read (or
       one read as a digit the reading lacks) are a rival within the wider
       ``RELABEL_ODDS``: the puzzle's rules cannot tell them apart. The same holds for
       a fix in rule 3.
    3. Otherwise the doubtful cells' next most probable readings are tried, cheapest
       first; a fix is kept when no fix giving another puzzle comes close: another
       solution, or the same one without a digit the fix keeps (whether a cell whose
       ink clashed holds its solution's digit or nothing is then a guess, as in rule
       2; a cell whose ``inked`` digit is its solution's is no such doubt). A fix
       writes a digit into a cell only within ``RIVAL_ODDS`` of the cell's reading
       (a misread print is torn between two digits), and into a cell read empty only
       its likeliest digit; it may empty any doubtful cell.
       A likelier fix passed over for that is a rival when it reads another puzzle
       or holds a digit where the fix leaves the cell empty.
    4. A reading with no doubtful cell that is free of clashes but has several
       solutions is what is printed: it is returned as read (MULTIPLE, ``problem``
       saying so), for the solver to report, never "fixed". A digit surely inked
       (``inked``) whose doubt is only print or pen counts as no doubt here: leaving
       it out only adds solutions.
    5. Anything else is "unreadable", naming the cells in doubt.
    6. A proper reading (rules 2 and 3) with a cell read as empty that more likely
       holds a digit than not (empty under ``LIKELY_INKED``) does not leave it out: the
       cell takes its likeliest digit when that is its solution's, within
       ``RIVAL_ODDS`` of "empty" and more than those odds ahead of every other digit
       (noise spread over the digits is likeliest some digit too); otherwise the page
       is "unreadable", naming it. A
       cell whose "empty" is partly the kind rules' (``kind_in_doubt``), or whose
       likeliest digit is 1 (a lone stroke), is left be; but not a cell whose likeliest
       digit is as likely against "empty" as one a fix of rule 3 wrote into a cell read
       empty (three blurred copies of one print, two of them written in because the
       puzzle needed them: the third was seen as well), which is filled when the rule
       would fill it, and otherwise left be.
    7. A proper reading under whose solution a digit read as the person's (``entered``)
       is wrong stands only if no reading with that digit printed is proper within
       ``RIVAL_ODDS`` of it (the digit a given, the doubtful cells changed as in rule
       3): such a reading is another puzzle, and which one is on the page turns on
       print told from the person's ink, not on the digits. A reading that needed a
       fix rests on the doubtful cells already; an entry that only the fix makes wrong
       is the likelier misread (an app's printed 7 in its selected cell, coloured like
       the entries: the puzzle without it had several solutions, and revision made it
       one by reading a candidate as a given 4, the 7 then the player's mistake).

    Parameters
    ----------
    probs : (81, 10) array
        Per-cell probabilities, column 0 = EMPTY, column d = digit d (what
        ``DigitEngine.classify`` returns).
    max_changes : int, keyword-only
        Most changes at once (by default any number: the checks and the clock bound
        the search). A fix or a rival of more changes within the odds is not looked
        at, and a reading it would have checked is refused as not checked (capped at
        three before 2026-12-01: stress handheld 5240, a fix of three read another
        puzzle, four doubtful digits of a shaken page read right within 4 : 1 of it).
    suspects : int, keyword-only
        How many doubtful cells may be changed (copies of one glyph counted once):
        those whose next reading is closest to the one read; more where more are
        within ``RIVAL_ODDS`` of their next reading (a rival may be made of any).
    max_checks : int, keyword-only
        Most candidate readings checked with the solver.
    time_limit : float, keyword-only
        Seconds after which the search gives up.
    inked : sequence of int, length 81 or empty, keyword-only
        The digit surely inked in each cell, printed or handwritten alike (0 where
        unsure or empty); empty when the engine does not tell print from hand.
    twins : sequence of sequences of int, keyword-only
        Groups of doubtful cells (each under ``CONFIDENT``) that hold copies of one
        printed glyph (see ``scanner.kinds.glyph_groups``): one digit, however the
        network read each. A group is read as one cell: its probabilities are the
        normalised geometric mean of its members' (the copies are one observation,
        not several), and it changes as a whole or not at all. A confident cell is
        never in a group, so never changed by one.
    kind_in_doubt : sequence of bool, length 81 or empty, keyword-only
        Cells whose ink may be no print whatever the network saw: rules about its kind
        (the person's ink, an ink between two, pencil marks, glare) moved some of the
        digits' share to "empty", or it is shorter than the print (a lone candidate
        mark). Rule 6 leaves them.
    entered : sequence of int, length 81 or empty, keyword-only
        The digit surely read (``INKED``) in each cell whose ink was taken for the
        person's, 0 elsewhere: rule 7 weighs each as printed.
    theirs : sequence of bool, length 81 or empty, keyword-only
        Cells whose ink leans the person's by shape or ink on a page written on:
        rule 6 leaves them to the kind rules, whatever the odds.

    Returns
    -------
    Reading
        Status OK with the (possibly corrected) givens, MULTIPLE, or UNREADABLE.
    """
    p = _pooled(check_probs(probs), twins)
    order = np.argsort(-p, axis=1, kind="stable")
    read = [int(v) for v in order[:, 0]]
    top = p[np.arange(81), order[:, 0]]
    alternatives = [
        [(int(v), float(p[c, v])) for v in order[c] if v == order[c, 0] or p[c, v] >= _MIN_ALT_P]
        for c in range(81)
    ]
    reading = Reading(
        givens=list(read),
        confidence=[float(v) for v in top],
        alternatives=alternatives,
    )
    doubtful = sorted((c for c in range(81) if top[c] < CONFIDENT), key=lambda c: top[c])
    # Candidate changes (cost, cells, value), cost = log-odds given up against the top.
    group_of = {c: tuple(sorted(g)) for g in twins for c in g}
    # The suspects are the units whose next reading is closest to the one read: a
    # rival within the odds is made of such changes, whatever the cell's top reading
    # (a print at 0.59 against "empty" at 0.40 is nearer a change than an empty cell at
    # 0.50 whose next reading is a digit at 0.10). By the top alone, a screen photo's
    # moire put 20 such empty cells ahead of a player's entry read as print, and no
    # reading without it was tried.
    runner_up = p[np.arange(81), order[:, 1]]
    units = sorted(
        dict.fromkeys(group_of.get(c, (c,)) for c in doubtful),
        key=lambda u: top[u[0]] / max(runner_up[u[0]], 1e-12),
    )
    # Every unit whose next reading is within the odds of a rival is looked at, however
    # many (stress handheld 5360: 17 cells of a shaken page within 4 : 1 of their next
    # reading; the fix of the 14 looked at read another puzzle, eight cells off); the
    # search's checks and clock bound the work.
    within = sum(
        math.log(top[u[0]]) - math.log(max(runner_up[u[0]], 1e-12)) <= RIVAL_ODDS for u in units
    )
    cands: list[_Change] = []
    for unit in units[: max(suspects, within)]:
        c = unit[0]
        for v, pv in alternatives[c][1:]:
            cost = math.log(top[c]) - math.log(pv)
            if cost <= _MAX_TOTAL_COST:
                cands.append((cost, unit, v))
    cands.sort()
    search = (max_changes, max_checks, time_limit)

    problem, sols = _problem(read)
    if problem is None:
        reading.solution = sols[0]
        reading.doubtful_cells = doubtful
        reading = _no_digit_left_out(
            _unless_rivalled(reading, cands, search, inked, group_of),
            p,
            inked,
            kind_in_doubt,
            theirs,
        )
        return _unless_entry_printed(reading, read, cands, search, entered, 0.0)
    reading.add_problem(*problem)

    # The cheapest fix wins only if no fix giving another puzzle comes close: with
    # uninformative alternatives (Tesseract's) many fixes fit, and picking one would
    # be a guess that silently changes the puzzle. A fix with the same solution that
    # empties a cell the cheapest one fills is another puzzle too: junk ink (a bent
    # grid line, pencil marks) read as "some digit" clashes, and the rules alone would
    # pick the digit that fits. For the same reason a fix writes a digit into a cell
    # only where the network gave that digit a real chance (within ``RIVAL_ODDS`` of
    # what it read there: its misreads of print are torn between two digits), while it
    # may empty a cell whatever the odds (junk read surely as a digit is still none).
    # A likelier fix passed over is a rival when it reads another puzzle or holds a
    # digit where the kept fix leaves the cell empty.
    # Nor does a fix write into a cell read empty any digit but its likeliest: ink the
    # network could not name (a lattice cut across a print and a line, "empty" 0.24, 1
    # 0.19, 4 0.16) holds no second digit the rules may pick because the puzzle needs it.
    likeliest = [next(int(v) for v in order[c] if v) for c in range(81)]

    def guessed(fix: _Fix) -> bool:
        return any(
            v and (cost > RIVAL_ODDS or (not read[cell] and v != likeliest[cell]))
            for cost, cell, v in fix[1]
        )

    found: _Fix | None = None
    rival: _Fix | None = None
    passed: list[_Fix] = []
    bound = [_MAX_TOTAL_COST]
    searched = [False]
    for fix in _fixes(read, cands, *search, bound, searched):
        if found is None and guessed(fix):
            passed.append(fix)
        elif found is None:
            found = fix
            bound[0] = min(bound[0], fix[0] + RIVAL_ODDS)
            rival = next(
                (
                    f
                    for f in passed
                    if _other_puzzle(read, found, f, inked)
                    or _empties_a_digit(read, f, found, inked)
                ),
                None,
            )
            if rival is not None:
                break
        elif _other_puzzle(read, found, fix, inked):
            rival = fix
            break
    clash = sorted({c for a, b, _ in find_duplicates(read) for c in (a, b)}, key=lambda c: top[c])
    # Cells whose digit is sure and only its kind (print or pen) is in doubt count as
    # read with confidence here: without them the puzzle has more solutions, not one.
    unsure = [c for c in doubtful if not (read[c] and inked and inked[c] == read[c])]
    if found is None and len(sols) > 1 and not unsure:
        # Read with confidence and printed so: the puzzle has several solutions (rule 4).
        reading.status = ReadStatus.MULTIPLE
        return reading
    # A fix whose rivals were not all looked at (the search's checks or clock ran out)
    # is not checked: it may be one of several.
    unchecked = found is not None and rival is None and not searched[0]
    if found is None or rival is not None or unchecked:
        reading.status = ReadStatus.UNREADABLE
        tried = (found, rival) if found is not None else tuple(passed[:1])
        fixed = [c for f in tried if f is not None for _, c, _ in f[1]]
        if rival is not None:
            several = "several different corrections fit about equally well"
            reading.add_problem(Problem.RIVAL_FIXES, several)
        if unchecked:
            reading.add_problem(Problem.TOO_MANY_READINGS, _TOO_MANY)
        reading.doubtful_cells = list(dict.fromkeys(fixed + clash + doubtful))
        return reading
    _, changes, solution = found
    for _, c, v in sorted(changes, key=lambda t: t[1]):
        reading.corrections.append(Correction(c, read[c], v, float(top[c]), float(p[c, v])))
        reading.givens[c] = v
        reading.confidence[c] = float(p[c, v])
    reading.solution = solution
    corrected = [k.cell for k in reading.corrections]
    reading.doubtful_cells = list(dict.fromkeys(corrected + doubtful))
    # Rule 2 again on the fixed reading: its other doubtful cells must be settled too.
    rest = [k for k in cands if not set(k[1]) & set(corrected)]
    reading = _no_digit_left_out(
        _unless_rivalled(reading, rest, search, inked, group_of), p, inked, kind_in_doubt, theirs
    )
    return _unless_entry_printed(reading, read, cands, search, entered, found[0])


def _other_puzzle(read: list[int], kept: _Fix, other: _Fix, inked: Sequence[int] = ()) -> bool:
    """Whether fix ``other`` reads another puzzle than fix ``kept``: another solution,
    or the same one without a digit ``kept`` holds (see :func:`_empties_a_digit`)."""
    return other[2] != kept[2] or _empties_a_digit(read, kept, other, inked)


def _empties_a_digit(read: list[int], kept: _Fix, other: _Fix, inked: Sequence[int] = ()) -> bool:
    """Whether fix ``other`` leaves empty a cell that fix ``kept`` holds a digit in.

    Both are ``(cost, changes, solution)`` of :func:`_fixes` on ``read``. A cell whose
    ``inked`` digit is the kept solution's does not count: there only print or pen is
    in doubt, and both draw the same grid.
    """
    solution = kept[2]
    mine, theirs = list(read), list(read)
    for _, c, v in kept[1]:
        mine[c] = v
    for _, c, v in other[1]:
        theirs[c] = v
    return any(
        mine[c] and not theirs[c] and not (inked and inked[c] == solution[c]) for c in range(81)
    )


def _unless_rivalled(
    reading: Reading,
    cands: list[_Change],
    search: tuple[int, int, float],
    inked: Sequence[int] = (),
    group_of: Mapping[int, tuple[int, ...]] | None = None,
) -> Reading:
    """Mark an OK reading UNREADABLE if another proper reading is within ``RIVAL_ODDS``,
    or a relabelling of two of its digits within ``RELABEL_ODDS`` (:func:`_relabelled`).

    ``cands`` are the changes (cost, cells, value) that may be tried on ``reading.givens``.
    A rival counts if it has another solution, or if it has the same one but empties a
    cell read as a digit (pencil marks or a smudge taken for print); emptying a digit read
    under ``WEAK_DIGIT`` that the puzzle can do without is one at wider odds. A rival that only
    adds its solution's digit to an empty cell is the same puzzle with a given more,
    and the drawn solution puts that digit there anyway; so is one that empties a cell
    whose ``inked`` digit is its solution's (a given read as the person's right entry).
    """
    values = list(reading.givens)
    solution = reading.solution or []

    def empties_a_digit(changes: list[tuple[float, int, int]]) -> bool:
        return any(v == 0 and not (inked and inked[c] == solution[c]) for _, c, v in changes)

    searched = [False]
    rival = next(
        (
            f
            for f in _fixes(values, cands, *search, [RIVAL_ODDS], searched)
            if f[2] != reading.solution or empties_a_digit(f[1])
        ),
        None,
    )
    if rival is None and not searched[0]:
        # The search ran out of checks or time before every reading within the odds
        # was looked at: one of the rest may be a rival, so the reading is not checked.
        cells = list(dict.fromkeys(c for k in cands for c in k[1]))
        return refused(reading, Problem.TOO_MANY_READINGS, _TOO_MANY, cells)
    if rival is None:
        rival = _weak_digit_left_out(reading, inked, set(group_of or {}))
    if rival is None:
        relabel = _relabelled(reading, inked, group_of or {})
        if relabel is None:
            return reading
        why = _relabel_text(values, relabel[1])
        return refused(reading, Problem.SWAPPABLE_DIGITS, why, [c for _, c, _ in relabel[1]])
    changes = _changes_text(values, rival[1])
    why = f"another reading of the doubtful cells gives a different puzzle ({changes})"
    return refused(reading, Problem.RIVAL_READING, why, [c for _, c, _ in rival[1]])


def _unless_entry_printed(
    reading: Reading,
    read: list[int],
    cands: list[_Change],
    search: tuple[int, int, float],
    entered: Sequence[int],
    cost: float,
) -> Reading:
    """Rule 7 of :func:`revise`: refuse an OK ``reading`` (of ``read`` at ``cost``) if a
    digit ``entered`` as the person's that its solution makes wrong, taken as printed,
    gives a proper reading of ``read`` within ``RIVAL_ODDS`` of it by ``cands``.

    Each such digit is weighed alone (two of them may be the person's mistake and a
    print), and every one that makes a rival is named: the reading's wrong solution
    makes the player's right entries wrong too, and the print among them is not
    known. Where the search runs out first, the digit makes no rival: this is a second
    look at the kinds, and a reading ``_unless_rivalled`` checked is not unchecked for it.
    """
    solution = reading.solution
    if reading.status != ReadStatus.OK or solution is None or not entered:
        return reading

    def printed_reads(c: int) -> bool:
        """Whether the read digits with ``entered[c]`` as a given read as a proper puzzle."""
        values = list(read)
        values[c] = entered[c]
        if proper_solution(values) is not None:
            return True
        others = [k for k in cands if c not in k[1]]
        return next(_fixes(values, others, *search, [cost + RIVAL_ODDS]), None) is not None

    wrong = [c for c in range(81) if entered[c] and entered[c] != solution[c]]
    rivals = [c for c in wrong if printed_reads(c)]
    if not rivals:
        return reading
    digits = and_text(f"{cell_name(c)}'s {entered[c]}" for c in rivals)
    each = "it gives" if len(rivals) == 1 else "each gives"
    why = f"{digits}, read as the person's, would be wrong; read as printed, {each} another puzzle"
    return refused(reading, Problem.ENTRY_MAY_BE_PRINT, why, rivals)


def refused(reading: Reading, kind: Problem, why: str, cells: list[int]) -> Reading:
    """``reading`` made UNREADABLE: ``why`` (of ``kind``) added to its problem, ``cells``
    first among its doubtful cells, no solution. The one way a reading is refused after
    revision (here and by the scanner's checks of the page and the person's entries)."""
    reading.status = ReadStatus.UNREADABLE
    reading.add_problem(kind, why)
    reading.doubtful_cells = list(dict.fromkeys(cells + reading.doubtful_cells))
    reading.solution = None
    return reading


def filled(reading: Reading, fixes: Sequence[Correction]) -> Reading:
    """``reading`` with the cells of ``fixes`` (empty as read) given their corrected
    digits: the corrections recorded in cell order, their cells first among the
    doubtful ones. The one way revision's last steps add a given."""
    for fix in fixes:
        reading.corrections.append(fix)
        reading.givens[fix.cell] = fix.corrected
        reading.confidence[fix.cell] = fix.corrected_confidence
    reading.corrections.sort(key=lambda k: k.cell)
    corrected = [k.cell for k in fixes]
    reading.doubtful_cells = list(dict.fromkeys(corrected + reading.doubtful_cells))
    return reading


def _no_digit_left_out(
    reading: Reading,
    p: npt.NDArray[np.float64],
    inked: Sequence[int] = (),
    kind_in_doubt: Sequence[bool] = (),
    theirs: Sequence[bool] = (),
) -> Reading:
    """Rule 6 of :func:`revise` on a reading (OK or not; only OK ones change).

    A digit the network could not name but surely saw (a blurred or crumpled print:
    its probability spread over several digits, "empty" the likeliest single reading
    yet under ``LIKELY_INKED``) leaves the puzzle with the same one solution, so no
    rival exposes it, and the page would be read without a given it has. It is filled
    only with a digit told apart (``RIVAL_ODDS``) from "empty"'s odds and from every
    other digit; otherwise the page is refused. ``p`` (81, 10)
    are the probabilities revised. A cell whose ``inked`` digit is sure (only print or
    pen in doubt), or whose kind is in doubt (``kind_in_doubt``), is left to the kind
    rules; one whose likeliest digit is a 1 told apart from the others is left be (a lone
    stroke: on crumpled paper and crinkled newsprint a grid line bent into the cell reads
    so), while ink read as no digit in particular, a 1 no likelier than the rest, is no
    lone stroke (crumpled 3049: a lattice cut across a printed 2, read "empty" 0.19, 1
    0.16, 8 0.11, was left out of a puzzle with the page's one solution). A cell whose
    likeliest digit is as likely against "empty" as one a correction wrote into a cell
    read empty is looked at whatever its "empty" and kind: it was seen as well as that
    one (motion blur reads a print's copies alike, pencil-like and "empty" at 0.62, and
    revision wrote in only those the puzzle needed). Such a cell is only filled, never
    a reason to refuse: a fix written in at long odds sets a bar that junk in a cell
    whose kind is doubted passes too (a book page's r8c8 beside a faint 7 written in
    at 0.18 against 0.69). Nor is one of ``theirs``, ink leaning the person's on a page
    written on, filled at all: where the print's own kind rule doubted a printed digit,
    the bar it set let the person's 6 beside it in as print (rendered pen page 812).
    """
    if reading.status != ReadStatus.OK or reading.solution is None:
        return reading
    solution = reading.solution
    # A digit a correction wrote into a cell read empty sets the bar for the others: a
    # cell read empty whose digit is as likely against "empty" was seen as well.
    bar = max(
        (
            math.log(k.confidence / k.corrected_confidence)
            for k in reading.corrections
            if not k.read
        ),
        default=-math.inf,
    )
    fills: list[Correction] = []
    guessed: list[tuple[int, int]] = []  # (cell, its likeliest digit)
    for c in range(81):
        if reading.givens[c] or (inked and inked[c]) or (theirs and theirs[c]):
            continue
        digit = int(np.argmax(p[c, 1:])) + 1
        # Log-odds of "empty" against the digit (inf where either has no probability).
        against = math.log(p[c, 0] / p[c, digit]) if min(p[c, 0], p[c, digit]) > 0 else math.inf
        as_likely = against <= bar
        # Looked at only for being as likely: filled when it is its solution's digit,
        # otherwise left to the kind rules as before (a weak fix sets a low bar).
        only_as_likely = p[c, 0] >= LIKELY_INKED or bool(kind_in_doubt and kind_in_doubt[c])
        if only_as_likely and not as_likely:
            continue
        # Told apart from every other digit by RIVAL_ODDS: noise spread over the
        # digits (a dark, grainy photo's empty cell) is likeliest some digit, the
        # solution's one time in nine.
        runner_up = float(np.partition(p[c, 1:], -2)[-2])
        told = runner_up <= 0 or math.log(p[c, digit] / runner_up) > RIVAL_ODDS
        if digit == 1 and told:
            continue  # one stroke: a bent grid line or a crease's shadow as much as a 1
        if digit == solution[c] and told and against <= RIVAL_ODDS:
            reason = "(its likeliest digit, and its solution's)"
            fills.append(Correction(c, 0, digit, float(p[c, 0]), float(p[c, digit]), reason))
        elif not only_as_likely:
            guessed.append((c, digit))
    if guessed:
        named = ", ".join(
            f"{cell_name(c)} (empty p={p[c, 0]:.2f}, likeliest digit {d})" for c, d in guessed
        )
        why = f"more likely a digit than empty, but not one that can be told: {named}"
        return refused(reading, Problem.UNTOLD_DIGIT, why, [c for c, _ in guessed])
    return filled(reading, fills)


def _weak_digit_left_out(
    reading: Reading, inked: Sequence[int] = (), grouped: set[int] | None = None
) -> _Fix | None:
    """The reading without one of its weak digits (under ``WEAK_DIGIT``, "empty" within
    ``WEAK_EMPTY_ODDS``), if that is a proper puzzle with the same solution; else None.
    A surely inked digit whose kind alone is in doubt (``inked``) is no weak digit, nor
    is one of several copies of a glyph (``grouped``): that is the font's digit, no junk."""
    values, solution = reading.givens, reading.solution
    for c in sorted(range(81), key=lambda c: reading.confidence[c]):
        if reading.confidence[c] >= WEAK_DIGIT:
            break
        if not values[c] or (inked and inked[c] == values[c]) or c in (grouped or ()):
            continue
        p_empty = next((pv for v, pv in reading.alternatives[c] if v == 0), 0.0)
        cost = math.log(reading.confidence[c] / p_empty) if p_empty > 0.0 else math.inf
        if cost > WEAK_EMPTY_ODDS:
            continue
        without = list(values)
        without[c] = 0
        if proper_solution(without) == solution:
            return cost, [(cost, c, 0)], list(solution or [])
    return None


def _relabelled(
    reading: Reading,
    inked: Sequence[int] = (),
    group_of: Mapping[int, tuple[int, ...]] | None = None,
) -> _Fix | None:
    """The reading with two digits swapped wherever they are read, if the network puts
    it within ``RELABEL_ODDS`` of the reading (the likeliest such swap); else None.

    A digit the reading lacks swaps with the cells of another alone. The odds are the
    sum, over the cells either digit is read in, of each cell's log-odds of its digit
    against the other; a group of copies of one glyph (``group_of``: cell -> its group)
    counts once, its cells sharing one pooled reading. A cell whose digit is surely
    inked (``inked``) is not relabelled. Returns ``(cost, changes, solution)`` with the
    swapped solution, as :func:`_fixes` does.
    """
    values, solution = reading.givens, reading.solution or []
    prob = [dict(alts) for alts in reading.alternatives]
    where = {d: [c for c in range(81) if values[c] == d] for d in range(1, 10)}
    best: _Fix | None = None
    for a in range(1, 10):
        for b in range(a + 1, 10):
            cells = where[a] + where[b]
            if not cells or any(inked and inked[c] == values[c] for c in cells):
                continue
            units = dict.fromkeys((group_of or {}).get(c, (c,)) for c in cells)
            cost = 0.0
            for unit in units:
                c = unit[0]
                other = b if values[c] == a else a
                # Readings under _MIN_ALT_P are not kept: at most that likely.
                cost += math.log(prob[c].get(values[c], 1.0)) - math.log(
                    prob[c].get(other, _MIN_ALT_P)
                )
            if cost > RELABEL_ODDS or (best is not None and cost >= best[0]):
                continue
            swap = {a: b, b: a}
            changes = [(cost, c, swap[values[c]]) for c in cells]
            best = cost, changes, [swap.get(v, v) for v in solution]
    return best


def _relabel_text(read: list[int], changes: list[tuple[float, int, int]]) -> str:
    """E.g. ``every 2 as read may be an 8 (the puzzle's rules cannot tell them apart)``."""
    pairs = sorted({(read[c], v) for _, c, v in changes})
    a, b = pairs[0]
    if len(pairs) == 1:
        article = "an" if b == 8 else "a"
        what = f"every {a} as read may be {article} {b}"
    else:
        what = f"the {a}s and {b}s as read may be the other way round"
    return f"{what} (the puzzle's rules cannot tell them apart)"


def _changes_text(read: list[int], changes: list[tuple[float, int, int]]) -> str:
    """E.g. ``r3c5 as 8 instead of 3`` for each change."""
    return ", ".join(
        f"{cell_name(c)} as {_say(v)} instead of {_say(read[c])}" for _, c, v in changes
    )


def _fixes(
    read: list[int],
    cands: list[_Change],
    max_changes: int,
    max_checks: int,
    time_limit: float,
    bound: list[float],
    finished: list[bool] | None = None,
) -> Iterator[_Fix]:
    """Sets of candidate changes that make a proper puzzle, cheapest first.

    Yields ``(cost, changes, solution)`` while the cost stays within ``bound[0]``,
    which the caller may lower between items. ``finished[0]`` is set True when every
    set within the bound was looked at; it stays False when ``max_checks`` or
    ``time_limit`` ended the search first, or a set of more than ``max_changes``
    changes lies within the bound (then what was not looked at may hold a rival, and
    a reading it was to check is not checked: stress handheld 5240, four doubtful
    digits of a shaken page read right within 4 : 1 of a fix of three that read
    another puzzle).

    Sets are visited in order of total cost: with
    ``cands`` sorted by cost, a set is an increasing tuple of indices, and its
    successors are "replace the last index by the next one" and "append the next
    index"; a heap on total cost then yields every set exactly once, cheapest first.
    A change of a group of cells is one change, listed in the fix cell by cell, each
    with the group's cost.
    """
    if not cands:
        if finished is not None:
            finished[0] = True
        return
    deadline = time.monotonic() + time_limit
    heap: list[tuple[float, tuple[int, ...]]] = [(cands[0][0], (0,))]
    checks = 0
    # The cheapest set of more than ``max_changes`` changes never looked at: one within
    # the bound may be the fix or the rival, and the search did not finish.
    beyond_cap = math.inf
    while heap:
        if checks >= max_checks or time.monotonic() >= deadline:
            return  # cut short: ``finished`` stays False
        cost, idx = heapq.heappop(heap)
        if cost > bound[0]:
            break
        last = idx[-1]
        if last + 1 < len(cands):
            nxt = (*idx[:-1], last + 1)
            heapq.heappush(heap, (cost - cands[last][0] + cands[last + 1][0], nxt))
            if len(idx) < max_changes:
                heapq.heappush(heap, (cost + cands[last + 1][0], (*idx, last + 1)))
            else:
                beyond_cap = min(beyond_cap, cost + cands[last + 1][0])
        changes = [(cands[i][0], c, cands[i][2]) for i in idx for c in cands[i][1]]
        if len({c for _, c, _ in changes}) < len(changes):
            continue  # two readings for one cell
        values = list(read)
        for _, c, v in changes:
            values[c] = v
        checks += 1
        solution = proper_solution(values)
        if solution is not None:
            yield cost, changes, solution
    if finished is not None:
        finished[0] = beyond_cap > bound[0]


def orientation_score(probs: npt.ArrayLike) -> float:
    """How well a grid reads in this orientation: higher is better, at most 1.

    The integrator classifies the cells of the quarter turns of a grid and keeps the
    turn with the highest score. It is the mean top probability over the cells that
    hold a digit: digits seen on their side or upside down read with low confidence
    (the CNN has a class for them, spread evenly over the digits), while empty cells,
    alike in every turn, are left out. On the 159 reference photos (CNN engine) the
    upright grid scores 0.79-0.99 (median 0.97) and the best wrong turn at most 0.70.
    Whether the turn as it came needs no rival is :func:`reads_upright`'s to say.

    Parameters
    ----------
    probs : (81, 10) array
        Per-cell probabilities from ``DigitEngine.classify``.

    Returns
    -------
    float
        In [0, 1]; 0 when no cell holds a digit.
    """
    tops = _digit_tops(probs)
    return float(tops.mean()) if len(tops) else 0.0


def reads_upright(probs: npt.ArrayLike) -> bool:
    """Whether a grid read in one turn is surely that way up, no other turn worth trying.

    True when at least ``UPRIGHT_SHARE`` of the cells holding a digit read it with
    ``UPRIGHT_TOP`` or more. A share, not the mean of :func:`orientation_score`: an
    app's pencil marks and a player's entries are digit cells read weakly, and a few
    of them pull an upright mean under any safe limit, while a share counts them as
    few. Measured on 573 reads (Wicht's 160 reference photos and 53 mixed ones, and
    rendered pages of the 30 stress styles, seeds 0-2, as they came and turned by a
    quarter, a half and three quarters): of the 277 read in a wrong turn, the most
    had 0.58 of their digits at 0.8 or more; of the 296 upright, 98.3% reach 0.75
    (the mean >= 0.9 that came before let 94.6% skip: the others read the grid four
    times).

    Parameters
    ----------
    probs : (81, 10) array
        Per-cell probabilities from ``DigitEngine.classify``.
    """
    tops = _digit_tops(probs)
    return bool(len(tops)) and float(np.mean(tops >= UPRIGHT_TOP)) >= UPRIGHT_SHARE


def _digit_tops(probs: npt.ArrayLike) -> npt.NDArray[np.float64]:
    """The top digit probability (D,) of each of the D cells (81, 10) read as a digit
    (empty under 0.5): what the orientation is judged by."""
    p = check_probs(probs)
    return np.asarray(p[p[:, 0] < 0.5, 1:].max(axis=1), dtype=np.float64)
