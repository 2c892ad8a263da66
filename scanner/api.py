"""Read a photo: load -> locate the grid -> cut cells -> classify -> revise with the solver.

The result carries the givens, per-cell confidences and ranked alternatives, the
corrections made to reach a reading with exactly one solution, and the geometry that maps
grid coordinates to photo pixels.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from solver.grid import PEERS, cell_name
from solver.steps import cells_text

from .cells import extract_cells
from .digits import DEFAULT_ENGINE, DigitEngine, get_engine
from .digits.base import turn_cells
from .digits.cnn import OWN_STRENGTH_SHARE, ROTATED, CnnEngine, fold_rotated, hand_share
from .digits.preprocess import against_reference, blank, faint_ink, ink_maps_gains_peaks
from .errors import NoGridError, UnreadableGridError
from .geometry import GridGeometry, median_cell, mirrored_geometry
from .kinds import (
    GLYPH_LIKENESS,
    STRANGER_LIKENESS,
    TALLER_THAN_PRINT,
    TWIN_LIKENESS,
    CellKind,
    Kinds,
    blob_height,
    cell_kinds,
    colour_cells_of,
    font_strangers,
    glyph_groups,
    moire_stripes,
    pencil_and_short,
    print_at_its_height,
    print_likeness,
    print_twins,
    taller_than_print,
    twin_families,
    white_balanced,
)
from .load import LoadedImage, load_image
from .locate import (
    LocateDebug,
    descreen,
    descreen_sigma,
    fine_texture,
    locate_grid,
    locate_grids,
    rotated_lattice,
    shifted_lattice,
)
from .motion import unblurred
from .quality import (
    BOX_LINES_CAUSE,
    COVERED_CAUSE,
    advice_beyond,
    box_lines_off,
    box_lines_shift,
    covered_cells,
    crossed_cells,
    cut_off_cells,
    diagnose,
    folded_cells,
    frame_lines_hold,
    frame_missed,
    glare_faded,
    lines_through,
    washed_out,
)
from .reading import (
    CONFIDENT,
    RIVAL_ODDS,
    Correction,
    Problem,
    Reading,
    ReadStatus,
    orientation_score,
    proper_solution,
    reads_upright,
    refused,
    revise,
)
from .robust import robust_sd, row_percentiles

T = TypeVar("T")
FloatMaps = npt.NDArray[np.float32]
FloatArray = npt.NDArray[np.float32]
# Probabilities (81, 10) of EMPTY and the digits.
Probs = npt.NDArray[np.float64]
# What _read_cells returns: turns, lattice, probabilities, the same with the hand reader
# (None if not made), hand shares, sideways shares, cells, ink maps, their gains, faint
# ink, stroke peaks.
_CellsRead = tuple[
    int,
    GridGeometry,
    Probs,
    Probs | None,
    FloatArray,
    FloatArray,
    npt.NDArray[np.uint8],
    FloatMaps,
    FloatArray,
    npt.NDArray[np.bool_],
    FloatArray,
]

# Handwriting is read on a page only where some digits surely look written (share at
# least HAND_SURE) and they outnumber the digits that lean written without being sure
# (share 0.5 to HAND_SURE) by at least _SURE_TO_LEANING. A print the network never saw
# leans written in many cells and is sure of a few. Measured on 600 rendered print
# pages in held-out fonts (20 of each stress style): the sure reached 1.1 times the
# leaning on one crumpled 12 MP page and 1.67 on one handheld page (beyond reading: it
# counts as written on, and is refused), under 1 on all others. On 159 mixed photos and
# 40 rendered pages in a held-out hand the ratio fell under 1.5 on 3 blue-pen pages and
# 1 in pencil (tools: benchmarks/bench_stress.py, bench_mixed.py). Cells between print
# and half written (0.1-0.5) say nothing either way: a held-out print reads there in
# most cells, beside handwriting as on its own. (Or the page holds a lighter ink that
# looks written: ``_lighter_written_ink``.)
HAND_SURE = 0.9
# Written and printed ink told apart by strength (see _inks_by_strength): groups of at
# least this many, medians this many robust deviations apart.
_MIN_INK_GROUP = 5
_INKS_APART = 4.0
_MIN_WRITTEN = 3
# A page holds handwriting where this many digits stand taller than its print
# (``kinds.taller_than_print``): of 900 rendered print pages (stress seeds 800-829,
# held-out fonts) 29 had 1 to 6 such digits before the one-height test
# (``kinds._ONE_HEIGHT``; motion blur, crinkled newsprint, crumpled paper), and the
# three with 6 (crinkled newsprint) lose their marks to it; a page half filled in a
# neat black hand has a dozen or more.
_MIN_TALL = 6
_SURE_TO_LEANING = 1.5
# A digit whose handwriting share is at least this leans written.
_LEANS_WRITTEN = 0.5
# On such a page, the handwriting shares in doubt: at most the first is print, at least
# the second is hand (print of held-out fonts reads up to about 0.4 on pages in pen).
HAND_DOUBT = (0.25, 0.75)
# A cell's digit is surely inked (printed or written alike) at this probability: a
# reading that empties it is no rival when the digit is the solution's, and an entry
# seeing it is a clash with the print, not with a misread.
INKED = 0.75
# A digit read at this probability or more is likelier than anything else in its cell:
# enough to be counted in a family of print twins (``kinds.twin_families``).
LIKELY = 0.5
# A doubtful entry is read as its solution digit when that is within these odds of
# the digit read. Handwriting reads with less certainty than print: on the mixed
# photos the network trained on, 50 of 58 misread entries had their solution digit
# within 10:1, and 2 of the 30 least sure digits swapped in on purpose.
ENTRY_ODDS = 10.0
# ... but a handwritten one only when the reader gives the solution's digit at least
# this: under it the digit read is no near miss of the solution's but another digit, or
# a candidate, and the entry is unclear (``_unclear_entries``) rather than settled. Of
# the 185 such settles on bench_mixed's pages and Wicht's mixed photos (both halves,
# as taken and swapped), 174 were right; the 5 under 1 in 15 all hid a mistake or
# invented an entry (a candidate read as the solution's digit); so did all 7 on 120
# fresh pen pages (seeds 600-659, and 2000-2059 with candidates), where 6 of 8 between
# 1 in 15 and 1 in 10 were right.
HAND_SETTLE_LEAST = 1 / 15
# An entry whose solution digit the reader gives under this probability is wrong,
# whichever digit it is: a scrawl read as a 2 or a 7 (0.55, 0.4) but not the 4 the
# puzzle needs is a mistake. (On the training half of the mixed photos and 120
# rendered pages in held-out hands, no right entry read as another digit gave its
# own digit under 0.033, while wrong entries the hand reader rules out, its smoothing
# floor taken off (``digits.cnn.unsmoothed``), fall to 0.01-0.02 and below.)
NOT_THE_SOLUTION = 0.02
# At most this many of the person's entries may be unclear (read under INKED, and a
# mistake if read so) on a page that is still solved and checked: one or two hard-to-read
# digits are the person's handwriting; more, and the reader is failing on the page.
MAX_UNCLEAR = 2
# A cell read empty whose strokes stand this many times as strong in each pixel's darkest
# channel as in its luminance holds ink only colour shows (``_entries_in_colour_alone``):
# print stands alike in both (1.0-1.3 on Wicht's mixed image201 and image36), a red pen
# in the shade 2.4-5.3 times (image201's bottom row) ...
_COLOUR_ALONE = 2.0
# ... and at least this share of the grid's digits there: such a red pen stands 0.27-0.52,
# while empty cells that reach the ratio on Wicht's mixed photos and rendered pen pages
# (specks out of noise) stand 0.031 at most.
_COLOUR_ALONE_STRENGTH = 0.25
# The digits a written 1 is read as where the reader doubts it: its flag makes a 7, a
# flag and a foot a 4, a hooked top a 9, a looped one an 8 (of the 185 entries settled
# to their solution's digit on bench_mixed's pages and Wicht's mixed photos, 32 were
# right 1s read so, 2 right 1s read as a 2: a 2 for a 1 is the rendered pages' usual
# mistake, which the rule must not hide).
_ONE_LOOKALIKES = (4, 7, 8, 9)
# On a page without handwriting (an app's), ink in the entries' colour under this share
# of the print's height is a candidate: an app's are about half its digits' height
# (0.48-0.59 on the rendered screens, whose entries and givens measure 0.75-1.05; moire
# breaks a screen photo's strokes, so there a little less).
APP_MARK_SHARE = 0.65
# A page of print alone with at most this many cells of marks holds no person's notes
# that tell marks from a print broken apart (``_doubt_untold_kinds``).
_MAX_LONE_MARKS = 2
# An empty reading gives way to the solution's digit inked this close to it (odds).
_KEEP_ODDS = 2.0
# What a page is refused for where such ink falls short of "empty" (``_keep_inked_givens``).
_AS_LIKELY_PRINT = (
    "faint ink read as the digit the puzzle needs there, as likely as not: a print "
    "faded by glare, or a smudge"
)
_LIGHT_MARK = (
    "light ink read as the digit the puzzle needs there: the app's candidate, or a "
    "given faded by glare"
)
# The print's half-turn symmetry (``_off_the_print_symmetry``): at most this many digits
# read as print may break it (a quarter of a puzzle's 24-32 givens; a puzzle not so
# placed leaves 7 or more unpaired, and its print without them has several solutions
# where it is minimal, as QQWing's are), and at least this many pair up.
_MAX_UNPAIRED = 8
_MIN_PAIRED = 17
# The rules that act on a print symmetric but for a few givens, which the puzzle's
# rules guard less (``_print_of_the_symmetry``: a puzzle without its unpaired givens
# has several solutions whether or not they are print; ``_doubt_off_symmetry``: a
# doubt, not a digit): at most this many unpaired. Puzzles not placed symmetrically
# leave 7 or more (QQWing's easy and expert sets, 2,000 puzzles: 3 at 7 or 8).
_FEW_UNPAIRED = 4
# A digit whose colour lies between the print's and the entries', read as neither, is
# refused when the network gives its solution's digit this much (``_doubt_untold_kinds``).
_UNTOLD_BAR = 1.0 / 3.0
# Two inks are told apart by shape when at most this share of either ink's digits
# disagrees with the rest of its ink (written or printed).
_SHAPE_VOTE = 0.1
# Pencil beside print (``_lighter_written_ink``): a digit whose strokes are under
# _LIGHT_INK of the grid's typical digit is in a lighter ink (pencil reads 0.3-0.45 on
# rendered pages, print 0.85-1 across a page), with few digits between it and
# _LIGHT_INK_GAP; at least _MIN_LIGHT such digits, at least _LIGHT_WRITTEN of them
# leaning written (OpenCV's script face in pencil: 0.77-0.88; handwriting fonts 0.9 and
# more) and at most _DARK_WRITTEN of the darker ink (a held-out print font leans so in
# up to an eighth of its cells on pages in pencil). Of 239 rendered print pages (8 of
# each stress style) 5 have 5 light digits or more (glare, a screen photo, a handheld
# shot), none of them leaning written in more than 0.6 of those.
_LIGHT_INK = 0.6
_LIGHT_INK_GAP = 0.75
_BETWEEN_INKS = 0.1  # the share of the digits that may lie between the two strengths
_MIN_LIGHT = 5
_LIGHT_WRITTEN = 0.75
_DARK_WRITTEN = 0.2
# ... or, whatever their shapes lean, when the lighter digits are not the print's glyphs:
# of those with a surely printed digit of their value in the darker ink to compare with
# (``_MIN_LIGHT`` at least), at most _LIGHT_TWINS are its twins (``TWIN_LIKENESS``) and
# at least _LIGHT_STRANGERS far from it (``STRANGER_LIKENESS``). A neat hand in pencil
# leans print by shape (fonts-yusei-magic: 0.46-0.72 written); on 96 rendered pen pages
# and 300 stress pages (every style, seeds 2000-2009) the 24 pencil pages' light digits
# were 0-2% twins and 59-100% strangers, the 26 print and app pages' with 5 or more light
# digits (glare, a photographed screen, a handheld shot) 50-100% twins where 2 or more
# were measured, 0-50% strangers (a print faded by glare is still its font).
_LIGHT_TWINS = 0.25
_LIGHT_STRANGERS = 0.5
# Digits are one font (``_one_font``) where at least this share of them has a twin among
# them. On 320 rendered pen pages (seeds 600-919, every ink) the darker inks measured so
# were 0.55-1.0 twins, the lighter (pencil) hands 0-0.07.
_ONE_FONT = 0.5
# Entries in another colour that are mostly copies of the print (``_entries_in_print_font``)
# are an app's.
_APP_FONT_SHARE = 0.5
# Which way a page's strokes stand out (``_light_strokes``): measured on a copy this
# long at most, against the median of a square this share of its long side across.
_STROKE_COPY = 256
_STROKE_AREA = 0.04
# A refused reading with none of these problems (the photo's, not the digits': glare, a
# finger, the grid cut off or its lines missed, faint ink, colours) is read once more
# mirrored left to right (``_scan_grid_or_unblurred``): a webcam's picture or a front
# camera's shows the page mirrored, and its digits, mirrored, clash, are read in doubt
# or taken for handwriting (on 12 mirrored rendered pages of four styles: 11 clashes
# and 1 of several solutions, 19-37 cells in doubt; on 30 mirrored webcam pages, 3 of
# print taken for handwriting).
_PHOTO_PROBLEMS = frozenset(
    {
        Problem.GLARE,
        Problem.CUT_OFF,
        Problem.COVERED,
        Problem.LINE_THROUGH_CELLS,
        Problem.FRAME_MISSED,
        Problem.FOLDED_LATTICE,
        Problem.BOX_LINES_OFF,
        Problem.FAINT_INK,
        Problem.TWO_COLOURS,
    }
)
# A refused grid is read once more through a blur of this share of a cell (sigma), and
# that reading taken only where no cell it leaves empty had a digit read at
# _NOISE_KEEPS or more the first time (``_keeps_first``).
_NOISE_SIGMA = 0.03
_NOISE_KEEPS = 0.25
# The probability a pencil-like cell gives to "empty" before the digit read in it.
PENCIL_EMPTY = 0.6
# The share of "empty" (of print) in a digit that may not be print: faint ink, or ink
# whose colour lies between the givens' and the player's. Nearly even odds: a digit read
# surely stays ahead, but within ``RIVAL_ODDS`` of "empty", so it stays a given only
# where the puzzle needs it; ink the network hardly tells as any digit reads as empty.
PRINT_DOUBT = 0.4
# Faint ink the network all but rules out as "empty" (at most this) is surely some
# digit; left empty on a page of print alone while the digit the puzzle needs there is
# within _NEAR_LIKELIEST of its likeliest one, it may well be that print
# (``_doubt_faint_prints``).
_SURELY_INK = 0.05
_NEAR_LIKELIEST = 2.0
# A "given" under this share of the stroke strength of the other givens of its digit,
# and no stronger than the entries, is an entry (``_entries_by_strength``).
_ENTRY_STRENGTH = 0.75
# Digits of each kind an app's page needs before the strengths of its givens and its
# entries are compared (``_strengths_apart``).
_MIN_BY_STRENGTH = 3

# Reading decodes a copy whose long side is about this: enough for the digits (a grid
# filling a third of the frame still gets ~40 px cells) and a 12 MP JPEG decodes at 1/2.
WORK_SIDE = 1600
# Why a reading whose lattice missed a line is refused (``_scan_grid``); such a grid is
# looked for again with a comb that bends (``_scan_grid_or_unblurred``).
_LINE_THROUGH_CELLS = "a grid line runs through the middle of a row or column of cells"
_LINE_THROUGH_CELL = "a grid line runs through the middle of cells read in doubt"
# Why a reading whose lattice left the grid's frame somewhere is refused (``_scan_grid``).
_FRAME_MISSED = "the grid's lines could not be followed along its frame"
# Why a reading whose lattice squeezes a cell between two of its lines is refused.
_FOLDED_LATTICE = "the grid's lines could not be followed: cells squeezed between them"
# A grid's paper this textured (see scanner.locate.fine_texture) is read through a blur:
# about three times the most that clean print measures (0.035); a light screen's moire
# measures 0.1 to 0.18.
SCREENED = 0.1


@dataclass
class ScanResult:
    """What the scanner read from one photo.

    Attributes
    ----------
    path : str
        The photo as named by the caller.
    givens : list of int, length 81
        The digits read (0 = empty), after corrections.
    confidence : list of float, length 81
        Probability of the reading of each cell.
    alternatives : list of list of (int, float)
        Ranked alternatives per cell (digit 0 = empty).
    corrections : list of Correction
        Cells whose first reading was changed so the puzzle has exactly one solution.
    geometry : GridGeometry
        Lattice in the upright, full-resolution image.
    loaded : LoadedImage
        The decoded photo (upright) and the way back to stored pixel coordinates.
    rotation : int
        Quarter turns of the page that were undone to read it (0 = upright).
    status : ReadStatus
        OK when the reading can be trusted (see :func:`scanner.reading.revise`),
        MULTIPLE when it can but the puzzle on the page has several solutions,
        UNREADABLE when the reader cannot tell which puzzle is on the page.
    doubtful_cells : list of int
        Cells whose reading is in doubt (with UNREADABLE, those that decide it).
    problem : str
        Why the first reading was not taken as is ("" when it was).
    problems : list of Problem
        The same for programs, one per part of ``problem`` (see :class:`Problem`).
    hint : str
        With UNREADABLE: what the person can do about it (glare, blur, grid cut off).
    kinds : list of CellKind, length 81
        What each cell holds: empty, a printed given, the player's entry (another ink
        than the givens) or pencil marks (small candidates; see :mod:`scanner.kinds`).
    entries : list of int, length 81
        The digits of the ENTRY cells (0 elsewhere, and 0 in the ``unclear`` ones);
        never part of ``givens``.
    unclear : list of int
        ENTRY cells whose handwritten digit could not be read with confidence, where
        reading it as read would make it a mistake (ascending): the person is told so,
        and the entry is neither right nor wrong.
    by_shape : list of int
        Cells (ascending) whose digit, in the print's colour on a page the person
        wrote on in another, was taken for theirs by its shape alone; a second look at
        a page refused may read them as print (``_scan_grid``'s ``print_by_colour``).
    seconds : float
        Wall time of the whole read.
    motion : (int, int) or None
        The camera's straight motion ``(dx, dy)`` in pixels of ``loaded.image`` that was
        deconvolved out of the grid before this reading (see :mod:`scanner.motion`;
        ``loaded`` is the photo as taken), or None when it was read as taken.
    """

    path: str
    givens: list[int]
    confidence: list[float]
    alternatives: list[list[tuple[int, float]]]
    corrections: list[Correction]
    geometry: GridGeometry
    loaded: LoadedImage
    rotation: int = 0
    status: ReadStatus = ReadStatus.OK
    doubtful_cells: list[int] = field(default_factory=list)
    problem: str = ""
    problems: list[Problem] = field(default_factory=list)
    hint: str = ""
    kinds: list[CellKind] = field(default_factory=lambda: [CellKind.EMPTY] * 81)
    entries: list[int] = field(default_factory=lambda: [0] * 81)
    unclear: list[int] = field(default_factory=list)
    by_shape: list[int] = field(default_factory=list)
    seconds: float = 0.0
    motion: tuple[int, int] | None = None

    def drawn_on(self, full: LoadedImage) -> ScanResult:
        """This reading with ``full`` as its photo (the same photo decoded larger, to draw
        on): the lattice moved to its pixels, each axis by the ratio of the two sizes."""
        if full.mirrored != self.loaded.mirrored:
            full = full.mirror()
        (w, h), (fw, fh) = self.loaded.size, full.size
        ratio = np.array([fw / w, fh / h])
        lattice = (self.geometry.lattice + 0.5) * ratio - 0.5
        return replace(self, loaded=full, geometry=GridGeometry(lattice, full.size))

    def stored_corners(self) -> npt.NDArray[np.float64]:
        """The grid's outer corners (4, 2), TL first, clockwise, in stored-photo pixels."""
        return self.loaded.to_stored(self.geometry.corners())

    def to_dict(self) -> dict[str, object]:
        return {
            "source": self.path,
            "givens": "".join(str(v) for v in self.givens),
            "entries": "".join(str(v) for v in self.entries),
            "kinds": [str(k) for k in self.kinds],
            "unclear": [cell_name(c) for c in self.unclear],
            "confidence": [round(float(c), 4) for c in self.confidence],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in self.stored_corners()],
            "corrections": [c.describe() for c in self.corrections],
            "rotation": self.rotation * 90,
            "mirrored": self.loaded.mirrored,
            "status": str(self.status),
            "doubtful": [cell_name(c) for c in self.doubtful_cells],
            "problem": self.problem,
            "problems": [str(p) for p in self.problems],
            "hint": self.hint,
            "seconds": round(self.seconds, 4),
        }


def _read_cells(
    gray: npt.NDArray[np.uint8], geometry: GridGeometry, engine: DigitEngine
) -> _CellsRead:
    """Classify the grid in the most plausible of its four orientations.

    Returns the quarter turns, the turned lattice, the probabilities (81, 10) of EMPTY
    and the digits (printed or handwritten alike), each cell's handwriting share (81,)
    (see ``cnn.hand_share``; 0 for an engine that reads print only), each cell's
    probability (81,) of a digit turned on its side (``cnn.ROTATED``; 0 likewise), the
    cells (81, 64, 64) as cut, unturned, with their ink maps and gains (81,), which of
    those hold faint ink (81,): not blank, but their strokes under half as strong as the
    grid's digits (``ink_maps_gains_peaks`` gives them a gain over 1), and each cell's
    strongest strokes (81,) (its peaks).
    """
    cells = extract_cells(gray, geometry)  # cut once: each orientation is these cells turned
    # Ink maps turn with their cells (every step treats rows and columns alike): made once.
    ink, gains, peaks = ink_maps_gains_peaks(cells, remnants=True)
    best: tuple[float, int, Probs, FloatArray, FloatArray, Probs | None] | None = None
    for k in range(4):
        # rotated_lattice(geometry, k) cuts exactly turn_cells(cells, -k). The hand
        # reader runs with the first try, the page as it came (nearly always upright).
        probs, hand, sideways, with_hands = _classify(
            engine, cells, ink, gains, -k % 4, hands=k == 0
        )
        score = orientation_score(probs)
        if best is None or score > best[0]:
            best = (score, k, probs, hand, sideways, with_hands)
        if k == 0 and reads_upright(probs):
            break
    assert best is not None
    _, k, probs, hand, sideways, with_hands = best
    lattice = rotated_lattice(geometry, k) if k else geometry
    faint = faint_ink(ink, gains)
    return k, lattice, probs, with_hands, hand, sideways, cells, ink, gains, faint, peaks


def _classify(
    engine: DigitEngine,
    cells: npt.NDArray[np.uint8],
    ink: FloatMaps,
    gains: FloatArray,
    turn: int,
    *,
    hands: bool = True,
) -> tuple[Probs, FloatArray, FloatArray, Probs | None]:
    """Probabilities (81, 10), hand shares (81,) and sideways shares (81,) of the grid
    turned ``turn`` quarter turns, from its cells and their ink maps and gains as cut;
    and with ``hands`` the probabilities (81, 10) with the written digits read by the
    CNN's hand reader too, for a page written on (the hand reader changes no share),
    else None."""
    if isinstance(engine, CnnEngine):
        alone, full = engine.classify_turned_both(ink, gains, turn, hands=hands)
        read, hand, sideways = fold_rotated(alone), hand_share(alone), alone[:, ROTATED]
        with_hands = fold_rotated(full) if hands else None
    else:
        read = engine.classify(turn_cells(cells, turn))
        with_hands = read if hands else None
        hand = sideways = np.zeros(81, dtype=np.float32)
    as_float = np.asarray(read, dtype=np.float64)
    return (
        as_float,
        hand,
        sideways,
        None if with_hands is None else np.asarray(with_hands, np.float64),
    )


def read_photo(
    source: str | os.PathLike[str] | npt.ArrayLike,
    *,
    engine: str | DigitEngine = DEFAULT_ENGINE,
    name: str | None = None,
    max_side: int | None = WORK_SIDE,
) -> ScanResult:
    """Read the givens of the Sudoku in a photo.

    Parameters
    ----------
    source : path or (H, W[, 3]) uint8 array
        The photo.
    engine : str or DigitEngine, keyword-only
        ``"cnn"`` (ours) or ``"tesseract"``.
    max_side : int or None, keyword-only
        Decode the photo reduced to about this long side (fast reading); None keeps full
        resolution (what the overlay draws on).

    Raises
    ------
    InputFileError, NoGridError, MissingDependencyError
        Unreadable input, no grid, or an engine whose program is missing.
    """
    start = time.perf_counter()
    label = name or (str(source) if isinstance(source, str | os.PathLike) else "image")
    digit_engine = get_engine(engine) if isinstance(engine, str) else engine
    loaded = load_image(source, max_side=max_side)
    # locate_grid searches on its own reduced copy and returns this image's pixels.
    seen = LocateDebug([], [])
    ink, geometry = _in_any_gray(loaded, lambda g: locate_grid(g, name=label, debug=seen))
    return _scan_grid_or_unblurred(
        loaded, ink, geometry, digit_engine, label, start, descreened=seen.descreened
    )


def read_page(
    source: str | os.PathLike[str] | npt.ArrayLike,
    *,
    engine: str | DigitEngine = DEFAULT_ENGINE,
    name: str | None = None,
    max_side: int | None = WORK_SIDE,
    max_grids: int = 12,
) -> list[ScanResult]:
    """Read every full-size Sudoku on a page (a puzzle-book page, a newspaper page).

    Parameters are those of :func:`read_photo`, plus ``max_grids``. The page is decoded
    once; every result shares its ``loaded`` image.

    Returns
    -------
    list of ScanResult
        One per grid, in reading order (top to bottom, left to right); each has its own
        status (``"unreadable"`` grids are included, not raised).

    Raises
    ------
    InputFileError, NoGridError, MissingDependencyError
        Unreadable input, no grid on the page, or a missing engine program.
    """
    start = time.perf_counter()
    label = name or (str(source) if isinstance(source, str | os.PathLike) else "image")
    digit_engine = get_engine(engine) if isinstance(engine, str) else engine
    loaded = load_image(source, max_side=max_side)
    ink, geometries = _in_any_gray(
        loaded, lambda g: locate_grids(g, name=label, max_grids=max_grids)
    )
    results = []
    for geometry in geometries:
        results.append(_scan_grid_or_unblurred(loaded, ink, geometry, digit_engine, label, start))
        start = time.perf_counter()
    return results


def _in_any_gray(
    loaded: LoadedImage, locate: Callable[[npt.NDArray[np.uint8]], T]
) -> tuple[npt.NDArray[np.uint8], T]:
    """:func:`_in_either_polarity` on the photo's gray, or else on its channels' mean.

    A photographed screen's moire is mostly colour: its red, green and blue stripes
    nearly cancel in the plain mean of the channels, while the luminance weights (green
    59%) leave them as grey stripes that can drown thin grid lines. The mean is tried
    only where no grid is found in the gray (on 7 pages of screen photos without a
    grid, it found 3); the cells are then cut from it too.
    """
    try:
        return _in_either_polarity(loaded.gray, locate)
    except NoGridError:
        image = loaded.image
        if image.ndim != 3 or image.shape[2] < 3:
            raise
    # cv2.transform: one uint8 output, no float copy of a 12 MP photo.
    weights = np.full((1, image.shape[2]), 1.0 / 3.0)
    weights[0, 3:] = 0.0  # an alpha channel, if any, is no colour
    mean = np.asarray(cv2.transform(image, weights), dtype=np.uint8).reshape(image.shape[:2])
    return _in_either_polarity(mean, locate)


def _in_either_polarity(
    gray: npt.NDArray[np.uint8], locate: Callable[[npt.NDArray[np.uint8]], T]
) -> tuple[npt.NDArray[np.uint8], T]:
    """Locate on the gray image as dark ink on light paper, or else inverted.

    A dark-mode screenshot (light digits and lines on black) is read inverted. The
    polarity the middle of the image looks like is tried first; if no grid is found
    that way, the other one is. The middle (its central half in each direction), not
    the whole: a page photographed on a dark table fills the middle but often not half
    the photo. It looks dark when its strokes stand out lighter than their
    surroundings rather than darker (:func:`_light_strokes`). A search in the wrong
    polarity costs a whole search (about 200 ms) and may find a grid that is not
    there: inverted, a page's paper between its lines is a lattice too (a photo in a
    shadow was read with its lattice a row off).

    Returns
    -------
    ink : (H, W) uint8 array
        The image with dark ink on light paper, as the grid was found in it.
    found
        What ``locate`` returned.
    """
    h, w = gray.shape[:2]
    first = 255 - gray if _light_strokes(gray[h // 4 : h - h // 4, w // 4 : w - w // 4]) else gray
    try:
        return first, locate(first)
    except NoGridError:
        other = 255 - first
        try:
            return other, locate(other)
        except NoGridError:
            pass
        raise


def _light_strokes(gray: npt.NDArray[np.uint8]) -> bool:
    """Whether an image's (H, W) strokes are lighter than what lies around them.

    Each pixel is compared with the median of its neighbourhood (a square
    ``_STROKE_AREA`` of the long side across, on a copy ``_STROKE_COPY`` px long at
    most). Ink on paper is the rarer, darker extreme there, a dark screen's digits and
    lines the lighter one, whatever light falls on either: the strokes are light when
    the 99th percentile of how much lighter pixels are than around them exceeds that
    of how much darker. The rule before (2026-11-29: the middle's median under mid-grey
    and nearer its darkest pixels than its brightest) took a page half in a soft
    shadow for a dark screen, and the inverted search then found the paper between the
    lines. Of 1,080 images (Wicht's 160 photos as taken and degraded five ways: noise,
    underexposed, JPEG 15, a shadow, a webcam's; 120 rendered pages, 72 of them dark
    app screenshots or photos of dark screens) that rule took 157 the wrong way (143
    shadowed photos, 9 photos of dark screens), this one none.
    """
    long_side = max(gray.shape[:2])
    scale = min(1.0, _STROKE_COPY / max(long_side, 1))
    small = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    size = 2 * max(1, round(_STROKE_AREA * max(small.shape[:2]))) + 1
    around = cv2.medianBlur(small, size)
    # How much lighter and how much darker than around it each pixel is (0 if not).
    apart = np.asarray([cv2.subtract(small, around), cv2.subtract(around, small)], np.uint8)
    lighter, darker = row_percentiles(apart.reshape(2, -1), (99,))[0]
    return bool(lighter > darker)


def _scan_grid_or_unblurred(
    loaded: LoadedImage,
    ink: npt.NDArray[np.uint8],
    geometry: GridGeometry,
    engine: DigitEngine,
    label: str,
    start: float,
    *,
    descreened: float = 0.0,
    mirror: bool = True,
    taken: ScanResult | None = None,
) -> ScanResult:
    """:func:`_scan_grid`, and where that cannot read the grid, once more mirrored left
    to right where only its digits were in doubt (none of ``_PHOTO_PROBLEMS``: a webcam's
    picture; with ``mirror``), else once more without the camera's motion blur
    (:func:`scanner.motion.unblurred`), and else once more through a light blur
    (:func:`_through_noise`). A grid that reads better mirrored (fewer cells in doubt)
    takes those last two looks mirrored first.

    A second reading is taken only when it is trusted (status OK) by the same tests
    the first one failed, as read (no correction), and keeps what the first one read
    (:func:`_keeps_first`); otherwise the first one, with its doubts and hint, stands.
    A grid read the first time is never measured for blur nor read again (no time
    spent). A lattice refused as a cell off the grid's bold lines is first moved onto
    them, where its frame holds (:func:`scanner.quality.box_lines_shift`), and the
    grid read through it instead. ``taken``: the first reading, where the caller has it.
    """
    first = taken or _scan_grid(loaded, ink, geometry, engine, label, start, descreened=descreened)
    if first.problems == [Problem.BOX_LINES_OFF]:
        # The lattice took a line beside the grid for its frame (a rule over a
        # newspaper's grid, a column of text): moved a cell onto the bold lines, where
        # its frame is a line too, the grid is read as found, by every rule, and looked
        # at again from there.
        moved = GridGeometry(
            shifted_lattice(geometry.lattice, *box_lines_shift(ink, geometry)),
            geometry.image_size,
        )
        if frame_lines_hold(ink, moved):
            geometry = moved
            first = _scan_grid(loaded, ink, geometry, engine, label, start, descreened=descreened)
    if first.problems == [Problem.LINE_THROUGH_CELLS]:
        # The lattice took something beside the grid for a line (a phone's dark edge
        # beside an app's thin frame, where the tilt widened the cells across the grid
        # and an evenly spaced comb of lines fitted the edge better): the grid is looked
        # for again with a comb that bends with the tilt, and read as found, by every
        # rule (no line through its cells, first of all).
        seen = LocateDebug([], [])
        try:
            bent = locate_grid(ink, name=label, debug=seen, bent=True)
        except NoGridError:
            bent = None
        if bent is not None:
            again = _scan_grid(loaded, ink, bent, engine, label, start, descreened=seen.descreened)
            if again.status != ReadStatus.UNREADABLE:
                return again
    if first.status == ReadStatus.OK and first.corrections and mirror:
        # A reading revision had to correct may be a mirrored page read turned: a
        # webcam's picture turned a half turn is the page upside down, whose 3s, 8s, 1s
        # and 0s read as themselves and the rest in doubt, and revision can make a
        # puzzle of that (stress webcam-mirrored 6626: 22 of 30 digits under 0.9, two
        # 8s corrected to 4s, another puzzle than the page's). Its mirror image, read
        # as read (no correction) and trusted, is the page.
        mirrored = _scan_grid(
            *_mirror_view(loaded, ink, geometry), engine, label, start, descreened=descreened
        )
        if mirrored.status == ReadStatus.OK and not mirrored.corrections:
            return mirrored
    if first.status != ReadStatus.UNREADABLE or Problem.COVERED in first.problems:
        # (What a finger hides no sharper copy shows: its test reads the photo as taken.)
        return first
    if first.by_shape and not _PHOTO_PROBLEMS.intersection(first.problems):
        # A person who writes in another colour than the print wrote nothing in the
        # print's: a blurred print may look written (Wicht's mixed image209: four
        # printed digits, hand shares 0.7-1.0, left out, the print as read had several
        # solutions). Not a first look: a neat digit of theirs in a pen as dark as the
        # print is theirs (image17's 9, 0.67), and the page reads so as it is.
        by_colour = _scan_grid(
            loaded, ink, geometry, engine, label, start, descreened=descreened, print_by_colour=True
        )
        if _keeps_first(first, by_colour, keeps=CONFIDENT, corrected=True):
            return by_colour
    if mirror and not _PHOTO_PROBLEMS.intersection(first.problems):
        flipped = _mirror_view(loaded, ink, geometry)
        mirrored = _scan_grid(*flipped, engine, label, start, descreened=descreened)
        # Taken only as read (no correction) and trusted: a page that is not mirrored
        # reads as mirrored digits, clashing and in doubt.
        if mirrored.status == ReadStatus.OK and not mirrored.corrections:
            return mirrored
        # A page that reads better mirrored (fewer cells in doubt) takes the other
        # looks mirrored first: a webcam's noise needs the light blur as well (Wicht's
        # photos degraded as a webcam's and mirrored: 102 of 160 read without, 127 with;
        # 117 where the mirror must leave under three quarters as many).
        if len(mirrored.doubtful_cells) < len(first.doubtful_cells):
            again = _scan_grid_or_unblurred(
                *flipped, engine, label, start, descreened=descreened, mirror=False, taken=mirrored
            )
            if again.status == ReadStatus.OK:
                return again
    sharp = unblurred(loaded.image, ink, geometry)
    if sharp is not None:
        image, sharp_ink, motion = sharp
        second = _scan_grid(
            replace(loaded, image=image), sharp_ink, geometry, engine, label, start,
            descreened=descreened, taken=ink, photo=loaded.image,
        )  # fmt: skip
        # The deconvolution is a guess at the blur; a reading through it that revision
        # had to correct stacks a second guess on it (on pages shaken, tilted, glared
        # and JPEG'd at once such readings gave other puzzles, 0.07-0.2 per cell).
        if _keeps_first(first, second, keeps=CONFIDENT, turned=True):
            # The photo as taken is what the person gave, and what the overlay draws on.
            return replace(second, loaded=loaded, motion=motion)
    return _through_noise(
        first, ink, median_cell(geometry.lattice),
        lambda smooth: _scan_grid(
            loaded, smooth, geometry, engine, label, start, descreened=descreened, taken=ink
        ),
    )  # fmt: skip


def _mirror_view(
    loaded: LoadedImage, ink: npt.NDArray[np.uint8], geometry: GridGeometry
) -> tuple[LoadedImage, npt.NDArray[np.uint8], GridGeometry]:
    """The photo, its ink and the grid's lattice mirrored left to right, as
    :func:`_scan_grid` takes them."""
    return loaded.mirror(), np.ascontiguousarray(ink[:, ::-1]), mirrored_geometry(geometry)


def _through_noise(
    first: ScanResult,
    ink: npt.NDArray[np.uint8],
    cell: float,
    read: Callable[[npt.NDArray[np.uint8]], ScanResult],
) -> ScanResult:
    """The grid refused in ``first`` read once more through a light blur, or ``first``.

    ``ink`` (H, W) is what ``first`` was read from, ``cell`` the grid's typical cell
    side in it (pixels), and ``read`` reads the grid from another copy of it.

    Sensor noise in a dim photo, a webcam's or a messaging app's JPEG blocks draw
    speckles that the ink maps, scaled to the grid's digits, take for strokes: empty
    cells read "more likely a digit than empty", digits clash. A Gaussian blur of
    ``_NOISE_SIGMA`` of a cell thins the speckles and keeps the strokes. As for the
    deconvolution's reading, this one is taken only when it is trusted (status OK) as
    read (no correction) in the same orientation, and when it leaves no cell empty
    that the first reading gave some digit a real chance in (``_NOISE_KEEPS``): a blur
    also fades a faint print (a printed 4 the first reading was sure of, gone in the
    blur, left a puzzle with the same one solution).
    """
    second = read(np.asarray(cv2.GaussianBlur(ink, (0, 0), _NOISE_SIGMA * cell), np.uint8))
    return second if _keeps_first(first, second, keeps=_NOISE_KEEPS) else first


def _keeps_first(
    first: ScanResult,
    second: ScanResult,
    *,
    keeps: float,
    turned: bool = False,
    corrected: bool = False,
) -> bool:
    """Whether ``second``, another look at the grid refused in ``first``, may stand for
    it: trusted (status OK) as read (no correction), in the same orientation (any, with
    ``turned``), and leaving no cell empty in which ``first`` gave some digit a chance
    of ``keeps`` or more. Through a light blur, a real chance (``_NOISE_KEEPS``):
    a blur fades a faint print. Through a deconvolution, a sure one (``CONFIDENT``): it
    can break a thin print into what reads as candidates (stress screen-photo-dark
    5677: a printed 4 read at 0.93 the first time was marks through it, and the puzzle
    without it had the page's one solution), while a shaken photo's first reading
    smears digits into the cells beside them, and its orientation may be the blur's
    guess (stress motion-blur 5546, read right through it, was read upside down first).
    Whatever ``keeps``, a cell the second look reads empty may not be one in which
    the first gave the second's own solution digit a real chance (``_NOISE_KEEPS``):
    the second look then reads the page's puzzle without a given it prints (stress
    newsprint-crinkled 5929, a fresh page: a bold printed 1 read 0.48 the first time,
    "empty" 0.41 through the deconvolution, the puzzle without it had the page's one
    solution); a digit smeared in from the cell beside is its solution's one time in
    nine. A cell the second look reads as the person's entry is no given left out,
    unless the first look could not tell print from theirs there (``UNTOLD_KIND``).
    With ``corrected``, a second look revision corrected may stand: one at the kinds,
    the pixels read as the first time, stacks no second guess on the blur.
    """
    if second.status != ReadStatus.OK or (second.corrections and not corrected):
        return False
    if second.rotation != first.rotation and not turned:
        return False
    # Each of the second reading's cells in the first one's order (both as cut, turned).
    as_cut = [_cut_order(r) for r in (first.rotation, second.rotation)]
    in_first = np.argsort(as_cut[0])[as_cut[1]]
    solution = proper_solution(list(second.givens)) or [0] * 81

    def chance(cell: int, digit: int | None = None) -> float:
        """The first reading's chance of ``digit`` in ``cell`` (of any, by default)."""
        return max(
            (p for v, p in first.alternatives[cell] if v and digit in (None, v)), default=0.0
        )

    # The person's right entry is no given left out, unless the first look could not
    # tell print from theirs: there a second look's "theirs" is no surer (stress
    # screen-photo 6040: a bold printed 3 under the strongest moire, between the inks
    # as taken, read by shape as the player's through the deconvolution).
    untold = Problem.UNTOLD_KIND in first.problems
    return not any(
        not kept
        and (
            chance(int(c)) >= keeps
            or (
                (
                    second.kinds[k] == CellKind.EMPTY
                    or (untold and second.kinds[k] == CellKind.ENTRY)
                )
                and chance(int(c), solution[k]) >= _NOISE_KEEPS
            )
        )
        for k, (kept, c) in enumerate(zip(second.givens, in_first, strict=True))
    )


def _cut_order(rotation: int) -> npt.NDArray[np.intp]:
    """The cells as cut (81,) of a reading turned ``rotation`` quarter turns, in its order."""
    return np.rot90(np.arange(81).reshape(9, 9), -rotation % 4).ravel()


def _scan_grid(
    loaded: LoadedImage,
    ink: npt.NDArray[np.uint8],
    geometry: GridGeometry,
    engine: DigitEngine,
    label: str,
    start: float,
    *,
    descreened: float = 0.0,
    taken: npt.NDArray[np.uint8] | None = None,
    photo: npt.NDArray[np.uint8] | None = None,
    print_by_colour: bool = False,
) -> ScanResult:
    """Classify and revise the digits of one located grid (``ink``: dark on light).

    A grid found only through a blur (``descreened``: its sigma, see
    ``LocateDebug.descreened``) or under a fine texture (a screen's moire; see
    ``fine_texture``) has its digits read through that blur: the network never saw such
    a texture. Under a texture the lines showed through, ink colours and glare are
    measured on the cells as they are. ``taken``: the ink as the photo was taken, where
    ``ink`` is a sharpened copy (:mod:`scanner.motion`): glare is measured on it, as a
    deconvolution's ringing can draw lines back into a glare that wiped them out.
    ``photo``: the photo as taken, where ``loaded.image`` is such a copy: the inks'
    colours are checked on it (``_ink_kinds``). ``print_by_colour``: on a page whose
    person writes in another colour than the print, every digit in the print's colour
    (not in doubt) is print, whatever its shape (``ScanResult.by_shape``).
    """
    textured = not descreened and fine_texture(ink, geometry) >= SCREENED
    blur = descreened or (descreen_sigma(ink.shape) if textured else 0.0)
    read_ink = descreen(ink, blur) if blur else ink
    (
        rotation,
        oriented,
        probs,
        with_hands,
        hand,
        sideways,
        read_cells,
        maps,
        gains,
        faint,
        peaks,
    ) = _read_cells(read_ink, geometry, engine)
    # Where the grid's lines showed at all, its ink as it is tells its kinds and glare
    # best; where they did not, only the blurred ink holds strokes to measure.
    cells = extract_cells(ink, geometry) if textured else read_cells
    # Kinds are measured on the cells as cut; perm[i] is the cut index of turned cell i.
    perm = _cut_order(rotation)
    colours = colour_cells_of(loaded.image, geometry)  # None: gray, or hardly a colour
    inked_cells = probs[:, 0] < 0.5
    # Pencil beside the print: a lighter ink that looks written is the person's.
    pencil_ink = np.zeros(81, dtype=bool)
    top_read = probs.argmax(axis=1)
    sure_read = np.where(probs[np.arange(81), top_read] >= INKED, top_read, 0)
    pencil_ink[inked_cells] = _lighter_written_ink(
        hand[inked_cells], peaks[perm][inked_cells], maps[perm][inked_cells], sure_read[inked_cells]
    )
    # Or digits taller than the print: a neat hand in the print's black, which the
    # network takes for print in most cells, still writes each digit at its own height.
    likely_read = np.where(probs[np.arange(81), top_read] >= LIKELY, top_read, 0)
    tall = taller_than_print(maps[perm], likely_read, hand < _LEANS_WRITTEN)
    handwritten_page = _holds_handwriting(hand[inked_cells]) or bool(pencil_ink.any())
    inks_as_read: Kinds | None = None
    if not handwritten_page and int(tall.sum()) >= _MIN_TALL:
        # ... unless a second colour tells the person's digits: colour decides there,
        # as on any page whose shapes show no handwriting.
        inks_as_read = _ink_kinds(
            loaded.image, geometry, cells, probs, perm, photo=photo, colour_cells=colours
        )
        handwritten_page = not inks_as_read.undecided and CellKind.ENTRY not in inks_as_read.kinds
    looks_printed = None  # on a page written on: the digit cells (as cut) of print shape
    if handwritten_page:
        # Print is measured against the print: pen darker than a blurred print (pasted
        # or sharper handwriting) would leave the print faint, or blank and unread.
        looks_printed = np.zeros(81, dtype=bool)
        looks_printed[perm] = (probs[:, 0] < 0.5) & (hand < 0.5)
        rescaled = against_reference(maps, peaks, looks_printed)
        if rescaled is not None:
            maps, gains = rescaled
            faint = faint_ink(maps, gains)
        if rescaled is not None or with_hands is None:
            _, hand, sideways, with_hands = _classify(
                engine, read_cells, maps, gains, -rotation % 4
            )
        # The person's digits are read by the hand reader too (``digits.cnn``); a page
        # without handwriting is read without it, where ink that looks written is print
        # the camera bent or junk, and a sharper guess at its digit helps no one.
        assert with_hands is not None  # _classify makes it with hands=True
        probs = with_hands
        looks_printed[perm] = (probs[:, 0] < 0.5) & (hand < 0.5)
    shares = hand.copy()
    twins = np.zeros(81, dtype=bool)
    unlike_print = np.zeros(81, dtype=bool)
    if handwritten_page:
        # A digit whose shape is not sure it is written and that is a copy of a surely
        # printed one is print, whatever its colour seemed (a page without handwriting
        # may be an app's entries in the givens' font: there colour alone tells). A
        # written 1 is a copy of a printed one often enough that a sure shape wins.
        turned_maps = maps[perm]
        top = probs.argmax(axis=1)
        sure_digit = np.where(probs[np.arange(81), top] >= INKED, top, 0)
        # Three copies of one glyph are a font even when the network doubts each.
        likely_digit = np.where(probs[np.arange(81), top] >= LIKELY, top, 0)
        family = twin_families(turned_maps, likely_digit, hand < HAND_SURE)
        sure_digit = np.where(family, likely_digit, sure_digit)
        printed = (hand <= 1 - HAND_SURE) | family
        # ... or of one that leans print at the print's one height: of such copies at
        # TWIN_LIKENESS on Wicht's mixed photos (both halves) 25 pairs, all printed; on
        # bench_mixed's 80 pen pages 243 printed and 3 written (setofont's one glyph)
        # (bench_mixed black pen seed 20: a printed 7 at share 0.50, the copy of another
        # at 0.33, neither sure, was read as the person's).
        printed |= print_at_its_height(turned_maps, sure_digit, hand < 0.5)
        twins = print_twins(turned_maps, sure_digit, hand < HAND_SURE, printed)
        hand = np.where(twins, 0.0, hand)
        # And a digit whose shape is not sure it is print, far from every surely printed
        # digit of its value, is no print: the person's digit the network took for one.
        # (The print measured against: the sure print at the print's height, where it
        # is one height: a neat hand may be as sure print by shape.)
        unsure_print = (hand > 1 - HAND_SURE) & (hand < 0.5)
        sure_print = print_at_its_height(turned_maps, sure_digit, hand <= 1 - HAND_SURE)
        # (One measure for these and the digits sure print by shape, used below.)
        sure_shape = shares <= 1 - HAND_SURE
        likeness = print_likeness(turned_maps, sure_digit, unsure_print | sure_shape, sure_print)
        with np.errstate(invalid="ignore"):
            far_from_print = likeness < STRANGER_LIKENESS
        hand = np.where(unsure_print & far_from_print, np.maximum(hand, HAND_DOUBT[1]), hand)
        # A digit sure print by shape but far from the print's glyph of its value: its
        # shape alone does not make it print where its colour is the pen's (below).
        unlike_print = sure_shape & far_from_print
        # ... nor is one the network is sure is print, far from a glyph the print shows
        # twice, with no less ink than that glyph's copies: a neat hand in black pen.
        # The print: the sure print, and the digits that lean print at its height (two
        # printed 7s at shares 0.18, neither sure, and the person's 7 at 0.14: bench_mixed
        # black pen seed 4). Measured again, not the references of the twins above: the
        # rules since have made twins print and strangers written.
        leaning_print = print_at_its_height(turned_maps, sure_digit, hand < 0.5)
        strangers = font_strangers(turned_maps, sure_digit, hand < 0.5, sure_print | leaning_print)
        hand = np.where(strangers, np.maximum(hand, HAND_DOUBT[1]), hand)
        # And a digit in the person's ink is theirs whatever its shape: where the pen
        # and the print differ clearly in strength, a neat written 4 is still pen.
        pen, print_ink = _inks_by_strength(shares, peaks[perm], probs[:, 0] < 0.5)
        hand = np.where(pen & ~twins, 1.0, hand)
        # ... and one in the print's ink is print, unless its shape is sure it is not
        # (a print leans written by shape alone on a low-resolution photo).
        hand = np.where(print_ink, 0.0, hand)
        # But a digit taller than the print is no print, whatever its ink and shape: a
        # neat hand in black pen.
        hand = np.where(tall & ~twins, 1.0, hand)
        # The shares spread wider than the kinds do: a quarter or less is print, three
        # quarters or more is hand; only what lies between is in doubt.
        hand = np.clip((hand - HAND_DOUBT[0]) / (HAND_DOUBT[1] - HAND_DOUBT[0]), 0.0, 1.0)
    else:
        hand = np.zeros_like(hand)
    digit = np.zeros(81, dtype=bool)
    digit[perm] = probs[:, 0] < 0.5
    if inks_as_read is None or handwritten_page:
        inks = _ink_kinds(
            loaded.image, geometry, cells, probs, perm, photo=photo, colour_cells=colours
        )
    else:
        inks = inks_as_read  # the same probabilities: no hand reader ran
    undecided = inks.undecided
    kinds = [inks.kinds[perm[i]] for i in range(81)]
    turned = np.argsort(perm)  # turned[c]: the turned index of cut cell c
    # Colour splits two inks; which one is the print, shape can tell better than colour
    # (a puzzle printed in red, filled in in black pen).
    second_ink = [int(turned[c]) for c in undecided] or [
        i for i, k in enumerate(kinds) if k == CellKind.ENTRY
    ]
    # (A digit whose ink shows no colour is in neither ink: its shape alone tells.)
    colourless = [int(turned[c]) for c in inks.unmeasured]
    by_shape = (
        _inks_by_shape(
            kinds, second_ink, hand, shares, colourless=colourless, unlike_print=unlike_print
        )
        if second_ink
        else None
    )
    if by_shape is not None:
        kinds, undecided = by_shape, []
    elif undecided and handwritten_page:
        # The colours split something else than print from pen (a few darker prints,
        # two shades of one red) while the shapes already tell written from printed, as
        # on a page in one ink: the shapes decide.
        undecided = []
    coloured = np.asarray([k == CellKind.ENTRY for k in kinds])
    app_entries = _entries_in_print_font(twins, coloured)
    if not app_entries:
        kinds = [CellKind.GIVEN if twins[i] and coloured[i] else k for i, k in enumerate(kinds)]
    # Small marks off the middle are pencil candidates (printed or written) more likely
    # than a digit: "empty" leads, and the puzzle's rules may still restore a given.
    busy = np.flatnonzero(digit)
    pencil = np.zeros(81, dtype=bool)
    short = np.zeros(81, dtype=bool)  # ink shorter than print
    torn = np.zeros(81, dtype=bool)  # marks only for a flat stroke: maybe a broken digit
    heights = np.zeros(81)  # the tallest stroke's height against the print's
    placed = np.zeros(81, dtype=bool)  # marks by their places in the layout
    theirs = None  # the cells (as cut) the person wrote, by shape or colour
    if len(busy):
        # On a page written on, the person's own digits measure their candidates.
        if handwritten_page:
            theirs = np.zeros(81, dtype=bool)
            theirs[perm] = (hand > 0.5) | np.asarray([k == CellKind.ENTRY for k in kinds])
        pencil[busy], short[busy], torn[busy], heights[busy], placed[busy] = pencil_and_short(
            maps[busy],
            reference=None if looks_printed is None else looks_printed[busy],
            written=None if theirs is None else theirs[busy],
        )
    # Ink the network surely reads as one digit is that digit, no pair of candidates: a
    # print that blur broke into its flat top and the rest, or one beside a bent grid
    # line's remnant as tall as it. (On 370 stress pages no cell of candidates read as
    # any digit past 0.7.) Not the person's small ink where its places in the layout
    # make it candidates, not only its pieces (a stroke of theirs may break): a
    # candidate of theirs in a corner reads as surely as a digit (bench_mixed seed 1009:
    # a 4 at the left and a 9 in the bottom right read as a 9 at 0.93).
    their_places = np.zeros(81, dtype=bool) if theirs is None else placed & theirs
    marks = pencil[perm] & ~((probs[:, 1:].max(axis=1) >= CONFIDENT) & ~their_places[perm])
    # Each cell's likeliest reading, print and hand alike (as ``entry_probs`` below).
    best = probs.argmax(axis=1)
    best_p = probs[np.arange(81), best]
    likely = (best > 0) & (best_p >= LIKELY)
    # An app's givens are stronger than its entries: a "given" as light as the entries
    # and far lighter than its glyph's printed copies is an entry the moire gave a
    # print's colour.
    if not handwritten_page:
        light = _entries_by_strength(kinds, peaks[perm], np.where(likely, best, 0))
        kinds = [CellKind.ENTRY if light[i] else k for i, k in enumerate(kinds)]
    # Entries told by another colour (see rule 4's exception below, after revision).
    in_other_colour = np.asarray([k == CellKind.ENTRY for k in kinds])
    if not handwritten_page and in_other_colour.any():
        # An app draws its entries in the givens' font and size, its candidates at about
        # half that: a small ink in another colour is a candidate, even a lone one in the
        # middle of its cell (the 3 x 3 layout's 5), which the marks' rules leave a digit.
        # Only where that colour's inks fall clearly into the two sizes, none between
        # the candidates' and print's: moire, blur and its undoing break and shrink a
        # screen photo's strokes, entries' too. (A cell the marks' rules already call
        # candidates is none between: moire stretched two marks of screen-photo 2704
        # to 0.66, and the ink of two candidates beside it was read as an entry 9.)
        height = heights[perm]
        small = in_other_colour & (height > 0) & (height < APP_MARK_SHARE)
        if not (in_other_colour & ~small & short[perm] & ~marks).any():
            marks |= small
        # Nor is ink of that colour far taller than the print (TALLER_THAN_PRINT) and
        # not read surely (INKED) one of its digits: an app's candidates stacked in
        # their layout and joined by a screen's moire (stress screen-photo-cast 6552:
        # three cells of grey candidates in the app's selected box, 1.46-1.75 of the
        # print's height, read as entries at 0.31-0.61, two of them called the
        # player's mistakes; its entries measure 0.88-1.04). An entry read surely is
        # one, however its strokes joined the frame (screen-photo-dark 6537: the
        # player's 6 in r1c1, as tall, read at 0.88).
        doubted = probs[:, 1:].max(axis=1) < INKED
        marks |= in_other_colour & (height >= TALLER_THAN_PRINT) & doubted
    # Like a second colour, a lighter ink is decisive (print is never lighter than the
    # person's pencil), but its small marks stay marks.
    kinds = [CellKind.ENTRY if pencil_ink[i] and not marks[i] else k for i, k in enumerate(kinds)]
    # Marks are pencil in the print's ink and in the entries' colour alike: an app draws
    # its candidates in neither, a person in their pen's.
    pencil = marks & np.isin(np.asarray(kinds), [CellKind.GIVEN, CellKind.ENTRY])
    kinds = [
        CellKind.PENCIL if pencil[i] and k == CellKind.ENTRY else k for i, k in enumerate(kinds)
    ]
    # Where a second colour tells an app's entries (copies of its print's glyphs), a
    # digit in the print's colour (not in doubt) whose shape is not sure it is written
    # is print: a photographed app's blue entries read as a lighter ink, pencil, and the
    # page as written on, and moire bent two printed 6s to lean written (stress
    # screen-photo 6215, 0.58: read as the player's, the puzzle without them had the
    # page's one solution). A person's pen in another colour than the print is no app:
    # their neat 9 in the print's colour may be theirs (Wicht's mixed image17, r6c9).
    colour_doubted = np.zeros(81, dtype=bool)  # (turned) the kind rules' givens in doubt
    colour_doubted[[int(turned[c]) for c in inks.in_doubt]] = True
    print_colour = np.asarray([k == CellKind.GIVEN for k in kinds]) & ~colour_doubted
    shaped = print_colour & (hand > 0.5) & bool(in_other_colour.any() and not app_entries)
    if shaped.any() and print_by_colour:
        hand = np.where(print_colour, 0.0, hand)
    elif in_other_colour.any() and app_entries:
        hand = np.where(print_colour & (hand < HAND_SURE), 0.0, hand)
    # The person's digits: another ink than the print (decisive), or a written shape.
    hand = np.where([k == CellKind.ENTRY for k in kinds], 1.0, hand * ~pencil)
    if handwritten_page and not in_other_colour.any():
        hand = np.where(_off_the_print_symmetry(probs, hand, pencil), 1.0, hand)
    elif in_other_colour.any() and not handwritten_page:
        # (Only where colour alone tells the entries, an app's: a pen's digits are the
        # person's by colour and shape, a puzzle may break the symmetry for two
        # givens, and the rules then choose the pen's digits opposite as the missing
        # print: Wicht's mixed image1000, filled in in blue.)
        hand = np.where(_print_of_the_symmetry(probs, hand, pencil), 0.0, hand)
    written = (probs[:, 0] < 0.5) & (hand > 0.5)
    entry_probs = probs.copy()
    unread_in_colour = np.zeros(81, dtype=bool)  # the person's ink only colour shows
    if handwritten_page and colours is not None and written.any():
        unseen, unread_in_colour, unseen_probs = _entries_in_colour_alone(
            colours, peaks, probs, pencil | marks, looks_printed, engine, rotation
        )
        written |= unseen
        entry_probs[unseen] = unseen_probs[unseen]
    # The grid is read upright, and so is its print: ink that reads as a turned digit
    # (the network's ROTATED class, spread over the digits to rank the orientations) is
    # no given, but junk or a digit past reading.
    probs[:, 1:] = np.maximum(probs[:, 1:] - sideways[:, None] / 9.0, 0.0)
    probs[:, 0] += sideways
    # The digit surely inked in each cell, print and hand alike: where only the kind is
    # in doubt, the puzzle with or without it as a given is the same grid to draw.
    inked = np.where(best_p >= INKED, best, 0)
    # Ink that may not be print at all: strokes under half as strong as the grid's
    # digits that the network doubts as a digit (pencil marks, moire, a crease's
    # shadow, a bent grid line's remnant; a faint print read with confidence is no such
    # doubt), and, where colour alone tells print from the player's entries (an app
    # draws both in one font), a digit whose colour lies between the two inks, or
    # whose strokes are as light as the entries' (``colour_doubt``).
    colour_doubt = np.zeros(81, dtype=bool)
    between_inks = np.zeros(81, dtype=bool)  # by colour alone
    if not handwritten_page:
        between_inks = colour_doubted
        colour_doubt = between_inks | _as_light_as_entries(
            kinds, peaks[perm], likely, likely & (best_p < CONFIDENT)
        )
    doubt = (faint[perm] & (probs[:, 1:].max(axis=1) < CONFIDENT)) | colour_doubt
    not_print = np.maximum(hand, np.where(doubt, PRINT_DOUBT, 0.0))
    # The printed puzzle: the written share of a cell's digit is "empty" of print, so a
    # cell in doubt between print and pen stays doubtful.
    probs[:, 0] += probs[:, 1:].sum(axis=1) * not_print
    probs[:, 1:] *= (1.0 - not_print)[:, None]
    probs[pencil] *= 1.0 - PENCIL_EMPTY
    probs[pencil, 0] += PENCIL_EMPTY
    # What glare wiped out was not read: whatever the network says there is a guess, and
    # a printed digit lost in it leaves the same solution, so no rule would expose it.
    taken_cells = None if taken is None else extract_cells(taken, geometry)
    as_photographed = cells if taken_cells is None else taken_cells
    washed = washed_out(as_photographed)
    glare = washed[perm]
    probs[glare] = 0.5 * probs[glare] + 0.05
    # Copies of one printed glyph are one digit, however the network doubts each. Not
    # one kind: an app draws its entries in the givens' font, so a digit whose colour
    # is in doubt is printed or not on its own.
    # (On the rows as revision normalises them: a digit at 0.89999999 of a row summing
    # to 0.99999998 is sure there, and may be no copy in doubt: stress glare-burnt 4597.)
    probs /= probs.sum(axis=1, keepdims=True)
    in_doubt = (
        (probs.argmax(axis=1) > 0)
        & (probs.max(axis=1) < CONFIDENT)
        & (not_print < 0.5)
        & ~glare
        & ~colour_doubt
    )
    copies = glyph_groups(maps[perm], in_doubt & ~pencil) if in_doubt.sum() >= 2 else []
    # Ink shorter than the print may be a lone candidate, where someone noted some: on a
    # page written on, or holding marks or a second ink. On a page of print alone it is
    # print the camera shrank (stress handheld 4621 and 4629: a shaken 1 and 2 read
    # empty, left so as maybe candidates), and rule 6 of revision weighs it as such.
    noted = handwritten_page or bool(pencil.any()) or bool(in_other_colour.any())
    lone_marks = short[perm] if noted else np.zeros(81, dtype=bool)
    # Only a page written on has digits whose kind alone is in doubt.
    reading: Reading = revise(
        probs,
        inked=[int(v) for v in inked] if handwritten_page else (),
        twins=copies,
        kind_in_doubt=[bool(v) for v in (not_print > 0) | pencil | glare | lone_marks],
        entered=[int(v) for v in np.where(written, inked, 0)],
        theirs=[bool(v) for v in written] if handwritten_page else (),
    )
    # Digits taken for the person's by shape or strength alone, in the print's colour.
    written_as_print_is = written & ~in_other_colour
    if reading.status == ReadStatus.MULTIPLE and (
        written_as_print_is.any() or (handwritten_page and written.any())
    ):
        # A person fills in a proper puzzle. Where no other colour tells print from the
        # person's digits (their shapes do, or a lighter ink, which shade on a curled
        # page gives print too), printed digits with several solutions beside written
        # ones are far likelier print taken for the person's (a blurred, shaken or
        # shaded print) than a newspaper's faulty puzzle: no reading to report as printed.
        # So with a pen of another colour, where a digit in the print's colour was
        # taken for the person's (a printed 2 beside entries in blue, by its shape);
        # and where none was: a digit whose colour did not tell (too thin to measure,
        # Wicht's mixed image195) or whose shape doubts it is written may be print.
        doubted = written_as_print_is
        if not doubted.any():
            doubted = written & (shares < HAND_SURE)
        problem = (
            "the printed digits as read give a puzzle with several solutions; "
            "some digits taken for handwriting may be print"
        )
        _refuse(
            reading,
            Problem.PRINT_AS_HANDWRITING,
            problem,
            [int(c) for c in np.flatnonzero(doubted)],
        )
    # Glare wipes ink out; it draws none. A digit the network saw in it (its likeliest)
    # that the puzzle's rules keep is read; a glare cell read empty is lost.
    seen = probs[:, 1:].argmax(axis=1) + 1
    lost = [int(c) for c in np.flatnonzero(glare) if reading.givens[c] != seen[c]]
    # Around it ink fades: a digit faded below the blank test there is read empty.
    halo = glare_faded(as_photographed)[perm] & ~glare
    lost += [int(c) for c in np.flatnonzero(halo) if not reading.givens[c]]
    glare_refused = bool(lost) and reading.status != ReadStatus.UNREADABLE
    if glare_refused:
        reading.status = ReadStatus.UNREADABLE
        reading.clear_problem()
        reading.add_problem(
            Problem.GLARE, f"glare hides {len(lost)} cell{'s' if len(lost) > 1 else ''}"
        )
        reading.doubtful_cells = list(dict.fromkeys(lost + reading.doubtful_cells))
    # A cell the photo does not hold whole was not read: its digit, or its being
    # empty, is the photo's edge repeated. No reading of a page cut off stands, and
    # that is what is wrong with it (a clash or a missing solution follows from it).
    cut_off = [int(c) for c in np.flatnonzero(cut_off_cells(geometry)[perm])]
    if cut_off:
        many = "s" if len(cut_off) > 1 else ""
        _refuse(
            reading,
            Problem.CUT_OFF,
            f"the grid is cut off: {len(cut_off)} cell{many} not in the photo",
            cut_off,
        )
    # A finger or a pen over the grid hides what lies under it: whatever is read there
    # (often "empty", or a half-hidden digit as another) may be another puzzle with the
    # page's solution, which no rule would expose.
    # (In the photo's colours as taken: skin tells a light finger from shaded paper.)
    taken_colours = colours if photo is None else colour_cells_of(photo, geometry)
    covered = covered_cells(as_photographed, colours=taken_colours)
    hidden = [int(c) for c in np.flatnonzero(covered[perm])]
    if hidden:
        many = "s" if len(hidden) > 1 else ""
        _refuse(
            reading, Problem.COVERED, f"{COVERED_CAUSE}: {len(hidden)} cell{many} hidden", hidden
        )
    # A grid line through the middle of a row or column of cells is one the lattice
    # missed: the cells beside it are cut off their digits' places. Seen in the photo
    # as taken (a deconvolution's ringing echoes the lines inside the cells).
    off_frame = None
    seen_ink = read_ink if taken is None else descreen(taken, blur) if blur else taken
    physical = {Problem.COVERED, Problem.CUT_OFF, Problem.GLARE} & set(reading.problems)
    if not physical and box_lines_off(seen_ink, geometry):
        # A lattice a cell off reads every digit from its neighbour's cell, each
        # surely: a clash tells at best, a grid often has none. Whatever else was
        # found wrong follows from it (a cell beyond the grid read as some digit).
        read_digits = [i for i, v in enumerate(reading.givens) if v]
        _refuse(reading, Problem.BOX_LINES_OFF, BOX_LINES_CAUSE, read_digits)
    elif reading.status != ReadStatus.UNREADABLE:
        if taken is None or taken_cells is None:  # (both or neither)
            as_taken = read_cells
        else:
            as_taken = extract_cells(seen_ink, geometry) if blur else taken_cells
        astray = [int(c) for c in np.flatnonzero(lines_through(as_taken)[perm])]
        # And one through a cell read in doubt: the page bent the lines off the
        # lattice there, and whatever the network made of the cut digit may be the
        # fix of another puzzle.
        unsure = np.zeros(81, dtype=bool)
        unsure[perm] = probs.max(axis=1) < CONFIDENT  # (as cut)
        crossed = np.zeros(81, dtype=bool) if astray else crossed_cells(as_taken, unsure)
        if astray:
            _refuse(reading, Problem.LINE_THROUGH_CELLS, _LINE_THROUGH_CELLS, astray)
        elif crossed.any():
            cut = [int(c) for c in np.flatnonzero(crossed[perm])]
            _refuse(reading, Problem.LINE_THROUGH_CELLS, _LINE_THROUGH_CELL, cut)
            off_frame = crossed  # the hint: the page bends its lines off the cells
        else:
            # So is a crossing of the lattice's outer line pulled in off the grid's
            # frame: the cells beside it were cut from the wrong pixels (a crumpled
            # page's corner).
            off_frame = frame_missed(seen_ink, geometry)
            missed = [int(c) for c in np.flatnonzero(off_frame[perm])]
            folded = folded_cells(geometry)
            if missed:
                _refuse(reading, Problem.FRAME_MISSED, _FRAME_MISSED, missed)
            elif folded.any():
                # Or the lattice folds: a cell squeezed between two of its lines, the
                # digit shared with the one beside it (stress crumpled 6364: a printed
                # 8 read empty, and the puzzle without it had the page's solution).
                off_frame = folded
                squeezed = [int(c) for c in np.flatnonzero(folded[perm])]
                _refuse(reading, Problem.FOLDED_LATTICE, _FOLDED_LATTICE, squeezed)
    if reading.status == ReadStatus.OK and reading.solution is not None:
        # Cells blank at the grid's ink strength read at their own alone (see
        # OWN_STRENGTH_SHARE): "empty" keeps the rest. (A page refused for glare keeps
        # the reading as read.)
        own_only = blank(maps)[perm] & (entry_probs[:, 0] < 1.0)
        others = written | pencil | glare | colour_doubt
        _doubt_faint_prints(
            reading,
            entry_probs,
            own_only & ~others,
            shaken=np.zeros(81, dtype=bool) if noted else doubt & ~others,
        )
    faint_entries: list[int] = []
    if reading.solution is not None:
        # A torn mark (a flat stroke beside another) may be a digit blur broke apart.
        skip = written | (pencil & ~torn[perm]) | glare | colour_doubt
        # On an app's page (entries in another colour) ink shorter than the print may be
        # a candidate that no pencil rule caught (moire over a lone mark): never named.
        faint_entries = _keep_inked_givens(
            reading,
            entry_probs,
            skip,
            named=not handwritten_page,
            candidate_like=short[perm] & bool(in_other_colour.any()),
            theirs=hand > 0.5 if handwritten_page else None,
            light_marks=faint[perm] & bool(in_other_colour.any() and not handwritten_page),
        )
        _doubt_off_symmetry(reading, written | pencil)
        print_alone = not handwritten_page and not in_other_colour.any()
        _doubt_untold_kinds(
            reading,
            entry_probs,
            between_inks=between_inks & ~short[perm] & ~marks & ~glare,
            lone_marks=pencil & ~torn[perm] & ~glare if print_alone else np.zeros(81, dtype=bool),
        )
    for i, v in enumerate(reading.givens):  # revision may have emptied or filled a cell
        if v:
            kinds[i] = CellKind.GIVEN
        elif kinds[i] == CellKind.GIVEN:
            kinds[i] = CellKind.PENCIL if pencil[i] else CellKind.EMPTY
    # A sure digit in doubt between the print and the entries (by its colour or
    # strength, on an app's page) that revision emptied is the player's entry, and a
    # wrong one: it clashed with the print, and print never clashes with print. The
    # reader misread nothing there: no correction of its reading. (One read empty is
    # left empty: on a screen photo that is as often moire over a candidate.)
    emptied: list[int] = []
    if reading.status == ReadStatus.OK:  # (colour is in doubt only on a page not written on)
        emptied = [
            k.cell
            for k in reading.corrections
            if k.read and not k.corrected and colour_doubt[k.cell] and inked[k.cell] == k.read
        ]
    if emptied:
        reading.corrections = [k for k in reading.corrections if k.cell not in emptied]
        if not reading.corrections:
            reading.clear_problem()
    # On an app's page, ink of the entries' colour may be a screen's moire: its stripes'
    # colour fringes, broken into pieces a digit's size (``moire_stripes``). No entry,
    # and (its share "empty" as an entry's) no given.
    # So too on a page that looks written on (a light app's screen under such stripes
    # reads as handwriting): there, the ink read as theirs in doubt, and faint ink given
    # back as theirs (stress screen-photo 4527: five empty cells read as entries, at
    # 0.26-0.48, settled to the solution's digits; on Wicht's mixed photos and the
    # rendered pen pages no written cell is such stripes).
    stripes = np.zeros(81, dtype=bool)
    if handwritten_page:
        maybe = written & (entry_probs[:, 1:].max(axis=1) < CONFIDENT)
        maybe[faint_entries] = True
    else:
        maybe = written & in_other_colour
    if maybe.any():
        stripes[maybe] = moire_stripes(maps[perm[maybe]])
    # Ink of the person's or the player's that the network reads likelier as nothing than
    # as any digit is no entry either: moire over candidates (stress screen-photo 5008:
    # two cells of small grey digits tinted by the fringes, read "empty" 0.29 and 0.31
    # against a 1 at 0.28 and 0.22, were settled to their solution digits as the
    # player's). Of the 4,505 entries read on the app and screen pages of seeds
    # 4500-4559, 4780-4809 and 4990-5019, none of the player's read so. On a page that
    # looks written on too (screen-photo 6463: an app's grey candidates under moire, a
    # lighter ink read as the person's, "empty" 0.31 against a 3 at 0.13, settled to the
    # solution's 3): of the written digits of Wicht's 159 mixed photos (as taken and with
    # two swapped) and of bench_mixed's 80 pen pages, none read so. (Not the faint ink
    # given back as theirs there: "empty" leads in a faint digit by its nature, as in
    # the deep shade of Wicht's mixed image204, whose written 3 and 2 are entries.)
    nothing_likelier = entry_probs[:, 0] >= entry_probs[:, 1:].max(axis=1)
    no_digit = nothing_likelier & (np.asarray(reading.givens) == 0)
    if handwritten_page:
        no_digit &= written
    entries = [0] * 81
    for cell in [*np.flatnonzero(written), *emptied, *faint_entries]:
        if stripes[cell] or no_digit[cell]:
            kinds[cell] = CellKind.EMPTY
        elif not reading.givens[cell]:
            entries[cell] = int(np.argmax(entry_probs[cell, 1:])) + 1
            kinds[cell] = CellKind.ENTRY
    if reading.solution is not None:
        as_printed = np.zeros(81, dtype=bool)
        if not handwritten_page and any(entries):
            # An app draws its entries in its givens' font: an entry that is a copy of a
            # given of the digit it reads as (the givens as read are the puzzle whose one
            # solution this is) is that digit, however the network doubts it (stress
            # app-light 5154: the player's wrong 1, read 0.74 with the solution's 9 at
            # 0.08, was settled to the 9, its mistake hidden; the printed 1s, read in
            # doubt too, are its copies).
            # (As alike as copies of one glyph: a font's 8 and 6 come nearer each other
            # than a print's twins need to.)
            printed = np.asarray(reading.givens) > 0
            digits = np.where(printed, reading.givens, entries)
            likeness = print_likeness(maps[perm], digits, np.asarray(entries) > 0, printed)
            with np.errstate(invalid="ignore"):
                as_printed = likeness >= GLYPH_LIKENESS
        entries = _settle_entries(
            entries,
            entry_probs,
            reading.solution,
            read=as_printed,
            least=HAND_SETTLE_LEAST if handwritten_page else 0.0,
        )
        _doubt_clashing_givens(reading, entries, inked)
    if undecided:
        reading.status = ReadStatus.UNREADABLE
        reading.clear_problem()
        two = "digits in two colours, and neither looks like the printed givens"
        reading.add_problem(Problem.TWO_COLOURS, two)
        reading.doubtful_cells = [int(turned[c]) for c in undecided]
    unclear: list[int] = []
    if reading.status == ReadStatus.OK and reading.solution is not None and handwritten_page:
        unclear = _unclear_entries(
            reading, entries, entry_probs, unread=[int(c) for c in np.flatnonzero(unread_in_colour)]
        )
        entries = [0 if i in unclear else v for i, v in enumerate(entries)]
        for cell in unclear:  # (ink of theirs unread by the luminance too)
            kinds[cell] = CellKind.ENTRY
    hint = ""
    if reading.status != ReadStatus.OK:
        # The hint speaks of the cells as cut; doubtful cells are in the turned grid.
        # Refused for glare alone: the hint is about the glare, whatever else is doubted.
        why = lost if glare_refused and not undecided else reading.doubtful_cells
        unturned = [int(perm[c]) for c in why]
        hint = advice_beyond(
            reading.problem,
            diagnose(
                geometry,
                cells,
                unturned,
                washed=washed,
                covered=covered,
                off_frame=off_frame,
                lattice_off=Problem.BOX_LINES_OFF in reading.problems,
            ),
        )
    result = ScanResult(
        path=label,
        givens=list(reading.givens),
        confidence=list(reading.confidence),
        alternatives=[list(a) for a in reading.alternatives],
        corrections=list(reading.corrections),
        geometry=oriented,
        loaded=loaded,
        rotation=rotation,
        status=reading.status,
        doubtful_cells=list(reading.doubtful_cells),
        problem=reading.problem,
        problems=list(reading.problems),
        hint=hint,
        kinds=kinds,
        entries=entries,
        unclear=unclear,
        by_shape=[int(c) for c in np.flatnonzero(shaped)],
    )
    result.seconds = time.perf_counter() - start
    return result


def _unpaired(cells: npt.NDArray[np.bool_], most: int) -> npt.NDArray[np.bool_] | None:
    """The ``cells`` (81,) whose partner under a half turn (cell 80 - c) is none of
    them, where they are at least one and at most ``most`` and at least ``_MIN_PAIRED``
    of the cells pair up; None where the cells are not so nearly symmetric."""
    unpaired = cells & ~cells[::-1]
    count = int(unpaired.sum())
    if not 0 < count <= most or int(cells.sum()) - count < _MIN_PAIRED:
        return None
    return unpaired


def _print_digits(probs: npt.NDArray[np.floating[Any]], cells: npt.NDArray[np.bool_]) -> list[int]:
    """The likeliest digit of each of ``cells`` (81,) by ``probs`` (81, 10), 0 elsewhere."""
    digits = probs[:, 1:].argmax(axis=1) + 1
    return [int(d) if c else 0 for d, c in zip(digits, cells, strict=True)]


def _off_the_print_symmetry(
    probs: npt.NDArray[np.floating[Any]],
    hand: npt.NDArray[np.floating[Any]],
    marks: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """The digits read as print that break the print's half-turn symmetry (81,), on a
    page written on in the print's ink; all False where they are not such.

    Most published puzzles place their givens symmetrically under a half turn (cell c
    and cell 80 - c both given or both not; 65 of Wicht's 160 photos, and none of the
    other 95 comes within 16 unpaired givens of it). Where the digits read as print
    (``probs`` (81, 10) of the turned grid, "empty" under 0.5, ``hand`` share 0.5 or
    less) pair up but for a few (at most ``_MAX_UNPAIRED``; at least ``_MIN_PAIRED``
    pair up), each of those few whose own digit is sure (``INKED``; not ``marks``:
    junk read as a digit breaks the symmetry too, and is no entry) and whose partner
    holds no digit, or one surely the person's (``HAND_DOUBT``'s upper share), is the
    person's: a neat hand in a pen as dark as the print, which neither ink nor shape
    tells (the rendered pages of ``bench_mixed`` in black pen: 1, 2 and 3 written in
    held-out hands, read as print at likenesses of 0.89-0.94). Only where the print
    without them still has one solution: then it is the page's either way, and only
    the kinds differ.
    """
    none = np.zeros(81, dtype=bool)
    digit = probs[:, 0] < 0.5
    printed = digit & (hand <= 0.5)
    unpaired = _unpaired(printed, _MAX_UNPAIRED)
    if unpaired is None:
        return none
    sure = (probs[:, 1:].max(axis=1) >= INKED) & ~marks
    theirs = unpaired & sure & (~digit[::-1] | (hand[::-1] >= HAND_DOUBT[1]))
    if not theirs.any() or proper_solution(_print_digits(probs, printed & ~theirs)) is None:
        return none
    return theirs


def _print_of_the_symmetry(
    probs: npt.NDArray[np.floating[Any]],
    hand: npt.NDArray[np.floating[Any]],
    marks: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """The digits read as the person's that the print's half-turn symmetry calls print
    (81,), on a page whose entries colour alone tells (an app's, not a pen's); all
    False where there are none.

    A digit's colour can mislead: an app's selected cell or a photographed screen's
    cast gives a printed digit the entries' colour (stress screen-photo 6508, 6484 and
    6477: a printed 7, 2 and 3 read as the player's). Where the digits read surely as
    print (``INKED``, ``hand`` 0.5 or less) pair up under a half turn (cell c and
    80 - c; see ``_off_the_print_symmetry``) but for at most ``_FEW_UNPAIRED``,
    at least ``_MIN_PAIRED`` pairing up, and the partner of each of those few holds a
    digit read surely as the person's (not ``marks``), those digits are print; only
    where the print with them has one solution and the print without the unpaired
    ones has none or several: a symmetric print of the person's right entries reads
    as proper too, and only the rules, not the symmetry, tell which is the print.
    """
    none = np.zeros(81, dtype=bool)
    sure = (probs[:, 1:].max(axis=1) >= INKED) & ~marks & (probs[:, 0] < 0.5)
    printed = sure & (hand <= 0.5)
    theirs = sure & (hand > 0.5)
    unpaired = _unpaired(printed, _FEW_UNPAIRED)
    if unpaired is None:
        return none
    to_print = theirs & unpaired[::-1]
    if not to_print.any() or (unpaired & ~to_print[::-1]).any():
        return none
    with_them = proper_solution(_print_digits(probs, printed | to_print)) is not None
    without = proper_solution(_print_digits(probs, printed & ~unpaired)) is not None
    return to_print if with_them and not without else none


def _entries_in_colour_alone(
    colours: npt.NDArray[np.uint8],
    peaks: FloatArray,
    probs: Probs,
    marks: npt.NDArray[np.bool_],
    looks_printed: npt.NDArray[np.bool_] | None,
    engine: DigitEngine,
    rotation: int,
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_], Probs]:
    """The person's digits that only their colour shows: which turned cells (81,) read
    empty hold one read surely, which hold one not read surely, and the probabilities
    (81, 10) of the cells read from the darkest of each pixel's channels.

    The reader sees a photo's luminance, where a red pen on paper in the shade can
    stand no darker than the paper: Wicht's mixed image201, its bottom row of red
    digits on paper at gray 65, read empty at 1.0, and the tool would have written the
    solution over six of the person's digits. Their darkest channel (green and blue,
    which red ink takes up) shows them as strongly as the print. Such a digit is one
    whose strokes there stand ``_COLOUR_ALONE`` times as strong as in the luminance, read
    from those cells (``colours``, (81, 64, 64, 3) as cut) as a digit surely
    (``CONFIDENT``) and surely written (``HAND_SURE``), where the luminance read it
    empty. One that reads there likelier a digit than not, and leaning written, but not
    so surely, is the person's digit unread: *unclear*, never drawn over (image201's
    9 of r9c7 read there as a 5 at 0.68). The strokes must stand there at least
    ``_COLOUR_ALONE_STRENGTH`` of the grid's digits (the 90th percentile of the cells'
    strongest): an empty cell's specks stand out of noise in any ratio. ``peaks`` (81,)
    are the luminance cells' strongest strokes, as cut; ``probs`` and ``marks`` (pencil
    marks) are turned, ``looks_printed`` as cut. Read from the darkest channel alone,
    every cell of the page reads worse (held-out mixed photos fully right 57 -> 54): it
    is only this second look.
    """
    none = np.zeros(81, dtype=bool), np.zeros(81, dtype=bool), probs
    darkest = np.ascontiguousarray(colours.min(axis=3))
    maps, gains, dark_peaks = ink_maps_gains_peaks(darkest, remnants=True)
    perm = _cut_order(rotation)
    stronger = dark_peaks[perm] >= _COLOUR_ALONE * np.maximum(peaks[perm], 1e-6)
    strong = dark_peaks[perm] >= _COLOUR_ALONE_STRENGTH * float(np.percentile(dark_peaks, 90.0))
    maybe = (probs[:, 0] >= 0.5) & stronger & strong & ~marks
    if not maybe.any():
        return none
    if looks_printed is not None:
        rescaled = against_reference(maps, dark_peaks, looks_printed)
        if rescaled is not None:
            maps, gains = rescaled
    _, hand, _, with_hands = _classify(engine, darkest, maps, gains, -rotation % 4)
    if with_hands is None:
        return none
    sure = (with_hands[:, 1:].max(axis=1) >= CONFIDENT) & (hand >= HAND_SURE)
    unread = maybe & ~sure & (with_hands[:, 0] < 0.5) & (hand > 0.5)
    return maybe & sure, unread, with_hands


def _ink_kinds(
    image: npt.NDArray[np.uint8],
    geometry: GridGeometry,
    cells: npt.NDArray[np.uint8],
    probs: Probs,
    perm: npt.NDArray[np.intp],
    *,
    photo: npt.NDArray[np.uint8] | None = None,
    colour_cells: npt.NDArray[np.uint8] | None = None,
) -> Kinds:
    """:func:`scanner.kinds.cell_kinds` of the cells as cut (81, 64, 64), the digits
    and the sure ones told by the turned grid's probabilities (81, 10); ``perm[i]`` is
    the cut index of turned cell i; ``colour_cells``: ``kinds.colour_cells_of(image)``,
    where the caller has them.

    ``image`` may be a deconvolution of the ``photo`` as taken (:mod:`scanner.motion`),
    which sharpens each channel apart: it gives a blurred pen back its colour, but its
    ringing can tint print and the player's ink alike (screen-photo 3452: black print
    came out magenta, one ink with the player's purple entries, read as givens). Where
    the photo as taken shows a second ink and the sharpened copy none, its kinds stand,
    and so do its undecided ones (stress screen-photo 6030: red and purple entries
    beside moire-tinted print, undecided as taken, all one ink through the
    deconvolution, were read as givens).
    """
    digit = np.zeros(81, dtype=bool)
    digit[perm] = probs[:, 0] < 0.5
    sure = np.zeros(81, dtype=bool)
    sure[perm] = probs[:, 1:].max(axis=1) >= INKED
    kinds = cell_kinds(image, geometry, cells, digit, sure, colour_cells=colour_cells)
    if kinds.undecided and colour_cells is not None:  # (undecided: there were colours)
        kinds = _kinds_white_balanced(kinds, image, geometry, cells, digit, sure, colour_cells)
    if photo is None or kinds.undecided or CellKind.ENTRY in kinds.kinds:
        return kinds
    as_taken = cell_kinds(photo, geometry, cells, digit, sure)
    return as_taken if CellKind.ENTRY in as_taken.kinds or as_taken.undecided else kinds


def _kinds_white_balanced(
    kinds: Kinds,
    image: npt.NDArray[np.uint8],
    geometry: GridGeometry,
    cells: npt.NDArray[np.uint8],
    digit: npt.NDArray[np.bool_],
    sure: npt.NDArray[np.bool_],
    colour_cells: npt.NDArray[np.uint8],
) -> Kinds:
    """``kinds`` (of :func:`scanner.kinds.cell_kinds`, arguments as there), with inks
    left undecided, or those of the grid's white made gray (``kinds.white_balanced``)
    where these decide every ink (their givens in doubt stay in doubt).

    A screen is photographed under a room's light, and its white is not the camera's:
    black print on a green-tinted light screen, and a dark mode's white digits, came out
    coloured, and no ink looked like print (a third of the stress screen-photo-dark
    pages with a cast of 0.7-1.0 a channel were refused so; screen-photo a fifth). Only
    a second look: on a cream page the print's own tint is no cast, and balancing it
    away gave gray strokes of a heavy JPEG a blue one (stress heavy-jpeg 6451). Only
    where colour told nothing: a given the first look doubted is not settled by the
    second (stress screen-photo-dark 4698: the moire put a printed 6 between the inks;
    balanced, it was taken for the player's and the page read as another puzzle).
    """
    balanced = white_balanced(colour_cells)
    if balanced is colour_cells:
        return kinds
    again = cell_kinds(image, geometry, cells, digit, sure, colour_cells=balanced)
    return kinds if again.undecided else again


def _inks_by_strength(
    shares: FloatArray, peaks: FloatArray, digit: npt.NDArray[np.bool_]
) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """Which digit cells (81,) hold the person's ink, and which the print's, by strength.

    ``shares`` are the cells' handwriting shares, ``peaks`` their strongest strokes.
    The cells surely printed (share at most ``1 - HAND_SURE``) and surely written (at
    least ``HAND_SURE``), ``_MIN_INK_GROUP`` or more of each, place the two inks on a
    log scale of stroke strength. Where their medians lie ``_INKS_APART`` pooled robust
    deviations apart or more, a digit stronger (or weaker, as the pen is) than every
    other surely printed one and within one deviation of the written median is
    written, whatever its shape; and the same way round, one past every other surely
    written digit towards the print and within a deviation of its median is in the
    print's ink, unless its shape is sure it is written (a second pen as strong as the
    print). On Wicht's mixed photos the first (chosen on the training half) marks
    179 and 96 handwritten cells of the two halves so, and no printed one; the second
    (its mirror) 28 printed cells of the training half and 30 of the held-out half,
    and no handwritten one (one more, whose shape is sure it is written, would be).

    Returns
    -------
    pen, print : (81,) bool arrays
        All False where the two inks are not that far apart.
    """
    pen = np.zeros(len(shares), dtype=bool)
    print_ink = np.zeros(len(shares), dtype=bool)
    printed = digit & (shares <= 1 - HAND_SURE)
    written = digit & (shares >= HAND_SURE)
    if printed.sum() < _MIN_INK_GROUP or written.sum() < _MIN_INK_GROUP:
        return pen, print_ink
    strength = np.log(np.maximum(peaks, 1e-6))
    mid_p, mid_w = float(np.median(strength[printed])), float(np.median(strength[written]))
    spread = float(
        np.hypot(robust_sd(strength[printed] - mid_p), robust_sd(strength[written] - mid_w))
    )
    spread /= np.sqrt(2)
    if spread <= 0 or abs(mid_w - mid_p) < _INKS_APART * spread:
        return pen, print_ink

    toward_pen = 1.0 if mid_w > mid_p else -1.0

    def beyond(other: npt.NDArray[np.bool_], middle: float, way: float) -> npt.NDArray[np.bool_]:
        # Past every digit surely of the other ink (a cell among them is measured
        # against the rest: a neat written digit is often surely printed by its shape),
        # and within a deviation of this ink's median.
        first, second = np.sort(strength[other] * way)[::-1][:2]
        past = strength * way > np.where(other, second, first)
        return np.asarray(digit & past & ((strength - middle) * way >= -spread))

    return (
        beyond(printed, mid_w, toward_pen) & ~written,
        beyond(written, mid_p, -toward_pen) & ~printed & ~written,
    )


def _holds_handwriting(hand: FloatArray) -> bool:
    """Whether a grid's digit cells, with these handwriting shares, hold handwriting.

    A print the network never saw leans written (share 0.5 or more) in many of its
    cells and is sure of it in a few; a page written on reads as surely written (share
    at least ``HAND_SURE``) in most of its written cells. The shares count only when at
    least ``_MIN_WRITTEN`` cells are surely written and they outnumber the cells that
    lean written without being sure by ``_SURE_TO_LEANING``: otherwise the page is read
    as print alone.
    """
    sure = int((hand >= HAND_SURE).sum())
    leaning = int(((hand >= _LEANS_WRITTEN) & (hand < HAND_SURE)).sum())
    return sure >= _MIN_WRITTEN and sure >= _SURE_TO_LEANING * leaning


def _entries_in_print_font(twins: npt.NDArray[np.bool_], coloured: npt.NDArray[np.bool_]) -> bool:
    """Whether the digits another colour tells for the person's (``coloured`` (81,)) are
    an app's entries: copies of a printed digit of the grid (``twins`` (81,)) in
    ``_APP_FONT_SHARE`` of them or more, and at least ``_MIN_INK_GROUP``.

    A copy of the print in another colour is print as a rule (moire or colour fringes
    tinted it), but a person's hand copies the print's glyph about once in sixty digits
    (``kinds.twin_families``), while an app draws its entries in the givens' font: there
    colour alone tells, also on a page taken for written on (an app's grey candidates
    are a lighter ink, as pencil is).
    """
    copies = int((twins & coloured).sum())
    return copies >= _MIN_INK_GROUP and copies >= _APP_FONT_SHARE * int(coloured.sum())


def _lighter_written_ink(
    hand: FloatArray,
    peaks: FloatArray,
    ink: FloatArray | None = None,
    digits: npt.NDArray[np.intp] | None = None,
) -> npt.NDArray[np.bool_]:
    """Which digit cells, with these handwriting shares and stroke strengths (``peaks``),
    are in a lighter ink that looks written: pencil beside the print (all False if none).

    Pencil is grey, as neutral as black print, so no colour tells it; its strokes are
    a third as strong. The lighter ink is the digit cells whose strongest strokes are
    under ``_LIGHT_INK`` of the grid's typical digit (the 90th percentile). It is the
    person's when there are at least ``_MIN_LIGHT`` of them, few cells lie between the
    two strengths (``_BETWEEN_INKS`` of the digits at most: glare and shade fade print
    gradually, a second ink does not), at least ``_LIGHT_WRITTEN`` of them lean written
    (share ``_LEANS_WRITTEN`` or more) and at most ``_DARK_WRITTEN`` of the darker ink
    do. (Which ink is the print is told by shape: beside a dark pen, a blurred print is
    the lighter ink.) Given the cells' ink maps ``ink`` (N, 64, 64) and the digits surely
    read in them (``digits`` (N,), 0 for none), a lighter ink whose digits are not the
    darker ink's glyphs is the person's too, however print-like their shapes
    (``_LIGHT_TWINS``, ``_LIGHT_STRANGERS``), as long as the darker ink leans print
    or is one font and the lighter is not (``_one_font``: a neat pencil hand beside a
    print whose shapes lean written, rendered pen page 607).
    Given ``ink``, only the lighter digits of a digit's size tell (``APP_MARK_SHARE`` of
    the darker ink's typical height or more, ``_MIN_LIGHT`` at least): a lighter ink
    of small marks alone is candidates noted (an app's grey ones), no entries.
    """
    none = np.zeros(len(peaks), dtype=bool)
    if len(peaks) < _MIN_LIGHT:
        return none
    strength = peaks / max(float(np.percentile(peaks, 90)), 1e-6)
    light = strength < _LIGHT_INK
    between = (strength >= _LIGHT_INK) & (strength < _LIGHT_INK_GAP)
    if light.sum() < _MIN_LIGHT or between.sum() > _BETWEEN_INKS * len(peaks) or light.all():
        return none
    leaning = hand >= _LEANS_WRITTEN
    # The darker ink is the print by its shapes, or by being one font (its copies of a
    # digit twins of one another, as no hand's are), ...
    dark_by_shape = leaning[~light].mean() <= _DARK_WRITTEN
    if not dark_by_shape and (ink is None or digits is None or not _one_font(ink, digits, ~light)):
        return none
    # The person's digits are as tall as the print: small marks (candidates noted in
    # pencil, an app's grey ones) tell nothing of an ink of entries.
    digit_sized = light
    if ink is not None:
        heights = np.array([blob_height(m) for m in ink])
        reference = heights[~light & (heights > 0)]
        if len(reference):
            digit_sized = light & (heights >= APP_MARK_SHARE * float(np.median(reference)))
            if digit_sized.sum() < _MIN_LIGHT:
                return none
    if dark_by_shape and leaning[digit_sized].mean() >= _LIGHT_WRITTEN:
        return light
    # ... and a lighter ink that is one font is a print too (a faded one).
    if ink is None or digits is None or _one_font(ink, digits, digit_sized):
        return none
    likeness = print_likeness(ink, digits, digit_sized, ~light)
    measured = likeness[np.isfinite(likeness)]
    if (
        len(measured) >= _MIN_LIGHT
        and np.mean(measured >= TWIN_LIKENESS) <= _LIGHT_TWINS
        and np.mean(measured < STRANGER_LIKENESS) >= _LIGHT_STRANGERS
    ):
        return light
    return none


def _one_font(ink: FloatArray, digits: npt.NDArray[np.intp], cells: npt.NDArray[np.bool_]) -> bool:
    """Whether the ``cells``' digits (``digits`` (N,), read in ink maps ``ink``
    (N, 64, 64)) are one font: of those with another cell of their digit among them,
    ``_MIN_LIGHT`` at least, ``_ONE_FONT`` or more have a twin there (``TWIN_LIKENESS``).
    A font prints each digit alike every time, a hand never quite; 1s, a plain stroke
    in either, are not counted."""
    likeness = print_likeness(ink, digits, cells & (digits > 1), cells)
    measured = likeness[np.isfinite(likeness)]
    return len(measured) >= _MIN_LIGHT and float(np.mean(measured >= TWIN_LIKENESS)) >= _ONE_FONT


def _strengths_apart(
    kinds: list[CellKind], peaks: FloatArray, likely: npt.NDArray[np.bool_]
) -> tuple[float, float] | None:
    """The entries' strongest tenth and the givens' weakest tenth of stroke strength
    (``peaks``, each cell's strongest) over the cells read ``likely`` as a digit (junk
    is faint), where the givens' lies above the entries' (at least ``_MIN_BY_STRENGTH``
    of each kind); else None.

    An app on a light screen draws its givens black and the player's entries in a
    colour, lighter in grey: the givens' strokes are then all stronger than the
    entries'. (On a dark screen the two strengths overlap, and this tells nothing.)
    """
    given = np.array([k == CellKind.GIVEN for k in kinds])
    entry = np.array([k == CellKind.ENTRY for k in kinds])
    given_digits, entry_digits = peaks[given & likely], peaks[entry & likely]
    if min(len(given_digits), len(entry_digits)) < _MIN_BY_STRENGTH:
        return None
    strongest_entries = float(np.percentile(entry_digits, 90))
    weakest_givens = float(np.percentile(given_digits, 10))
    return (strongest_entries, weakest_givens) if weakest_givens > strongest_entries else None


def _as_light_as_entries(
    kinds: list[CellKind],
    peaks: FloatArray,
    likely: npt.NDArray[np.bool_],
    unsure: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """Which GIVEN cells (81,) are no stronger than the entries, where strength tells
    (:func:`_strengths_apart`).

    A given of the entries' strength read ``unsure`` (under ``CONFIDENT``) is in doubt
    whatever colour was measured: a photographed screen's moire washes a thin entry to
    grey, and blurs its shape too. (A sure print may be a thin glyph, such as a font's
    8: see :func:`_entries_by_strength` for the sure ones.)
    """
    apart = _strengths_apart(kinds, peaks, likely)
    if apart is None:
        return np.zeros(len(kinds), dtype=bool)
    given = np.array([k == CellKind.GIVEN for k in kinds])
    return given & unsure & (peaks <= apart[0])


def _entries_by_strength(
    kinds: list[CellKind], peaks: FloatArray, digits: npt.NDArray[np.int_]
) -> npt.NDArray[np.bool_]:
    """Which GIVEN cells (81,) read as a digit (``digits``, 0 where none is likely) are
    the player's entries by strength alone: where strength tells
    (:func:`_strengths_apart`), no stronger than the entries and under
    ``_ENTRY_STRENGTH`` of the other givens of its digit (its glyph's printed copies).

    Moire can wash an entry's colour to the print's (stress screen-photo 4834: the
    player's pink 5 read as a given at 0.94, sure, and the puzzle with it has the
    page's one solution), but never makes it stronger: its strokes measured 0.077, the
    two printed 5s' 0.141 and 0.150 (the entries' 0.069-0.100). Against its own
    glyph's copies, not the print at large: blur weakens a thin glyph's strokes more
    than a bold one's (screen-photo 4659: two printed 8s at 0.126 and 0.129, the other
    givens' weakest tenth 0.21, the entries' 0.08-0.16).
    """
    likely = digits > 0
    apart = _strengths_apart(kinds, peaks, likely)
    out = np.zeros(len(kinds), dtype=bool)
    if apart is None:
        return out
    given = np.array([k == CellKind.GIVEN for k in kinds]) & likely
    for c in np.flatnonzero(given & (peaks <= apart[0])):
        copies = given & (digits == digits[c])
        copies[c] = False
        if copies.any():
            out[c] = peaks[c] < _ENTRY_STRENGTH * float(np.median(peaks[copies]))
    return out


def _inks_by_shape(
    kinds: list[CellKind],
    group: list[int],
    hand: FloatArray,
    shares: FloatArray,
    *,
    colourless: Sequence[int] = (),
    unlike_print: npt.NDArray[np.bool_] | None = None,
) -> list[CellKind] | None:
    """Kinds for two inks, the written one told from the printed one by shape.

    ``group`` holds the digit cells of one ink, the other digit cells (kind GIVEN or
    ENTRY) are the other ink, but for ``colourless`` ones, whose ink showed no colour
    to measure: they are in neither. ``hand`` is each cell's handwriting share as
    rescaled for the page, ``shares`` as the network gave it. When nearly all of one
    ink's digits look written and nearly all of the other's printed (a share of
    ``_SHAPE_VOTE`` of either ink may disagree), the written ink is the person's: its
    cells become ENTRY, except those whose shape is sure of the other kind
    (``HAND_SURE``), but for a written one sure print by shape that is ``unlike_print``
    (81,): far from the print's glyph of its digit (``STRANGER_LIKENESS``), it is the
    pen's (bench_mixed red pen seed 38: a red 1 with a foot, share 0.05, correlating 0.78
    with the printed 1). A colourless cell is what its shape leans to. Otherwise None:
    the kinds stay undecided (the colours may split something else than print from
    pen: a few darker digits, or shadow).
    """
    inked, ink = (CellKind.GIVEN, CellKind.ENTRY), set(group) | set(colourless)
    rest = [i for i, k in enumerate(kinds) if k in inked and i not in ink]
    if not group or not rest:
        return None
    group_written = float(np.mean(hand[group] > 0.5))
    rest_written = float(np.mean(hand[rest] > 0.5))
    if group_written >= 1 - _SHAPE_VOTE and rest_written <= _SHAPE_VOTE:
        written = group
    elif rest_written >= 1 - _SHAPE_VOTE and group_written <= _SHAPE_VOTE:
        written = rest
    else:
        return None
    out = list(kinds)
    for i in group + rest:
        out[i] = CellKind.GIVEN
    for i in written:
        out[i] = CellKind.ENTRY
    # The few that the vote overrode keep the kind their shape is sure of: the colours
    # of one ink spread wider than the shapes of print and pen do.
    unlike = np.zeros(len(kinds), dtype=bool) if unlike_print is None else unlike_print
    for i in group + rest:
        if shares[i] <= 1 - HAND_SURE and not (i in written and unlike[i]):
            out[i] = CellKind.GIVEN
        elif shares[i] >= HAND_SURE:
            out[i] = CellKind.ENTRY
    for i in colourless:
        out[i] = CellKind.ENTRY if hand[i] > 0.5 else CellKind.GIVEN
    return out


def _cells_hold(cells: list[int], adverb: str = "") -> str:
    """``cell r8c3 holds`` or ``cells r8c3, r9c1 hold`` (with ``adverb`` before the verb),
    to start a problem with a word: the phone page capitalises its first letter."""
    noun, verb = ("cells", "hold") if len(cells) > 1 else ("cell", "holds")
    return f"{noun} {cells_text(cells)} {adverb}{verb}"


def _refuse_holding(reading: Reading, kind: Problem, *held: tuple[list[int], str]) -> None:
    """Refuse ``reading`` (a problem of ``kind``) where cells hold what is in doubt:
    each ``(cells, what)`` with cells says "cells r1c2, r3c4 hold <what>", the sayings
    joined by "; ", every such cell named."""
    named = [(cells, what) for cells, what in held if cells]
    if named:
        problem = "; ".join(f"{_cells_hold(cells)} {what}" for cells, what in named)
        _refuse(reading, kind, problem, [c for cells, _ in named for c in cells])


def _doubt_faint_prints(
    reading: Reading,
    probs: npt.NDArray[np.float64],
    own_only: npt.NDArray[np.bool_],
    *,
    shaken: npt.NDArray[np.bool_],
) -> None:
    """Unreadable where a cell too faint for the grid's ink scale reads at its own
    strength surely (``CONFIDENT``) as the solution's digit, or where faint ink on a
    page of print alone (``shaken``) is surely some digit that may be the solution's,
    naming the cells.

    Such a cell (``own_only``: blank at the grid's strength, digit-shaped at its own; a
    print in glare or washed out, or a crease's shadow) gets ``OWN_STRENGTH_SHARE`` of
    that reading, so "empty" keeps even odds or more; a puzzle without it has the
    page's one solution, and no rule of the puzzle puts it back. A faint print left out
    is another puzzle (stress glare 816: a printed 5 at a fifth of the grid's stroke
    strength, 0.96 at its own); so is a crease taken for one, and junk read surely as
    a digit is the solution's one time in nine (newsprint-crinkled 2701 and 2811: a
    crease's soft shadow through an empty cell read at its own strength as a 1 at 0.93
    and as a 7 at 0.91, the digits the puzzle has there). The network is as sure of
    either, so the page is not read. (From 2026-11-28 such a cell was taken as a given;
    on the 840 legible pages of stress seeds 2000-2029 the rule found none.)

    ``shaken``: cells whose ink is under half the grid's strength and that the network
    doubts as a digit, on a page with no entries, marks or second ink. Such ink gets
    ``PRINT_DOUBT`` of "empty" and, where the network cannot tell which digit it is,
    reads empty; the puzzle without it has the page's one solution. Where the network
    all but rules out "empty" (``_SURELY_INK``) and the solution's digit is within
    ``_NEAR_LIKELIEST`` of its likeliest, it is likely that print, shaken or faded past
    naming (stress handheld 4843 and 4956: a printed 8 read 4 0.36, 8 0.32; a 7 read 9
    0.45, 7 0.40, both left out of a page read as right). Junk in an empty cell (a dark
    or noisy photo's grain) spreads over the digits and keeps some "empty": of Wicht's
    800 degraded photos no page read right holds such a cell. Ink read likeliest as
    the solution's digit is ``_keep_inked_givens``' to give back or refuse.
    """
    solution = reading.solution
    assert solution is not None
    faint = [
        int(c)
        for c in np.flatnonzero(own_only)
        if not reading.givens[c] and probs[c, solution[c]] >= CONFIDENT * OWN_STRENGTH_SHARE
    ]
    unnamed = [
        int(c)
        for c in np.flatnonzero(shaken & (probs[:, 0] <= _SURELY_INK))
        if not reading.givens[c]
        and c not in faint
        and int(np.argmax(probs[c, 1:])) + 1 != solution[c]
        and _NEAR_LIKELIEST * probs[c, solution[c]] >= probs[c, 1:].max()
    ]
    _refuse_holding(
        reading,
        Problem.FAINT_INK,
        (faint, "faint ink read as the digit the puzzle needs there: a faint print, or a "
         "crease's shadow"),
        (unnamed, "faint ink, surely a digit but not one that can be told, maybe the one "
         "the puzzle needs there: a faint or shaken print"),
    )  # fmt: skip


def _left_out(
    reading: Reading, probs: npt.NDArray[np.float64], cells: npt.NDArray[np.bool_], bar: float
) -> list[int]:
    """The ``cells`` revision left empty whose likeliest digit before the kind rules
    (``probs``) is the solution's, at ``bar`` or more and ahead of "empty"."""
    solution = reading.solution
    assert solution is not None
    digits = probs[:, 1:].argmax(axis=1) + 1
    return [
        int(c)
        for c in np.flatnonzero(cells)
        if not reading.givens[c]
        and digits[c] == solution[c]
        and probs[c, digits[c]] >= bar
        and probs[c, digits[c]] > probs[c, 0]
    ]


def _doubt_off_symmetry(reading: Reading, theirs: npt.NDArray[np.bool_]) -> None:
    """Unreadable where the print's half-turn symmetry puts a given in a cell read empty
    in doubt (naming those cells).

    A printed digit read as empty whose puzzle keeps the page's one solution without
    it is exposed by no rule of revision (stress motion-blur 6552: a shaken 6 read
    "empty" 0.53, 8 0.20, 6 0.11). Most puzzles are printed symmetrically under a half
    turn (see ``_off_the_print_symmetry``): where the givens as read pair up but for
    at most ``_FEW_UNPAIRED``, at least ``_MIN_PAIRED`` pairing up, a cell
    opposite an unpaired given, read empty under ``CONFIDENT`` (ink there: a clean
    cell reads empty surely), neither the person's (``theirs``) nor marks, may hold a
    given missed. A puzzle printed off its symmetry for a few givens (Wicht's
    image1000: two) leaves clean cells opposite them, and reads as before.
    """
    if reading.status != ReadStatus.OK:
        return
    unpaired = _unpaired(np.asarray(reading.givens) > 0, _FEW_UNPAIRED)
    if unpaired is None:
        return
    opposite = unpaired[::-1] & ~theirs & (np.asarray(reading.confidence) < CONFIDENT)
    cells = [int(c) for c in np.flatnonzero(opposite)]
    if cells:
        _refuse_holding(
            reading,
            Problem.OFF_SYMMETRY,
            (cells, "ink read as empty opposite a given, in a puzzle printed symmetrically: "
             "a given there may be missed"),
        )  # fmt: skip


def _doubt_untold_kinds(
    reading: Reading,
    probs: npt.NDArray[np.float64],
    *,
    between_inks: npt.NDArray[np.bool_],
    lone_marks: npt.NDArray[np.bool_],
) -> None:
    """Unreadable where the kind rules left out of the givens ink that the network
    (``probs``, before those rules) reads as the solution's digit, and whose kind no rule
    tells: a print, or the person's (naming the cells).

    * ``between_inks``: digits whose colour lies between the print's and the entries'
      (an app's page, a photo of its screen), not small marks, read likeliest as the
      solution's digit, ahead of "empty", at ``_UNTOLD_BAR`` or more. The kind rules give
      their digit ``PRINT_DOUBT`` of "empty": a print that moire's colour fringes put
      between, read at 0.62, then reads empty, and the puzzle without it has the
      page's one solution (stress screen-photo-dark 4698: a printed 6 read as neither a
      given nor the player's entry). A given or the player's right entry: its colour
      does not tell. The bar is a third, not a half: a bold 3 under a screen photo's
      strongest moire read 0.47 (stress screen-photo 6040). (On the 800
      app and screen pages of seeds 4500-4699, every cell so doubted and read as
      nothing whose solution's digit came first and over "empty" was a print or the
      player's entry, at 0.54 or more; junk there reached 0.27 for its likeliest digit,
      none of them the solution's: moire over candidates is small ink, and junk spreads
      over the digits.) A digit in doubt for strokes as light as the entries' alone is
      theirs by that (``_as_light_as_entries``).
    * ``lone_marks``: cells of marks (pencil) on a page of print alone with at most
      ``_MAX_LONE_MARKS`` of them, read likeliest as the solution's digit, ahead of
      "empty". A print that blur or a lattice run off its cell broke into pieces is
      marks by every rule of marks (stress motion-blur 4651: a shaken 4 whose bar alone
      stayed dark, read 4 at 0.45; newsprint-crinkled 4635: a 7 cut by a lattice bent
      off the page's curled edge, 0.80), and the puzzle without it has the page's one
      solution. So is a person's lone candidate: which, the marks do not tell. (Of 976
      pages of print alone with a solution, seeds 4400-4439 of every stress style, one
      holds any marks.) A person noting candidates notes more: those pages are written on.
    """
    if reading.status != ReadStatus.OK:
        return
    untold = _left_out(reading, probs, between_inks, _UNTOLD_BAR)
    few = lone_marks.sum() <= _MAX_LONE_MARKS
    broken = _left_out(reading, probs, lone_marks, 0.0) if few else []
    _refuse_holding(
        reading,
        Problem.UNTOLD_KIND,
        (untold, "a digit whose colour is neither clearly the print's nor the entries': a "
         "given or the player's entry"),
        (broken, "marks that read as the digit the puzzle needs there: a print broken "
         "apart, or a candidate"),
    )  # fmt: skip


def _keep_inked_givens(
    reading: Reading,
    probs: npt.NDArray[np.float64],
    skip: npt.NDArray[np.bool_],
    *,
    named: bool,
    candidate_like: npt.NDArray[np.bool_] | None = None,
    theirs: npt.NDArray[np.bool_] | None = None,
    light_marks: npt.NDArray[np.bool_] | None = None,
) -> list[int]:
    """Give back a printed digit read as "empty" when the network reads the solution's.

    A blurred print can read half empty, and the kind rules may move a doubted print's
    share to "empty" (a faint print, a digit blur broke into marks); with a proper
    puzzle without it, revision leaves it out, and the drawn solution writes that digit
    over the print. On a page written on, ink the network (``probs``, before the kind
    rules) reads likeliest as the solution's digit, within ``_KEEP_ODDS`` of "empty",
    is kept as a given. With ``named`` (a page without the person's ink, where a doubted
    print's rival is junk: a crease, a bent grid line, moire), only a digit the network
    names: ahead of "empty" and of every other digit by ``RIVAL_ODDS``, and no 1 (a lone
    stroke, which a bent grid line's remnant is too). Cells in ``skip`` (written, pencil
    marks, glare) stay empty.

    There, a cell whose likeliest reading of all is the solution's digit, ahead of
    "empty" too, but not by those odds (or a 1, by any odds: stress handheld 3413, a
    printed 1 shaken faint, 0.67 before the kind rules and 0.40 against "empty" 0.41
    after, was left out), is a given as likely as not: the page is
    refused, naming it, rather than read without it (a shaken, glared print doubted
    as faint, "empty" 0.41-0.46 after the kind rules, its digit 0.33-0.67 before: on
    1,660 rendered pages beyond reading, 11 of the 24 read as another puzzle). Junk
    ink reads likeliest as the solution's digit about one time in nine: the few pages
    it costs are refused, not misread (one of 7,560 legible stress pages, a bent line;
    three of Wicht's 160 photos degraded five ways, sensor noise). Not in
    ``candidate_like``: on an app's page, ink shorter than the print, which may be a
    candidate no pencil rule caught (moire over a lone mark: 4 of 3,360 legible pages,
    app screens and photos of them, were refused for one before this exception).
    So too, with "empty" ahead, one whose solution's digit (no 1: a lone stroke as
    likely as not is a line's remnant, or a deconvolution's ringing, as on a rendered
    page shaken a quarter cell) is within ``_KEEP_ODDS`` of it and told from every
    other digit by twice ``RIVAL_ODDS`` (16 : 1): a print the
    glare all but burnt out (stress glare-burnt 6111, a fresh page: a 7 beside the
    burnt core read "empty" 0.51, 7 0.44, no other digit over 0.011, and the puzzle
    without it had the page's one solution). Junk spreads over the digits: on 465
    stress pages of every style (seeds 4400-4414) the 5 empty cells read likeliest as
    their solution's digit within 3 : 1 of "empty" were told from the next digit by 3
    to 10 : 1.

    Nor is ink in ``light_marks`` given back (on an app's page, ink under half as strong
    as its digits): an app draws its candidates light, and where no pencil rule caught
    one, the puzzle's digit there is as likely its candidate as a given faded by glare.
    The page is refused, naming it (stress screen-photo 6636, a fresh page: the app's
    small candidate 6 in a highlighted row, "empty" 0.44 after the kind rules and the 6
    at 0.60 before, was given back, and the page read with confidence as another
    puzzle; on 1,980 other app and screen pages, seeds 6300-6629, no ink was given
    back at all).

    Such ink in ``theirs`` (on a page written on, cells whose shape leans the
    person's: all they lack to be read as written is ink enough to lead "empty") is
    their digit, not a print: returned, to be read as their (right) entry, and not
    given back. On the pages read so far every cell given back there was one: a faint
    entry in the shade of a photo's corner (Wicht's mixed image204, r8c9 and r9c9), a
    neat 1 in black pen (bench_mixed seed 36), half-erased pencil digits.
    """
    assert reading.solution is not None
    candidate = np.zeros(81, dtype=bool) if candidate_like is None else candidate_like
    unnamed: list[int] = []
    as_likely: list[int] = []
    light: list[int] = []  # light ink on an app's page: a candidate or a faded given
    faint_entries: list[int] = []
    for c, v in enumerate(reading.givens):
        digit = reading.solution[c]
        if v or skip[c] or int(np.argmax(probs[c, 1:])) + 1 != digit:
            continue
        if named:
            rest = float(np.max(np.delete(probs[c], digit)))
            # A lone stroke is never kept (a bent grid line's remnant reads as a 1),
            # but where it reads as the solution's 1 it may as well be a print.
            keep = digit != 1 and probs[c, digit] > math.exp(RIVAL_ODDS) * rest
            other = float(np.max(np.delete(probs[c, 1:], digit - 1)))  # (digits alone)
            doubted = not keep and not candidate[c]
            if doubted and probs[c, digit] > probs[c, 0]:
                unnamed.append(c)
            elif (
                doubted
                and digit != 1  # (a lone stroke as likely as not: a line's remnant, ringing)
                and probs[c, digit] * _KEEP_ODDS >= probs[c, 0]
                and probs[c, digit] > math.exp(2.0 * RIVAL_ODDS) * other
            ):
                as_likely.append(c)
        else:
            keep = probs[c, digit] * _KEEP_ODDS >= probs[c, 0]
        if keep and theirs is not None and theirs[c]:
            faint_entries.append(c)
        elif keep and light_marks is not None and light_marks[c]:
            light.append(c)
        elif keep:
            reading.givens[c] = digit
            reading.confidence[c] = float(probs[c, digit])
    if unnamed and reading.status == ReadStatus.OK:
        problem = (
            f"{_cells_hold(unnamed, 'more likely ')} a digit than not, "
            "but not one read surely enough to take as printed"
        )
        _refuse(reading, Problem.UNNAMED_DIGIT, problem, unnamed)
    if reading.status == ReadStatus.OK:
        _refuse_holding(
            reading, Problem.FAINT_INK, (as_likely, _AS_LIKELY_PRINT), (light, _LIGHT_MARK)
        )
    return faint_entries


def _doubt_clashing_givens(
    reading: Reading, entries: list[int], inked: npt.NDArray[np.int64]
) -> None:
    """Unreadable when a given whose digit is in doubt has the digit of an entry it sees.

    A given misread as another digit makes another proper puzzle now and then, whose
    solution turns the person's right entries into "mistakes". The entries were made
    from the print, so one repeating a given in a house is likelier a misread given
    than a person writing a digit the print already shows there: with the given's
    digit in doubt (not ``inked``: a doubt between print and pen is no misread digit),
    the reader says so rather than blame the person.
    """
    doubted = [
        c
        for c, v in enumerate(reading.givens)
        if v and inked[c] != v and any(entries[p] == v for p in PEERS[c])
    ]
    if doubted:
        _refuse(
            reading,
            Problem.CLASHING_ENTRIES,
            f"the handwritten digits clash with the printed {cells_text(doubted)}, read in doubt",
            doubted,
        )


def _unclear_entries(
    reading: Reading,
    entries: list[int],
    probs: npt.NDArray[np.float64],
    *,
    unread: Sequence[int] = (),
) -> list[int]:
    """The handwritten entries that would be mistakes but are not surely wrong.

    A mistake is something the person did; a handwritten digit read under ``INKED``
    (a 2 that may be a 4 or a 7) that disagrees with the solution may just as well be a
    misread, and the person would be blamed for the reader's doubt, unless the reader
    rules the solution's digit out (under ``NOT_THE_SOLUTION``): then the entry is
    wrong whichever digit it is. So is one read as a 1, however surely: a lone stroke
    is what blur leaves of a 7 or a 9 whose hook or loop it lost (Wicht's mixed
    image209, a small 9 read as a 1 at 0.92, the 9 at 0.04; image70's 7). And the mirror:
    where the solution's digit is a 1, one read as a 4, 7, 8 or 9 (a 1's flag, foot or
    serif, the shapes a written 1 is read as; ``_ONE_LOOKALIKES``), however surely, is
    no surer a mistake: on fresh pen pages a held-out hand's flagged 1 read as a 7 at
    0.76-0.77 and a 9 at 0.86 was called the person's mistake, and, while the rule
    covered only those read under ``CONFIDENT`` (until 2026-12-03, 19:45 UTC), one read
    as a 7 at 0.92-0.93, the 1 at 0.025-0.034.
    Otherwise it is *unclear*: named as such, neither right nor wrong, while the printed
    puzzle (read with confidence) is solved and the other entries are checked. More than
    ``MAX_UNCLEAR`` of them and the page is unreadable: the handwriting as a whole is
    not being read, and the checks of the rest would not be worth trusting. (Only on a
    page whose shapes hold handwriting: entries told by colour alone, an app's or a
    neat pen's, are read as print: on the rendered pen pages of ``bench_mixed`` the rule
    there turned 4 rightly read wrong entries of 3 pages unclear and caught no misread.)
    Cells ``unread`` hold the person's ink that could not be read at all
    (``_entries_in_colour_alone``): unclear too, and counted with them.
    """
    assert reading.solution is not None
    solution = reading.solution
    unsure = [
        c
        for c, v in enumerate(entries)
        if v
        and v != solution[c]
        and (probs[c, v] < INKED or v == 1 or (solution[c] == 1 and v in _ONE_LOOKALIKES))
        and probs[c, solution[c]] >= NOT_THE_SOLUTION
    ]
    unsure = sorted({*unsure, *(c for c in unread if not reading.givens[c])})
    if len(unsure) > MAX_UNCLEAR:
        problem = f"the handwritten {cells_text(unsure)} could not be read with confidence"
        _refuse(reading, Problem.UNCLEAR_ENTRIES, problem, unsure)
        return []
    return unsure


def _refuse(reading: Reading, kind: Problem, problem: str, cells: list[int]) -> None:
    """Make a solved reading unreadable for ``problem`` (of ``kind``), ``cells`` first
    among the doubtful: ``problem`` alone says why (what revision fixed no longer does)."""
    reading.clear_problem()
    refused(reading, kind, problem, cells)


def _settle_entries(
    entries: list[int],
    probs: npt.NDArray[np.float64],
    solution: list[int],
    *,
    read: npt.NDArray[np.bool_] | None = None,
    least: float = 0.0,
) -> list[int]:
    """The person's digits, a doubtful reading of one taken as the solution's digit.

    An entry read with confidence stays as read, right or wrong: the person wrote it.
    An entry the reader doubts (below ``CONFIDENT``) whose solution digit is within
    ``ENTRY_ODDS`` of the digit read is taken as the solution's digit: calling it a
    mistake would blame the person for the reader's doubt. Cells ``read`` (81,) are
    known to hold the digit read (a copy of the print's glyph for it) and stay so, as do
    those whose solution digit the reader gives under ``least``.
    """
    settled = list(entries)
    for i, value in enumerate(entries):
        if not value or value == solution[i] or (read is not None and read[i]):
            continue
        p = probs[i]
        sure_enough = p[solution[i]] >= least
        if p[value] < CONFIDENT and p[solution[i]] * ENTRY_ODDS >= p[value] and sure_enough:
            settled[i] = solution[i]
    return settled


def unreadable_text(result: ScanResult) -> str:
    """One line on why the grid was not read: the problem, doubtful cells and a hint."""
    cells = cells_text(result.doubtful_cells[:8])
    more = ", ..." if len(result.doubtful_cells) > 8 else ""
    text = (
        f"the digits could not be read with confidence "
        f"({result.problem or 'no reading has exactly one solution'}); "
        f"doubtful cells: {cells + more if cells else 'unknown'}"
    )
    return f"{text}; {result.hint}" if result.hint else text


def require_readable(result: ScanResult) -> ScanResult:
    """Raise UnreadableGridError naming the doubtful cells when the reading is not trusted.

    A MULTIPLE reading is trusted: the solver reports its several solutions.
    """
    if result.status == ReadStatus.UNREADABLE:
        raise UnreadableGridError(f"{result.path}: {unreadable_text(result)}")
    return result
