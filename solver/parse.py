"""Parse puzzles: 81-char strings, 9-line grid files, .sdm files and pencil-mark states."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from .errors import InputFileError, InvalidPuzzleError, PuzzleFormatError
from .grid import BIT, Grid, cell_name, find_duplicates, house_name

_EMPTY = ".0"
# Characters that only draw a grid: ignored in 9-line files ("|", "-", "+", spaces).
_FRAME = re.compile(r"[|+\-\s]")


def _values_from_chars(chars: str, *, source: str = "puzzle") -> list[int]:
    if len(chars) != 81:
        raise PuzzleFormatError(f"{source}: expected 81 cells, got {len(chars)}")
    values = []
    for i, ch in enumerate(chars):
        if ch in _EMPTY:
            values.append(0)
        elif "1" <= ch <= "9":
            values.append(int(ch))
        else:
            raise PuzzleFormatError(
                f"{source}: unexpected character {ch!r} at {cell_name(i)} "
                "(use 1-9 for digits, 0 or . for an empty cell)"
            )
    return values


def parse_values(text: str, *, source: str = "puzzle") -> list[int]:
    """81 cell values (0 = empty) from an 81-character string or a 9-line grid.

    Raises
    ------
    PuzzleFormatError
        Wrong number of cells or a character that is not a digit, ``0`` or ``.``.
    """
    stripped = text.strip()
    if "\n" in stripped:
        rows = [_FRAME.sub("", line) for line in stripped.splitlines()]
        rows = [r for r in rows if r]
        if len(rows) != 9 or any(len(r) != 9 for r in rows):
            sizes = ", ".join(str(len(r)) for r in rows)
            raise PuzzleFormatError(
                f"{source}: a grid file needs 9 lines of 9 cells, got {len(rows)} lines "
                f"of {sizes} cells"
            )
        return _values_from_chars("".join(rows), source=source)
    return _values_from_chars(re.sub(r"\s", "", stripped), source=source)


def check_duplicates(values: list[int], *, source: str = "puzzle") -> None:
    """Raise InvalidPuzzleError naming both cells of the first duplicate digit in a house."""
    dups = find_duplicates(values)
    if dups:
        a, b, h = dups[0]
        more = f" (and {len(dups) - 1} more clashes)" if len(dups) > 1 else ""
        raise InvalidPuzzleError(
            f"{source}: duplicate {values[a]} in {house_name(h)}: "
            f"{cell_name(a)} and {cell_name(b)}{more}"
        )


def parse_puzzle(text: str, *, source: str = "puzzle") -> Grid:
    """A grid of givens from an 81-char string or a 9-line grid; clashing givens are refused."""
    values = parse_values(text, source=source)
    check_duplicates(values, source=source)
    return Grid(values)


def parse_candidate_list(text: str, *, source: str = "candidates") -> list[tuple[int, int]]:
    """HoDoKu candidate lists ``"436 257"`` (digit, row, column) -> ``[(cell, digit)]``.

    ``r3c6<>4`` tokens are accepted as well.
    """
    out = []
    for token in text.replace(",", " ").split():
        m = re.fullmatch(r"r([1-9])c([1-9])(?:<>|=)([1-9])", token)
        if m:
            row, col, digit = (int(g) for g in m.groups())
        elif re.fullmatch(r"[1-9]{3}", token):
            digit, row, col = (int(ch) for ch in token)
        else:
            raise PuzzleFormatError(f"{source}: cannot read candidate {token!r}")
        out.append(((row - 1) * 9 + col - 1, digit))
    return out


def parse_state(givens: str, deleted: str = "", *, source: str = "state") -> Grid:
    """A pencil-mark state: givens (``+`` before a digit marks a placed, non-given cell)
    and the candidates removed since, as HoDoKu writes them (``"224 524"``)."""
    chars: list[str] = []
    placed: list[bool] = []
    plus = False
    for ch in givens.strip():
        if ch == "+":
            plus = True
            continue
        chars.append(ch)
        placed.append(plus)
        plus = False
    values = _values_from_chars("".join(chars), source=source)
    check_duplicates(values, source=source)
    grid = Grid(values, givens=[v != 0 and not p for v, p in zip(values, placed, strict=True)])
    for cell, digit in parse_candidate_list(deleted, source=source):
        grid.candidates[cell] &= ~BIT[digit]
    return grid


def parse_pencilmarks(text: str, *, source: str = "pencil marks") -> Grid:
    """81 whitespace-separated candidate groups (``"123 5 46 ..."``); a lone digit is placed."""
    tokens = _FRAME.sub(" ", text).split()
    if len(tokens) != 81:
        raise PuzzleFormatError(f"{source}: expected 81 candidate groups, got {len(tokens)}")
    values = [int(t) if len(t) == 1 and t in "123456789" else 0 for t in tokens]
    check_duplicates(values, source=source)
    grid = Grid(values)
    for c, token in enumerate(tokens):
        if values[c]:
            continue
        if not token.isdigit() or "0" in token:
            raise PuzzleFormatError(f"{source}: bad candidates {token!r} at {cell_name(c)}")
        mask = 0
        for ch in token:
            mask |= BIT[int(ch)]
        grid.candidates[c] &= mask
    return grid


def read_text_file(path: Path, *, what: str = "puzzle file") -> str:
    """A UTF-8 text file's contents; every failure is an InputFileError naming the file."""
    try:
        return path.read_text(encoding="utf-8", errors="strict")
    except FileNotFoundError:
        raise InputFileError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise InputFileError(f"{path}: is a directory, not a {what}") from None
    except UnicodeDecodeError:
        raise InputFileError(f"{path}: not a text file") from None
    except OSError as exc:
        raise InputFileError(f"{path}: cannot read ({exc.strerror})") from None


def read_puzzle_file(path: str | Path) -> Iterator[tuple[int, str]]:
    """The puzzles of a file as ``(line number, text)``.

    A 9-line grid file yields one puzzle; otherwise every non-comment line (``#``) is a
    puzzle (.sdm, 81-char strings, the first field of a CSV line).
    """
    p = Path(path)
    text = read_text_file(p)
    lines = [
        (n, line.strip())
        for n, line in enumerate(text.splitlines(), start=1)
        if line.strip() and not line.lstrip().startswith("#")
    ]
    if not lines:
        raise InputFileError(f"{p}: holds no puzzle")
    if all(len(_FRAME.sub("", line)) <= 12 for _, line in lines):
        yield lines[0][0], "\n".join(line for _, line in lines)
        return
    for n, line in lines:
        yield n, line.split(",")[0].split(":")[0].strip()
