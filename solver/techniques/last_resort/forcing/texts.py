"""The forcing steps in words: premises, branches and clashes (see the evidence in
:mod:`solver.techniques.last_resort.forcing`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from ....grid import cell_name, house_name
from ....steps import ChainNode, Step

# Describing more inferences than this explains nothing; longer branches are shortened.
MAX_TEXT_NODES: Final = 14


def _node_text(node: ChainNode) -> str:
    cells, digit, on = node
    return f"{cell_name(cells[0])}{'=' if on else '<>'}{digit}"


def _branch_text(nodes: Sequence[ChainNode]) -> str:
    texts = [_node_text(n) for n in nodes]
    if len(texts) > MAX_TEXT_NODES:
        cut = MAX_TEXT_NODES // 2
        texts = [*texts[:cut], "...", *texts[-cut:]]
    return " -> ".join(texts)


def _split(step: Step) -> list[tuple[ChainNode, ...]]:
    out, start = [], 0
    for n in step.branch_lengths:
        out.append(step.chain[start : start + n])
        start += n
    return out


def _net_text(nodes: Sequence[ChainNode]) -> str:
    """A net in words: its placements in order, and how many eliminations it used."""
    placed = [_node_text(n) for n in nodes[1:] if n[2]]
    removed = sum(1 for n in nodes[1:] if not n[2])
    if len(placed) > MAX_TEXT_NODES:
        placed = [*placed[: MAX_TEXT_NODES - 1], "...", placed[-1]]
    if not placed:
        return f"removes {removed} candidates"
    return f"forces {', '.join(placed)} (using {removed} eliminations on the way)"


def _clash_text(step: Step) -> str:
    clash_digit = step.digits[1]
    if step.houses:
        return f"which leaves no place for {clash_digit} in {house_name(step.houses[0])}"
    clash_cell = step.cells[1]
    if clash_digit == 0:
        return f"which leaves {cell_name(clash_cell)} without candidates"
    return f"which makes {cell_name(clash_cell)} both {clash_digit} and not {clash_digit}"


def describe_forcing_contradiction(step: Step) -> str:
    cell, digit = step.cells[0], step.digits[0]
    net = step.technique.startswith("forcing-net")
    assumed_on = bool(step.eliminations)
    premise = f"{cell_name(cell)}{'=' if assumed_on else '<>'}{digit}"
    verdict = f"{cell_name(cell)} <> {digit}" if assumed_on else f"{cell_name(cell)} = {digit}"
    if step.technique == "forcing-net-nested":
        how = _net_text(step.chain)
        inner = [f"{cell_name(c)}={d}" for c, d in step.refuted]
        clash = _clash_text(step).removeprefix("which ")
        if len(inner) > 1:
            within = (
                f"within it, {', '.join(inner)} would each lead to a contradiction of their "
                f"own, so they go too"
            )
        else:
            within = (
                f"within it, {''.join(inner) or 'nothing'} would lead to a contradiction of "
                f"its own, so it goes too"
            )
        return (
            f"Nested forcing net: if {premise}, singles and locked candidates show it {how}; "
            f"{within}; in the end the net {clash}, so {verdict}"
        )
    if net:
        (nodes,) = _split(step)
        how = _net_text(nodes)
        return (
            f"Forcing net: if {premise}, singles and locked candidates show it {how}, "
            f"{_clash_text(step)}, so {verdict}"
        )
    # Every branch starts with the premise: said once.
    chains = "; ".join(_branch_text(b[1:]) for b in _split(step) if len(b) > 1)
    then = f" then {chains}," if chains else ","
    return f"Forcing chain: if {premise}{then} {_clash_text(step)}, so {verdict}"


def describe_forcing_verity(step: Step) -> str:
    net = step.technique.startswith("forcing-net")
    if step.placements:
        cell, digit = step.placements[0]
        result = f"{cell_name(cell)}={digit}"
    else:
        cell, digit = step.eliminations[0]
        result = f"{cell_name(cell)}<>{digit}"
    if step.houses:
        whichever = (
            f"wherever {step.digits[0]} goes in {house_name(step.houses[0])} "
            f"({', '.join(cell_name(c) for c in step.cells)})"
        )
    elif len(step.digits) > 1:
        whichever = (
            f"whichever of {cell_name(step.cells[0])}'s {', '.join(map(str, step.digits))} is true"
        )
    else:
        whichever = f"whether {cell_name(step.cells[0])} is {step.digits[0]} or not"
    if net:
        parts = "; ".join(f"{_node_text(b[0])} {_net_text(b)}" for b in _split(step))
        kind = "Forcing net"
    else:
        parts = "; ".join(_branch_text(b) for b in _split(step))
        kind = "Forcing chain"
    return f"{kind} verity: {whichever}, {result} ({parts}), so {result}"
