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

``setup.py`` builds the same modules into the wheel (``pip install .``) with the functions
here: :func:`compiled_sources`, :func:`mypyc_extensions`, :func:`write_manifest` and
:func:`import_check`, each given the folder to work in (the checkout or the wheel's build
folder).
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
from concurrent.futures import ThreadPoolExecutor
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import TYPE_CHECKING, Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.native import MANIFEST, NEVER_COMPILED, PACKAGE_DIR, source_digest  # noqa: E402

if TYPE_CHECKING:
    from setuptools import Extension  # type: ignore[import-untyped]

BUILD_DIR = ROOT / "build" / "native"
LOG = BUILD_DIR / "build.log"
# Not worth compiling: run once per puzzle or not in the solve at all.
COLD = ("errors.py", "parse.py", "reglib.py", "generate.py", "check.py", "registry.py", "words.py")
GROUP = "solver._native"  # the shared library lands inside the package, not at top level
# The C compiler's optimisation level ("0"-"3"), default 3. tests/test_wheel.py builds at 0:
# it checks that a wheel compiles, installs and loads its modules, not their speed, and -O0
# compiles the same C about five times faster (the build's whole cost in make test).
OPT_LEVEL_ENV = "SUDOKU_SCAN_OPT_LEVEL"


def opt_level() -> str:
    """The optimisation level of :data:`OPT_LEVEL_ENV` (``"3"`` when unset).

    Raises
    ------
    ValueError
        When the variable is set to anything but 0, 1, 2 or 3.
    """
    level = os.environ.get(OPT_LEVEL_ENV, "") or "3"
    if level not in ("0", "1", "2", "3"):
        raise ValueError(f"{OPT_LEVEL_ENV}={level!r}: expected 0, 1, 2 or 3")
    return level


def compiled_sources() -> list[Path]:
    """The solver sources mypyc compiles (relative to the repository root): every module
    of the package and its subpackages but the cold ones, the entry and the packages'
    ``__init__.py`` files.

    The ``__init__.py`` files only gather and register the techniques, and compiled they
    would break imports: mypyc (2.4) gives a compiled package a wrong ``__path__`` when the
    group's library sits inside the package, as here (``<package>/solver/...``), so the
    package could not import its subpackages.
    """
    skip = set(NEVER_COMPILED) | set(COLD)
    return [
        p.relative_to(ROOT)
        for p in sorted(PACKAGE_DIR.rglob("*.py"))
        if p.name != "__init__.py"
        and not (p.parent == PACKAGE_DIR and p.name in skip)
        # in regular packages only (a folder without __init__.py is no package of solver)
        and all(
            (PACKAGE_DIR / d / "__init__.py").exists() for d in p.relative_to(PACKAGE_DIR).parents
        )
    ]


def extensions(root: Path = ROOT) -> list[Path]:
    """Compiled solver modules present in the package folder under ``root``."""
    package = root / PACKAGE_DIR.relative_to(ROOT)
    return [p for p in package.rglob("*") if p.suffix in (".so", ".pyd")]


def clean(root: Path = ROOT) -> None:
    for path in extensions(root):
        path.unlink()
    (root / MANIFEST.relative_to(ROOT)).unlink(missing_ok=True)


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


def write_manifest(
    compiled: bool, reason: str = "", sources: list[Path] | None = None, root: Path = ROOT
) -> None:
    """Write ``solver/_native.json`` under ``root`` (the checkout, or the wheel's build
    folder): the digest of each compiled source as found under ``root``, as
    :func:`solver.native.manifest_mismatch` checks them where the package is imported."""
    data: dict[str, object] = {"compiled": compiled, "python": sys.implementation.cache_tag}
    if compiled:
        data["sources"] = {
            str(p.relative_to(PACKAGE_DIR.relative_to(ROOT))): source_digest(root / p)
            for p in sources or []
        }
    else:
        data["reason"] = reason
    (root / MANIFEST.relative_to(ROOT)).write_text(json.dumps(data, indent=1) + "\n")


def mypyc_extensions(sources: list[Path], build_dir: Path) -> list[Extension]:
    """mypyc's C code for ``sources`` (relative to the repository root), written under
    ``build_dir``, and the setuptools extensions that compile it.

    mypyc runs in ``build_dir``: away from the project's pyproject.toml, whose [tool.mypy]
    settings are for type-checking the whole project, not for this build.
    """
    from mypyc.build import mypycify

    build_dir.mkdir(parents=True, exist_ok=True)
    build_dir = build_dir.resolve()
    target = build_dir / "c"
    here = Path.cwd()
    os.chdir(build_dir)
    try:
        modules: list[Extension] = mypycify(
            [str(ROOT / p) for p in sources],
            opt_level=opt_level(),
            debug_level="0",
            multi_file=True,  # one C file per module: compiled in parallel (below)
            group_name=GROUP,
            target_dir=str(target),
        )
    finally:
        os.chdir(here)
    for ext in modules:  # mypyc writes a dotted group's headers into the package folder
        ext.include_dirs.append(str(target / GROUP.split(".")[0]))
    return modules


def compile_in_parallel(compiler: Any, jobs: int) -> None:
    """Make ``compiler`` (a setuptools ``CCompiler``) compile one extension's C files
    ``jobs`` at a time, the largest first.

    mypyc puts the solver into one extension of 38 C files, and setuptools compiles an
    extension's files one after another (``build_ext --parallel`` only builds whole
    extensions side by side): one core did the whole build (160 s here, the other
    idle). This is ``CCompiler.compile`` (setuptools 77-80) with its loop run by a
    thread pool; each thread waits on its own compiler process. Only a Unix compiler
    (gcc, clang) whose ``compile`` is that one is changed (MSVC's has its own); any
    other compiles as setuptools does.
    """
    if getattr(compiler, "compiler_type", "") != "unix" or not all(
        hasattr(compiler, name) for name in ("_setup_compile", "_get_cc_args", "_compile")
    ):
        return

    def compile(
        sources: list[str],
        output_dir: str | None = None,
        macros: Any = None,
        include_dirs: Any = None,
        debug: bool = False,
        extra_preargs: Any = None,
        extra_postargs: Any = None,
        depends: Any = None,
    ) -> list[str]:
        _, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
        todo = sorted(
            (obj for obj in objects if obj in build),
            key=lambda obj: -Path(build[obj][0]).stat().st_size,
        )

        def one(obj: str) -> None:
            src, ext = build[obj]
            compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(max(1, jobs)) as pool:
            list(pool.map(one, todo))  # raises the first CompileError
        return list(objects)

    compiler.compile = compile


def import_check(root: Path = ROOT, env: dict[str, str] | None = None) -> str | None:
    """Why the package under ``root`` does not run its compiled modules (None when it
    does): the build must import, and the compiled modules must really be the ones used."""
    check = (
        "import os, solver; assert solver.__file__.startswith(os.getcwd()), solver.__file__; "
        "assert solver.NATIVE, solver.NATIVE_REASON"
    )
    probe = subprocess.run([sys.executable, "-c", check], cwd=root, env=env, capture_output=True)
    if probe.returncode != 0:
        return "the compiled modules do not import: " + probe.stderr.decode()[-300:]
    return None


def build(sources: list[Path]) -> None:
    """Run mypyc through setuptools' build_ext; output goes to the log.

    It runs in the build folder, away from the project's pyproject.toml (which an older
    setuptools would try, and fail, to read), and copies the modules into the package.
    """
    from setuptools import setup
    from setuptools.command.build_ext import build_ext

    class ParallelBuildExt(build_ext):  # type: ignore[misc]
        def build_extensions(self) -> None:
            compile_in_parallel(self.compiler, os.cpu_count() or 1)
            super().build_extensions()

    lib = BUILD_DIR / "lib"
    shutil.rmtree(lib, ignore_errors=True)
    os.chdir(BUILD_DIR)
    try:
        modules = mypyc_extensions(sources, BUILD_DIR)
        setup(
            name="sudoku-scan-native",
            script_name="build_native",
            script_args=[
                *("build_ext", "--build-lib", str(lib)),
                *("--build-temp", str(BUILD_DIR / "temp")),
            ],
            ext_modules=modules,
            cmdclass={"build_ext": ParallelBuildExt},
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
        write_manifest(True, sources=sources)
        reason = import_check()
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
