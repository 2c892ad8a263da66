"""Check a person's entries (digits written into a started puzzle) against its solution.

Pure grid logic, shared by the command line, the batch runner and the overlay: an entry
is a mistake when it differs from the printed puzzle's one solution. An entry that
clashes with a given (the same digit twice in a house) always differs from the
solution, so it is a mistake too. When the printed puzzle has no single solution there
is nothing to compare with: the entries are then *unchecked*, never called mistakes.
An entry the reader could not make out is *unclear*: the cell holds the person's ink
(no digit is drawn over it) but nothing is said about it, right or wrong.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from .grid import Grid, cell_name
from .hints import HintLevel, hint_dict, hint_text
from .registry import Technique
from .solve import hint
from .steps import Step
from .techniques import ORDER

__all__ = ["CheckStatus", "EntryCheck", "PositionHint", "check_entries", "position_hint"]

# The warning a hint gives before anything else when entries are wrong.
MISTAKE_ADVICE = "a mistake makes later steps meaningless; fix {them} first."


class CheckStatus(StrEnum):
    """Whether entries were compared with a solution."""

    CHECKED = "checked"  # every entry compared with the puzzle's one solution
    NO_ENTRIES = "no_entries"  # nothing written beside the givens
    UNCHECKED = "unchecked"  # the printed puzzle has no single solution to compare with


@dataclass(frozen=True)
class EntryCheck:
    """The entries of one puzzle and which of them are wrong.

    Attributes
    ----------
    entries : tuple of int, length 81
        The person's digits (0 where none); an entry on a given cell is left out.
    mistakes : tuple of int
        The cells (0..80, ascending) whose entry differs from the solution; empty when
        the entries could not be checked.
    solution : tuple of int or None
        The printed puzzle's one solution; None when it has none or several.
    unclear : tuple of int
        The cells (ascending) the person wrote in whose digit could not be read: 0 in
        ``entries``, never a mistake, never counted as checked.
    """

    entries: tuple[int, ...]
    mistakes: tuple[int, ...]
    solution: tuple[int, ...] | None
    unclear: tuple[int, ...] = ()

    @property
    def written(self) -> frozenset[int]:
        """The cells holding the person's ink: the entries read and the unclear ones."""
        return frozenset(c for c, v in enumerate(self.entries) if v) | frozenset(self.unclear)

    @property
    def count(self) -> int:
        """How many entries there are."""
        return sum(1 for v in self.entries if v)

    @property
    def status(self) -> CheckStatus:
        """CHECKED, NO_ENTRIES, or UNCHECKED (entries but no single solution)."""
        if not self.count:
            return CheckStatus.NO_ENTRIES
        return CheckStatus.CHECKED if self.solution is not None else CheckStatus.UNCHECKED

    @property
    def checked(self) -> int:
        """How many entries were compared with the solution (0 when unchecked)."""
        return self.count if self.solution is not None else 0

    def right_digit(self, cell: int) -> int:
        """The solution's digit in ``cell`` (0 when there is no single solution)."""
        return self.solution[cell] if self.solution is not None else 0

    def position(self, givens: Sequence[int]) -> Grid:
        """The person's position without their mistakes: givens plus right entries.

        Only the givens are marked as givens (the techniques that care, such as the
        avoidable rectangles, tell a printed digit from a placed one). Unchecked entries
        are left out too: nothing says they are right.
        """
        if len(givens) != 81:
            raise ValueError(f"a grid has 81 cells, got {len(givens)}")
        wrong = set(self.mistakes)
        values = list(givens)
        if self.solution is not None:
            for cell, digit in enumerate(self.entries):
                if digit and cell not in wrong:
                    values[cell] = digit
        return Grid(values, givens=[v != 0 for v in givens])

    def summary(self) -> str:
        """One line for the text output: ``Entries: 31 checked, 2 wrong: r3c5, r7c1``,
        then ``; 1 unclear, not checked: r2c2`` when some could not be read.

        ``""`` when there are no entries.
        """
        status = self.status
        if status == CheckStatus.NO_ENTRIES:
            return self.unclear_text()
        if status == CheckStatus.UNCHECKED:
            return (
                f"Entries: {self.count} not checked: the printed puzzle has no single "
                "solution to compare them with"
            )
        if not self.mistakes:
            line = f"Entries: {self.checked} checked, all right"
        else:
            names = ", ".join(cell_name(c) for c in self.mistakes)
            line = f"Entries: {self.checked} checked, {len(self.mistakes)} wrong: {names}"
        return f"{line}; {self.unclear_text()}" if self.unclear else line

    def unclear_text(self) -> str:
        """``1 entry unclear, not checked: r2c2`` (``""`` when every entry was read)."""
        if not self.unclear:
            return ""
        n = len(self.unclear)
        names = ", ".join(cell_name(c) for c in self.unclear)
        return f"{n} {'entry' if n == 1 else 'entries'} unclear, not checked: {names}"

    def to_dict(self, *, reveal: bool = False) -> dict[str, object]:
        """The JSON fields: ``entries`` (81 chars), ``mistakes`` and ``unclear`` (cell
        names), ``entries_checked`` and ``entries_status``; with ``reveal``,
        ``right_digits`` (``{"r3c5": 4}``) for the mistakes."""
        out: dict[str, object] = {
            "entries": "".join(str(v) for v in self.entries),
            "mistakes": [cell_name(c) for c in self.mistakes],
            "unclear": [cell_name(c) for c in self.unclear],
            "entries_checked": self.checked,
            "entries_status": str(self.status),
        }
        if reveal:
            out["right_digits"] = {cell_name(c): self.right_digit(c) for c in self.mistakes}
        return out


def check_entries(
    givens: Sequence[int],
    entries: Sequence[int],
    solution: Sequence[int] | None,
    *,
    unclear: Sequence[int] = (),
) -> EntryCheck:
    """Compare a person's entries with the printed puzzle's solution.

    Parameters
    ----------
    givens : sequence of 81 int
        The printed digits (0 = empty).
    entries : sequence of 81 int
        The person's digits (0 = none). An entry on a given cell is ignored (the given
        is what counts there).
    solution : sequence of 81 int or None
        The printed puzzle's one solution; None when it has none or several, and then
        no entry is called a mistake.
    unclear : sequence of int, keyword-only
        Cells (0..80) the person wrote in whose digit the reader could not make out;
        their ``entries`` must be 0 and no given may be there.

    Returns
    -------
    EntryCheck
        The entries and the cells whose entry is wrong.

    Raises
    ------
    ValueError
        A sequence that is not 81 long, or a digit outside 0-9.
    """
    for name, seq in (("givens", givens), ("entries", entries)):
        if len(seq) != 81:
            raise ValueError(f"{name}: expected 81 cells, got {len(seq)}")
        if any(not 0 <= v <= 9 for v in seq):
            raise ValueError(f"{name}: digits must be 0-9")
    if solution is not None and len(solution) != 81:
        raise ValueError(f"solution: expected 81 cells, got {len(solution)}")
    bad = [c for c in unclear if not 0 <= c < 81 or givens[c] or entries[c]]
    if bad:
        raise ValueError(f"unclear: cell {bad[0]} is outside the grid, a given or read")
    kept = tuple(0 if g else int(e) for g, e in zip(givens, entries, strict=True))
    sol = tuple(int(v) for v in solution) if solution is not None else None
    mistakes: tuple[int, ...] = ()
    if sol is not None:
        mistakes = tuple(c for c, e in enumerate(kept) if e and e != sol[c])
    return EntryCheck(kept, mistakes, sol, tuple(sorted(set(unclear))))


@dataclass(frozen=True)
class PositionHint:
    """The next logical step from where a person is: givens plus their right entries.

    Attributes
    ----------
    check : EntryCheck
        The entries and their mistakes (said before the step).
    step : Step or None
        The next step from the position without the mistakes; None when the position is
        complete, stuck, or (without ``reveal``) every step found would give away the
        right digit of a wrong entry.
    complete : bool
        The givens and right entries fill the grid.
    reveal : bool
        The right digits of the wrong entries are shown.
    level : HintLevel
        How much of the step is told (:mod:`solver.hints`; the whole step by default).
    withheld : bool
        There is a step, but every one found would give away a wrong entry's right digit
        (only without ``reveal``).
    message : str
        Why there is no step (``""`` when there is one).
    """

    check: EntryCheck
    step: Step | None
    complete: bool
    reveal: bool = False
    withheld: bool = False
    message: str = ""
    level: HintLevel = HintLevel.ANSWER

    @property
    def stuck(self) -> bool:
        """No step from an unfinished position with these techniques (none withheld)."""
        return self.step is None and not self.complete and not self.withheld

    def warning(self) -> str:
        """``2 of your entries are wrong: r3c5, r7c1 — ...; fix them first.`` (or ``""``)."""
        wrong = self.check.mistakes
        if not wrong:
            return ""
        names = ", ".join(cell_name(c) for c in wrong)
        verb, them = ("is", "it") if len(wrong) == 1 else ("are", "them")
        advice = MISTAKE_ADVICE.format(them=them)
        return f"{len(wrong)} of your entries {verb} wrong: {names} — {advice}"

    def lines(self) -> list[str]:
        """The text output: the warning (and, with ``reveal``, the right digits) first,
        the entries that could not be read, then the step or why there is none."""
        out = []
        if self.check.mistakes:
            out.append(self.warning())
            if self.reveal:
                out.append(
                    ", ".join(
                        f"{cell_name(c)} should be {self.check.right_digit(c)}"
                        for c in self.check.mistakes
                    )
                )
        if self.check.unclear:
            out.append(self.check.unclear_text())
        out.append(hint_text(self.step, self.level) if self.step is not None else self.message)
        return out

    def to_dict(self) -> dict[str, object]:
        """``{"hint", "entries", "mistakes", "entries_checked", "entries_status"}``, plus
        ``"right_digits"`` with ``reveal`` and ``"message"`` when there is no step."""
        step = self.step
        out: dict[str, object] = {"hint": hint_dict(step, self.level) if step else None}
        out.update(self.check.to_dict(reveal=self.reveal))
        if self.message:
            out["message"] = self.message
        return out


def position_hint(
    givens: Sequence[int],
    check: EntryCheck,
    *,
    techniques: Sequence[Technique] = ORDER,
    uniqueness: bool = True,
    reveal: bool = False,
    level: HintLevel = HintLevel.ANSWER,
) -> PositionHint:
    """The next step from the givens plus the right entries (wrong ones removed).

    Parameters
    ----------
    givens : sequence of 81 int
        The printed puzzle, which must have one solution (see :func:`solver.validate`).
    check : EntryCheck
        From :func:`check_entries` on these givens.
    techniques : sequence of Technique, keyword-only
        The techniques allowed, simplest first.
    uniqueness : bool, keyword-only
        Allow the techniques that assume one solution.
    reveal : bool, keyword-only
        Without it, no step that places a digit into a wrong or unclear entry's cell is
        given (it would tell the right digit); with it, the right digits are shown too.
    level : HintLevel, keyword-only
        How much of the step to tell.
    """
    grid = check.position(givens)
    if grid.is_solved():
        done = "your grid is complete and every entry is right"
        return PositionHint(check, None, True, reveal, message=done, level=level)
    avoid = () if reveal else tuple(sorted({*check.mistakes, *check.unclear}))
    step = hint(grid, techniques=techniques, uniqueness=uniqueness, avoid=avoid)
    if step is not None:
        return PositionHint(check, step, False, reveal, level=level)
    if avoid and hint(grid, techniques=techniques, uniqueness=uniqueness) is not None:
        message = (
            "the next step would give away the right digit of a wrong or unclear entry: "
            "fix your mistakes first (--reveal shows the right digits)"
        )
        return PositionHint(check, None, False, reveal, withheld=True, message=message, level=level)
    message = "no step found: the position is beyond these techniques"
    return PositionHint(check, None, False, reveal, message=message, level=level)
