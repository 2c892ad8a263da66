"""What kind of ink fills each cell: the puzzle's printed givens, or something else.

A photo of a puzzle in progress holds more than the givens: an app shows the player's
entries in a colour of its own (blue, red, purple); a person writes in coloured pen.
None of that is part of the puzzle, and reading it as givens gives a different puzzle.
The measurement is relative to the grid itself, so no constant depends on one source:
the ink colour of each digit cell (its stroke's colour as seen against the cell's own
paper, in CIE Lab a*b*; see :func:`_ink_colours`). When
some digit cells' ink is far (``COLOUR_SPLIT``) from the most neutral ink's (black or
white print), those are entries and the neutral group holds the givens. One ink (all
givens, in black or in a colour print) changes nothing; when even the most neutral ink
is coloured (an app's navy givens) it holds the givens only if it is clearly the duller
one; otherwise the kinds cannot be told and the reader says so. Inks that are gray or
of the paper's own tint (a heavy JPEG smears the paper's colour into thin black strokes,
unevenly) are one neutral ink. The givens' colour is placed by the cells surely holding
a digit (faint marks take the paper's tint), and a given whose colour lies nearer an
entry's than the givens' (the colour fringes of a photographed screen) is named as in
doubt, unless it lies well on the side of an entry ink used more than once (as seen,
or at full strength: a thin entry is paler than a thick one; and neither view puts it
on the givens' half of the way), as is a lone ink off the givens' group that no other
ink resembles more, or one off it but near it that lies on the givens' half of the way
in either view. An entry short of the entries' end of that way in either view is a given
in doubt too if it is as light as the givens (or as dark), where lightness (Lab L*) sets
the two inks apart: moire tints a screen's white print, but leaves it white (not one of
an entry ink's own colour, though: a pen's strokes are as light as their width makes
them, ``_in_an_entry_ink``); and so is a given more than a quarter of the way to an
entry ink, in either view, as light as the entries (or as dark): an entry whose colour
moire washed out to the print's. The colour
is the digit's own: ink running off the cell's middle (a grid line, a phone's bezel in a
cell a lattice a little off cuts) is left out. A digit whose strokes stand out of their
paper too little to show a colour (``_ink_masks``) is told by nothing: on a page of two
inks it is a given in doubt, not a given by default (a player's entry under a screen's
moire, read as a digit with confidence, had been taken for print).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from .cells import extract_colour_cells
from .digits.preprocess import MIN_REFERENCE, centred, ink_strokes_of, main_blob
from .geometry import GridGeometry
from .robust import group_medians, group_percentile, robust_sd, row_percentiles

__all__ = [
    "COLOUR_SPLIT",
    "FONT_STRANGER",
    "GLYPH_LIKENESS",
    "PENCIL_SHARE",
    "STRANGER_LIKENESS",
    "TALLER_THAN_PRINT",
    "TWIN_LIKENESS",
    "CellKind",
    "Kinds",
    "cell_kinds",
    "font_strangers",
    "glyph_groups",
    "pencil_and_short",
    "pencil_like",
    "print_at_its_height",
    "print_likeness",
    "print_twins",
    "taller_than_print",
    "twin_families",
    "white_balanced",
]

# Two ink colours this far apart (Lab a*b* distance; ~ΔE) are two kinds of ink: black
# and blue print are ~60 apart, JPEG-smeared blue strokes still ~30, while one ink
# varies by under 10 across a grid.
COLOUR_SPLIT = 22.0
# Pencil marks are written at a quarter to a third of a cell, print at a half or more.
PENCIL_SHARE = 0.5
# A printed digit sits in the middle of its cell (within the lattice's error); a pencil
# mark sits in one of nine places of a 3 x 3 layout, a third of a cell from the middle.
_OFF_CENTRE = 0.2
# On a page written on, ink off the middle under this share of the person's typical
# digit (the 75th percentile of the cells they wrote) is their candidate, however it
# compares with the print: a hand's candidates stand 0.3-0.45 of its entries, while its
# entries, small ones off the middle too, stand 0.7 and more (rendered hands with
# candidates, seeds 100-139 and 200-239: 371 of 415 candidate cells, 1 of 5,314 entries;
# Wicht's mixed photos: none of 8,248 entries).
HAND_MARK_SHARE = 0.5
# Several candidates apart are marks up to this share of the typical digit: a screen's
# blur (or its descreening) fattens a mark of a quarter cell to 0.7 of an app's small
# print. Apart means a gap of _MARK_GAP of the cell between two of them (a third of a
# cell between their places, less their size: 5-30 pixels of 64), strokes closer being
# one mark; a printed digit broken by a thin print, a bent line or blur leaves a pixel
# or two, and one doubled by camera shake about 4 (a gap of 0.06 took a shaken 5 for
# marks).
_SEVERAL_SHARE = 0.8
_MARK_GAP = 0.1
# The person's small ink (``HAND_MARK_SHARE``) in two strokes whose middles lie this share
# of a cell apart across is two candidates, however near their edges come: the columns
# of a 3 x 3 layout lie a third of a cell apart, while the pieces of one digit of theirs
# lie one over the other (a 5's flag over its bowl, a 7's bar over its stem: 0.26-0.27
# apart down on a Wicht photo and a rendered page) or within a fifth of a cell across. A
# stroke narrower than _PEN_WIDTH pixels (of 64) is no candidate of its own but a grid
# line's remnant on a bent page.
_PLACES_APART = 0.25
_PEN_WIDTH = 3
# ... and two one over the other are two candidates where both middles lie in rows of
# that layout (at 1/6, 1/2 and 5/6 of the cell, within _AT_PLACE): a candidate is
# written at its place, while a digit's pieces straddle the middle. (Of 106 cells of
# rendered candidates one over the other, seeds 1000-1099, every middle lay within
# 0.062 of a row; of the person's small digits in such pieces, on Wicht's mixed photos
# and 300 rendered pen pages, none nearer than 0.094, most 0.14-0.16.)
_AT_PLACE = 0.08
# Ink whose tallest stroke stands under this share of the print is no candidate but
# specks, or a digit a screen's moire cut into slivers: of the cells the marks' rules
# called candidates on 480 stress pages (seeds 4390-4419 of app screens and photos of
# them, motion blur, crinkled newsprint, halftone and low resolution; seeds 4330-4389 of
# the app styles), a printed 2 and two entries in stripes (screen-photo 4410 and
# screen-photo-dark 4416) stood 0.06-0.09, the 1,751 of candidates or junk 0.154 and more.
_SLIVER = 0.12
# Moire's stripes (``moire_stripes``): strokes of ink over _STRIPE_INK and at least
# _STRIPE_MIN_AREA pixels; the largest one _STRIPE_LENGTH times as long as wide, and
# _STRIPE_PARALLEL others _STRIPE_OTHER times, within _STRIPE_TURN degrees of it. (On
# screen-photo 2917 the stripes' largest strokes measure 7-33, the entries' 1.3-1.9.)
_STRIPE_INK = 0.35
_STRIPE_MIN_AREA = 6
_STRIPE_LENGTH = 5.0
_STRIPE_OTHER = 3.0
_STRIPE_PARALLEL = 2
_STRIPE_TURN = 10.0
# ... or one other along it where the line runs diagonally, at least _STRIPE_SLANT
# degrees from upright and from level: the grid line's pieces a cell keeps at its
# edges (upright or level) then cannot be the companion, and no digit's lone line
# leans so far (a handwritten 1 slants 20 degrees at most; an app's italic less).
# (Stress screen-photo 6379: the moire's widest stripe across an empty cell at 51
# degrees, elongation 10, its fainter neighbours cut to one piece at 46 degrees; read
# as an entry 3 at 1.0.)
_STRIPE_SLANT = 30.0
# ... or one as long, side by side with it (_STRIPE_GAP of the cell apart across it),
# both in the middle half: a grid line's piece lies at the edge, a broken 1's pieces
# end to end, and no digit draws two long parallel lines. (Stress screen-photo 6410: in
# r9c7 two stripes at 105 degrees, elongations 7.3 and 6.7, 0.27 of the cell apart, the
# rest of the moire under the ink threshold; read as an entry 4 at 1.0.)
_STRIPE_GAP = 0.15
# A row or column of a cell's ink map outside its middle third, inked over this share
# of its length, is a grid line the lattice left inside the cell, not a stroke of the
# moire (which crosses it) or of a digit (which stands in the middle); ``moire_stripes``
# leaves it out.
_STRIPE_FRAME = 0.5
_MIN_INK_PIXELS = 4  # fewer ink pixels in a cell measure no colour (``_ink_colours``)
# Ink inside a cell spanning this share of its height is something to measure the colour
# of without the ink running off the cell (print stands half a cell or more, a pencil
# mark a quarter, each maybe in pieces under moire); less is a speck, and the cell's ink
# is measured whole.
_DIGIT_SHARE = 0.2
_COLOURED_PIXELS = 20  # coloured samples in a grid that call for a look at its inks
# Inks this near (a*b*) are one ink whatever the spread: lighting, JPEG and the ink's
# thickness shift one printed ink by up to about this much across a grid.
_SAME_INK = 16.0
# How many robust deviations of the givens' colours make another ink.
_SPREADS = 4.0
# An ink this near the givens' (a*b*) and unlike every other off their group may be one
# odd print (on rendered screen photos a given has come out 22 from its group's median,
# and an entry 21.6 from the givens' where other entries of its colour stood by).
_LONE_INK = 1.5 * COLOUR_SPLIT
# A given between two inks that lies this far along the line from the givens' median
# to an entry ink's is that entry ink (see ``_way_to_entry``) ...
_ENTRY_SIDE = 0.75
# ... unless the other view of its ink (as seen, or at full strength) puts it nearer the
# givens' end of that line than the entries': the two views then contradict each other.
_GIVENS_SIDE = 0.5
# An ink whose a*b* chroma is under this is black, grey or white.
_NEUTRAL = 12.0
# The grid's white (``white_balanced``): the median of this percentage of its brightest
# pixels, and the most each channel is scaled to make it gray.
_WHITE_SHARE = 2.0
_MAX_BALANCE = 1.6
# Lightness tells the givens from the entries only where each holds this many inks.
_MIN_BY_LIGHTNESS = 3
# L* between black and white: givens lighter than this are an app's dark mode's white.
_MID_GREY = 50.0
# Entries whose lightness percentile this (toward the givens) the givens' tenth nearest
# them stands beyond are apart from the givens in it (``_tinted_print``): beside a
# group of entries, the other entries' ninth tenth; beside one, three quarters of all
# the entries (two tinted givens among a dozen entries must not hide the gap).
_GROUP_APART = 90.0
_ONE_APART = 75.0
# A digit whose ink covers under this share of the page's median digit's pixels is
# thin (a 1, most 7s of a light font): on a photographed screen its colour is what the
# fringes make it (see cell_kinds). On stress screen-photo-dark 5263 the 1s cover
# 0.52-0.67, the 7s 0.74 and more.
_THIN_INK = 0.7
# Two groups of inks this many times their spreads apart are two inks (``_tight_second_ink``).
_SECOND_INK_APART = 2.0
# A given whose lightness lies this near the entries' (a share of the way from theirs
# to the givens') is in doubt whatever its colour: moire can shift a thin entry's
# colour sideways, off the way between the inks, toward neither (screen-photo-dark 4139:
# a blue entry 1 came out green-grey, a*b* (-11, 5), at the entries' L*). Of 7,629
# givens of app and screen pages read right, none lay under 0.27.
_ENTRIES_LIGHT = 0.2
# Two printed copies of one digit are one glyph: their centred ink maps correlate at
# 0.96 or more in 95% of pairs on the training half of Wicht's mixed photos, while a
# handwritten digit reaches it against a printed one of its value in 3 of ~5000.
TWIN_LIKENESS = 0.96
# ... and a digit read as print whose likest printed digit of its value correlates under
# 0.85 is no print: 5 of 4,439 printed digits with such a reference fall under it on
# Wicht's mixed photos (both halves), 21 of the 31 handwritten digits read as print.
STRANGER_LIKENESS = 0.85
# ... and one the network is sure is print but whose likest copy of a glyph the print
# shows twice correlates under 0.9, with no less ink than those copies, is another
# hand's (``font_strangers``): on Wicht's 159 mixed photos 3 of 3,772 printed digits so
# measured fall under 0.9, each with less ink (0.59-0.96 of the glyph's; with as much the
# likest 0.927); on 200 rendered pen pages 352 of the 559 handwritten digits that lean
# print (fonts-seto's and fonts-yusei-magic's neat hands).
FONT_STRANGER = 0.9
# Two doubtful printed digits this alike are copies of one glyph, so one digit: of 60,070
# pairs of different printed digits on Wicht's 160 photos the likest correlate at 0.970
# (an 8 and a 6), of 29,400 on rendered stress pages (held-out fonts, every style) at
# 0.945 (a blurred 5 and 8); 93% and 89% of the pairs of one digit reach it.
GLYPH_LIKENESS = 0.975
# A digit this many times as tall as the page's print is no print: a font prints every
# digit at one height (1.04 at most of the typical height, below, over 3,793 printed
# digits of rendered pages in training and held-out fonts, 1.14 over 4,119 on Wicht's
# mixed photos, where the lattice bends with the page), while of the handwritten digits
# that lean print by shape on rendered pages in pen, 62 of 96 in the training hands reach it.
TALLER_THAN_PRINT = 1.2
# The print's typical height is that of the largest cluster of digits leaning print
# whose heights lie within this share of one of them (a font's digits are one height;
# written ones that lean print, a neat hand, scatter) ...
_SAME_HEIGHT = 0.04
# ... and heights tell only where that cluster holds this share of the digits leaning
# print under the tall mark: the print is one height there. On rendered pages in black
# pen (72, training and held-out hands) it holds 0.93 or more; where blur or crinkled
# newsprint stretch the print (the stress pages with 3 to 6 print digits over the mark)
# 0.42 to 0.76.
_ONE_HEIGHT = 0.85
_TWIN_SHIFT = 2  # pixels either way the two maps may still be off after centring
_TWIN_WINDOW = slice(8, 56)  # the part of a centred 64-pixel map a digit fills


class CellKind(StrEnum):
    """What a cell holds."""

    EMPTY = "empty"
    GIVEN = "given"  # printed by the puzzle
    ENTRY = "entry"  # written by the player: another ink than the givens
    PENCIL = "pencil"  # small candidate marks: never a given or an entry


FloatArray = npt.NDArray[np.float64]
UInt8Array = npt.NDArray[np.uint8]


def _ink_masks(cells: UInt8Array) -> npt.NDArray[np.bool_]:
    """Ink pixels (N, S, S) of gray cells (dark on light), the cell borders and the ink
    running off the cell's middle left out."""
    n, s, _ = cells.shape
    paper, darkest = row_percentiles(
        cells[:, s // 10 : -s // 10, s // 10 : -s // 10].reshape(n, -1), (90, 1)
    )
    cut = (paper - 0.5 * (paper - darkest))[:, None, None]
    mask = cells.astype(np.float64) < cut
    border = s // 10
    mask[:, :border] = mask[:, -border:] = False
    mask[:, :, :border] = mask[:, :, -border:] = False
    # A cell with no real contrast has no ink, whatever the threshold says.
    mask[(paper - darkest) < 25] = False
    # Ink running off the middle is no part of the digit: a grid line, or the dark
    # beyond the frame (a phone's bezel), that a lattice a little off puts in the cell
    # would give the digit its colour. Unless the digit runs into it (what is left
    # inside spans under ``_DIGIT_SHARE`` of the cell): then all stays.
    for i in range(n):
        count, labels = cv2.connectedComponents(mask[i].astype(np.uint8), connectivity=8)
        if count <= 2:
            continue
        rim = np.unique(
            np.concatenate(
                [
                    labels[border, :], labels[-border - 1, :],
                    labels[:, border], labels[:, -border - 1],
                ]
            )
        )  # fmt: skip
        inside = np.isin(labels, np.setdiff1d(np.arange(1, count), rim))
        rows = np.flatnonzero(inside.any(axis=1))
        if len(rows) and rows[-1] - rows[0] + 1 >= _DIGIT_SHARE * s:
            mask[i] = inside
    return np.asarray(mask)


def _median_ab(pixels: UInt8Array) -> FloatArray:
    """Lab a*, b* (2,) of BGR pixels (..., 3): the median of each, 0 = neutral."""
    bgr = np.ascontiguousarray(pixels).reshape(-1, 1, 3)
    ab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)[:, 0, 1:].astype(np.float64) - 128.0
    return np.asarray(np.median(ab, axis=0), dtype=np.float64)


def _ink_colours(
    colour_cells: UInt8Array, masks: npt.NDArray[np.bool_], *, full_strength: bool = False
) -> FloatArray:
    """Lab a*, b* (N, 2) of each cell's ink (NaN where a cell has none): the colour of
    :func:`_ink_lab`."""
    return _ink_lab(colour_cells, masks, full_strength=full_strength)[:, 1:]


def _ink_lab(
    colour_cells: UInt8Array, masks: npt.NDArray[np.bool_], *, full_strength: bool = False
) -> FloatArray:
    """Lab L*, a*, b* (N, 3) of each cell's ink (NaN where a cell has none).

    A stroke's pixels mix the ink with the paper around it in every share: each lies on
    the line in RGB from the paper's colour (the cell's own background, which an app or
    a print may tint) toward the ink's. The mean offset of the ink pixels from the
    paper points along that line however thin the stroke, and averages out a
    photographed screen's moire and colour fringes (the inkiest pixels alone, picked by
    brightness, are where a screen's green subpixels are lit: white digits in dark mode
    came out green). The ink is the point on that line as far from the paper as the
    cell's inkiest pixels reach (the 90th percentile of the offsets' lengths): one ink
    on white and on tinted paper is one colour.

    With ``full_strength`` the ink is taken as far along that line as colours go (to
    the edge of the RGB cube): what the ink would look like undiluted. A thin or blurred
    stroke never reaches its ink anywhere, and comes out paler the thinner it is; at
    full strength it has the colour of a thick one. Only for settling a digit already in
    doubt (see ``_way_to_entry``): a screen's colour fringes give thin black strokes a
    faint hue too, which at full strength becomes a colour.
    """
    n, s = masks.shape[:2]
    inner = np.zeros((s, s), dtype=bool)
    inner[s // 10 : -s // 10, s // 10 : -s // 10] = True
    out = np.full((n, 3), np.nan)
    inked = masks.reshape(n, -1).sum(axis=1)
    cells = np.flatnonzero(inked >= _MIN_INK_PIXELS)
    if not len(cells):
        return out
    # Every cell at once (the same numbers as cell by cell; see scanner.robust): the
    # paper is each channel's median of the pixels around the ink (of all but the ink
    # where too few are left around it) ...
    ink, pixels, counts = masks[cells], colour_cells[cells], inked[cells]
    around = inner & ~ink
    enough = around.reshape(len(cells), -1).sum(axis=1) >= 10
    paper_pixels = np.where(enough[:, None, None], around, ~ink)
    sizes = paper_pixels.reshape(len(cells), -1).sum(axis=1)
    paper = np.stack(
        [group_medians(pixels[..., ch][paper_pixels], sizes) for ch in range(3)], axis=1
    )
    # ... and the ink pixels' offsets from it, cell after cell, whose sums (of halves
    # and wholes) come out exact in any order.
    owner = np.repeat(np.arange(len(cells)), counts)
    offsets = pixels[ink].astype(np.float64) - paper[owner]
    means = (
        np.stack(
            [np.bincount(owner, offsets[:, ch], minlength=len(cells)) for ch in range(3)], axis=1
        )
        / counts[:, None]
    )
    reaches = (
        None if full_strength else group_percentile(np.linalg.norm(offsets, axis=1), counts, 90)
    )
    for j, cell in enumerate(cells):
        length = float(np.linalg.norm(means[j]))
        if length < 1e-6:
            continue
        unit = means[j] / length
        if reaches is None:
            # Steps along the line to each channel's end (0 or 255); the nearest ends it.
            moving = unit != 0
            ends = np.where(unit > 0, 255 - paper[j], -paper[j])[moving] / unit[moving]
            reach = float(ends.min())
        else:
            reach = float(reaches[j])
        drawn = np.clip(paper[j] + unit * reach, 0, 255).astype(np.float32) / 255
        out[cell] = cv2.cvtColor(drawn.reshape(1, 1, 3), cv2.COLOR_BGR2Lab)[0, 0]
    return out


def _paper_colour(
    colour_cells: UInt8Array, gray_cells: UInt8Array, masks: npt.NDArray[np.bool_]
) -> FloatArray:
    """Lab a*, b* (2,) of the paper around the cells' digits: its brightest pixels' median."""
    n, s = len(gray_cells), gray_cells.shape[1]
    inner = np.zeros(gray_cells.shape[1:], dtype=bool)
    inner[s // 5 : -s // 5, s // 5 : -s // 5] = True
    paper = ~masks & inner[None]
    bright = gray_cells >= np.percentile(gray_cells.reshape(n, -1), 75, axis=1)[:, None, None]
    pixels = colour_cells[paper & bright]
    return _median_ab(pixels) if len(pixels) else np.zeros(2)


def _one_neutral_ink(colours: FloatArray, given: npt.NDArray[np.bool_], paper: FloatArray) -> bool:
    """Whether the two groups of inks (N, 2) split by ``given`` are one neutral ink.

    Black print takes the paper's tint, unevenly: a heavy JPEG smears the paper's
    colour (``paper``, a*b*) into thin strokes in most cells and leaves a few gray. An
    ink is neutral when its chroma or its distance from the paper's colour is under
    ``_NEUTRAL``; when the givens' median ink and every other ink are so, colour tells
    no kinds apart.
    """

    def neutral(ink: FloatArray) -> bool:
        return bool(min(np.linalg.norm(ink), np.linalg.norm(ink - paper)) < _NEUTRAL)

    return neutral(np.median(colours[given], axis=0)) and all(map(neutral, colours[~given]))


def pencil_like(
    ink: npt.NDArray[np.float32],
    *,
    reference: npt.NDArray[np.bool_] | None = None,
    written: npt.NDArray[np.bool_] | None = None,
) -> npt.NDArray[np.bool_]:
    """Which digit cells' ink maps (N, 64, 64) look like pencil marks rather than print.

    A cell looks so when its tallest stroke is under ``PENCIL_SHARE`` of the grid's
    typical digit (the 90th percentile of the cells given, which stays print even where
    many cells hold marks; of the ``reference`` cells (N,) only, when at least
    ``MIN_REFERENCE`` are given: the print of a page whose pen writes taller) *and* it is
    off the middle (``_OFF_CENTRE``) or has company of its own size (several
    candidates); or when it holds several strokes of a size, each under
    ``_SEVERAL_SHARE`` of the typical digit, two of them ``_MARK_GAP`` apart (an app's
    candidates through a screen's blur). Strokes of a size closer than
    ``_MARK_GAP``, directly or through another, are one mark, measured by their
    union. On a page written on, the ``written`` cells (N,), at least ``MIN_REFERENCE``
    of them with ink, are measured against the person's hand instead of the print: one
    is a mark when its tallest stroke is under ``HAND_MARK_SHARE`` of the hand's
    typical digit (their 75th percentile) and lies off the middle by its own place, or
    has company of its size, or two of its strokes lie in two columns of the layout
    (``_PLACES_APART``), however near. Ink whose tallest stroke is under ``_SLIVER``
    of the typical digit is no mark (specks, or a digit moire cut into slivers). On the
    160 reference photos, as
    the reader cuts them, none of 4,628 printed digits looks so (with or without the
    second rule); callers treat it as doubt, not as proof.
    """
    return pencil_and_short(ink, reference=reference, written=written)[0]


def pencil_and_short(
    ink: npt.NDArray[np.float32],
    *,
    reference: npt.NDArray[np.bool_] | None = None,
    written: npt.NDArray[np.bool_] | None = None,
) -> tuple[
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    npt.NDArray[np.bool_],
    npt.NDArray[np.float64],
    npt.NDArray[np.bool_],
]:
    """:func:`pencil_like`; which cells (N,) hold ink shorter than print: under
    ``_SEVERAL_SHARE`` of the typical digit's height, wherever it lies (a lone
    candidate in the middle of its cell, which no rule calls pencil; an app's are
    half a given's height, a printed font's lining digits one); which of the marks
    are so only for a flat stroke (wider than tall) beside another: no small digit, but
    maybe a 7's or a 5's top that blur or a thin print broke off the rest; each cell's
    tallest stroke against the typical digit's height (0 for no stroke); and which of
    the small marks are so by their places in a 3 x 3 layout (off the middle, or in two
    places apart), not only as pieces apart (a stroke may break)."""
    n, size, _ = ink.shape
    tallest = np.zeros(n)
    marks = np.zeros(n, dtype=bool)
    torn = np.zeros(n, dtype=bool)
    placed = np.zeros(n, dtype=bool)
    found: list[list[tuple[int, int, int, int]]] = []  # (h, x, y, w) of each stroke
    for i, cell_strokes in enumerate(ink_strokes_of(ink)):
        strokes = []
        for x, y, w, h, area in cell_strokes:
            cx, cy = (x + w / 2) / size, (y + h / 2) / size
            if area >= 6 and max(w, h) < 0.85 * size and 0.1 <= cx <= 0.9 and 0.1 <= cy <= 0.9:
                strokes.append((h, x, y, w))
        found.append(strokes)
        tallest[i] = max((s[0] for s in strokes), default=0)
    if not tallest.any():
        return marks, marks.copy(), torn, tallest, placed
    few = reference is None or reference.sum() < MIN_REFERENCE
    measured = tallest if few else tallest[reference]
    typical = float(np.percentile(measured, 90))
    short = np.asarray((tallest > 0) & (tallest < _SEVERAL_SHARE * typical))
    # Where the person wrote enough digits to tell their hand, their ink is measured
    # against it (a hand writes small or large), the rest against the print.
    by_hand = np.zeros(n, dtype=bool)
    hand_small = np.zeros(n, dtype=bool)  # far shorter than the person's typical digit
    hands = tallest[written & (tallest > 0)] if written is not None else tallest[:0]
    if written is not None and len(hands) >= MIN_REFERENCE:
        hand = float(np.percentile(hands, 75))
        by_hand = written & (tallest > 0)
        hand_small = by_hand & (tallest < HAND_MARK_SHARE * hand)
    for i, strokes in enumerate(found):
        if not (hand_small[i] if by_hand[i] else short[i]) or tallest[i] < _SLIVER * typical:
            continue
        top = max(strokes)  # the tallest stroke (h, x, y, w)
        alike = [s for s in strokes if s[0] >= 0.5 * top[0]]
        # Strokes closer than a gap between candidates are one mark's: blur breaks a bold
        # print into pieces that touch (a 3 into three, an 8 into its halves and the
        # waist), which no 3 x 3 layout of candidates does.
        pieces = _marks(alike, _MARK_GAP * size)
        # Where the tallest stroke lies: with its mark, or on its own in the person's ink
        # (their candidates are written closer together than a printer's pieces).
        h, x, y, w = top if by_hand[i] else max(m for m in pieces if _holds(m, top))
        cx, cy = (x + w / 2) / size, (y + h / 2) / size
        off_centre = max(abs(cx - 0.5), abs(cy - 0.5)) > _OFF_CENTRE
        if by_hand[i] or tallest[i] < PENCIL_SHARE * typical:
            # The person's candidates lie in places a third of a cell apart; a wide one
            # (a 5 with a long flag) can reach its diagonal neighbour closer than the
            # gap, which no piece of one small digit of theirs lies from another. One
            # over another, anyone's small marks are two where both sit in rows of the
            # layout (the 2, 5 and 8 of the middle column).
            placed[i] = off_centre or _apart(alike, size, across=bool(by_hand[i]))
            marks[i] = placed[i] or len(pieces) >= 2
            # (The person's small ink is no print that blur broke.)
            upright = [s for s in alike if s[0] >= s[3]]
            torn[i] = marks[i] and not off_centre and len(upright) < 2 and not by_hand[i]
        else:
            marks[i] = len(pieces) >= 2
    return marks, short, torn, tallest / typical if typical > 0 else np.zeros(n), placed


def moire_stripes(ink: npt.NDArray[np.float32]) -> npt.NDArray[np.bool_]:
    """Which cells (N,) of ink maps (N, 64, 64) hold the stripes of a screen's moire
    rather than a digit: their largest stroke is a long thin line (``_STRIPE_LENGTH``
    times as long as wide) and at least ``_STRIPE_PARALLEL`` other lines lie along it
    (within ``_STRIPE_TURN`` degrees), or one where it runs diagonally (``_STRIPE_SLANT``)
    or where two such stand side by side in the middle half of the cell (``_STRIPE_GAP``).

    A photographed screen's diagonal moire runs through a cell as parallel stripes
    whose colour fringes are the entries' colour; broken at the cell's edges into
    pieces of a digit's size, no size rule tells them from an entry (stress
    screen-photo 2917: eight empty cells read as entries 2, 6, 7 and 8). A digit's
    largest stroke is compact, or a lone line (a 1) with no others along it; the
    entries under the same moire keep theirs (elongation 1.3-1.9 against 7-33). A grid
    line across the cell (``_STRIPE_FRAME``) is left out first: the stripes ending on it
    are one stroke with it, no longer a line (stress screen-photo 4807: a cell beside
    the frame, its stripes joined to the frame's edge, read as an entry 8).
    """
    out = np.zeros(len(ink), dtype=bool)
    ys, xs = np.mgrid[0 : ink.shape[1], 0 : ink.shape[2]]
    side = ink.shape[1]  # (square maps)
    centre = (side - 1) / 2.0
    edge = np.abs(np.arange(side) - centre) > side / 6.0  # outside the middle third
    for i, cell in enumerate(ink):
        binary = (cell > _STRIPE_INK).astype(np.uint8)
        binary[edge & (binary.mean(axis=1) >= _STRIPE_FRAME)] = 0
        binary[:, edge & (binary.mean(axis=0) >= _STRIPE_FRAME)] = 0
        n, labels, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
        # Each stroke's covariance from its pixels' moments, all strokes at once.
        area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
        sums = [
            np.bincount(labels.ravel(), weights=w.ravel(), minlength=n)
            for w in (xs, ys, xs * xs, ys * ys, xs * ys)
        ]
        lines = []  # (area, elongation, angle, across) of each stroke
        for k in range(1, n):
            if area[k] < _STRIPE_MIN_AREA:
                continue
            mx, my = sums[0][k] / area[k], sums[1][k] / area[k]
            sxx = sums[2][k] - area[k] * mx * mx
            syy = sums[3][k] - area[k] * my * my
            sxy = sums[4][k] - area[k] * mx * my
            cov = np.array([[sxx, sxy], [sxy, syy]]) / (area[k] - 1.0)
            values, vectors = np.linalg.eigh(cov)
            elongation = math.sqrt(max(values[1], 1e-6) / max(values[0], 1e-6))
            angle = math.degrees(math.atan2(vectors[1, 1], vectors[0, 1])) % 180.0
            lines.append((int(area[k]), elongation, angle, (mx - centre, my - centre)))
        if not lines:
            continue
        _, elongation, angle, middle = max(lines)
        if elongation < _STRIPE_LENGTH:
            continue
        # How far each stroke's centre lies from the cell's across the widest line.
        sin_t, cos_t = math.sin(math.radians(angle)), math.cos(math.radians(angle))
        mid = middle[0] * sin_t - middle[1] * cos_t
        along = [
            (e, at[0] * sin_t - at[1] * cos_t)
            for _, e, a, at in lines
            if e >= _STRIPE_OTHER and min(abs(a - angle), 180.0 - abs(a - angle)) <= _STRIPE_TURN
        ]
        slant = min(angle % 90.0, 90.0 - angle % 90.0)  # from upright or level
        beside = [
            e
            for e, off in along
            if e >= _STRIPE_LENGTH
            and abs(off - mid) >= _STRIPE_GAP * side
            and max(abs(off), abs(mid)) <= side / 4.0
        ]
        needed = 1 if slant >= _STRIPE_SLANT or beside else _STRIPE_PARALLEL
        out[i] = len(along) - 1 >= needed
    return out


def _holds(box: tuple[int, int, int, int], inner: tuple[int, int, int, int]) -> bool:
    """Whether ``box`` ``(h, x, y, w)`` holds the box ``inner`` whole."""
    h, x, y, w = box
    h2, x2, y2, w2 = inner
    return x <= x2 and y <= y2 and x2 + w2 <= x + w and y2 + h2 <= y + h


def _apart(strokes: list[tuple[int, int, int, int]], size: int, *, across: bool = True) -> bool:
    """Whether two of these strokes ``(h, x, y, w)`` (each a pen's width or more across)
    have their middles in two of a 3 x 3 layout's rows (``_PLACES_APART`` of the cell
    ``size`` or more apart down, each within ``_AT_PLACE`` of a row's middle) or, where
    ``across``, in two of its columns (as far apart across, anywhere)."""
    wide = [s for s in strokes if s[3] >= _PEN_WIDTH]
    middles = [(x + w / 2) / size for h, x, y, w in wide]
    if across and len(middles) > 1 and max(middles) - min(middles) >= _PLACES_APART:
        return True
    rows = (1 / 6, 1 / 2, 5 / 6)
    down = [(y + h / 2) / size for h, x, y, w in wide]
    placed = [m for m in down if min(abs(m - r) for r in rows) <= _AT_PLACE]
    return len(placed) > 1 and max(placed) - min(placed) >= _PLACES_APART


def _marks(strokes: list[tuple[int, int, int, int]], gap: float) -> list[tuple[int, int, int, int]]:
    """The boxes ``(h, x, y, w)`` of these strokes' marks: strokes under ``gap`` pixels
    apart, directly or through others, are one mark (its box their boxes' union)."""
    mark = list(range(len(strokes)))  # each stroke's mark: the first stroke of it
    for k, (h, x, y, w) in enumerate(strokes):
        for j in range(k + 1, len(strokes)):
            h2, x2, y2, w2 = strokes[j]
            if max(x2 - (x + w), x - (x2 + w2), y2 - (y + h), y - (y2 + h2)) < gap:
                old, new = mark[j], mark[k]
                mark = [new if m == old else m for m in mark]
    boxes = []
    for m in sorted(set(mark)):
        own = [strokes[k] for k in range(len(strokes)) if mark[k] == m]
        x0, y0 = min(s[1] for s in own), min(s[2] for s in own)
        x1, y1 = max(s[1] + s[3] for s in own), max(s[2] + s[0] for s in own)
        boxes.append((y1 - y0, x0, y0, x1 - x0))
    return boxes


def _colourful(image: UInt8Array, geometry: GridGeometry) -> bool:
    """Whether the grid's area of a BGR image holds any coloured pixels at all.

    A cheap look before cutting colour cells: gray print on white paper has hardly any
    pixel whose channels differ by ``_NEUTRAL`` * 2 or more, while one entry digit in
    a colour leaves ~80 such pixels at the sampling used (every other pixel of a grid
    300 px wide or less); ``_COLOURED_PIXELS`` of them say "look closer".
    """
    h, w = image.shape[:2]
    lat = geometry.lattice
    x0, y0 = (max(int(v), 0) for v in lat.reshape(-1, 2).min(axis=0))
    x1, y1 = int(min(lat[..., 0].max(), w)), int(min(lat[..., 1].max(), h))
    step = max(1, (x1 - x0) // 300)
    area = np.ascontiguousarray(image[y0:y1:step, x0:x1:step])
    if area.size == 0:
        return False
    b, g, r = cv2.split(area)
    spread = cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))
    return int(np.count_nonzero(spread >= 2 * _NEUTRAL)) >= _COLOURED_PIXELS


def _given_group(
    colours: FloatArray, reference: npt.NDArray[np.bool_] | None = None
) -> tuple[npt.NDArray[np.bool_], FloatArray, npt.NDArray[np.bool_]]:
    """Which inks (N, 2) belong with the most neutral one: the printed givens' colour.

    The group grows from the least coloured ink (its 10th percentile by chroma, robust to
    one odd cell): every ink within ``COLOUR_SPLIT`` of the group's median joins, twice
    over. An app may show two colours of entries (blue, and red for mistakes) beside
    black givens; a grouping into two by distance alone would pair red with black.
    Then the limit is tightened to the group's own spread: an ink more than ``_SPREADS``
    robust deviations from the givens' median is another ink, though never one nearer
    than ``_SAME_INK``. A clean screenshot's givens agree to a unit or two, so a blue
    entry washed pale by a photographed screen is still told apart.

    Only the ``reference`` inks (default: all) place the group and measure its spread:
    the colour of pencil marks or moire, faint ink the reader doubts is a digit, is
    mostly the paper's and would widen the givens' spread until a pale entry fits in.

    Returns the membership (N,), each ink's distance (N,) from the group's median, and
    which inks (N,) of the group form a tight group of a more coloured ink inside it
    (``_tight_second_ink``): maybe the player's, blurred into the givens' spread.
    """
    ref_index = np.arange(len(colours))
    if reference is not None and reference.any():
        ref_index = np.flatnonzero(reference)
    ref = colours[ref_index]
    chroma = np.linalg.norm(ref, axis=1)
    seed = ref[np.argsort(chroma)[len(chroma) // 10]]
    member = np.linalg.norm(ref - seed, axis=1) < COLOUR_SPLIT
    for _ in range(2):
        centre = np.median(ref[member], axis=0)
        member = np.linalg.norm(ref - centre, axis=1) < COLOUR_SPLIT
    centre = np.median(ref[member], axis=0)
    spread = robust_sd(np.linalg.norm(ref[member] - centre, axis=1))
    limit = min(COLOUR_SPLIT, max(_SAME_INK, _SPREADS * spread))
    dist = np.linalg.norm(colours - centre, axis=1)
    tight = np.zeros(len(colours), dtype=bool)
    second = _tight_second_ink(ref[member])
    if second is not None:
        tight[ref_index[np.flatnonzero(member)[second]]] = True
    return np.asarray(dist < limit), dist, tight


def _tight_second_ink(inks: FloatArray) -> npt.NDArray[np.bool_] | None:
    """Which of the inks (N, 2) a*b* one group holds are a second, more coloured ink:
    two groups by nearest median (from the group's median and its farthest ink), the
    smaller at least ``_MIN_BY_LIGHTNESS`` inks, the larger neutral (under ``_NEUTRAL``)
    and the smaller more coloured by ``_NEUTRAL``, apart by ``_SECOND_INK_APART`` times
    the two groups' spreads together (robust deviations of their distances) and by
    ``_SAME_INK``; None where there is none. (screen-photo 4300: nine pale blue
    entries, a*b* about (2, -21), within the reach of white givens that moire scatters
    over b* -13 to +7.)"""
    if len(inks) < 2 * _MIN_BY_LIGHTNESS:
        return None
    centre = np.median(inks, axis=0)
    other = inks[np.argmax(np.linalg.norm(inks - centre, axis=1))]
    for _ in range(5):
        second = np.linalg.norm(inks - other, axis=1) < np.linalg.norm(inks - centre, axis=1)
        if second.sum() < _MIN_BY_LIGHTNESS or (~second).sum() <= second.sum():
            return None
        centre, other = np.median(inks[~second], axis=0), np.median(inks[second], axis=0)
    spreads = sum(
        robust_sd(np.linalg.norm(inks[group] - middle, axis=1))
        for group, middle in ((~second, centre), (second, other))
    )
    apart = float(np.linalg.norm(other - centre))
    # Beside a neutral print (black or white): a coloured print splits by saturation
    # alone, its strokes on tinted boxes or thin (pastel-dotted-low-res 4269).
    neutral = float(np.linalg.norm(centre)) < _NEUTRAL
    coloured = float(np.linalg.norm(other) - np.linalg.norm(centre)) >= _NEUTRAL
    # And apart by more than one ink varies: a heavy JPEG smears a yellowed newsprint's
    # tint into some of its strokes (14 from the rest on a Wicht photo at quality 15).
    far = apart >= max(_SAME_INK, _SECOND_INK_APART * spreads)
    return second if neutral and coloured and far else None


@dataclass
class Kinds:
    """What :func:`cell_kinds` tells of a grid's cells.

    Attributes
    ----------
    kinds : list of CellKind
        Row by row, in the order of the cells given.
    undecided : list of int
        Cells whose kind cannot be told: digits in two colours, neither of them plain
        print (empty when every kind is clear).
    in_doubt : list of int
        GIVEN cells whose ink colour lies nearer an entry's than the givens' median: a
        photographed screen's moire and colour fringes blur two inks into each other,
        and such a digit may as well be the player's (empty when the inks are apart;
        one well on an entry ink's side of the line between the inks is an ENTRY, see
        ``_way_to_entry``);
        and GIVEN cells of a lone odd ink (off the givens' group but within
        ``_LONE_INK`` of its median, and nearer it than any other ink off it, or
        ``COLOUR_SPLIT`` or more from every such ink), or of an ink off the group but
        within ``_LONE_INK`` that lies on the givens' half of the way to the entry ink
        it is nearest, as seen or at full strength (``_way_to_entry``);
        and GIVEN cells of an ink short of an entry ink's end of that way in either view
        (under ``_ENTRY_SIDE``) yet nearer the givens' lightness than the entries'
        (``_lightness_way``), its colour not an entry ink's own (``_in_an_entry_ink``),
        and of a given more than a quarter of the way to an entry ink in either view yet
        nearer the entries' lightness; and of a thin digit
        (``_THIN_INK``) whose colour lies ``COLOUR_SPLIT`` or more from every entry of
        fuller ink, at a lightness nearer the givens' than theirs; and of an entry
        ink, or a group of one colour, that lies at the givens' lightness
        (``_tinted_print``); and, where there are entries, GIVEN cells whose ink shows
        no colour to measure.
    unmeasured : list of int
        Where the digits come in two inks (entries, or undecided): the digit cells whose
        ink shows no colour to measure (too thin or too faint, ``_ink_masks``), left
        GIVEN; in neither ink.
    """

    kinds: list[CellKind]
    undecided: list[int] = field(default_factory=list)
    in_doubt: list[int] = field(default_factory=list)
    unmeasured: list[int] = field(default_factory=list)


def colour_cells_of(image: npt.ArrayLike, geometry: GridGeometry) -> UInt8Array | None:
    """The grid's cells in colour (81, 64, 64, 3), or None where the photo (BGR) is gray
    or its grid holds hardly a coloured pixel (``_colourful``): nothing to tell by
    colour there."""
    arr = np.asarray(image)
    if arr.ndim != 3 or arr.shape[2] != 3 or not _colourful(arr, geometry):
        return None
    return extract_colour_cells(arr, geometry)


def white_balanced(cells: UInt8Array) -> UInt8Array:
    """The colour cells (81, S, S, 3) with their white made neutral (a camera's white
    balance redone on the grid).

    A photo taken under warm light, or of a screen whose white is not the room's, tints
    everything: black print on a green-tinted screen has a green cast, and a dark
    mode's white digits came out green, so that no ink looked like print. The grid's
    white is the median colour of its brightest pixels (``_WHITE_SHARE`` of them by
    lightness: the paper on a print or a light screen, the white digits on a dark one);
    each channel is scaled so that this white is gray at its own lightness, by at most
    ``_MAX_BALANCE`` either way (a grid with no white to go by is left nearly as it is).
    Cells whose white is gray already (every channel's scale within 2% of 1) are
    returned as they are, the same array.

    Parameters
    ----------
    cells : (N, S, S, 3) uint8 array
        Colour cells (BGR), as :func:`colour_cells_of` cuts them.

    Returns
    -------
    (N, S, S, 3) uint8 array
        The cells with each channel scaled (or ``cells`` itself).
    """
    pixels = cells.reshape(-1, 3)
    light = pixels.astype(np.float32) @ np.array([0.114, 0.587, 0.299], np.float32)
    bright = light >= np.percentile(light, 100.0 - _WHITE_SHARE)
    white = np.median(pixels[bright], axis=0).astype(np.float64)
    if white.min() < 1.0:
        return cells
    gains = np.clip(white.mean() / white, 1.0 / _MAX_BALANCE, _MAX_BALANCE)
    if np.all(np.abs(gains - 1.0) < 0.02):
        return cells
    lut = np.clip(np.rint(np.arange(256)[:, None] * gains[None, :]), 0, 255).astype(np.uint8)
    return np.asarray(lut[cells, np.arange(3)], dtype=np.uint8)  # (256, 3)[(..., 3), (3,)]


def cell_kinds(
    image: npt.ArrayLike,
    geometry: GridGeometry,
    gray_cells: UInt8Array,
    digit: npt.NDArray[np.bool_],
    sure: npt.NDArray[np.bool_] | None = None,
    *,
    colour_cells: UInt8Array | None = None,
) -> Kinds:
    """The kind of each of the 81 cells.

    Parameters
    ----------
    image : (H, W, 3) or (H, W) uint8 array
        The photo (BGR) the lattice refers to; a gray photo has no colour to tell.
    geometry : GridGeometry
        The grid's lattice in that image.
    gray_cells : (81, 64, 64) uint8 array
        The cells as cut for reading, dark ink on light paper.
    digit : (81,) bool array
        Which cells the digit reader saw a digit in.
    sure : (81,) bool array, optional
        Which of them surely hold a digit (default: all): their colours place the inks.
    colour_cells : (81, 64, 64, 3) uint8 array, optional, keyword-only
        :func:`colour_cells_of` the image, where the caller has them already.

    Returns
    -------
    Kinds
        The kinds, the cells whose kind cannot be told, and the givens in doubt.
    """
    kinds = [CellKind.GIVEN if d else CellKind.EMPTY for d in digit]
    idx = np.flatnonzero(digit)
    if len(idx) == 0:
        return Kinds(kinds)
    # Full-size cells: every ink pixel counts against JPEG's blocky colour noise.
    if colour_cells is None:
        colour_cells = colour_cells_of(image, geometry)
    if colour_cells is None:
        return Kinds(kinds)
    digit_cells = colour_cells[idx]
    masks = _ink_masks(gray_cells[idx])
    lab = _ink_lab(digit_cells, masks)
    found = np.isfinite(lab[:, 0])
    printed = [int(i) for i in idx[found]]
    unmeasured = [int(i) for i in idx[~found]]  # no colour: given or entry, untold
    lab, digit_cells, masks = lab[found], digit_cells[found], masks[found]
    lightness, colours = lab[:, 0], lab[:, 1:]
    if not printed:
        return Kinds(kinds)
    reference = None if sure is None else np.asarray(sure, dtype=bool)[printed]
    given, dist, tight = _given_group(colours, reference)
    # An ink off the givens' group yet nearer its median than any other ink off it, or
    # like no other ink off it (a third ink, used once), is no second ink but maybe one
    # odd print (moire over one digit of a photographed screen): a given in doubt. A
    # player's entries come in one or two inks, each mostly repeated; a single entry
    # that near the print is refused with it.
    between = np.linalg.norm(colours[:, None] - colours[None], axis=2)  # (N, N) a*b*
    apart = np.where(given[None, :], np.inf, between)  # to the inks off the group ...
    np.fill_diagonal(apart, np.inf)  # ... other than itself
    nearest_other = apart.min(axis=1)
    alone = (nearest_other > dist) | (nearest_other >= COLOUR_SPLIT)
    lone = ~given & (dist < _LONE_INK) & alone
    given = given | lone
    others = [i for i, g in zip(printed, given, strict=True) if not g]
    if not others:
        odd_or_tight = lone | tight
        return Kinds(kinds, in_doubt=[i for i, o in zip(printed, odd_or_tight, strict=True) if o])
    paper = _paper_colour(digit_cells, gray_cells[printed], masks)
    if _one_neutral_ink(colours, given, paper):
        return Kinds(kinds)
    # The inks surely read as digits tell each group's colour (as they placed the
    # givens'): an app's grey pencil marks are mostly the paper's colour.
    sure_ink = np.ones(len(colours), dtype=bool) if reference is None else reference

    def surely(group: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
        return group & sure_ink if (group & sure_ink).any() else group

    other_ink = surely(~given)
    given_chroma = float(np.linalg.norm(np.median(colours[surely(given)], axis=0)))
    other_chroma = float(np.linalg.norm(np.median(colours[other_ink], axis=0)))
    if given_chroma > _NEUTRAL and other_chroma - given_chroma < COLOUR_SPLIT / 2:
        # Two inks, neither plain print nor clearly the duller: no telling the givens.
        return Kinds(kinds, undecided=others, unmeasured=unmeasured)
    for cell in others:
        kinds[cell] = CellKind.ENTRY
    # A given nearer some entry's colour than its own group's median lies between inks
    # (the entries surely read as digits, where there are such, place the other ink).
    nearest = between[:, other_ink].min(axis=1)
    between_inks = given & ~lone & (nearest < dist)
    # The mirror: an ink off the givens' group but near it (a given tinted by moire,
    # beside a washed-out entry that keeps it from being a lone ink) that lies on the
    # givens' half of the way to the entry ink it is nearest, in either view, is no
    # surer the player's than a given: a given in doubt. (A printed 4 on an app's
    # tinted cell came out 0.62 of the way as seen and 0.44 at full strength.)
    near_print = ~given & (dist < _LONE_INK)
    # ... and one on an entry ink's side of that line, as seen or at full strength, is
    # an entry (a thin entry is paler as seen than its ink; at full strength a thin
    # given's fringes grow too, so it settles only an ink already in doubt), unless the
    # other view puts it on the givens' half: moire over one glyph can tint a given
    # toward an entry ink in one view only, and a given read as an entry is another
    # puzzle, one that may still have the page's solution.
    # So too an ink far off the givens' group that one view puts on their half of the
    # way, beside another ink off it: a given with a screen's colour fringes, tinted
    # most of the way to an entry ink as seen but not at full strength (a player's ink
    # is one colour in both views; a red mistake beside blue entries lies on no way
    # from the givens to them, or before its start).
    far_off = ~given & ~alone & ~near_print
    undiluted = _ink_colours(digit_cells, masks, full_strength=True)
    seen, full = (
        _way_to_entry(inks, surely(given), other_ink, between) for inks in (colours, undiluted)
    )
    farther, nearer = np.fmax(seen, full), np.fmin(seen, full)
    entry_side = (farther >= _ENTRY_SIDE) & (nearer >= _GIVENS_SIDE)
    with np.errstate(invalid="ignore"):
        givens_side = (near_print | (far_off & (nearer >= 0.0))) & (nearer < _GIVENS_SIDE)
    for k in np.flatnonzero(between_inks & entry_side):
        kinds[printed[k]] = CellKind.ENTRY
    for k in np.flatnonzero(givens_side):
        kinds[printed[k]] = CellKind.GIVEN
    # An entry short of the entries' end of the way in either view (a given tinted part
    # of the way) that is as light as the givens (or as dark), where lightness tells
    # the two inks apart, is no surer the player's than a given: moire tints a white
    # given, but leaves it white. (An entry's lightness varies as much, but its colour
    # is the entries': one of an entry ink's own colour stays theirs.) And the mirror:
    # a given more than a quarter of the way to the entries in either view that is as
    # light as the entries is no surer print than theirs (a thin entry 1 whose colour
    # the screen washed out to the print's), nor is one whatever its colour that lies
    # at the entries' lightness (``_ENTRIES_LIGHT``).
    entry = np.array([kinds[i] == CellKind.ENTRY for i in printed])
    light = _lightness_way(lightness, ~entry & sure_ink, entry & sure_ink)
    with np.errstate(invalid="ignore"):
        givens_light = (
            entry
            & (nearer < _ENTRY_SIDE)
            & (light > 0.5)
            & ~_in_an_entry_ink(colours, entry & sure_ink)
        )
        entries_light = ~entry & (
            ((farther > 1.0 - _ENTRY_SIDE) & (light < 0.5)) | (light < _ENTRIES_LIGHT)
        )
    for k in np.flatnonzero(givens_light):
        kinds[printed[k]] = CellKind.GIVEN
    # A thin digit's colour is measured on few pixels, which a photographed screen's
    # colour fringes may tint whatever its ink: one called an entry whose colour is
    # near no sure entry's of fuller ink, and whose lightness is nearer the givens'
    # than those entries', is no surer the player's than a given. (Stress
    # screen-photo-dark 5263: two printed 1s came out green, a*b* (-28, 11) and
    # (-27, 30), at L* 85 and 90 beside white givens near 80 and blue entries near
    # (-3, -25) at 60-72; read as the player's, the puzzle without them had the page's
    # solution. An app's red entry 1 beside blue ones keeps an entry's lightness.)
    pixels = masks.reshape(len(masks), -1).sum(axis=1)
    thin = pixels < _THIN_INK * float(np.median(pixels))
    entries = np.array([kinds[i] == CellKind.ENTRY for i in printed])
    full_entries = entries & ~thin & sure_ink
    plain_givens = ~entries & ~thin & sure_ink
    fringed = np.zeros(len(printed), dtype=bool)
    if full_entries.any():  # (the lightness way wants several of each)
        toward_givens = _lightness_way(lightness, plain_givens, full_entries)
        far = between[:, full_entries].min(axis=1) >= COLOUR_SPLIT
        with np.errstate(invalid="ignore"):
            fringed = thin & entries & far & (toward_givens >= 0.5)
    for k in np.flatnonzero(fringed):
        kinds[printed[k]] = CellKind.GIVEN
    tinted = _tinted_print(
        lightness, between, sure_ink, np.array([kinds[i] == CellKind.ENTRY for i in printed])
    )
    for k in np.flatnonzero(tinted):
        kinds[printed[k]] = CellKind.GIVEN
    in_doubt = [
        i
        for i, b, e, odd, g, doubted in zip(
            printed,
            between_inks,
            entry_side,
            lone,
            givens_side,
            givens_light | entries_light | (tight & ~entry) | fringed | tinted,
            strict=True,
        )
        if odd or g or doubted or (b and not e)
    ]
    return Kinds(kinds, in_doubt=in_doubt + unmeasured, unmeasured=unmeasured)


def _in_an_entry_ink(colours: FloatArray, entry: npt.NDArray[np.bool_]) -> npt.NDArray[np.bool_]:
    """Which inks (N, 2) a*b* are an entry ink's own colour: within ``_SAME_INK`` of the
    median of the ``entry`` inks (N,) within ``COLOUR_SPLIT`` of them, at least
    ``_MIN_BY_LIGHTNESS`` of those (an ink used again and again).

    Such an ink is the entries' whatever its lightness: a pen's strokes are as light or
    dark as their width and pressure make them (on a rendered page in blue pen, low
    resolution, the person's digits ranged over L* 18-42 beside black print at 4-14, and
    the darkest of them, a*b* within 2 of their ink's, had been taken for givens by
    lightness), while a given that moire tints toward an entry's colour comes only part of
    the way.
    """
    own = np.zeros(len(colours), dtype=bool)
    theirs = colours[entry]
    if len(theirs) < _MIN_BY_LIGHTNESS:
        return own
    near = np.linalg.norm(colours[:, None] - theirs[None], axis=2) < COLOUR_SPLIT  # (N, E)
    for k in np.flatnonzero(near.sum(axis=1) >= _MIN_BY_LIGHTNESS):
        centre = np.median(theirs[near[k]], axis=0)
        own[k] = float(np.linalg.norm(colours[k] - centre)) < _SAME_INK
    return own


def _tinted_print(
    lightness: FloatArray,
    between: FloatArray,
    sure: npt.NDArray[np.bool_],
    entry: npt.NDArray[np.bool_],
) -> npt.NDArray[np.bool_]:
    """Which entry inks (N,) are givens that a screen's moire tinted.

    An app draws its entries neither as dark as black nor as light as white, the
    givens in the plain ink; moire tints a given but leaves it as light. The inks
    called entries fall in groups of one colour (each within ``COLOUR_SPLIT`` of
    another of its group, ``between`` (N, N) their a*b* distances). A group whose
    ``sure`` inks (two or more) lie at the givens' lightness (their median beyond the
    givens' quarter nearest the other entries), where the givens and the other
    entries stand apart in lightness (their tenth and ninth tenth nearest each other),
    is print (screen-photo-dark 5559: five white givens came out yellow-green alike,
    L* 80-85, beside purple entries at 52-69 and givens at 70-82). And so is any one
    entry ink that lies there, where the givens stand apart from three quarters of the
    entries (screen-photo 5560: two black givens tinted the blue entries' colour, at
    L* 26, beside givens at 27-32 and entries at 33-42). The other entries lie on the
    paper's side of the givens (an ink whiter than a white given is no app's entry).
    """
    out = np.zeros(len(lightness), dtype=bool)
    inks = np.flatnonzero(entry)
    # One colour: the entry inks connected within COLOUR_SPLIT.
    for group in _connected_parts(between[np.ix_(inks, inks)] < COLOUR_SPLIT):
        members = np.zeros(len(lightness), dtype=bool)
        members[inks[group]] = True
        own = members & sure
        if own.sum() >= 2:
            beyond = _beyond_givens_quarter(
                lightness, ~entry & sure, entry & ~members & sure, _GROUP_APART
            )
            if beyond is not None and float(np.median(beyond[own])) >= 0.0:
                out |= members
    rest = entry & ~out
    beyond = _beyond_givens_quarter(lightness, ~entry & sure, rest & sure, _ONE_APART)
    if beyond is not None:
        with np.errstate(invalid="ignore"):
            out |= rest & (beyond >= 0.0)
    return out


def _beyond_givens_quarter(
    lightness: FloatArray,
    givens: npt.NDArray[np.bool_],
    entries: npt.NDArray[np.bool_],
    entries_share: float,
) -> FloatArray | None:
    """How far (N,) each ink's lightness lies beyond the ``givens``' quarter nearest
    the ``entries``, toward the givens (L*; positive at the givens' lightness), or None
    where the givens' tenth nearest the entries does not stand beyond the entries'
    ``entries_share`` percentile, or the entries lie beyond the givens from the paper
    (see :func:`_tinted_print`)."""
    if min(int(givens.sum()), int(entries.sum())) < _MIN_BY_LIGHTNESS:
        return None
    # Measured from the entries toward the givens: lighter on a dark screen, whose
    # givens are white (L* over 50), darker on a light one.
    toward = 1.0 if np.median(lightness[givens]) > np.median(lightness[entries]) else -1.0
    if (toward > 0) != (np.median(lightness[givens]) > _MID_GREY):
        return None
    along = toward * lightness
    if np.percentile(along[givens], 10) <= np.percentile(along[entries], entries_share):
        return None
    return np.asarray(along - np.percentile(along[givens], 25))


def _lightness_way(
    lightness: FloatArray, given: npt.NDArray[np.bool_], entry: npt.NDArray[np.bool_]
) -> FloatArray:
    """How far (N,) each ink's lightness (Lab L*) lies from the entries' toward the
    givens': 0 at the entries' median, 1 at the givens'; NaN where lightness tells
    nothing.

    An app draws its givens in the plainest ink, black on a light screen and white on a
    dark one, and the player's entries in a colour, which is neither as dark as black
    nor as light as white. A photographed screen's moire tints a white given toward an
    entry's colour, pink or purple, but leaves it as light (screen-photo-dark 3222: a
    given 4 at a*b* (26, -21) and L* 84, beside entries' L* 62-80 and givens' 84-100).
    Lightness tells where the ``given`` inks (N,) and the ``entry`` inks (N,), at least
    ``_MIN_BY_LIGHTNESS`` of each, are apart in it: their medians farther apart than one
    ink varies (``_SAME_INK``), and the givens' tenth nearest the entries beyond the
    entries' tenth nearest the givens. (Through a light screen's blur black givens and
    blue entries came out at L* 53-62 and 58-65.)
    """
    nothing = np.full(len(lightness), np.nan)
    if min(int(given.sum()), int(entry.sum())) < _MIN_BY_LIGHTNESS:
        return nothing
    givens_median = float(np.median(lightness[given]))
    entries_median = float(np.median(lightness[entry]))
    # Measured from the entries toward the givens: lighter on a dark screen, darker on
    # a light one.
    toward = 1.0 if givens_median > entries_median else -1.0
    along = toward * lightness
    gap = abs(givens_median - entries_median)
    if gap <= _SAME_INK or np.percentile(along[given], 10) <= np.percentile(along[entry], 90):
        return nothing
    return np.asarray((along - toward * entries_median) / gap)


def _way_to_entry(
    colours: FloatArray,
    given: npt.NDArray[np.bool_],
    entry: npt.NDArray[np.bool_],
    between: FloatArray,
) -> FloatArray:
    """How far (N,) each ink (N, 2) lies along the way from the givens to an entry ink.

    0 at the givens' median, 1 at the entry ink's, NaN where the nearest entry is an
    ink used only once.

    The way runs from the median of the ``given`` inks to the median of the ``entry``
    inks within ``COLOUR_SPLIT`` of the ink's nearest entry, at least two of them (an
    ink the player used more than once; ``between`` holds the inks' a*b* distances); an
    entry ink is left out of its own way. A photographed screen scatters each ink's
    colour across the line between the two (moire tints the givens, washes the entries
    out): along it they stay apart where the plain distance, blurred by the scatter
    across it, does not. ``colours`` may be the inks as seen or at full strength
    (``_ink_colours``); ``between`` groups them.
    """
    out = np.full(len(colours), np.nan)
    entries = np.flatnonzero(entry)
    if len(entries) < 2:
        return out
    centre = np.median(colours[given], axis=0)
    ways: dict[bytes, FloatArray] = {}  # by the group of entries it leads to, measured once
    for k in range(len(colours)):
        # An entry ink's own way leaves it out: alone, it would lead the way to itself.
        others = entries[entries != k]
        near = others[np.argmin(between[k, others])]
        group = others[between[near, others] < COLOUR_SPLIT]
        if len(group) < 2:
            continue
        key = group.tobytes()
        if key not in ways:
            ways[key] = np.median(colours[group], axis=0) - centre
        way = ways[key]
        if float(way @ way) > 0:
            out[k] = float((colours[k] - centre) @ way) / float(way @ way)
    return out


def _twin_features(ink: npt.NDArray[np.floating[Any]]) -> npt.NDArray[np.float32]:
    """A cell's centred ink (64, 64), cropped to the digit and slightly blurred."""
    window = centred(np.asarray(ink, dtype=np.float32))[_TWIN_WINDOW, _TWIN_WINDOW]
    return np.ascontiguousarray(cv2.GaussianBlur(window, (0, 0), 1.0), dtype=np.float32)


def _likeness(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    """The best normalised correlation of two feature maps within ``_TWIN_SHIFT``: the
    middle of ``a`` against every window of ``b`` it fits in (OpenCV's template match,
    mean-subtracted and normalised)."""
    s = _TWIN_SHIFT
    scores = cv2.matchTemplate(b, np.ascontiguousarray(a[s:-s, s:-s]), cv2.TM_CCOEFF_NORMED)
    finite = scores[np.isfinite(scores)]  # a flat window has no correlation
    return float(finite.max()) if finite.size else -1.0


def _mutual_likeness(a: npt.NDArray[np.float32], b: npt.NDArray[np.float32]) -> float:
    """:func:`_likeness` of two feature maps, the better of either way round."""
    return max(_likeness(a, b), _likeness(b, a))


def _alike(
    ink: npt.NDArray[np.floating[Any]], cells: list[int], threshold: float
) -> npt.NDArray[np.bool_]:
    """Which of ``cells`` (n,) are alike, pairwise (n, n; True on the diagonal): their
    likeness either way round reaches ``threshold``."""
    return _alike_features([_twin_features(ink[c]) for c in cells], threshold)


def _alike_features(
    features: list[npt.NDArray[np.float32]], threshold: float
) -> npt.NDArray[np.bool_]:
    """:func:`_alike` of cells' feature maps (:func:`_twin_features`)."""
    n = len(features)
    alike = np.eye(n, dtype=bool)
    for i in range(n):
        for j in range(i + 1, n):
            alike[i, j] = alike[j, i] = _mutual_likeness(features[i], features[j]) >= threshold
    return alike


def print_likeness(
    ink: npt.NDArray[np.floating[Any]],
    digits: npt.ArrayLike,
    candidates: npt.ArrayLike,
    printed: npt.ArrayLike,
) -> FloatArray:
    """How alike each candidate's ink is to the likest surely printed digit of its value.

    A puzzle's givens are one font at one size: every printed 7 of a grid is the same
    glyph, while a person's 7 differs from the print every time. So a candidate that
    matches a surely printed digit of its value (``TWIN_LIKENESS``) is print, and one
    far from every such digit (``STRANGER_LIKENESS``) is not.

    Parameters
    ----------
    ink : (81, 64, 64) float array
        The cells' ink maps (``ink_maps_and_gains``), in the order of the other arrays.
    digits : (81,) int array
        The digit each cell holds, 0 when none or in doubt.
    candidates : (81,) bool array
        The cells to measure.
    printed : (81,) bool array
        Cells surely printed: the references.

    Returns
    -------
    (81,) float array
        The best normalised correlation with another reference cell of the same digit;
        NaN for cells not measured, without a digit or without such a reference.
    """
    values = np.asarray(digits).ravel()
    cand = np.asarray(candidates, dtype=bool).ravel() & (values > 0)
    refs = np.asarray(printed, dtype=bool).ravel() & (values > 0)
    out = np.full(len(values), np.nan)
    features: dict[int, npt.NDArray[np.float32]] = {}

    def feature(c: int) -> npt.NDArray[np.float32]:
        if c not in features:
            features[c] = _twin_features(ink[c])
        return features[c]

    for c in np.flatnonzero(cand):
        twins = [int(t) for t in np.flatnonzero(refs & (values == values[c])) if t != c]
        if twins:
            out[c] = max(_likeness(feature(int(c)), feature(t)) for t in twins)
    return out


def twin_families(
    ink: npt.NDArray[np.floating[Any]], digits: npt.ArrayLike, candidates: npt.ArrayLike
) -> npt.NDArray[np.bool_]:
    """Candidates that are one glyph with at least two others of their digit: print.

    Without a surely printed digit of a value to compare with, three or more copies of
    one glyph are still a font: a person's digits of one value are each their own. On
    Wicht's mixed photos (both halves) about 1 in 60 pairs of handwritten digits of one
    value are twins (``TWIN_LIKENESS``), but none of the 16 triples read in doubt is all
    twins, while 26 of the 30 printed triples read in doubt are. A written 1 is a plain
    stroke, as alike as print: never counted.

    Parameters as in :func:`print_likeness`; returns (81,) bool, the candidates found in
    a family of three mutual twins.
    """
    values = np.asarray(digits).ravel()
    cand = np.asarray(candidates, dtype=bool).ravel() & (values > 1)
    out = np.zeros(len(values), dtype=bool)
    for digit in np.unique(values[cand]):
        cells = [int(c) for c in np.flatnonzero(cand & (values == digit))]
        if len(cells) < 3:
            continue
        alike = _alike(ink, cells, TWIN_LIKENESS)
        np.fill_diagonal(alike, False)
        n = len(cells)
        for i in range(n):
            for j in range(i + 1, n):
                if alike[i, j] and (alike[i] & alike[j]).any():
                    out[[cells[i], cells[j]]] = True
    return out


def glyph_groups(ink: npt.NDArray[np.floating[Any]], candidates: npt.ArrayLike) -> list[list[int]]:
    """Groups of candidate cells whose digits are copies of one glyph (one digit).

    A font prints a digit the same way every time: where blur or moire leave the network
    torn between two digits in each of several cells, the cells that are copies of one
    another are still one digit, and the rules of the puzzle can then decide which.
    Copies are mutual: every two cells of a group correlate at ``GLYPH_LIKENESS`` or
    more (a chain of near-copies is no group).

    Parameters
    ----------
    ink : (81, 64, 64) float array
        The cells' ink maps, in the order of ``candidates``.
    candidates : (81,) bool array
        The cells to group: printed digits read in doubt.

    Returns
    -------
    list of list of int
        Disjoint groups of two or more cells, each sorted.
    """
    cells = [int(c) for c in np.flatnonzero(np.asarray(candidates, dtype=bool).ravel())]
    alike = _alike(ink, cells, GLYPH_LIKENESS)
    # A connected part of the likeness graph is a group only when every two of it are
    # alike.
    return [
        [cells[k] for k in members]
        for members in _connected_parts(alike)
        if len(members) >= 2 and alike[np.ix_(members, members)].all()
    ]


def _connected_parts(linked: npt.NDArray[np.bool_]) -> list[list[int]]:
    """The connected parts (each sorted) of the graph whose edges ``linked`` (n, n)
    marks, in the order of their lowest members."""
    parts: list[list[int]] = []
    unseen = set(range(len(linked)))
    while unseen:
        part, todo = set(), [min(unseen)]
        unseen.discard(todo[0])
        while todo:
            k = todo.pop()
            part.add(k)
            for m in np.flatnonzero(linked[k]):
                if int(m) in unseen:
                    unseen.discard(int(m))
                    todo.append(int(m))
        parts.append(sorted(part))
    return parts


def font_strangers(
    ink: npt.NDArray[np.floating[Any]],
    digits: npt.ArrayLike,
    candidates: npt.ArrayLike,
    printed: npt.ArrayLike,
) -> npt.NDArray[np.bool_]:
    """Candidates unlike every copy of their digit's printed glyph, yet with no less ink.

    Where a page's print shows a digit's glyph at least twice (two ``printed`` cells of
    the value that are twins, ``TWIN_LIKENESS``), a candidate of that value whose likest
    copy correlates under ``FONT_STRANGER`` is another hand's, however sure the
    network is that its shape is print (a neat hand in black pen: fonts-seto,
    fonts-yusei-magic), unless it has less ink than the copies' median: the camera
    takes ink off a print it damages (glare, blur, a shadow; on Wicht's mixed photos the
    printed digits that far from such copies hold 0.59-0.96 of their ink), it adds none.

    Parameters as in :func:`print_likeness`; returns (81,) bool.
    """
    values = np.asarray(digits).ravel()
    cand = np.asarray(candidates, dtype=bool).ravel() & (values > 0)
    refs = np.asarray(printed, dtype=bool).ravel() & (values > 0)
    out = np.zeros(len(values), dtype=bool)
    for digit in np.unique(values[cand]):
        copies = [int(t) for t in np.flatnonzero(refs & (values == digit))]
        if len(copies) < 2:
            continue
        features = {c: _twin_features(ink[c]) for c in copies}
        alike = _alike_features(list(features.values()), TWIN_LIKENESS)
        np.fill_diagonal(alike, False)
        font = [copies[k] for k in np.flatnonzero(alike.any(axis=1))]
        if len(font) < 2:
            continue
        mass = float(np.median([float(np.sum(ink[c])) for c in font]))
        for c in np.flatnonzero(cand & (values == digit)):
            others = [t for t in font if t != c]
            if len(others) < 2 or float(np.sum(ink[c])) < mass:
                continue
            mine = features.get(int(c))
            if mine is None:
                mine = _twin_features(ink[c])
            best = max(_mutual_likeness(mine, features[t]) for t in others)
            out[c] = best < FONT_STRANGER
    return out


def print_twins(
    ink: npt.NDArray[np.floating[Any]],
    digits: npt.ArrayLike,
    written: npt.ArrayLike,
    printed: npt.ArrayLike,
) -> npt.NDArray[np.bool_]:
    """Cells read as ``written`` (81,) whose ink is a copy of a ``printed`` digit's on
    the same grid (``TWIN_LIKENESS``; arrays as in :func:`print_likeness`)."""
    with np.errstate(invalid="ignore"):
        return np.asarray(print_likeness(ink, digits, written, printed) >= TWIN_LIKENESS)


def taller_than_print(
    ink: npt.NDArray[np.floating[Any]], digits: npt.ArrayLike, printed: npt.ArrayLike
) -> npt.NDArray[np.bool_]:
    """Which cells' digits are ``TALLER_THAN_PRINT`` times the print's typical height.

    A font prints every digit at one height; a person writes each at its own, and a
    neat hand in black pen, which the network may take for print and whose ink is the
    print's, still stands out by it. The typical height is that of the largest cluster
    of the ``printed`` cells' tallest strokes (``preprocess.main_blob``) within
    ``_SAME_HEIGHT`` of one of them, the median of that cluster, when it holds at
    least ``MIN_REFERENCE`` digits other than 1 (a 1 is as tall, but a written one is
    a plain stroke of any height and is never measured). A cluster, not the median of
    all: on a page in a held-out print filled in a neat hand, many written digits lean
    print too. Where the print is not one height (under ``_ONE_HEIGHT`` of the
    references below the mark lie in that cluster: blur, crinkled paper), heights tell
    nothing and no cell is marked.

    Parameters
    ----------
    ink : (81, 64, 64) float array
        The cells' ink maps, in the order of the other arrays.
    digits : (81,) int array
        The digit each cell holds, 0 when none or in doubt.
    printed : (81,) bool array
        Cells that lean print: the references.

    Returns
    -------
    (81,) bool array
        Cells holding a digit other than 1 that tall; all False without enough references.
    """
    values = np.asarray(digits).ravel()
    heights = np.array([blob_height(ink[c]) if values[c] > 1 else 0.0 for c in range(len(values))])
    typical = _print_height(heights, np.asarray(printed, dtype=bool).ravel())
    if typical is None:
        return np.zeros(len(values), dtype=bool)
    return np.asarray(heights >= TALLER_THAN_PRINT * typical)


def print_at_its_height(
    ink: npt.NDArray[np.floating[Any]], digits: npt.ArrayLike, printed: npt.ArrayLike
) -> npt.NDArray[np.bool_]:
    """The ``printed`` cells (81,) whose digits stand at the print's one height.

    A font's digits are one height, a hand's scatter: where the network is sure of the
    print-like shape of a neat hand's digits too, those at the print's height (within
    ``_SAME_HEIGHT`` of :func:`taller_than_print`'s typical height) are the print to
    measure other digits against (bench_mixed seed 1020: the person's 3s and 5s in
    fonts-yusei-magic, sure print by shape, made the printed 3s and 5s strangers to
    "the print"). All of ``printed`` where the print is not one height. Parameters as
    in :func:`taller_than_print`.
    """
    values = np.asarray(digits).ravel()
    refs = np.asarray(printed, dtype=bool).ravel() & (values > 0)
    heights = np.array([blob_height(ink[c]) if refs[c] else 0.0 for c in range(len(values))])
    typical = _print_height(np.where(values > 1, heights, 0.0), refs)
    if typical is None:
        return refs
    return refs & (np.abs(heights - typical) <= _SAME_HEIGHT * typical)


def _print_height(heights: FloatArray, printed: npt.NDArray[np.bool_]) -> float | None:
    """The print's typical digit height among ``printed`` cells' ``heights`` (81,; 0 for
    none), as :func:`taller_than_print` tells it; None where the print is not one height
    or too few digits tell it."""
    refs = heights[printed & (heights > 0)]
    near = np.abs(refs[None, :] - refs[:, None]) <= _SAME_HEIGHT * refs[:, None]  # (R, R)
    counts = near.sum(axis=1)
    if not len(refs) or counts.max() < MIN_REFERENCE:
        return None
    cluster = near[int(np.argmax(counts))]
    typical = float(np.median(refs[cluster]))
    if cluster.sum() < _ONE_HEIGHT * (refs < TALLER_THAN_PRINT * typical).sum():
        return None  # a print of many heights
    return typical


def blob_height(ink: npt.NDArray[np.floating[Any]]) -> float:
    """The height in pixels of a cell's tallest digit-like stroke (0 for none)."""
    blob = main_blob(np.asarray(ink, dtype=np.float32))
    return 0.0 if blob is None else float(blob.height)
