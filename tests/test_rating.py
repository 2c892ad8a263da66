"""Rating: the SER-like table, SE's chain-length increment, the puzzle's level and SER,
and the hand-made Spearman used by the rating benchmark."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

from solver import SOLVED, parse_puzzle, rate, solve
from solver.generate import generate
from solver.parse import read_puzzle_file
from solver.rating import (
    average_ranks,
    length_bonus,
    puzzle_ser,
    spearman,
    step_ser,
)
from solver.registry import LEVELS
from solver.steps import Step
from solver.techniques import ALL_TECHNIQUES, TECHNIQUES

# The SER entries of the registry's rows (each family's folder declares them).
SER_TABLE = {t.id: t.ser for t in ALL_TECHNIQUES}

ROOT = Path(__file__).resolve().parent.parent

# Technique ids other areas are adding: the table must already rate them.
PLANNED = """
finned-x-wing finned-swordfish finned-jellyfish sashimi-x-wing sashimi-swordfish
sashimi-jellyfish dual-two-string-kite dual-empty-rectangle multi-colours-1 multi-colours-2
unique-rectangle-1 unique-rectangle-2 unique-rectangle-3 unique-rectangle-4 unique-rectangle-5
unique-rectangle-6 hidden-rectangle avoidable-rectangle-1 avoidable-rectangle-2 bug-plus-1
continuous-nice-loop discontinuous-nice-loop aic grouped-continuous-nice-loop
grouped-discontinuous-nice-loop grouped-aic als-xz als-xy-wing als-chain death-blossom
sue-de-coq template-set template-delete forcing-chain-contradiction forcing-chain-verity
forcing-net-contradiction forcing-net-verity trial
""".split()  # noqa: SIM905


def test_table_covers_every_technique() -> None:
    missing = [t for t in [*TECHNIQUES, *PLANNED] if t not in SER_TABLE]
    assert not missing
    for tid, entry in SER_TABLE.items():
        assert 1.0 <= entry.base <= 11.0, tid
        assert entry.source, tid


def test_table_follows_se_order() -> None:
    # SE's own figures, and its ordering of the families
    se = {t: SER_TABLE[t].base for t in SER_TABLE}
    assert se["naked-single"] == 2.3 and se["locked-pointing"] == 2.6
    assert se["naked-pair"] == 3.0 and se["x-wing"] == 3.2 and se["hidden-pair"] == 3.4
    assert se["naked-triple"] == 3.6 and se["swordfish"] == 3.8 and se["hidden-triple"] == 4.0
    assert se["xy-wing"] == 4.2 and se["xyz-wing"] == 4.4 and se["unique-rectangle-1"] == 4.5
    assert se["naked-quad"] == 5.0 and se["jellyfish"] == 5.2 and se["hidden-quad"] == 5.4
    assert se["bug-plus-1"] == 5.6
    assert se["x-chain"] < se["xy-chain"] < se["forcing-chain-verity"]
    assert se["forcing-chain-verity"] < se["forcing-net-verity"] < se["trial"]
    for size in ("x-wing", "swordfish", "jellyfish"):
        assert se[size] < se[f"finned-{size}"] < se[f"sashimi-{size}"]


def test_length_bonus_matches_se_thresholds() -> None:
    # SE adds 0.1 past each of 4, 6, 8, 12, 16, 24, 32, 48, ...
    assert [length_bonus(n) for n in (0, 4, 5, 6, 7, 8, 9, 12, 13, 16, 17, 24, 25, 33, 49)] == [
        0.0, 0.0, 0.1, 0.1, 0.2, 0.2, 0.3, 0.3, 0.4, 0.4, 0.5, 0.5, 0.6, 0.7, 0.8,
    ]  # fmt: skip


def test_step_ser_examples() -> None:
    box = Step("hidden-single", placements=((0, 5),), cells=(0,), houses=(18,), digits=(5,))
    row = Step("hidden-single", placements=((0, 5),), cells=(0,), houses=(0,), digits=(5,))
    assert step_ser(box) == 1.2 and step_ser(row) == 1.5
    assert step_ser(Step("naked-single", placements=((0, 5),))) == 2.3
    assert step_ser(Step("x-wing", eliminations=((5, 3),))) == 3.2
    # an X-chain of 4 cells (a turbot fish's length) has no increment, 8 cells two
    assert step_ser(Step("x-chain", cells=(0, 8, 80, 72), digits=(4,))) == 6.6
    assert step_ser(Step("x-chain", cells=tuple(range(8)), digits=(4,))) == 6.8
    # an XY-chain uses both candidates of each cell: 3 cells are 6 nodes
    assert step_ser(Step("xy-chain", cells=(0, 1, 10), digits=(1, 2, 3, 1))) == 7.1
    # with chain nodes, their count; one digit throughout rates as SE's X-chains
    one_digit = tuple(((c,), 7, i % 2 == 0) for i, c in enumerate((0, 8, 17, 26, 80, 72)))
    mixed = tuple(((c,), 1 + i % 2, i % 2 == 0) for i, c in enumerate((0, 8, 17, 26, 80, 72)))
    assert step_ser(Step("aic", chain=one_digit)) == 6.7
    assert step_ser(Step("aic", chain=mixed)) == 7.1
    assert step_ser(Step("continuous-nice-loop", chain=one_digit)) == 6.6
    assert step_ser(Step("forcing-chain-verity", chain=mixed * 3)) == 8.5  # 18 nodes: +0.5


def test_only_chain_rows_have_a_one_digit_rating() -> None:
    for tid, entry in SER_TABLE.items():
        if entry.one_digit is not None:
            assert entry.chain and entry.one_digit < entry.base, tid


def test_puzzle_ser_is_the_hardest_step() -> None:
    steps = [
        Step("hidden-single", houses=(18,)),
        Step("xy-wing"),
        Step("naked-single"),
    ]
    assert puzzle_ser(steps) == 4.2
    assert puzzle_ser([]) == 0.0
    assert rate(steps).ser == 4.2


def test_level_moves_up_with_the_score() -> None:
    # pointing is medium; HoDoKu moves a medium path scoring over 1000 to hard
    assert rate([Step("locked-pointing")] * 20).level == "medium"  # 1000
    assert rate([Step("locked-pointing")] * 21).level == "hard"  # 1050
    assert rate([Step("locked-pointing")] * 40).level == "extreme"  # 2000 > 1800
    assert rate([Step("hidden-single")] * 60).level == "medium"  # 840 > 800
    assert rate([Step("naked-single")], stuck=True).level == "extreme"
    assert rate([]).level == "easy"


def test_difficulty_in_json() -> None:
    result = solve(generate(1))
    d = result.to_dict()["difficulty"]
    assert isinstance(d, dict)
    assert d["ser"] == result.difficulty.ser == max(step_ser(s) for s in result.steps)


def test_easy_puzzle_rates_below_a_hard_one() -> None:
    easy, hard = solve(generate(2)), solve(generate(1))  # singles only; needs an X-chain
    assert easy.status == hard.status == SOLVED
    de, dh = easy.difficulty, hard.difficulty
    assert de.ser < dh.ser and de.score < dh.score
    assert LEVELS.index(de.level) < LEVELS.index(dh.level)


def test_ser_monotone_over_qqwing_levels(puzzles_dir: Path) -> None:
    means = []
    for name in ("simple", "intermediate", "expert"):
        texts = [t for _, t in read_puzzle_file(puzzles_dir / f"sets/qqwing_{name}.sdm")][:15]
        means.append(sum(solve(parse_puzzle(t)).difficulty.ser for t in texts) / len(texts))
    assert means[0] < means[1] < means[2]


def test_every_step_of_hard_solves_rates_in_range(puzzles_dir: Path) -> None:
    texts = [t for _, t in read_puzzle_file(puzzles_dir / "sets/top1465.txt")][:12]
    for text in texts:
        result = solve(parse_puzzle(text))
        sers = [step_ser(s) for s in result.steps]
        assert all(1.0 <= s <= 11.0 for s in sers)
        assert result.difficulty.ser == max(sers, default=0.0)


def test_average_ranks_share_ties() -> None:
    assert average_ranks([10, 20, 20, 30]) == [1.0, 2.5, 2.5, 4.0]
    assert average_ranks([3, 1, 2]) == [3.0, 1.0, 2.0]
    assert average_ranks([5, 5, 5]) == [2.0, 2.0, 2.0]


def test_spearman() -> None:
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # with ties (scipy.stats.spearmanr gives 0.9486832980505138)
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(0.9486832980505138)
    # monotone transforms do not change it
    xs = [0.3, 2.0, 1.1, 7.5, 4.0, 4.0]
    ys = [1.0, 3.0, 2.0, 9.0, 5.0, 6.0]
    moved = spearman([x**3 for x in xs], [math.exp(y) for y in ys])
    assert spearman(xs, ys) == pytest.approx(moved)
    assert math.isnan(spearman([1, 1, 1], [1, 2, 3]))
    assert math.isnan(spearman([1], [1]))
    with pytest.raises(ValueError):
        spearman([1, 2], [1])


def test_bench_rating_reads_the_se_csv(puzzles_dir: Path) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bench_rating
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    rated = bench_rating.load_se_rated(puzzles_dir / bench_rating.SE_CSV)
    assert len(rated) == 269
    assert all(len(p) == 81 and 1.0 <= er <= 12.0 for p, er in rated)
