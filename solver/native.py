"""Compiled solver modules (mypyc), used only while they match their sources.

``make`` compiles the solver's hot modules with mypyc (``tools/build_native.py``) into
extension modules beside their sources, about twice as fast, and writes a manifest
(``solver/_native.json``) with the digest of each source it compiled. This module is never
compiled: :mod:`solver` imports it first, and when a source changed since the build, the
manifest is missing, or ``SUDOKU_SCAN_PURE=1`` is set, it makes every ``solver`` module load
from its ``.py`` file, so an edited source can never be shadowed by a stale extension.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
MANIFEST = PACKAGE_DIR / "_native.json"
PURE_ENV = "SUDOKU_SCAN_PURE"
# Never compiled: the package's entry (it runs this check) and this module.
NEVER_COMPILED = ("__init__.py", "native.py")


def source_digest(path: Path) -> str:
    """SHA-256 of a source file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def manifest_mismatch(manifest: Path = MANIFEST) -> str | None:
    """Why the compiled modules must not be used (None when they match their sources).

    The manifest maps each compiled module's source, relative to the package folder, to its
    digest at build time; a build that could not compile records ``"compiled": false``.
    """
    try:
        data = json.loads(manifest.read_text())
    except FileNotFoundError:
        return "not built"
    except (OSError, ValueError) as exc:
        return f"unreadable manifest: {exc}"
    if not data.get("compiled"):
        return str(data.get("reason", "not compiled"))
    if data.get("python") != sys.implementation.cache_tag:
        return f"built for {data.get('python')}, running {sys.implementation.cache_tag}"
    for rel, digest in dict(data.get("sources", {})).items():
        path = manifest.parent / rel
        if not path.exists() or source_digest(path) != digest:
            return f"{rel} changed since the build"
    return None


class _SourceFirstFinder(importlib.abc.MetaPathFinder):
    """Loads ``solver`` submodules from their ``.py`` files, never from extensions."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith(__package__ + "."):
            return None
        rel = Path(*fullname.split(".")[1:])
        for candidate in (PACKAGE_DIR / rel / "__init__.py", PACKAGE_DIR / rel.with_suffix(".py")):
            if candidate.exists():
                locations = [str(candidate.parent)] if candidate.name == "__init__.py" else None
                return importlib.util.spec_from_file_location(
                    fullname, candidate, submodule_search_locations=locations
                )
        return None


def select() -> tuple[bool, str]:
    """Decide once, before any other solver module loads: (compiled modules in use, why not).

    Installs the source-first finder unless the compiled modules match their sources.
    """
    if os.environ.get(PURE_ENV, "") not in ("", "0"):
        reason: str | None = f"{PURE_ENV} is set"
    else:
        reason = manifest_mismatch()
    if reason is None:
        return True, ""
    if not any(isinstance(f, _SourceFirstFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _SourceFirstFinder())
    return False, reason


def compiled_modules() -> list[str]:
    """The ``solver`` modules loaded from compiled extensions in this process."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    return sorted(
        name
        for name, module in sys.modules.items()
        if name.startswith(__package__ + ".")
        and str(getattr(module, "__file__", "")).endswith(suffixes)
    )
