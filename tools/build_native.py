"""Compile the solver's hot modules with mypyc, in place; `make` runs this.

Usage::

    python tools/build_native.py          # compile (or record why not) and write the manifest
    python tools/build_native.py --clean  # remove the compiled modules and the manifest

mypyc (part of mypy, a dev dependency) turns the type-annotated solver modules into C
extensions next to their sources: the same code, about twice as fast. It needs a C compiler
and the Python headers. Without them, or when the build fails, the solver runs as plain
Python: this script then writes a manifest saying why, and exits 0 (``--strict``: 1).
:mod:`solver.native` loads the extensions only while every compiled source still has the
digest recorded here, so editing a source never runs stale compiled code.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.native import MANIFEST, NEVER_COMPILED, PACKAGE_DIR, source_digest  # noqa: E402

BUILD_DIR = ROOT / "build" / "native"
LOG = BUILD_DIR / "build.log"
# Not worth compiling: run once per puzzle or not in the solve at all.
COLD = ("errors.py", "parse.py", "reglib.py", "generate.py", "check.py")
GROUP = "solver._native"  # the shared library lands inside the package, not at top level


def compiled_sources() -> list[Path]:
    """The solver sources mypyc compiles (relative to the repository root)."""
    paths = sorted(PACKAGE_DIR.glob("*.py")) + sorted((PACKAGE_DIR / "techniques").glob("*.py"))
    skip = set(NEVER_COMPILED) | set(COLD)
    return [p.relative_to(ROOT) for p in paths if not (p.parent == PACKAGE_DIR and p.name in skip)]


def extensions() -> list[Path]:
    """Compiled solver modules present in the package folder."""
    return [p for p in PACKAGE_DIR.rglob("*") if p.suffix in (".so", ".pyd")]


def clean() -> None:
    for path in extensions():
        path.unlink()
    MANIFEST.unlink(missing_ok=True)


def missing_toolchain() -> str | None:
    """Why this machine cannot compile C extensions (None when it can)."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if not shutil.which(compiler):
        return f"no C compiler ({compiler})"
    header = Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.exists():
        return f"no Python headers ({header}; Debian: apt-get install python3-dev)"
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        return "mypyc is not installed (pip install mypy)"
    return None


def write_manifest(compiled: bool, reason: str = "", sources: list[Path] | None = None) -> None:
    data: dict[str, object] = {"compiled": compiled, "python": sys.implementation.cache_tag}
    if compiled:
        data["sources"] = {
            str(p.relative_to(PACKAGE_DIR.relative_to(ROOT))): source_digest(ROOT / p)
            for p in sources or []
        }
    else:
        data["reason"] = reason
    MANIFEST.write_text(json.dumps(data, indent=1) + "\n")


def build(sources: list[Path]) -> None:
    """Run mypyc through setuptools' build_ext; output goes to the log.

    It runs in the build folder, away from the project's pyproject.toml (which an older
    setuptools would try, and fail, to read), and copies the modules into the package.
    """
    from mypyc.build import mypycify
    from setuptools import setup  # type: ignore[import-untyped]

    jobs = str(max(1, os.cpu_count() or 1))
    target, lib = BUILD_DIR / "c", BUILD_DIR / "lib"
    shutil.rmtree(lib, ignore_errors=True)
    os.chdir(BUILD_DIR)
    try:
        modules = mypycify(
            [str(ROOT / p) for p in sources],
            opt_level="3",
            debug_level="0",
            multi_file=True,  # one C file per module: compiled in parallel
            group_name=GROUP,
            target_dir=str(target),
        )
        for ext in modules:  # mypyc writes a dotted group's headers into the package folder
            ext.include_dirs.append(str(target / GROUP.split(".")[0]))
        setup(
            name="sudoku-scan-native",
            script_name="build_native",
            script_args=[
                *("build_ext", "--parallel", jobs, "--build-lib", str(lib)),
                *("--build-temp", str(BUILD_DIR / "temp")),
            ],
            ext_modules=modules,
        )
    finally:
        os.chdir(ROOT)
    for built in lib.rglob("*"):
        if built.suffix in (".so", ".pyd"):
            shutil.copy2(built, ROOT / built.relative_to(lib))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--clean", action="store_true", help="remove compiled modules and exit")
    ap.add_argument("--strict", action="store_true", help="exit 1 when nothing was compiled")
    args = ap.parse_args()
    os.chdir(ROOT)
    clean()  # never leave extensions of an older build beside changed sources
    if args.clean:
        return 0
    reason = missing_toolchain()
    start = time.perf_counter()
    if reason is None:
        sources = compiled_sources()
        BUILD_DIR.mkdir(parents=True, exist_ok=True)
        log = io.StringIO()
        try:
            with redirect_stdout(log), redirect_stderr(log):
                build(sources)
        except (Exception, SystemExit) as exc:  # a failed build leaves plain Python
            reason = f"mypyc build failed ({type(exc).__name__}: {exc}); see {LOG}"
        LOG.write_text(log.getvalue())
    if reason is None:
        # the build must import, and the compiled modules must really be the ones used
        check = "import solver; assert solver.NATIVE, solver.NATIVE_REASON"
        write_manifest(True, sources=sources)
        probe = subprocess.run([sys.executable, "-c", check], cwd=ROOT, capture_output=True)
        if probe.returncode != 0:
            reason = "the compiled modules do not import: " + probe.stderr.decode()[-300:]
    if reason is not None:
        clean()
        write_manifest(False, reason)
        print(f"note: solver not compiled, it runs as plain Python (about 2x slower): {reason}")
        return 1 if args.strict else 0
    took = time.perf_counter() - start
    print(f"compiled {len(sources)} solver modules with mypyc in {took:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
