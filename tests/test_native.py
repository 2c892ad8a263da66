"""The compiled solver modules: used only while they match their sources, same answers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import solver
from solver import native, parse_puzzle, solve
from solver.native import manifest_mismatch, source_digest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))
from build_native import OPT_LEVEL_ENV, compiled_sources, missing_toolchain, opt_level  # noqa: E402

# top95's 12th puzzle: grouped loops, ALS and forcing chains on the way.
HARD = ".6.5.1.9.1...9..539....7....4.8...7.......5.8.817.5.3.....5.2............76..8..."


def _manifest(tmp_path: Path, sources: dict[str, str]) -> Path:
    path = tmp_path / "_native.json"
    data = {"compiled": True, "python": sys.implementation.cache_tag, "sources": sources}
    path.write_text(json.dumps(data))
    return path


def test_an_edited_source_disables_the_compiled_modules(tmp_path: Path) -> None:
    module = tmp_path / "grid.py"
    module.write_text("X = 1\n")
    manifest = _manifest(tmp_path, {"grid.py": source_digest(module)})
    assert manifest_mismatch(manifest) is None
    module.write_text("X = 2\n")
    assert manifest_mismatch(manifest) == "grid.py changed since the build"
    module.unlink()
    assert manifest_mismatch(manifest) == "grid.py changed since the build"


def test_a_failed_or_missing_build_is_plain_python(tmp_path: Path) -> None:
    assert manifest_mismatch(tmp_path / "absent.json") == "not built"
    failed = tmp_path / "failed.json"
    failed.write_text(json.dumps({"compiled": False, "reason": "no C compiler (gcc)"}))
    assert manifest_mismatch(failed) == "no C compiler (gcc)"
    other = _manifest(tmp_path, {})
    other.write_text(other.read_text().replace(sys.implementation.cache_tag, "cpython-399"))
    assert "built for cpython-399" in str(manifest_mismatch(other))


def test_the_package_entry_is_never_compiled() -> None:
    names = {p.name for p in compiled_sources() if p.parent.name == "solver"}
    assert not names & set(native.NEVER_COMPILED)
    # the family subpackages' modules are compiled; their __init__ files (rows) are not
    assert Path("solver/techniques/chains/loops/search.py") in compiled_sources()
    assert Path("solver/techniques/fish/basic.py") in compiled_sources()
    assert Path("solver/techniques/fish/__init__.py") not in compiled_sources()


def test_compiled_modules_are_in_use_where_a_compiler_exists() -> None:
    """`make` compiles the solver; a build that silently fell back would show here."""
    why = missing_toolchain()
    if why is not None:
        pytest.skip(f"this machine cannot compile the solver: {why}")
    assert solver.NATIVE, f"compiled solver modules not in use: {solver.NATIVE_REASON}"
    assert "solver.techniques.chains.loops.search" in native.compiled_modules()


def test_plain_python_gives_the_same_solve() -> None:
    """The same solve path, step by step, with the compiled modules switched off."""
    code = (
        "import json, solver; from solver import native, parse_puzzle, solve\n"
        "assert not solver.NATIVE and not native.compiled_modules()\n"
        f"r = solve(parse_puzzle({HARD!r}))\n"
        "print(json.dumps([r.status, [s.to_dict() for s in r.steps]]))\n"
    )
    env = {**os.environ, native.PURE_ENV: "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    here = solve(parse_puzzle(HARD))
    used = {s.technique.split("-")[0] for s in here.steps}
    assert {"forcing", "grouped", "als"} <= used
    assert json.loads(out.stdout) == [here.status, [s.to_dict() for s in here.steps]]


def test_the_optimisation_level_is_read_from_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(OPT_LEVEL_ENV, raising=False)
    assert opt_level() == "3"
    monkeypatch.setenv(OPT_LEVEL_ENV, "0")
    assert opt_level() == "0"
    monkeypatch.setenv(OPT_LEVEL_ENV, "fast")
    with pytest.raises(ValueError, match="expected 0, 1, 2 or 3"):
        opt_level()
