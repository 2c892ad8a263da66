from __future__ import annotations

from pathlib import Path

from solver.reglib import run_case, run_file
from solver.techniques import BY_HODOKU

# A naked single (8 at r2c9) from the library's own documentation.
DOC_CASE = (
    ":0003:8:6...+53+4.7....4+2+56.+254867+3+9+1.+4..+9+6.1.162+38+5749.3..+1+4.+5...."
    "42193..1.+57...+44+2.6+3.+1+75:::829:"
)


def test_single_case_and_negative() -> None:
    ok = run_case(DOC_CASE, 1)
    assert ok.supported and ok.passed
    assert any(s.placement_strings() == ["r2c9=8"] for s in ok.instances)
    wrong = run_case(DOC_CASE.replace(":829:", ":819:"), 2)
    assert wrong.supported and not wrong.passed
    unsupported = run_case(DOC_CASE.replace(":0003:", ":9999:"), 3)
    assert not unsupported.supported


def test_every_supported_case_of_the_library_passes(puzzles_dir: Path) -> None:
    results = list(run_file(puzzles_dir / "hodoku-reglib-dev.txt"))
    supported = [r for r in results if r.supported]
    failed = [r.summary_line() for r in supported if not r.passed]
    assert not failed, "\n".join(failed[:10])
    codes = {r.technique.split("-")[0] for r in supported}
    # Every technique of the core set is exercised by the library.
    for code in ("0000", "0002", "0003", "0100", "0101", "0200", "0201", "0202", "0210",
                 "0211", "0212", "0300", "0301", "0302", "0800", "0801"):  # fmt: skip
        assert code in codes and code in BY_HODOKU
    assert len(supported) >= 270
