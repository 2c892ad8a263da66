"""The technique colours: every family of the registry has one, and they stay apart for
red-green colour-blind eyes (simulated), from each other, the print and the mistake ring."""

from __future__ import annotations

import itertools

import numpy as np
import numpy.typing as npt
import pytest

from overlay.legend import FAMILY_COLOURS, GIVEN_COLOUR, MISTAKE_COLOUR, RGB, technique_colour
from solver.techniques import ALL_TECHNIQUES

# Machado, Oliveira & Fernandes (2009), severity 1.0, on linear RGB.
SIMULATIONS = {
    "normal": np.eye(3),
    "deuteranopia": np.array(
        [
            [0.367322, 0.860646, -0.227968],
            [0.280085, 0.672501, 0.047413],
            [-0.011820, 0.042940, 0.968881],
        ]
    ),
    "protanopia": np.array(
        [
            [0.152286, 1.052583, -0.204868],
            [0.114503, 0.786281, 0.099216],
            [-0.003882, -0.048116, 1.051998],
        ]
    ),
}
MIN_DELTA_E = 20.0  # CIE76, the bound
REGISTRY_FAMILIES = sorted({t.family for t in ALL_TECHNIQUES})


def _lab(rgb: RGB, vision: str) -> npt.NDArray[np.float64]:
    """CIE L*a*b* (D65) of an sRGB colour as seen with ``vision``."""
    c = np.asarray(rgb, dtype=float) / 255.0
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    linear = np.clip(SIMULATIONS[vision] @ linear, 0.0, 1.0)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = m @ linear / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _delta_e(a: RGB, b: RGB, vision: str) -> float:
    return float(np.linalg.norm(_lab(a, vision) - _lab(b, vision)))


def test_every_registry_family_has_its_own_colour() -> None:
    # Over the registry, not the palette: a family the palette misses would be drawn
    # in the fallback colour.
    missing = [f for f in REGISTRY_FAMILIES if f not in FAMILY_COLOURS]
    assert not missing
    for tech in ALL_TECHNIQUES:
        assert technique_colour(tech.id) == FAMILY_COLOURS[tech.family]
    assert len({FAMILY_COLOURS[f] for f in REGISTRY_FAMILIES}) == len(REGISTRY_FAMILIES)


@pytest.mark.parametrize("vision", list(SIMULATIONS))
def test_families_stay_apart_for_colour_blind_eyes(vision: str) -> None:
    colours = {f: FAMILY_COLOURS[f] for f in REGISTRY_FAMILIES}
    for (fa, a), (fb, b) in itertools.combinations(colours.items(), 2):
        assert _delta_e(a, b, vision) >= MIN_DELTA_E, (vision, fa, fb)
    for family, colour in colours.items():
        assert _delta_e(colour, GIVEN_COLOUR, vision) >= MIN_DELTA_E, (vision, family, "print")
        assert _delta_e(colour, MISTAKE_COLOUR, vision) >= MIN_DELTA_E, (vision, family, "ring")


def test_family_colours_read_on_white_paper() -> None:
    for family in REGISTRY_FAMILIES:
        assert _lab(FAMILY_COLOURS[family], "normal")[0] <= 70.0, family
