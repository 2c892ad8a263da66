"""The ``sudoku-scan`` command line.

Every expected failure becomes one line on stderr (``sudoku-scan: error: ...``) and a
documented exit code (:class:`solver.errors.ExitCode`); never a traceback.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from solver import errors
from solver.check import EntryCheck, check_entries, position_hint
from solver.errors import ExitCode, Status, SudokuScanError, describe_os_error
from solver.grid import cell_name
from solver.hints import HintLevel, hint_dict, hint_text
from solver.registry import Technique
from solver.solve import MULTIPLE, NO_SOLUTION, SOLVED, STUCK, SolveResult
from solver.steps import Step

from .errors import OutputError

# How a puzzle's status ends the process.
STATUS_EXIT: dict[str, ExitCode] = {
    SOLVED: ExitCode.OK,
    STUCK: ExitCode.NOT_SOLVED,
    NO_SOLUTION: ExitCode.INVALID_PUZZLE,
    MULTIPLE: ExitCode.INVALID_PUZZLE,
}

PROG = "sudoku-scan"
DEFAULT_PAGE_TIMEOUT = 300.0  # batch: a page takes 0.1-3 s, so only a hang gets there
DEBUG_ENV = "SUDOKU_SCAN_DEBUG"  # set: an internal error shows its traceback


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
    try:
        named_file = Path(candidate).exists()
    except OSError:  # too long to be a file name: puzzles pasted inline
        named_file = False
    looks_inline = len(candidate) >= 81 and not named_file
    if looks_inline:
        return [("puzzle", candidate)]
    path = Path(puzzle)
    if not path.exists():
        if len(candidate) < 81 and all(ch in ".0123456789" for ch in candidate):
            from solver.errors import PuzzleFormatError

            raise PuzzleFormatError(f"puzzle: expected 81 cells, got {len(candidate)}")
        raise errors.InputFileError(f"{puzzle}: no such file")
    return [(f"{path}:{n}", text) for n, text in read_puzzle_file(path)]


def _solve_order(extra: Sequence[str]) -> tuple[Technique, ...]:
    """The default solve order plus the techniques named by ``--with``, in registry order."""
    from solver.techniques import ALL_TECHNIQUES, TECHNIQUES

    unknown = [name for name in extra if name not in TECHNIQUES]
    if unknown:
        off = ", ".join(t.id for t in ALL_TECHNIQUES if not t.default)
        raise errors.BadArgsError(
            f"--with: unknown technique {unknown[0]!r} (off by default: {off})"
        )
    wanted = set(extra)
    return tuple(t for t in ALL_TECHNIQUES if t.default or t.id in wanted)


def _parse_entries(text: str, givens: Sequence[int]) -> list[int]:
    """``--entries``: 81 cells, a digit or ``0``/``.``; a cell may repeat its given.

    Raises
    ------
    BadArgsError
        Wrong length, a character that is no digit, or another digit on a given.
    """
    from solver.parse import parse_values

    try:
        values = parse_values(text, source="--entries")
    except errors.PuzzleFormatError as exc:
        raise errors.BadArgsError(str(exc)) from None
    for cell, (given, entry) in enumerate(zip(givens, values, strict=True)):
        if given and entry and entry != given:
            raise errors.BadArgsError(
                f"--entries: {cell_name(cell)} holds the given {given}, not an entry {entry}"
            )
    return values


def _say_invalid(message: str) -> None:
    """Exit 4's one line on stderr (stdout has the details, or the JSON)."""
    sys.stderr.write(f"{PROG}: error: {message}\n")


def _check_reveal(args: argparse.Namespace) -> None:
    if args.reveal and not args.hint:
        raise errors.BadArgsError("--reveal only goes with --hint")
    if args.level is not None and not args.hint:
        raise errors.BadArgsError("--level only goes with --hint")


def _hint_level(args: argparse.Namespace) -> HintLevel:
    return HintLevel(args.level) if args.level is not None else HintLevel.ANSWER


def _position_hint(
    givens: list[int],
    entries: Sequence[int],
    args: argparse.Namespace,
    out: TextIO,
    *,
    order: Sequence[Technique],
    head: dict[str, object],
    draw: Callable[[Step], Path] | None = None,
    unclear: Sequence[int] = (),
) -> ExitCode:
    """Print the next step from the givens plus the right entries, the wrong entries
    named first; the exit code (stuck: NOT_SOLVED; no single solution: INVALID_PUZZLE).
    ``draw`` writes the step as a picture and says where (``"output"``, ``wrote ...``);
    ``unclear``: cells written in that the reader could not make out."""
    from solver import Grid
    from solver.solve import validate

    status, sols, message = validate(Grid(givens))
    check = check_entries(givens, entries, sols[0] if status == SOLVED else None, unclear=unclear)
    if status != SOLVED:
        if check.count:
            message += "; the entries cannot be checked"
        if args.json:
            obj = {**head, "status": status, "hint": None, **check.to_dict()}
            _emit({**obj, "message": message}, out)
        else:
            out.write(f"{message}\n")
        return STATUS_EXIT[status]
    found = position_hint(
        givens,
        check,
        techniques=order,
        uniqueness=not args.no_uniqueness,
        reveal=args.reveal,
        level=_hint_level(args),
    )
    drawn = draw(found.step) if draw is not None and found.step is not None else None
    if args.json:
        picture = {"output": str(drawn)} if drawn is not None else {}
        status = Status.STUCK if found.stuck else Status.HINT
        _emit({**head, "status": status, **found.to_dict(), **picture}, out)
    else:
        out.write("".join(line + "\n" for line in found.lines()))
        if drawn is not None:
            out.write(f"wrote {drawn}\n")
    return ExitCode.NOT_SOLVED if found.stuck else ExitCode.OK


def cmd_logic(args: argparse.Namespace, out: TextIO) -> int:
    from solver import hint, parse_puzzle, solve
    from solver.solve import validate

    _check_reveal(args)
    order = _solve_order(args.with_techniques)
    inputs = _puzzle_inputs(args.puzzle)
    many = len(inputs) > 1
    if many and args.entries is not None:
        raise errors.BadArgsError("--entries goes with a single puzzle, not a file of many")
    worst = ExitCode.OK
    for source, text in inputs:
        try:
            grid = parse_puzzle(text, source=source if many else "puzzle")
        except SudokuScanError as exc:
            if not many:
                raise
            _emit({"source": source, "status": exc.status, "error": str(exc)}, out)
            worst = max(worst, exc.exit_code)
            continue
        entries = None if args.entries is None else _parse_entries(args.entries, grid.values)
        if entries is not None and args.hint:
            return _position_hint(grid.values, entries, args, out, order=order, head={})
        if args.hint:
            status, _sols, message = validate(grid)
            step = (
                hint(grid, techniques=order, uniqueness=not args.no_uniqueness)
                if status == SOLVED
                else None
            )
            if args.json:
                found = Status.HINT if step else Status.STUCK
                obj: dict[str, object] = {"status": status if status != SOLVED else found}
                if many:
                    obj["source"] = source
                obj["hint"] = hint_dict(step, _hint_level(args)) if step else None
                if message:
                    obj["message"] = message
                _emit(obj, out)
            elif status != SOLVED:
                out.write(f"{message}\n")
            elif step is None:
                out.write("no step found: the puzzle is solved or beyond these techniques\n")
            else:
                out.write(hint_text(step, _hint_level(args)) + "\n")
            if status != SOLVED and not many:
                _say_invalid(message)
            # A valid puzzle with no step available counts as stuck.
            worst = max(worst, STATUS_EXIT[STUCK if status == SOLVED and step is None else status])
            continue
        result = solve(grid, techniques=order, uniqueness=not args.no_uniqueness)
        check = None
        if entries is not None:
            check = check_entries(result.givens, entries, result.solution)
        if args.json:
            obj = result.to_dict()
            if many:
                obj = {"source": source, **obj}
            if check is not None:
                obj.update(check.to_dict())
            _emit(obj, out)
        else:
            if many:
                out.write(f"# {source}\n")
            _print_result(result, out)
            if check is not None:
                out.write(_entries_line(check) + "\n")
        worst = max(worst, STATUS_EXIT[result.status])
        if not many and STATUS_EXIT[result.status] == ExitCode.INVALID_PUZZLE:
            _say_invalid(result.message)
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


def _entries_line(check: EntryCheck) -> str:
    """``Entries: 31 checked, 2 wrong: r3c5, r7c1`` (``Entries: none`` without any)."""
    return check.summary() or "Entries: none"


def _print_result(result: SolveResult, out: TextIO) -> None:
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
            f"\nstatus: {result.status}; difficulty: {d.level} (hardest: {name}, score {d.score}, "
            f"SER ~{d.ser:.1f})\n"
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


def _engine_name(args: argparse.Namespace) -> str:
    from scanner.digits import DEFAULT_ENGINE

    return str(args.ocr or DEFAULT_ENGINE)


def cmd_read(args: argparse.Namespace, out: TextIO) -> int:
    from scanner.api import read_photo, unreadable_text
    from scanner.reading import ReadStatus

    engine = _engine_name(args)
    worst = ExitCode.OK
    for path in args.photos:
        try:
            scan = read_photo(path, engine=engine)
        except SudokuScanError as exc:
            if len(args.photos) == 1 and not args.json:
                raise
            if args.json:
                _emit({"source": path, "status": exc.status, "error": str(exc)}, out)
            else:
                sys.stderr.write(f"{PROG}: error: {exc}\n")
            worst = max(worst, exc.exit_code)
            continue
        if scan.status == ReadStatus.UNREADABLE:
            worst = max(worst, ExitCode.UNREADABLE)
        elif scan.status == ReadStatus.MULTIPLE:
            worst = max(worst, ExitCode.INVALID_PUZZLE)
        if args.json:
            _emit(scan.to_dict(), out)
            continue
        out.write(f"{path}: read in {scan.seconds * 1e3:.0f} ms")
        out.write(f", page turned {scan.rotation * 90} degrees" if scan.rotation else "")
        out.write(", photo mirrored\n" if scan.loaded.mirrored else "\n")
        out.write(_grid_text(scan.givens) + "\n")
        for corr in scan.corrections:
            out.write(f"correction: {corr.describe()}\n")
        if scan.status == ReadStatus.UNREADABLE:
            out.write(f"unreadable: {unreadable_text(scan)}\n")
        elif scan.status == ReadStatus.MULTIPLE:
            out.write(f"{scan.problem}\n")
    if len(args.photos) > 1 and worst != ExitCode.OK:
        return ExitCode.PARTIAL_FAILURE
    return worst


def _solve_hint(args: argparse.Namespace, out: TextIO) -> int:
    """``solve PHOTO --hint``: the next step from the person's position on the photo,
    drawn at its level into ``NAME.hint.png`` (or ``-o``), never the whole solution."""
    from overlay.hint import draw_hint
    from pipeline.stages import hint_path_for, photo_bgr, refuse_overwrite, write_image
    from scanner.api import read_photo, require_readable

    target = hint_path_for(args.photo, args.output)
    refuse_overwrite(args.photo, {"-o": target})
    scan = require_readable(read_photo(args.photo, engine=_engine_name(args)))
    head: dict[str, object] = {"source": args.photo}
    if args.json:
        head["corrections"] = [c.describe() for c in scan.corrections]
    else:
        for corr in scan.corrections:
            out.write(f"correction: {corr.describe()}\n")

    def draw(step: Step) -> Path:
        image = draw_hint(photo_bgr(scan), scan.geometry, step, _hint_level(args))
        return write_image(image, target)

    order = _solve_order(())
    return _position_hint(
        scan.givens,
        scan.entries,
        args,
        out,
        order=order,
        head=head,
        draw=draw,
        unclear=scan.unclear,
    )


def cmd_solve(args: argparse.Namespace, out: TextIO) -> int:
    from pipeline.stages import output_path_for, refuse_overwrite, sheet_path_for, solve_photo

    _check_reveal(args)
    if args.hint:
        return _solve_hint(args, out)
    outputs = {"-o": output_path_for(args.photo, args.output)}
    if args.sheet:
        outputs["--sheet"] = sheet_path_for(args.photo, args.output)
    if args.report:
        outputs["--report"] = Path(args.report)
    refuse_overwrite(args.photo, outputs)
    engine = _engine_name(args)
    try:
        solved = solve_photo(
            args.photo,
            engine=engine,
            out=args.output,
            badges=args.badges,
            extend=args.extend,
            uniqueness=not args.no_uniqueness,
        )
    except errors.InvalidPuzzleError as exc:
        # The reading was trusted but the puzzle printed has no single solution: the JSON
        # says so with what was found (two solutions that differ), and nothing is drawn.
        if args.json and exc.details:
            _emit({"source": args.photo, **exc.details, "error": str(exc)}, out)
        raise
    result = solved.result
    if args.sheet:
        from overlay.sheet import render_sheet
        from pipeline.stages import write_image

        write_image(render_sheet(result, check=solved.check), outputs["--sheet"])
    if args.report:
        from overlay.report import write_report

        try:
            write_report(
                result,
                args.report,
                title=f"Solution of {args.photo}",
                image=solved.image,
                corrections=[c.describe() for c in solved.scan.corrections],
                check=solved.check,
            )
        except OSError as exc:
            raise OutputError(f"{args.report}: cannot write ({exc})") from None
    stuck = result.status == STUCK
    check = solved.check or check_entries(result.givens, [0] * 81, result.solution)
    if args.json:
        _emit(
            {
                "source": args.photo,
                **result.to_dict(),
                **check.to_dict(),
                "corrections": [c.describe() for c in solved.scan.corrections],
                "remaining": [cell_name(c) for c in result.remaining_cells()],
                "output": str(solved.output),
                "legend": str(solved.legend),
                "seconds": round(solved.seconds, 4),
            },
            out,
        )
    else:
        for corr in solved.scan.corrections:
            out.write(f"correction: {corr.describe()}\n")
        d = result.difficulty.to_dict()
        out.write(
            f"{args.photo}: {result.status} in {len(result.steps)} steps "
            f"(hardest: {d['name']}, level {d['level']}); wrote {solved.output} "
            f"in {solved.seconds * 1e3:.0f} ms\n"
        )
        out.write(f"legend: {solved.legend.text}\n")
        if check.count:
            out.write(_entries_line(check) + "\n")
        if stuck:
            out.write(solved.remaining_text() + "\n")
    return ExitCode.NOT_SOLVED if stuck else ExitCode.OK


def cmd_eval(args: argparse.Namespace, out: TextIO) -> int:
    from pipeline.evaluate import HEADER, evaluate, photos_with_truth
    from scanner.digits import available_engines

    folder = Path(args.folder)
    if not folder.is_dir():
        raise errors.InputFileError(f"{folder}: not a folder")
    if not photos_with_truth(folder):
        raise errors.InputFileError(f"{folder}: no photos with .dat ground truth")
    engines = [args.ocr] if args.ocr else available_engines()
    rows = []
    for engine in engines:
        res = evaluate(folder, engine, verbose=args.verbose)
        rows.append(res.row())
        if args.verbose:
            for failure in res.failures:
                out.write(f"  {engine}: {failure}\n")
    out.write(HEADER + "\n" + "\n".join(rows) + "\n")
    return ExitCode.OK


def cmd_batch(args: argparse.Namespace, out: TextIO) -> int:
    from pipeline.batch import RESULTS, SUMMARY, BatchOptions, run_batch

    options = BatchOptions(engine=_engine_name(args), fmt=args.format, badges=args.badges,
                           dpi=args.dpi, uniqueness=not args.no_uniqueness)  # fmt: skip
    summary = run_batch(
        args.inputs,
        args.output,
        options=options,
        jobs=args.jobs,
        resume=args.resume,
        quiet=args.quiet,
        scheduler=args.scheduler,
        page_timeout=args.page_timeout or None,
    )
    skipped = f" ({summary.skipped} done earlier)" if summary.skipped else ""
    ignored = f"; {summary.ignored} other files ignored" if summary.ignored else ""
    verdict = "interrupted; " if summary.interrupted else ""
    where = (
        f"see {Path(args.output) / RESULTS} and {SUMMARY}"
        if not summary.output_error
        else "the results files could not be written"
    )
    out.write(
        f"{verdict}{summary.pages} pages{skipped}, {summary.grids} grids: "
        f"{summary.solved} solved, {summary.failed_pages} pages with failures; "
        f"{summary.processed} processed in {summary.seconds:.1f} s{ignored}; {where}\n"
    )
    if summary.output_error:
        sys.stderr.write(f"{PROG}: error: {summary.output_error}\n")
    if summary.interrupted:
        sys.stderr.write(f"{PROG}: interrupted; run again with --resume to continue\n")
    return summary.exit_code


def cmd_demo(args: argparse.Namespace, out: TextIO) -> int:
    from pipeline.demo import run_demo

    return run_demo(out)


_NO_UNIQUENESS_HELP = "no techniques that assume a unique solution (rectangles, BUG+1)"
_LEVEL_HELP = (
    "with --hint: how much to tell, 1 where to look, 2 the technique, 3 the cells and "
    "candidates, 4 the whole step (default)"
)


def _add_no_badges(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-badges",
        dest="badges",
        action="store_false",
        help="digits alone, without the technique code tab in each cell",
    )


_REVEAL_HELP = "with --hint: also say the right digit of each wrong entry"


class _VersionAction(argparse.Action):
    """``--version``: the package version and how the solver runs (imports it only then)."""

    def __init__(self, option_strings: list[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> NoReturn:
        from importlib.metadata import PackageNotFoundError, version

        from solver import solver_mode

        try:
            number = version("sudoku-scan")
        except PackageNotFoundError:
            number = "(not installed)"
        sys.stdout.write(f"{PROG} {number}; solver {solver_mode()}\n")
        parser.exit(ExitCode.OK)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog=PROG,
        description="Read a photographed Sudoku, solve it like a teacher, draw the answer back.",
    )
    parser.add_argument("--version", action=_VersionAction)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("logic", help="solve a puzzle by logic, explaining every step")
    p.add_argument("puzzle", help="an 81-char puzzle (0 or . empty) or a file of one or many")
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle and line")
    p.add_argument("--hint", action="store_true", help="print only the next step")
    p.add_argument(
        "--entries",
        metavar="ENTRIES",
        help="81 chars: your digits so far (0 or . elsewhere); checked against the "
        "solution, and --hint starts from the right ones",
    )
    p.add_argument("--reveal", action="store_true", help=_REVEAL_HELP)
    p.add_argument("--level", type=int, choices=range(1, 5), metavar="N", help=_LEVEL_HELP)
    p.add_argument("--no-uniqueness", action="store_true", help=_NO_UNIQUENESS_HELP)
    p.add_argument(
        "--with",
        dest="with_techniques",
        action="append",
        default=[],
        metavar="ID",
        help="also use this technique that is off by default (e.g. mutant-jellyfish); repeatable",
    )
    p.set_defaults(func=cmd_logic)

    p = sub.add_parser("reglib", help="run HoDoKu's regression library against our techniques")
    p.add_argument("file", help="library file (lines ':code:cands:givens:deleted:elims:places:')")
    p.add_argument("--json", action="store_true", help="one JSON object per case and line")
    p.add_argument("--failures-only", action="store_true", help="list only failing cases")
    p.set_defaults(func=cmd_reglib)

    p = sub.add_parser("read", help="read the givens of Sudoku photos")
    p.add_argument("photos", nargs="+", metavar="PHOTO", help="JPEG, PNG, WebP, TIFF or BMP")
    p.add_argument("--json", action="store_true", help="one JSON object per photo and line")
    p.add_argument("--ocr", choices=("cnn", "tesseract"), help="digit engine (default: best)")
    p.set_defaults(func=cmd_read)

    p = sub.add_parser("solve", help="read, solve and draw the solution onto the photo")
    p.add_argument("photo", metavar="PHOTO")
    p.add_argument("-o", "--output", help="output image (default: NAME.solved.png/.jpg)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    _add_no_badges(p)
    p.add_argument(
        "--no-extend",
        dest="extend",
        action="store_false",
        help="keep the photo's size: no strip below it for a legend with no room",
    )
    p.add_argument("--sheet", action="store_true", help="also write a flat solution sheet")
    p.add_argument("--report", metavar="FILE", help="write a step-by-step HTML report")
    p.add_argument(
        "--hint",
        action="store_true",
        help="print the next step from your entries instead of drawing the solution",
    )
    p.add_argument("--reveal", action="store_true", help=_REVEAL_HELP)
    p.add_argument("--level", type=int, choices=range(1, 5), metavar="N", help=_LEVEL_HELP)
    p.add_argument("--ocr", choices=("cnn", "tesseract"), help="digit engine (default: best)")
    p.add_argument("--no-uniqueness", action="store_true", help=_NO_UNIQUENESS_HELP)
    p.set_defaults(func=cmd_solve)

    p = sub.add_parser(
        "batch",
        help="read, solve and annotate every puzzle in files, folders, globs, PDFs and TIFFs",
    )
    p.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="image files, folders (recursive), globs, multi-page PDFs or TIFFs",
    )
    p.add_argument(
        "-o",
        "--output",
        required=True,
        metavar="OUTDIR",
        help="folder for the annotated pages, results.jsonl and summary.csv",
    )
    p.add_argument(
        "--jobs", type=int, metavar="N", help="worker processes (default: the machine's cores)"
    )
    p.add_argument(
        "--resume",
        action="store_true",
        help="skip pages already in OUTDIR/results.jsonl (after a crash or Ctrl-C)",
    )
    p.add_argument(
        "--format",
        choices=("png", "jpg"),
        default="png",
        help="annotated page format (default: png)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run on a Dask cluster (tcp://host:8786) instead of local processes",
    )
    p.add_argument("--dpi", type=int, default=200, help="PDF rendering resolution (default: 200)")
    p.add_argument(
        "--page-timeout",
        type=float,
        default=DEFAULT_PAGE_TIMEOUT,
        metavar="SECONDS",
        help=f"stop a page after this long, with an error row (default {DEFAULT_PAGE_TIMEOUT:g}; "
        "0: never)",
    )
    p.add_argument(
        "--no-uniqueness",
        action="store_true",
        help="leave out techniques that assume a unique solution",
    )
    _add_no_badges(p)
    p.add_argument("--ocr", choices=("cnn", "tesseract"), help="digit engine (default: best)")
    p.set_defaults(func=cmd_batch)

    p = sub.add_parser("eval", help="measure the reader on photos with .dat ground truth")
    p.add_argument("folder", metavar="DIR")
    p.add_argument("--ocr", choices=("cnn", "tesseract"), help="only this engine")
    p.add_argument("--verbose", action="store_true", help="per photo lines and failures")
    p.set_defaults(func=cmd_eval)

    p = sub.add_parser("demo", help="solve a bundled sample")
    p.set_defaults(func=cmd_demo)

    p = sub.add_parser("serve", help="the web app, for a phone on the same network")
    p.add_argument("--host", default="127.0.0.1", help="0.0.0.0: every interface (LAN)")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--workers", type=int, default=2, help="reader processes (default 2)")
    p.add_argument("--max-upload-mb", type=int, default=25, help="largest photo (default 25)")
    p.set_defaults(func=cmd_serve)
    return parser


def cmd_serve(args: argparse.Namespace, out: TextIO) -> int:
    from pipeline.web.app import WebSettings
    from pipeline.web.serve import serve

    if not 0 < args.port < 65536:
        raise errors.BadArgsError(f"--port must be 1-65535, got {args.port}")
    if not 1 <= args.workers <= 64:
        raise errors.BadArgsError(f"--workers must be 1-64, got {args.workers}")
    if args.max_upload_mb < 1:
        raise errors.BadArgsError("--max-upload-mb must be at least 1")
    settings = WebSettings(workers=args.workers, max_upload_bytes=args.max_upload_mb << 20)
    try:
        serve(args.host, args.port, settings, out)
    except OSError as exc:
        raise errors.BadArgsError(f"cannot listen on {args.host}:{args.port} ({exc})") from None
    return ExitCode.OK


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
    except MemoryError:
        sys.stderr.write(f"{PROG}: error: out of memory\n")
        code = ExitCode.OTHER_ERROR
    except OSError as exc:
        # An OS failure no stage foresaw (a file name too long, a folder without search
        # permission): still one line, naming the file.
        sys.stderr.write(f"{PROG}: error: {describe_os_error(exc)}\n")
        code = ExitCode.OTHER_ERROR
    except Exception as exc:  # a bug: one line and OTHER_ERROR, the traceback on request
        if os.environ.get(DEBUG_ENV, "") not in ("", "0"):
            raise
        sys.stderr.write(
            f"{PROG}: error: internal error ({type(exc).__name__}: {exc}); please report it "
            f"(set {DEBUG_ENV}=1 for the traceback)\n"
        )
        code = ExitCode.OTHER_ERROR
    if out is None:
        sys.stdout.flush()
    return int(code)


def console() -> NoReturn:
    sys.exit(main())


if __name__ == "__main__":
    console()
