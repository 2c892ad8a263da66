"""Conformance runner for HoDoKu's regression library (one technique case per line).

Line format (one case a line)::

    :<technique>[-variant]:<candidates>:<givens>:<deleted>:<eliminations>:<placements>:<extra>

A case passes when one instance the technique finds has exactly the expected
eliminations and placements; a ``-x`` case passes when no instance is found.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from .errors import SudokuScanError
from .parse import parse_candidate_list, parse_state, read_text_file
from .steps import Step, elimination_string, placement_string
from .techniques import BY_HODOKU

MAX_INSTANCES = 5000  # a guard against a runaway finder on a pathological state


@dataclass
class CaseResult:
    line: int
    technique: str  # HoDoKu code as written, variant included
    supported: bool
    passed: bool
    instances: list[Step] = field(default_factory=list)
    expected_eliminations: list[tuple[int, int]] = field(default_factory=list)
    expected_placements: list[tuple[int, int]] = field(default_factory=list)
    error: str = ""

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "line": self.line,
            "technique": self.technique,
            "supported": self.supported,
            "passed": self.passed,
            "instances": [
                {
                    "eliminations": s.elimination_strings(),
                    "placements": s.placement_strings(),
                }
                for s in self.instances
            ],
        }
        if self.error:
            out["error"] = self.error
        return out

    def summary_line(self) -> str:
        verdict = "pass" if self.passed else ("unsupported" if not self.supported else "FAIL")
        head = f"line {self.line}: {self.technique} {verdict}"
        if not self.supported:
            return head
        if self.error:
            return f"{head}: {self.error}"
        found = "; ".join(
            " ".join(s.elimination_strings() + s.placement_strings()) for s in self.instances
        )
        expected = " ".join(
            [elimination_string(c, d) for c, d in self.expected_eliminations]
            + [placement_string(c, d) for c, d in self.expected_placements]
        )
        text = f"{head}: found {len(self.instances)} [{found}]"
        if not self.passed:
            text += f" expected [{expected}]"
        return text


def run_case(line: str, number: int) -> CaseResult:
    """Check one library line."""
    fields = line.strip().split(":")
    if len(fields) < 8 or fields[0] != "":
        return CaseResult(number, "?", False, False, error="not a library line")
    code = fields[1]
    base, _, variant = code.partition("-")
    tech = BY_HODOKU.get(base)
    if tech is None:
        return CaseResult(number, code, False, False)
    try:
        grid = parse_state(fields[3], fields[4], source=f"line {number}")
        elims = sorted(parse_candidate_list(fields[5], source=f"line {number}"))
        places = sorted(parse_candidate_list(fields[6], source=f"line {number}"))
    except SudokuScanError as exc:
        return CaseResult(number, code, True, False, error=str(exc))
    instances: list[Step] = []
    for step in tech.find(grid):
        instances.append(step)
        if len(instances) >= MAX_INSTANCES:
            break
    if variant == "x":
        passed = not instances
    else:
        passed = any(
            sorted(s.eliminations) == elims and sorted(s.placements) == places for s in instances
        )
    return CaseResult(number, code, True, passed, instances, elims, places)


def run_file(path: str | Path) -> Iterator[CaseResult]:
    """Every case of a library file, in order."""
    text = read_text_file(Path(path), what="library file")
    for number, line in enumerate(text.splitlines(), start=1):
        if line.startswith(":"):
            yield run_case(line, number)
