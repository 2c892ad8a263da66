"""The ``sudoku-scan`` command line.

Every expected failure becomes one line on stderr (``sudoku-scan: error: ...``) and a
documented exit code (:class:`solver.errors.ExitCode`); never a traceback.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from solver import errors
from solver.errors import ExitCode, SudokuScanError

PROG = "sudoku-scan"


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(ExitCode.BAD_ARGS, f"{self.prog}: error: {message}\n")


def _emit(obj: object, out: TextIO) -> None:
    out.write(json.dumps(obj, separators=(", ", ": ")) + "\n")


def _puzzle_inputs(puzzle: str) -> list[tuple[str, str]]:
    """(source label, puzzle text) for an 81-char string or a file of one or many puzzles."""
    from solver.parse import read_puzzle_file

    candidate = puzzle.strip()
    looks_inline = len(candidate) >= 81 and not Path(candidate).exists()
    if looks_inline:
        return [("puzzle", candidate)]
    path = Path(puzzle)
    if not path.exists():
        if len(candidate) < 81 and all(ch in ".0123456789" for ch in candidate):
            from solver.errors import PuzzleFormatError

            raise PuzzleFormatError(f"puzzle: expected 81 cells, got {len(candidate)}")
        raise errors.InputFileError(f"{puzzle}: no such file")
    return [(f"{path}:{n}", text) for n, text in read_puzzle_file(path)]


def cmd_logic(args: argparse.Namespace, out: TextIO) -> int:
    from solver import parse_puzzle, solve
    from solver.solve import MULTIPLE, NO_SOLUTION, SOLVED, STUCK, validate

    inputs = _puzzle_inputs(args.puzzle)
    many = len(inputs) > 1
    worst = ExitCode.OK
    for source, text in inputs:
        try:
            grid = parse_puzzle(text, source=source if many else "puzzle")
        except SudokuScanError as exc:
            if not many:
                raise
            _emit({"source": source, "status": "invalid", "error": str(exc)}, out)
            worst = max(worst, exc.exit_code)
            continue
        if args.hint:
            status, _sols, message = validate(grid)
            from solver import hint

            step = hint(grid) if status == SOLVED else None
            if args.json:
                obj: dict[str, object] = {"status": status if status != SOLVED else "ok"}
                if many:
                    obj["source"] = source
                obj["hint"] = step.to_dict() if step else None
                if message:
                    obj["message"] = message
                _emit(obj, out)
            elif status != SOLVED:
                out.write(f"{message}\n")
            elif step is None:
                out.write("no step found: the puzzle is solved or beyond these techniques\n")
            else:
                out.write(step.text + "\n")
            code = {
                SOLVED: ExitCode.OK if step else ExitCode.NOT_SOLVED,
                NO_SOLUTION: ExitCode.INVALID_PUZZLE,
                MULTIPLE: ExitCode.INVALID_PUZZLE,
            }[status]
            worst = max(worst, code)
            continue
        result = solve(grid)
        if args.json:
            obj = result.to_dict()
            if many:
                obj = {"source": source, **obj}
            _emit(obj, out)
        else:
            if many:
                out.write(f"# {source}\n")
            _print_result(result, out)
        code = {
            SOLVED: ExitCode.OK,
            STUCK: ExitCode.NOT_SOLVED,
            NO_SOLUTION: ExitCode.INVALID_PUZZLE,
            MULTIPLE: ExitCode.INVALID_PUZZLE,
        }[result.status]
        worst = max(worst, code)
    if many and worst != ExitCode.OK:
        return ExitCode.PARTIAL_FAILURE
    return worst


def _grid_text(values: Sequence[int]) -> str:
    rows = []
    for r in range(9):
        row = ""
        for c in range(9):
            v = values[r * 9 + c]
            row += (str(v) if v else ".") + (" | " if c in (2, 5) else " ")
        rows.append(row.rstrip())
        if r in (2, 5):
            rows.append("------+-------+------")
    return "\n".join(rows)


def _print_result(result: object, out: TextIO) -> None:
    from solver.solve import MULTIPLE, STUCK, SolveResult

    assert isinstance(result, SolveResult)
    if result.steps:
        for i, step in enumerate(result.steps, start=1):
            out.write(f"{i:3d}. {step.text}\n")
    if result.status == MULTIPLE:
        out.write(f"{result.message}\n")
        for sol in result.solutions:
            out.write(_grid_text(sol) + "\n\n")
        return
    if result.message:
        out.write(f"{result.message}\n")
    if result.status == STUCK:
        out.write(_grid_text(result.grid.values) + "\n")
        return
    if result.grid.is_solved():
        out.write("\n" + _grid_text(result.grid.values) + "\n")
        d = result.difficulty
        name = d.to_dict()["name"]
        out.write(
            f"\nstatus: {result.status}; difficulty: {d.level} (hardest: {name}, score {d.score})\n"
        )


def cmd_reglib(args: argparse.Namespace, out: TextIO) -> int:
    from solver.reglib import run_file

    passed = failed = unsupported = 0
    for case in run_file(args.file):
        if not case.supported:
            unsupported += 1
        elif case.passed:
            passed += 1
        else:
            failed += 1
        if args.json:
            _emit(case.to_dict(), out)
        elif not args.failures_only or (case.supported and not case.passed):
            out.write(case.summary_line() + "\n")
    out.write(f"{passed} passed, {failed} failed, {unsupported} unsupported\n")
    return ExitCode.OK if failed == 0 else ExitCode.NOT_SOLVED


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    from pipeline.demo import run_demo

    return run_demo(out)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Read a photographed Sudoku, solve it like a teacher, draw the answer back.",
    )
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("logic", help="solve a puzzle by logic, explaining every step")
    p.add_argument("puzzle", help="an 81-char puzzle (0 or . empty) or a file of one or many")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle and line")
    p.add_argument("--hint", action="store_true", help="print only the next step")
    p.set_defaults(func=cmd_logic)

    p = sub.add_parser("reglib", help="run HoDoKu's regression library against our techniques")
    p.add_argument("file", help="library file (lines ':code:cands:givens:deleted:elims:places:')")
    p.add_argument("--json", action="store_true", help="one JSON object per case and line")
    p.add_argument("--failures-only", action="store_true", help="list only failing cases")
    p.set_defaults(func=cmd_reglib)

    p = sub.add_parser("demo", help="solve a bundled sample")
    p.set_defaults(func=cmd_demo)
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run the CLI; returns the exit code (the console script exits with it)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    stream = out or sys.stdout
    func: Callable[[argparse.Namespace, TextIO], int] = args.func
    try:
        code = func(args, stream)
    except SudokuScanError as exc:
        sys.stderr.write(f"{PROG}: error: {exc}\n")
        code = exc.exit_code
    except KeyboardInterrupt:
        sys.stderr.write(f"{PROG}: interrupted\n")
        code = ExitCode.CTRL_C
    except BrokenPipeError:
        code = ExitCode.OK
    if out is None:
        sys.stdout.flush()
    return int(code)


def console() -> NoReturn:
    sys.exit(main())


if __name__ == "__main__":
    console()
