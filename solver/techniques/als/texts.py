"""The texts of the ALS steps: one line each, the sets and what they prove."""

from __future__ import annotations

from ...grid import cell_name
from ...steps import Role, Step, cells_text, eliminations_text
from .evidence import als_groups


def _set_text(cells: tuple[int, ...], digits: tuple[int, ...]) -> str:
    return f"{cells_text(cells)} {{{''.join(map(str, digits))}}}"


def describe_als_xz(step: Step) -> str:
    (a, da, _), (b, db, _) = als_groups(step)
    rcs = step.digits
    if len(rcs) == 2:
        why = (
            f"{rcs[0]} and {rcs[1]} are both restricted commons (each can be in only one "
            "set), so each set gets exactly one of them and the rest of both sets is locked"
        )
    else:
        zs = "/".join(map(str, sorted({d for _, d in step.eliminations})))
        why = (
            f"{rcs[0]} is a restricted common (it can be in only one of them), so the other "
            f"set is locked and {zs}, found in both, must be in one of the two"
        )
    return (
        f"ALS-XZ: {_set_text(a, da)} and {_set_text(b, db)} are almost locked sets; "
        f"{why}: {eliminations_text(step.eliminations)}"
    )


def describe_als_xy_wing(step: Step) -> str:
    (a, da, x), (c, dc, y), (b, db, _) = als_groups(step)
    zs = sorted({d for _, d in step.eliminations})
    return (
        f"ALS-XY-Wing: pivot set {_set_text(c, dc)} shares the restricted common "
        f"{'/'.join(map(str, x))} with {_set_text(a, da)} and {'/'.join(map(str, y))} with "
        f"{_set_text(b, db)}; the pivot holds one of them, so one outer set is locked and "
        f"{'/'.join(map(str, zs))} is in one of the outer sets: "
        f"{eliminations_text(step.eliminations)}"
    )


def describe_als_chain(step: Step) -> str:
    groups = als_groups(step)
    links = [g[2] for g in groups[:-1]]
    parts = []
    for n, (cells, digits, _) in enumerate(groups):
        parts.append(_set_text(cells, digits))
        if n < len(links):
            parts.append(f"-{'/'.join(map(str, links[n]))}-")
    zs = sorted({d for _, d in step.eliminations})
    return (
        f"ALS-Chain: {' '.join(parts)} (sets joined by restricted commons); a first set "
        f"without one of {'/'.join(map(str, zs))} is locked, and so, link by link, is every "
        f"set down the chain, so each of them is in the first or the last set: "
        f"{eliminations_text(step.eliminations)}"
    )


def describe_death_blossom(step: Step) -> str:
    (stem,) = step.marked_cells(Role.STEM)
    petals = "; ".join(
        f"{d}: {_set_text(cells, digits)}"
        for (cells, digits, _), d in zip(als_groups(step), step.digits, strict=True)
    )
    zs = sorted({d for _, d in step.eliminations})
    return (
        f"Death Blossom: stem {cell_name(stem)} {{{''.join(map(str, step.digits))}}} with "
        f"one petal per candidate ({petals}); whatever the stem holds, that petal loses the "
        f"digit and is locked, so {'/'.join(map(str, zs))} is in one of the petals: "
        f"{eliminations_text(step.eliminations)}"
    )
