"""Stress benchmark: the reader on prints, screens and damage unlike its tuning photos.

Usage::

    python benchmarks/bench_stress.py [--pages 20] [--first-seed 0] [--styles a,b]
        [--jobs 2] [--fonts held-out|train|all] [--json FILE] [--seed S --save DIR]

For every style of :data:`tests.synth.STRESS_STYLES` it renders ``--pages`` pages
(puzzle ``solver.generate.generate(5000 + seed)``, seeds 0..N-1 or from ``--first-seed``:
pages the reader was never looked at on, the digits' font family
picked per page from ``--fonts``) and reads each with ``scanner.read_photo``. Outcomes:

* found: a grid came back (``NoGridError`` = not found; another ``SudokuScanError`` or a
  crash = error);
* right: status "read" and exactly the printed givens (the player's entries are not givens);
* unreadable: status "unreadable", an honest refusal;
* several: status "multiple_solutions": every cell read with confidence, and the puzzle read has
  several solutions (every page here has one, so a digit was missed; ``solve`` refuses
  such a reading with exit 4 rather than drawing a solution);
* confident-wrong: status "read" with other givens. This one must be 0.

Styles marked ``beyond_reading`` (a burnt-out reflection; shake, glare, a steep tilt and
heavy JPEG at once; a finger or a pen over the grid's edge) wipe out or hide digits a
person could not read either: there a refusal is the right answer. The summary gives
the right share over the other ("legible") styles and the refusals over these.

Prints a markdown table by style, one by font family, and every confident-wrong page with
the command that reproduces it; ``--seed S --save DIR`` writes that page's PNG and truth.
Font families missing on this machine are skipped with a note (``make bench-stress``
installs the held-out ones).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import sys
import time
import zlib
from collections import defaultdict
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.synth import (  # noqa: E402
    STRESS_PUZZLE_SEED,
    STRESS_STYLES,
    FontFamily,
    FontSet,
    StressPage,
    font_families,
    render_stress_page,
)


@dataclass
class Outcome:
    style: str
    seed: int
    font: str
    shape: tuple[int, int]
    outcome: str  # right | unreadable | several | confident-wrong | no-grid | error
    differ: list[tuple[int, int, int]]  # (cell, printed, read) where a confident read differs
    entries_read: int  # differing cells that hold a player's entry
    read_ms: float
    render_ms: float
    detail: str = ""
    # The player's entries (app and pen styles), counted on a page read right: how many
    # the page holds, how many were read with their digit, and the cells read as an
    # entry that hold none (a candidate or the print taken for one).
    entries: int = 0
    entries_right: int = 0
    invented: list[int] = field(default_factory=list)


class PageRead(NamedTuple):
    """How reading one page went (see :func:`read_outcome`)."""

    outcome: str
    detail: str
    differ: list[tuple[int, int, int]]
    entries: list[int] | None  # the player's entries as read, on a page read right


def page_font(style: str, seed: int, fonts: list[FontFamily]) -> FontFamily:
    """The font of a page: cycles through the families, offset per style (stable)."""
    return fonts[(seed + zlib.crc32(style.encode())) % len(fonts)]


def render(style: str, seed: int, fonts: list[FontFamily]) -> StressPage:
    from solver.generate import generate

    return render_stress_page(
        generate(STRESS_PUZZLE_SEED + seed),  # (tests.synth: one definition)
        style=STRESS_STYLES[style],
        seed=seed,
        font=page_font(style, seed, fonts),
    )


def read_outcome(image: Any, givens: list[int]) -> PageRead:
    """Read ``image`` (a photo, BGR) and say how that went against its printed ``givens``.

    Returns the outcome (right, unreadable, several, confident-wrong, no-grid, error),
    a detail (the problem, or the error), for a confident-wrong reading the cells read
    otherwise as (cell, printed, read), and for one read right the player's entries as
    read. The scanner is imported here (workers).
    """
    from scanner.api import read_photo
    from scanner.errors import NoGridError
    from scanner.reading import ReadStatus
    from solver.errors import SudokuScanError

    differ: list[tuple[int, int, int]] = []
    detail = ""
    entries = None
    try:
        result = read_photo(image)
        if result.status == ReadStatus.MULTIPLE:
            outcome = "several"
        elif result.status != ReadStatus.OK:
            outcome, detail = "unreadable", result.problem
        elif result.givens == givens:
            outcome, entries = "right", list(result.entries)
        else:
            outcome = "confident-wrong"
            pairs = enumerate(zip(givens, result.givens, strict=True))
            differ = [(i, p, r) for i, (p, r) in pairs if p != r]
    except NoGridError as exc:
        outcome, detail = "no-grid", str(exc)
    except SudokuScanError as exc:
        outcome, detail = "error", f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # a crash is a finding too; keep measuring the rest
        outcome, detail = "error", f"crash {type(exc).__name__}: {exc}"
    return PageRead(outcome, detail, differ, entries)


def run_one(task: tuple[str, int, list[FontFamily]]) -> Outcome:
    """Render one page and read it (in a worker)."""
    style, seed, fonts = task
    t0 = time.perf_counter()
    page = render(style, seed, fonts)
    t1 = time.perf_counter()
    outcome, detail, differ, read_entries = read_outcome(page.image, page.givens)
    t2 = time.perf_counter()
    entries = read_entries or [0] * 81
    pairs = list(zip(page.entries, entries, strict=True))
    return Outcome(
        style=style,
        seed=seed,
        font=page.font,
        shape=(page.image.shape[1], page.image.shape[0]),
        outcome=outcome,
        differ=differ,
        entries_read=sum(1 for i, _, _ in differ if page.entries[i]),
        read_ms=1e3 * (t2 - t1),
        render_ms=1e3 * (t1 - t0),
        detail=detail,
        entries=sum(map(bool, page.entries)) if read_entries else 0,
        entries_right=sum(bool(e) and e == r for e, r in pairs),
        invented=[i for i, (e, r) in enumerate(pairs) if r and not e],
    )


def table(rows: dict[str, list[Outcome]], label: str) -> list[str]:
    out = [
        f"| {label} | pages | found | right | unreadable | several solutions "
        "| confident-wrong | median ms |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    every: list[Outcome] = []
    for name, res in rows.items():
        every += res
        out.append(line(name, res))
    out.append(line("**total**", every))
    return out


def line(name: str, res: list[Outcome]) -> str:
    n = len(res)
    count = {
        k: sum(r.outcome == k for r in res)
        for k in ("right", "unreadable", "several", "confident-wrong")
    }
    found = sum(r.outcome not in ("no-grid", "error") for r in res)
    errors = sum(r.outcome == "error" for r in res)
    ms = statistics.median(r.read_ms for r in res) if res else 0.0
    found_txt = f"{found}" + (f" (+{errors} err)" if errors else "")
    wrong = count["confident-wrong"]
    return (
        f"| {name} | {n} | {found_txt} | {count['right']} | {count['unreadable']} | "
        f"{count['several']} | {f'**{wrong}**' if wrong else 0} | {ms:.0f} |"
    )


def summary(by_style: dict[str, list[Outcome]]) -> str:
    """The figure against the target (right on the legible styles) and the refusals on
    the styles beyond reading (``StressStyle.beyond_reading``)."""
    legible = [r for s, res in by_style.items() if not STRESS_STYLES[s].beyond_reading for r in res]
    beyond = [r for s, res in by_style.items() if STRESS_STYLES[s].beyond_reading for r in res]
    out = []
    if legible:
        right = sum(r.outcome == "right" for r in legible)
        wrong = sum(r.outcome == "confident-wrong" for r in legible)
        out.append(f"legible styles: {right} of {len(legible)} right "
                   f"({100 * right / len(legible):.1f}%), {wrong} confident-wrong")  # fmt: skip
    if beyond:
        names = ", ".join(s for s in by_style if STRESS_STYLES[s].beyond_reading)
        refused = sum(r.outcome in ("unreadable", "several") for r in beyond)
        right = sum(r.outcome == "right" for r in beyond)
        wrong = sum(r.outcome == "confident-wrong" for r in beyond)
        out.append(f"beyond reading ({names}): {refused} refused, {right} right, "
                   f"{wrong} confident-wrong of {len(beyond)}")  # fmt: skip
    every = [r for res in by_style.values() for r in res if r.entries]
    if every:
        total = sum(r.entries for r in every)
        right = sum(r.entries_right for r in every)
        invented = sum(len(r.invented) for r in every)
        out.append(f"player's entries on the {len(every)} pages read right that hold some: "
                   f"{right} of {total} read with their digit, {invented} invented "
                   f"(candidates or print read as an entry)")  # fmt: skip
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--pages", type=int, default=20, help="pages per style (seeds 0..N-1)")
    ap.add_argument(
        "--first-seed", type=int, default=0, help="seeds FIRST..FIRST+N-1: pages never tuned on"
    )
    ap.add_argument("--styles", default="", help="comma-separated style names (default: all)")
    ap.add_argument("--seed", type=int, default=None, help="only this page seed")
    ap.add_argument("--jobs", type=int, default=2, help="worker processes")
    ap.add_argument("--fonts", choices=[f.value for f in FontSet], default=FontSet.HELD_OUT.value)
    ap.add_argument("--json", type=Path, default=None, help="write every page's outcome here")
    ap.add_argument("--save", type=Path, default=None, help="write each page's PNG + truth here")
    args = ap.parse_args()

    styles = [s for s in args.styles.split(",") if s] or list(STRESS_STYLES)
    unknown = [s for s in styles if s not in STRESS_STYLES]
    if unknown:
        ap.error(f"unknown styles {unknown}; known: {', '.join(STRESS_STYLES)}")
    fonts, missing = font_families(FontSet(args.fonts))
    if missing:
        names = ", ".join(f"{f.name} ({f.package})" for f in missing)
        print(f"note: skipping font families not installed here: {names}", file=sys.stderr)
    if not fonts:
        print(
            f"note: no {args.fonts} font family is installed; drawing DejaVu Sans", file=sys.stderr
        )
        fonts = [FontFamily("DejaVu Sans", "fonts-dejavu-core", ("DejaVuSans.ttf",))]
    first = args.first_seed
    seeds = [args.seed] if args.seed is not None else list(range(first, first + args.pages))

    if args.save is not None:
        args.save.mkdir(parents=True, exist_ok=True)
        import cv2

        for style in styles:
            for seed in seeds:
                page = render(style, seed, fonts)
                stem = args.save / f"{style}-{seed}"
                cv2.imwrite(str(stem.with_suffix(".png")), page.image)
                truth = {
                    "style": style, "seed": seed, "font": page.font,
                    "givens": "".join(map(str, page.givens)),
                    "entries": "".join(map(str, page.entries)),
                    "lattice": page.lattice.round(2).tolist(),
                }  # fmt: skip
                stem.with_suffix(".json").write_text(json.dumps(truth))
                print(f"wrote {stem}.png and .json ({page.font})")

    tasks = [(s, seed, fonts) for s in styles for seed in seeds]
    # The big photos first, so that the workers finish together.
    tasks.sort(key=lambda t: -("12mp" in t[0] or "small-grid" in t[0]))
    start = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = pool.map(run_one, tasks, chunksize=1)
    else:
        results = [run_one(t) for t in tasks]
    wall = time.perf_counter() - start

    by_style: dict[str, list[Outcome]] = {s: [] for s in styles}
    by_font: dict[str, list[Outcome]] = defaultdict(list)
    for r in results:
        by_style[r.style].append(r)
        by_font[r.font].append(r)
    print(f"{len(results)} pages, fonts {args.fonts}, {args.jobs} jobs on "
          f"{os.cpu_count()} cores: {wall:.0f} s wall\n")  # fmt: skip
    print("\n".join(table(by_style, "style")))
    print()
    print(summary(by_style))
    print()
    print("\n".join(table(dict(sorted(by_font.items())), "font family")))
    wrong = [r for r in results if r.outcome == "confident-wrong"]
    if wrong:
        print(f"\nconfident-wrong pages ({len(wrong)}): style seed font: cells (printed->read)")
        for r in wrong:
            cells = ", ".join(f"r{i // 9 + 1}c{i % 9 + 1} {p}->{v}" for i, p, v in r.differ)
            print(f"- {r.style} {r.seed} {r.font}: {len(r.differ)} cells "
                  f"({r.entries_read} player entries): {cells}")  # fmt: skip
        print(f"\nreproduce one: python benchmarks/bench_stress.py --fonts {args.fonts} "
              f"--styles STYLE --seed SEED --save /tmp/stress")  # fmt: skip
    invented = [r for r in results if r.invented]
    if invented:
        print(f"\npages read right with invented entries ({len(invented)}):")
        for r in invented:
            print(
                f"- {r.style} {r.seed} {r.font}: "
                + ", ".join(f"r{i // 9 + 1}c{i % 9 + 1}" for i in r.invented)
            )
    errors = [r for r in results if r.outcome == "error"]
    for r in errors:
        print(f"error: {r.style} {r.seed}: {r.detail}")
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=1))


if __name__ == "__main__":
    main()
