"""Almost locked sets: ALS-XZ, ALS-XY-Wing, ALS-Chain and Death Blossom (HoDoKu 0901-0904).

An almost locked set (ALS) is ``n`` cells of one house holding ``n + 1`` digits: remove
any one digit and the rest is locked. A digit ``x`` is a restricted common (RC) of two
ALS that do not overlap when every ``x`` of one sees every ``x`` of the other: ``x`` can
then be true in at most one of them, so the other one is locked.

The ALS of a grid and the RCs between them are collected once per pencil-mark state
(bitmasks: an 81-bit cell set, a digit mask and per-digit cell sets) and cached, since
the four finders run one after the other on the same state. Eliminations follow
HoDoKu's ``AlsSolver``: one instance per ALS pair / triple / chain / blossom, with all of
its eliminations.

The modules:

- ``sets``: the sets (``Als``), finding them and their RCs (``als_index``, cached per
  state; ``small_alses`` for chain nodes), the eliminations common to two sets, and the
  bit layout of links and of the search's packed ints (tables in its docstring);
- ``evidence``: the evidence of an ALS step (``als_step``) and reading it back
  (``als_groups``);
- ``xz``, ``wing``, ``chain``, ``death_blossom``: one finder each (``chain`` has its own
  layout table: the breadth-first search's states);
- ``texts``: the ``describe_*`` texts;
- ``sue_de_coq``: Sue de Coq (two sets where a box meets a row or column), of the family.

The family's rows (finder, text, rating and codes together; see solver.registry) are
``ROWS`` below.
"""

from __future__ import annotations

from ...registry import EST, Family, Level, SerEntry, Technique
from .chain import MAX_CHAIN_ALS, find_als_chain
from .death_blossom import BLOSSOM_BUDGET, find_death_blossom
from .evidence import als_groups, als_step
from .sets import MAX_ALS_CELLS, Als, AlsIndex, als_index, make_als, small_alses
from .sue_de_coq import describe_sue_de_coq, find_sue_de_coq
from .texts import describe_als_chain, describe_als_xy_wing, describe_als_xz, describe_death_blossom
from .wing import find_als_xy_wing
from .xz import find_als_xz

__all__ = [
    "BLOSSOM_BUDGET",
    "MAX_ALS_CELLS",
    "MAX_CHAIN_ALS",
    "ROWS",
    "Als",
    "AlsIndex",
    "als_groups",
    "als_index",
    "als_step",
    "describe_als_chain",
    "describe_als_xy_wing",
    "describe_als_xz",
    "describe_death_blossom",
    "find_als_chain",
    "find_als_xy_wing",
    "find_als_xz",
    "find_death_blossom",
    "make_als",
    "small_alses",
]

ROWS: tuple[Technique, ...] = (
    Technique(
        id="sue-de-coq",
        name="Sue de Coq",
        code="SdC",
        family=Family.ALS,
        level=Level.UNFAIR,
        weight=250,
        ser=SerEntry(7.2, False, EST + ": between forcing and multiple chains"),
        hodoku=("1101",),
        find=find_sue_de_coq,
        describe=describe_sue_de_coq,
    ),
    Technique(
        id="als-xz",
        name="ALS-XZ",
        code="AXZ",
        family=Family.ALS,
        level=Level.UNFAIR,
        weight=300,
        ser=SerEntry(7.5, False, EST + ": between forcing and multiple chains"),
        hodoku=("0901",),
        find=find_als_xz,
        describe=describe_als_xz,
    ),
    Technique(
        id="als-xy-wing",
        name="ALS-XY-Wing",
        code="AXY",
        family=Family.ALS,
        level=Level.UNFAIR,
        weight=320,
        ser=SerEntry(7.8, False, EST + ": between forcing and multiple chains"),
        hodoku=("0902",),
        find=find_als_xy_wing,
        describe=describe_als_xy_wing,
    ),
    Technique(
        id="als-chain",
        name="ALS-Chain",
        code="AC",
        family=Family.ALS,
        level=Level.UNFAIR,
        weight=340,
        ser=SerEntry(7.8, True, EST + ": ALS-XY-Wing base, chain length increment"),
        hodoku=("0903",),
        find=find_als_chain,
        describe=describe_als_chain,
    ),
    Technique(
        id="death-blossom",
        name="Death Blossom",
        code="DB",
        family=Family.ALS,
        level=Level.UNFAIR,
        weight=360,
        ser=SerEntry(8.0, False, EST + ": SE cell forcing chain (multiple chains)"),
        hodoku=("0904",),
        find=find_death_blossom,
        describe=describe_death_blossom,
    ),
)
