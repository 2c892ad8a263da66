"""Nice Loops and Alternating Inference Chains (AIC), plain and grouped (HoDoKu 0706-0711).

A node is a candidate (one cell, one digit) or, in the grouped search, a group node: the
2-3 cells of a box-line intersection that hold a digit ("the digit is in one of them").
If a node is true, every node it weakly links to is false; if a node is false, every
node it strongly links to is true. From every candidate, once assumed true and once
assumed false, a breadth-first search follows these alternating implications; the
shortest chain to each node is kept. Then, as HoDoKu does:

- a chain that comes back to its start cell is a Nice Loop: discontinuous when the two
  ends contradict each other (the start candidate goes, or is the only one left),
  continuous when they agree (every weak link of the loop becomes strong, so candidates
  seeing both ends of a weak link go, and cells entered and left by strong links keep
  only their two loop digits);
- a chain from "candidate off" to another cell's "candidate on" is an AIC: one of its
  ends is true, so a candidate seeing both ends of the same digit goes (at least two of
  them, else HoDoKu calls it a Nice Loop), or, with different digits in cells that see
  each other, each end's digit leaves the other end.

A step is grouped when its chain holds a group node or an ALS node (an almost locked set
whose entry digit is all off, so that its other digits are locked: a cell seeing all of
some of them may be left one digit, forced); the grouped techniques only report those (the
plain ones come first in the solve order). Both searches run once per grid state and are
shared by the three techniques of their kind. The grouped search uses sets of up to 3
cells; a second, wider one (up to 5 cells, as HoDoKu's tables) keeps other chains per node
and serves callers asking for every instance, never the solve loop (see GROUPED_ORDER).

The modules, in the order a chain is found:

- ``graph``: the link graph of one grid state (candidate, group and ALS nodes; strong
  links, weak links, ALS links) and the bit layout of nodes, search states and chain
  entries (tables in its docstring);
- ``search``: the breadth-first search from every candidate, the loops and AICs it finds,
  their eliminations, and the six ``find_*`` finders;
- ``texts``: Eureka notation (``eureka``, ``node_name``) and ``describe_chain``.
"""

from __future__ import annotations

from .graph import CELL_NODES, MAX_ALS_NODE_CELLS, WIDE_ALS_NODE_CELLS, State
from .search import (
    AIC,
    CNL,
    DNL,
    GROUPED,
    GROUPED_ORDER,
    MAX_LINKS,
    SEARCHES,
    _search,
    _steps,
    find_aic,
    find_continuous_nice_loop,
    find_discontinuous_nice_loop,
    find_grouped_aic,
    find_grouped_continuous_nice_loop,
    find_grouped_discontinuous_nice_loop,
)
from .texts import describe_chain, eureka, node_name

__all__ = [
    "AIC",
    "CELL_NODES",
    "CNL",
    "DNL",
    "GROUPED",
    "GROUPED_ORDER",
    "MAX_ALS_NODE_CELLS",
    "MAX_LINKS",
    "SEARCHES",
    "WIDE_ALS_NODE_CELLS",
    "State",
    "_search",
    "_steps",
    "describe_chain",
    "eureka",
    "find_aic",
    "find_continuous_nice_loop",
    "find_discontinuous_nice_loop",
    "find_grouped_aic",
    "find_grouped_continuous_nice_loop",
    "find_grouped_discontinuous_nice_loop",
    "node_name",
]
