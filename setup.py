"""The wheel compiles the solver's hot modules with mypyc, as ``make native`` does in place.

``pip install .`` (and ``pip wheel .``) builds the modules that ``tools/build_native.py``
compiles, with the same mypyc settings, into the wheel's build folder, and writes the
manifest :mod:`solver.native` checks (the digest of each source the wheel installs, this
Python's cache tag) beside them, so that the installed package loads them. The project's
metadata lives in pyproject.toml; this file only adds the build step.

Plain Python instead (a pure ``py3-none-any`` wheel whose manifest says why):

- set ``SUDOKU_SCAN_PURE_BUILD=1`` in the environment of the build;
- no C compiler, no Python headers or no mypyc in the build environment;
- the mypyc build fails (pip prints a warning with ``-v``; the wheel is then tagged for
  this platform but runs as plain Python).

Editable installs (``pip install -e .``, what ``make`` does) compile nothing here: the
checkout's modules are compiled in place by ``make native``.
"""

from __future__ import annotations

import io
import os
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path
from typing import Any

from setuptools import Distribution, setup  # type: ignore[import-untyped]
from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]
from setuptools.command.build_py import build_py  # type: ignore[import-untyped]

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))
import build_native

# build_native put the checkout on sys.path
from solver.native import PURE_ENV

PURE_BUILD_ENV = "SUDOKU_SCAN_PURE_BUILD"


def why_pure() -> str | None:
    """Why this build makes a pure wheel (None when it compiles the solver)."""
    if os.environ.get(PURE_BUILD_ENV, "") not in ("", "0"):
        return f"{PURE_BUILD_ENV} is set"
    return build_native.missing_toolchain()


WHY_PURE = why_pure()


class MaybeBinaryDistribution(Distribution):
    def has_ext_modules(self) -> bool:
        """A platform wheel when it compiles: the extensions are made only at build time."""
        return WHY_PURE is None


class BuildPy(build_py):
    """Copies the sources, with a manifest saying plain Python (build_ext then replaces it
    once the compiled modules are in place)."""

    def run(self) -> None:
        super().run()
        if not self.editable_mode:
            reason = "the wheel's mypyc build did not run"
            if WHY_PURE is not None:
                reason = f"installed without compiling: {WHY_PURE}"
            build_native.write_manifest(False, reason, root=Path(self.build_lib))


class BuildExt(build_ext):
    """Compiles the solver with mypyc into the build folder; plain Python if that fails."""

    def build_extensions(self) -> None:
        build_native.compile_in_parallel(self.compiler, os.cpu_count() or 1)
        super().build_extensions()

    def run(self) -> None:
        if self.editable_mode or self.inplace or WHY_PURE is not None:
            return  # the checkout: `make native` compiles it in place
        lib = Path(self.build_lib)
        sources = build_native.compiled_sources()
        log = io.StringIO()  # mypyc's messages: still printed, the first error kept
        try:
            # Made here, not in setup(): mypyc's code generation takes a while and only a
            # build needs it (pip also runs this file for the metadata).
            with redirect_stdout(log), redirect_stderr(log):
                extensions = build_native.mypyc_extensions(sources, Path(self.build_temp) / "mypyc")
            self.distribution.ext_modules = extensions
            # setuptools prepares the extensions when the command is finalised: once more
            self.distribution.reinitialize_command(self)
            self.ensure_finalized()
            outputs = {Path(p).resolve() for p in self.get_outputs()}
            for stale in build_native.extensions(lib):  # left by an older build
                if stale.resolve() not in outputs:
                    stale.unlink()
            super().run()
            build_native.write_manifest(True, sources=sources, root=lib)
            env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
            reason = build_native.import_check(lib, env)
        except (Exception, SystemExit) as exc:  # a failed build leaves plain Python
            errors = [line for line in log.getvalue().splitlines() if ": error:" in line]
            detail = errors[0] if errors else f"{type(exc).__name__}: {exc}"
            reason = f"the wheel's mypyc build failed ({detail[-300:]})"
        finally:
            sys.stdout.write(log.getvalue())
        if reason is not None:
            build_native.clean(lib)
            build_native.write_manifest(False, reason, root=lib)
            self.extensions: list[Any] = []
            self.warn(f"solver not compiled, it runs as plain Python: {reason}")


setup(
    distclass=MaybeBinaryDistribution,
    cmdclass={"build_py": BuildPy, "build_ext": BuildExt},
)
