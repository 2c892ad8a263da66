"""Write a solve back onto the photo, in perspective; print sheet and HTML step report."""

from .draw import Annotation, annotate, compose
from .legend import (
    FALLBACK_COLOUR,
    FAMILY_COLOURS,
    MISTAKE_COLOUR,
    Box,
    LegendEntry,
    family_colour,
    legend_entries,
)
from .report import render_report, write_report
from .sheet import render_sheet

__all__ = [
    "FALLBACK_COLOUR",
    "FAMILY_COLOURS",
    "MISTAKE_COLOUR",
    "Annotation",
    "Box",
    "LegendEntry",
    "annotate",
    "compose",
    "family_colour",
    "legend_entries",
    "render_report",
    "render_sheet",
    "write_report",
]
