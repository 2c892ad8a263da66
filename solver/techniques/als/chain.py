"""ALS-Chain: four or more almost locked sets joined by restricted commons (HoDoKu 0903).

A breadth-first search over states (set, RC just used, first RC, length class). The
packed ints, in the style of HoDoKu's ``Chain.java`` node-layout table:

A *node* is a set reached by an RC: ``rc id * count + set`` (``count`` sets; an RC mask
gets a small id, in ``id_mask``, when first met). A search state, its *flag*:

    ======  ========  ==================================================  ==================
    bits    field     values                                              names
    ======  ========  ==================================================  ==================
    0 - 4   tail      ``length class * 9 + first RC digit - 1``: the      ``FLAG_TAIL``
                      class is ``min(sets so far, 4) - 2`` (0-2)          (``_length_class``)
    5 -     node      the set reached and the RC that reached it          ``FLAG_NODE_SHIFT``
    ======  ========  ==================================================  ==================

    (``flag_node``, ``flag_set``, ``flag_rc_id``; ``parent`` holds ``count << 5`` flags
    per RC id.)

A *move* (``moves[node]``: the links out of a node, RC ids resolved):

    ======  ========  ==================================================  ==================
    bits    field     values                                              names
    ======  ========  ==================================================  ==================
    0 - 13  set       the next set                                        ``MOVE_SET``
    14 -    node      the next node (the next set, reached by the RC)     ``MOVE_NODE_SHIFT``
    ======  ========  ==================================================  ==================

Results already shown from a start are keyed like links (``sets``): ``end set << 9 | zs``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final, cast

from ...grid import DIGITS_IN, Grid
from ...steps import Step
from .evidence import als_step, new_result
from .sets import LINK_RC, LINK_SET_SHIFT, AlsIndex, als_index, common_elims

MAX_CHAIN_ALS: Final = 8  # ALS in one chain (4..8): HoDoKu's library needs 8

# A flag's fields (see the module's docstring).
FLAG_TAIL: Final = 31  # bits 0-4: length class * 9 + first RC digit - 1
FLAG_NODE_SHIFT: Final = 5  # bits 5-: the node (rc id * count + set)
# A move's fields.
MOVE_SET: Final = 0x3FFF  # bits 0-13: the next set
MOVE_NODE_SHIFT: Final = 14  # bits 14-: the next node


def _length_class(length: int) -> int:
    """The tail offset of the flags of chains of ``length`` sets: 0, 9 or 18 (4 and up)."""
    return (min(length, 4) - 2) * 9


def flag_node(flag: int) -> int:
    """The node (rc id * count + set) of a search state."""
    return flag >> FLAG_NODE_SHIFT


def flag_set(flag: int, count: int) -> int:
    """The set a search state is at."""
    return (flag >> FLAG_NODE_SHIFT) % count


def flag_rc_id(flag: int, count: int) -> int:
    """The id of the RC mask that reached a search state's set."""
    return (flag >> FLAG_NODE_SHIFT) // count


def find_als_chain(grid: Grid) -> Iterator[Step]:
    """A chain of 4+ ALS, each joined to the next by a restricted common that differs
    from the one before: if the first set lacks z it is locked, so is every next set, and
    the last holds z. A digit z common to both ends (not the end RCs) leaves cells seeing
    all of its cells in both ends.

    Breadth first from every set over states (set, RC just used, first RC, length up to
    4): the eliminations depend only on the ends and their RCs, so every result is found
    by a shortest chain, in time bounded by the number of states rather than of paths.
    """
    search = _ChainSearch(als_index(grid))
    for start in range(len(search.alses)):
        yield from search.from_start(start)


class _ChainSearch:
    """The ALS-Chain search of one state, one start set at a time (a plain method: its
    locals are C locals, where a generator keeps them in its frame object)."""

    def __init__(self, index: AlsIndex) -> None:
        alses = self.alses = index.alses
        count = self.count = len(alses)
        self.packed = index.links  # per set, its links (``make_link(next set, RC mask)``)
        self.set_masks = index.masks
        self.seen_masks = index.seen_masks
        # A state is one int, its flag (see the module's docstring), where an RC mask gets
        # a small id when first met (most are one digit). parent[flag]: None unseen,
        # ``_ROOT`` a first link, else the (boxed) flag it was reached from, the very
        # object of the frontier: no int is boxed twice. Reset after each start through
        # the frontiers.
        # (Ints kept in lists stay below 2 ** 30: one digit, quick to unbox.)
        self.mask_id = [-1] * 512
        self.id_mask: list[int] = []
        self.parent: list[object] = []
        # moves[node]: from the set reached by that RC, its next links (the RC used next
        # must differ) as moves (see the module's docstring): the same for every start,
        # first RC and length (``_UNSET``: not yet listed)
        self.moves: list[list[int]] = []
        # seeing[end]: the digits z of the start and ``end`` with a cell seeing every z
        # of both, known where seeing_for[end] is the start
        self.seeing = [0] * count
        self.seeing_for = [-1] * count
        self.reported: set[frozenset[tuple[int, int]]] = set()

    def from_start(self, start: int) -> list[Step]:
        """The chains from ``start``, in the order found."""
        alses, count, packed, set_masks = self.alses, self.count, self.packed, self.set_masks
        mask_id, id_mask, parent, moves = self.mask_id, self.id_mask, self.parent, self.moves
        seeing, seeing_for, seen_masks = self.seeing, self.seeing_for, self.seen_masks
        root = _ROOT
        found: list[Step] = []
        first = alses[start]
        first_seen = seen_masks[start]
        if not first_seen:
            return found  # nothing outside the first set sees any of its digits
        first_mask = first.mask
        frontier: list[object] = []
        for link in packed[start]:
            nxt = link >> LINK_SET_SHIFT
            for x in DIGITS_IN[link & LINK_RC]:
                bit = 1 << (x - 1)
                aid = mask_id[bit]
                if aid < 0:
                    aid = _new_mask_id(bit, count, mask_id, id_mask, parent, moves)
                flag = (aid * count + nxt) << FLAG_NODE_SHIFT | (x - 1)
                if parent[flag] is None:
                    parent[flag] = root
                    first_box: object = flag
                    frontier.append(first_box)
        levels = [frontier]
        shown: set[int] = set()  # (end set, z digits) already reported from this start
        length = 2
        while frontier and length < MAX_CHAIN_ALS:
            offset = _length_class(length)  # of the frontier's flags
            length += 1
            short = length < 4
            next_offset = _length_class(length)
            nxt_frontier: list[object] = []
            for box in frontier:
                state = cast(int, box)
                node = state >> FLAG_NODE_SHIFT
                first_digit = (state & FLAG_TAIL) - offset  # the first RC's digit - 1
                x1 = 1 << first_digit
                flag_tail = next_offset + first_digit
                at = moves[node]
                if at is _UNSET:
                    at = _moves(node, count, packed, mask_id, id_mask, parent, moves)
                for move in at:
                    nxt = move & MOVE_SET
                    if nxt == start:
                        continue
                    target = move >> MOVE_NODE_SHIFT
                    flag = target << FLAG_NODE_SHIFT | flag_tail
                    if parent[flag] is not None:
                        continue
                    parent[flag] = box
                    new_box: object = flag
                    nxt_frontier.append(new_box)
                    if short:
                        continue
                    actual = id_mask[target // count]  # (its RC id: see flag_rc_id)
                    zs = first_mask & set_masks[nxt] & ~x1 & ~actual
                    if not zs & first_seen:
                        continue
                    if seeing_for[nxt] == start:
                        sees = seeing[nxt]
                    else:
                        sees = 0
                        end = alses[nxt]
                        for z in DIGITS_IN[first_seen & seen_masks[nxt]]:
                            if first.blo[z] & end.blo[z] or first.bhi[z] & end.bhi[z]:
                                sees |= 1 << (z - 1)
                        seeing[nxt] = sees
                        seeing_for[nxt] = start
                    if not zs & sees or (nxt << LINK_SET_SHIFT | zs) in shown:
                        continue  # the eliminations depend only on the ends and zs
                    states = _chain_states(parent, flag, root)
                    path = [start, *(flag_set(st, count) for st in states)]
                    if len(set(path)) < len(path):
                        continue  # a set used twice is no chain to show
                    shown.add(nxt << LINK_SET_SHIFT | zs)
                    end = alses[nxt]
                    elims = common_elims(first, end, zs)
                    if not new_result(self.reported, elims):
                        continue
                    rcs = [id_mask[flag_rc_id(st, count)] for st in states]
                    chain = [alses[i] for i in path]
                    found.append(als_step("als-chain", chain, [*rcs, 0], _or(rcs), elims))
            frontier = nxt_frontier
            levels.append(frontier)
        for level in levels:
            for box in level:
                parent[cast(int, box)] = None
        return found


_UNSET: Final[list[int]] = []
_ROOT: Final = object()


def _new_mask_id(
    rc: int,
    count: int,
    mask_id: list[int],
    id_mask: list[int],
    parent: list[object],
    moves: list[list[int]],
) -> int:
    """Give the RC mask ``rc`` the next id and make room for its states."""
    aid = mask_id[rc] = len(id_mask)
    id_mask.append(rc)
    parent.extend([None] * (count << FLAG_NODE_SHIFT))
    moves.extend([_UNSET] * count)
    return aid


def _moves(
    node: int,
    count: int,
    packed: list[list[int]],
    mask_id: list[int],
    id_mask: list[int],
    parent: list[object],
    moves: list[list[int]],
) -> list[int]:
    """The next links from set ``node % count`` reached by RC id ``node // count``."""
    here = node % count
    last = id_mask[node // count]
    out: list[int] = []
    for link in packed[here]:
        actual = link & LINK_RC & ~last  # the RC used next must differ from the last
        if not actual:
            continue
        nxt = link >> LINK_SET_SHIFT
        aid = mask_id[actual]
        if aid < 0:
            aid = _new_mask_id(actual, count, mask_id, id_mask, parent, moves)
        out.append((aid * count + nxt) << MOVE_NODE_SHIFT | nxt)
    moves[node] = out
    return out


def _chain_states(parent: list[object], flag: int, root: object) -> list[int]:
    """The search states (flags) of the chain ending in ``flag``, from the start."""
    out = [flag]
    up = parent[flag]
    while up is not root:
        flag = cast(int, up)
        out.append(flag)
        up = parent[flag]
    return out[::-1]


def _or(masks: list[int]) -> int:
    out = 0
    for m in masks:
        out |= m
    return out
