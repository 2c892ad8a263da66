"""Last resort: forcing chains, forcing nets and, if even they fail, an explained trial.

A premise ("r1c2 is 5", or "r1c2 is not 5") is followed through its consequences:

* chains use only one-parent inferences: a true candidate removes its cell's other
  digits and the digit from its peers; a false candidate makes true the other digit of a
  bivalue cell or the other place of a digit seen twice in a house;
* nets use every single the premise creates (a cell or house left with one place, which
  may depend on several earlier inferences) and locked candidates.

If the consequences clash (a candidate both true and false, a cell without candidates,
a digit without a place in a house), the premise is false: a *contradiction*. If every
candidate of a cell (or every place of a digit in a house, or a candidate both true and
false) leads to one same conclusion, that conclusion holds: a *verity*.

Evidence of the steps, shared by the describers:

* contradiction: ``cells=(premise cell, clash cell or -1)``, ``digits=(premise digit,
  clash digit or 0)``, ``houses=(clash house,)`` when a digit lost its last place in a
  house; the step eliminates the premise (assumed true) or places it (assumed false);
* verity: ``cells`` the premise cells, ``digits`` their digits, ``houses=(house,)`` for
  a house verity; one conclusion per step;
* ``chain``: the inferences, branch after branch, each branch starting with its premise;
  ``branch_lengths``: the number of nodes of each branch;
* nested net: also ``refuted``, the candidates inner nets refuted, and ``inner_sizes``,
  the size of the inner net that refuted each.

The modules, in the order a reader meets them:

* :mod:`.facts`: the packed ints everything works on (facts, why each holds, digit
  places), with their bit layout;
* :mod:`.propagation`: following one premise (``_Propagator``, ``_Run``, ``_Outcome``);
* :mod:`.graph`: the one-parent inference graph (``_Closure``, ``tarjan_scc``), which
  tells chains' clashes and reached facts without following;
* :mod:`.finders`: the finders, and the per-state ``ForcingState`` they share;
* :mod:`.texts`: the steps in words;
* :mod:`.trial`: the explained trial, when nothing else is left.
"""

from __future__ import annotations

from .finders import (
    ForcingState,
    find_forcing_chain_contradiction,
    find_forcing_chain_verity,
    find_forcing_net_contradiction,
    find_forcing_net_nested,
    find_forcing_net_verity,
    forcing_state,
)
from .texts import describe_forcing_contradiction, describe_forcing_verity
from .trial import describe_trial, find_trial

__all__ = [
    "ForcingState",
    "describe_forcing_contradiction",
    "describe_forcing_verity",
    "describe_trial",
    "find_forcing_chain_contradiction",
    "find_forcing_chain_verity",
    "find_forcing_net_contradiction",
    "find_forcing_net_nested",
    "find_forcing_net_verity",
    "find_trial",
    "forcing_state",
]
