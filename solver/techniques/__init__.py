"""The ordered registry of techniques, simplest first; the solve loop takes the first step found."""

from __future__ import annotations

from ..steps import Technique
from .chains import (
    describe_remote_pair,
    describe_w_wing,
    describe_x_chain,
    describe_xy_chain,
    find_remote_pair,
    find_w_wing,
    find_x_chain,
    find_xy_chain,
)
from .fish import describe_fish, find_fish
from .intersections import describe_locked, find_claiming, find_pointing
from .singledigit import (
    describe_empty_rectangle,
    describe_simple_colours,
    describe_two_links,
    find_empty_rectangle,
    find_simple_colours_trap,
    find_simple_colours_wrap,
    find_skyscraper,
    find_turbot_fish,
    find_two_string_kite,
)
from .singles import (
    describe_full_house,
    describe_hidden_single,
    describe_naked_single,
    find_full_house,
    find_hidden_single,
    find_naked_single,
)
from .subsets import describe_hidden, describe_naked, find_hidden, find_locked_subset, find_naked
from .wings import describe_xy_wing, describe_xyz_wing, find_xy_wing, find_xyz_wing

# imports: fish and colouring
# isort: split
from .fish import describe_finned_fish, find_finned_fish
from .singledigit import (
    describe_dual_empty_rectangle,
    describe_dual_two_string_kite,
    describe_multi_colours,
    find_dual_empty_rectangle,
    find_dual_two_string_kite,
    find_multi_colours_1,
    find_multi_colours_2,
)

# imports: uniqueness
# isort: split
from .uniqueness import (
    describe_avoidable_rectangle,
    describe_bug_plus_1,
    describe_hidden_rectangle,
    describe_ur_type1,
    describe_ur_type2_5,
    describe_ur_type3,
    describe_ur_type4,
    describe_ur_type6,
    find_ar_type1,
    find_ar_type2,
    find_bug_plus_1,
    find_hidden_rectangle,
    find_ur_type1,
    find_ur_type2,
    find_ur_type3,
    find_ur_type4,
    find_ur_type5,
    find_ur_type6,
)

# imports: chains and loops
# isort: split
from .loops import (
    describe_chain,
    find_aic,
    find_continuous_nice_loop,
    find_discontinuous_nice_loop,
    find_grouped_aic,
    find_grouped_continuous_nice_loop,
    find_grouped_discontinuous_nice_loop,
)

# imports: almost locked sets
# isort: split
from .als import (
    describe_als_chain,
    describe_als_xy_wing,
    describe_als_xz,
    describe_death_blossom,
    find_als_chain,
    find_als_xy_wing,
    find_als_xz,
    find_death_blossom,
)
from .sue_de_coq import describe_sue_de_coq, find_sue_de_coq

# imports: franken and mutant fish
# isort: split
from .frankenfish import describe_franken_fish, find_franken_fish
from .mutantfish import describe_mutant_fish, find_mutant_fish

# imports: last resort
# isort: split
from .forcing import (
    describe_forcing_contradiction,
    describe_forcing_verity,
    describe_trial,
    find_forcing_chain_contradiction,
    find_forcing_chain_verity,
    find_forcing_net_contradiction,
    find_forcing_net_nested,
    find_forcing_net_verity,
    find_trial,
)
from .templates import (
    describe_template_delete,
    describe_template_set,
    find_template_delete,
    find_template_set,
)

# (id, name, short code, family, HoDoKu codes, weight, level, finder, describer)
_REGISTRY: list[Technique] = [
    Technique("full-house", "Full House", "FH", "singles", ("0000",), 4, "easy",
              find_full_house, describe_full_house),
    Technique("hidden-single", "Hidden Single", "HS", "singles", ("0002",), 14, "easy",
              find_hidden_single, describe_hidden_single),
    Technique("naked-single", "Naked Single", "NS", "singles", ("0003",), 4, "easy",
              find_naked_single, describe_naked_single),
    Technique("locked-pointing", "Locked Candidates (Pointing)", "LP", "intersections",
              ("0100",), 50, "medium", find_pointing, describe_locked),
    Technique("locked-claiming", "Locked Candidates (Claiming)", "LC", "intersections",
              ("0101",), 50, "medium", find_claiming, describe_locked),
    Technique("locked-pair", "Locked Pair", "LkP", "subsets", ("0110",), 40, "medium",
              find_locked_subset(2), describe_naked),
    Technique("locked-triple", "Locked Triple", "LkT", "subsets", ("0111",), 60, "medium",
              find_locked_subset(3), describe_naked),
    Technique("naked-pair", "Naked Pair", "NP", "subsets", ("0200",), 60, "medium",
              find_naked(2), describe_naked),
    Technique("hidden-pair", "Hidden Pair", "HP", "subsets", ("0210",), 70, "medium",
              find_hidden(2), describe_hidden),
    Technique("naked-triple", "Naked Triple", "NT", "subsets", ("0201",), 80, "medium",
              find_naked(3), describe_naked),
    Technique("hidden-triple", "Hidden Triple", "HT", "subsets", ("0211",), 100, "medium",
              find_hidden(3), describe_hidden),
    Technique("naked-quad", "Naked Quad", "NQ", "subsets", ("0202",), 120, "hard",
              find_naked(4), describe_naked),
    Technique("hidden-quad", "Hidden Quad", "HQ", "subsets", ("0212",), 150, "hard",
              find_hidden(4), describe_hidden),
    Technique("x-wing", "X-Wing", "XW", "fish", ("0300",), 140, "hard",
              find_fish(2), describe_fish),
    Technique("swordfish", "Swordfish", "SF", "fish", ("0301",), 150, "hard",
              find_fish(3), describe_fish),
    Technique("jellyfish", "Jellyfish", "JF", "fish", ("0302",), 160, "hard",
              find_fish(4), describe_fish),
    Technique("xy-wing", "XY-Wing", "XY", "wings", ("0800",), 160, "hard",
              find_xy_wing, describe_xy_wing),
    Technique("xyz-wing", "XYZ-Wing", "XYZ", "wings", ("0801",), 180, "hard",
              find_xyz_wing, describe_xyz_wing),
    # Beyond the basic set: single-digit patterns, wings and chains.
    Technique("skyscraper", "Skyscraper", "Sky", "single-digit", ("0400",), 130, "hard",
              find_skyscraper, describe_two_links),
    Technique("two-string-kite", "2-String Kite", "2SK", "single-digit", ("0401",), 150,
              "hard", find_two_string_kite, describe_two_links),
    Technique("turbot-fish", "Turbot Fish", "TF", "single-digit", ("0403",), 120, "hard",
              find_turbot_fish, describe_two_links),
    Technique("empty-rectangle", "Empty Rectangle", "ER", "single-digit", ("0402",), 120,
              "hard", find_empty_rectangle, describe_empty_rectangle),
    Technique("w-wing", "W-Wing", "WW", "wings", ("0803",), 150, "hard",
              find_w_wing, describe_w_wing),
    Technique("simple-colours-trap", "Simple Colours (Trap)", "SCt", "colouring", ("0500",),
              150, "hard", find_simple_colours_trap, describe_simple_colours),
    Technique("simple-colours-wrap", "Simple Colours (Wrap)", "SCw", "colouring", ("0501",),
              150, "hard", find_simple_colours_wrap, describe_simple_colours),
    # registry: fish and colouring
    Technique("finned-x-wing", "Finned X-Wing", "fXW", "fish", ("0310",), 130, "hard",
              find_finned_fish(2, sashimi=False), describe_finned_fish),
    Technique("sashimi-x-wing", "Sashimi X-Wing", "sXW", "fish", ("0320",), 150, "hard",
              find_finned_fish(2, sashimi=True), describe_finned_fish),
    Technique("finned-swordfish", "Finned Swordfish", "fSF", "fish", ("0311", "03111"), 200,
              "unfair", find_finned_fish(3, sashimi=False), describe_finned_fish),
    Technique("sashimi-swordfish", "Sashimi Swordfish", "sSF", "fish", ("0321", "03211"), 240,
              "unfair", find_finned_fish(3, sashimi=True), describe_finned_fish),
    Technique("finned-jellyfish", "Finned Jellyfish", "fJF", "fish", ("0312", "03121"), 250,
              "unfair", find_finned_fish(4, sashimi=False), describe_finned_fish),
    Technique("sashimi-jellyfish", "Sashimi Jellyfish", "sJF", "fish", ("0322", "03221"), 260,
              "unfair", find_finned_fish(4, sashimi=True), describe_finned_fish),
    Technique("dual-two-string-kite", "Dual 2-String Kite", "d2SK", "single-digit", ("0404",),
              150, "hard", find_dual_two_string_kite, describe_dual_two_string_kite),
    Technique("dual-empty-rectangle", "Dual Empty Rectangle", "dER", "single-digit", ("0405",),
              120, "hard", find_dual_empty_rectangle, describe_dual_empty_rectangle),
    Technique("multi-colours-1", "Multi-Colours 1", "MC1", "colouring", ("0502",), 200, "hard",
              find_multi_colours_1, describe_multi_colours),
    Technique("multi-colours-2", "Multi-Colours 2", "MC2", "colouring", ("0503",), 200, "hard",
              find_multi_colours_2, describe_multi_colours),
    # registry: uniqueness
    Technique("unique-rectangle-1", "Unique Rectangle Type 1", "UR1", "uniqueness", ("0600",),
              100, "hard", find_ur_type1, describe_ur_type1),
    Technique("unique-rectangle-2", "Unique Rectangle Type 2", "UR2", "uniqueness", ("0601",),
              100, "hard", find_ur_type2, describe_ur_type2_5),
    Technique("unique-rectangle-3", "Unique Rectangle Type 3", "UR3", "uniqueness", ("0602",),
              100, "hard", find_ur_type3, describe_ur_type3),
    Technique("unique-rectangle-4", "Unique Rectangle Type 4", "UR4", "uniqueness", ("0603",),
              100, "hard", find_ur_type4, describe_ur_type4),
    Technique("unique-rectangle-5", "Unique Rectangle Type 5", "UR5", "uniqueness", ("0604",),
              100, "hard", find_ur_type5, describe_ur_type2_5),
    Technique("unique-rectangle-6", "Unique Rectangle Type 6", "UR6", "uniqueness", ("0605",),
              100, "hard", find_ur_type6, describe_ur_type6),
    Technique("hidden-rectangle", "Hidden Rectangle", "HR", "uniqueness", ("0606",), 100,
              "hard", find_hidden_rectangle, describe_hidden_rectangle),
    Technique("avoidable-rectangle-1", "Avoidable Rectangle Type 1", "AR1", "uniqueness",
              ("0607",), 100, "hard", find_ar_type1, describe_avoidable_rectangle),
    Technique("avoidable-rectangle-2", "Avoidable Rectangle Type 2", "AR2", "uniqueness",
              ("0608",), 100, "hard", find_ar_type2, describe_avoidable_rectangle),
    Technique("bug-plus-1", "BUG+1", "BUG", "uniqueness", ("0610",), 100, "hard",
              find_bug_plus_1, describe_bug_plus_1),
    Technique("remote-pair", "Remote Pair", "RP", "chains", ("0703",), 110, "unfair",
              find_remote_pair, describe_remote_pair),
    Technique("x-chain", "X-Chain", "XC", "chains", ("0701",), 260, "unfair",
              find_x_chain, describe_x_chain),
    Technique("xy-chain", "XY-Chain", "XYC", "chains", ("0702",), 260, "unfair",
              find_xy_chain, describe_xy_chain),
    # registry: chains and loops
    Technique("continuous-nice-loop", "Continuous Nice Loop", "CNL", "chains", ("0706",), 280,
              "unfair", find_continuous_nice_loop, describe_chain),
    Technique("discontinuous-nice-loop", "Discontinuous Nice Loop", "DNL", "chains", ("0707",),
              280, "unfair", find_discontinuous_nice_loop, describe_chain),
    Technique("aic", "AIC", "AIC", "chains", ("0708",), 280, "unfair", find_aic, describe_chain),
    Technique("grouped-discontinuous-nice-loop", "Grouped Discontinuous Nice Loop", "GDNL",
              "chains", ("0710",), 300, "unfair", find_grouped_discontinuous_nice_loop,
              describe_chain),
    Technique("grouped-continuous-nice-loop", "Grouped Continuous Nice Loop", "GCNL", "chains",
              ("0709",), 300, "unfair", find_grouped_continuous_nice_loop, describe_chain),
    Technique("grouped-aic", "Grouped AIC", "GAIC", "chains", ("0711",), 300, "unfair",
              find_grouped_aic, describe_chain),
    # registry: almost locked sets
    Technique("sue-de-coq", "Sue de Coq", "SdC", "als", ("1101",), 250, "unfair",
              find_sue_de_coq, describe_sue_de_coq),
    Technique("als-xz", "ALS-XZ", "AXZ", "als", ("0901",), 300, "unfair",
              find_als_xz, describe_als_xz),
    Technique("als-xy-wing", "ALS-XY-Wing", "AXY", "als", ("0902",), 320, "unfair",
              find_als_xy_wing, describe_als_xy_wing),
    Technique("als-chain", "ALS-Chain", "AC", "als", ("0903",), 340, "unfair",
              find_als_chain, describe_als_chain),
    Technique("death-blossom", "Death Blossom", "DB", "als", ("0904",), 360, "unfair",
              find_death_blossom, describe_death_blossom),
    # registry: franken and mutant fish
    Technique("franken-x-wing", "Franken X-Wing", "FXW", "fish", ("0330",), 300, "unfair",
              find_franken_fish(2, finned=False), describe_franken_fish),
    Technique("finned-franken-x-wing", "Finned Franken X-Wing", "fFXW", "fish", ("0340",), 390,
              "unfair", find_franken_fish(2, finned=True), describe_franken_fish),
    Technique("franken-swordfish", "Franken Swordfish", "FSF", "fish", ("0331",), 350,
              "unfair", find_franken_fish(3, finned=False), describe_franken_fish),
    Technique("finned-franken-swordfish", "Finned Franken Swordfish", "fFSF", "fish",
              ("0341", "03411"), 410, "unfair", find_franken_fish(3, finned=True),
              describe_franken_fish),
    Technique("franken-jellyfish", "Franken Jellyfish", "FJF", "fish", ("0332",), 370,
              "unfair", find_franken_fish(4, finned=False), describe_franken_fish,
              default=False),
    Technique("finned-franken-jellyfish", "Finned Franken Jellyfish", "fFJF", "fish",
              ("0342", "03421"), 430, "unfair", find_franken_fish(4, finned=True),
              describe_franken_fish, default=False),
    Technique("mutant-x-wing", "Mutant X-Wing", "MXW", "fish", ("0350",), 450, "extreme",
              find_mutant_fish(2, finned=False), describe_mutant_fish, default=False),
    Technique("mutant-swordfish", "Mutant Swordfish", "MSF", "fish", ("0351",), 450,
              "extreme", find_mutant_fish(3, finned=False), describe_mutant_fish,
              default=False),
    Technique("mutant-jellyfish", "Mutant Jellyfish", "MJF", "fish", ("0352",), 450,
              "extreme", find_mutant_fish(4, finned=False), describe_mutant_fish,
              default=False),
    Technique("finned-mutant-x-wing", "Finned Mutant X-Wing", "fMXW", "fish", ("0360",), 470,
              "extreme", find_mutant_fish(2, finned=True), describe_mutant_fish,
              default=False),
    Technique("finned-mutant-swordfish", "Finned Mutant Swordfish", "fMSF", "fish",
              ("0361",), 470, "extreme", find_mutant_fish(3, finned=True),
              describe_mutant_fish, default=False),
    Technique("finned-mutant-jellyfish", "Finned Mutant Jellyfish", "fMJF", "fish",
              ("0362", "03621"), 470, "extreme", find_mutant_fish(4, finned=True),
              describe_mutant_fish, default=False),
    Technique("finned-mutant-squirmbag", "Finned Mutant Squirmbag", "fMSq", "fish",
              ("0363",), 470, "extreme", find_mutant_fish(5, finned=True),
              describe_mutant_fish, default=False),
    Technique("finned-mutant-whale", "Finned Mutant Whale", "fMWh", "fish", ("0364",), 470,
              "extreme", find_mutant_fish(6, finned=True), describe_mutant_fish,
              default=False),
    # registry: last resort
    Technique("forcing-chain-contradiction", "Forcing Chain Contradiction", "FCC",
              "last-resort", ("1301",), 500, "extreme", find_forcing_chain_contradiction,
              describe_forcing_contradiction),
    Technique("forcing-chain-verity", "Forcing Chain Verity", "FCV", "last-resort",
              ("1302",), 500, "extreme", find_forcing_chain_verity, describe_forcing_verity),
    Technique("forcing-net-contradiction", "Forcing Net Contradiction", "FNC",
              "last-resort", ("1303",), 700, "extreme", find_forcing_net_contradiction,
              describe_forcing_contradiction),
    Technique("forcing-net-verity", "Forcing Net Verity", "FNV", "last-resort",
              ("1304",), 700, "extreme", find_forcing_net_verity, describe_forcing_verity),
    Technique("forcing-net-nested", "Nested Forcing Net", "NFN", "last-resort", (), 900,
              "extreme", find_forcing_net_nested, describe_forcing_contradiction),
    Technique("template-set", "Template Set", "TS", "last-resort", ("1201",), 10000,
              "extreme", find_template_set, describe_template_set),
    Technique("template-delete", "Template Delete", "TD", "last-resort", ("1202",), 10000,
              "extreme", find_template_delete, describe_template_delete),
    Technique("trial", "Trial", "TR", "last-resort", (), 10000, "extreme",
              find_trial, describe_trial),
]  # fmt: skip

# Every technique, simplest first; ORDER is the default solve order (``default`` only).
ALL_TECHNIQUES: tuple[Technique, ...] = tuple(_REGISTRY)
ORDER: tuple[Technique, ...] = tuple(t for t in ALL_TECHNIQUES if t.default)
TECHNIQUES: dict[str, Technique] = {t.id: t for t in ALL_TECHNIQUES}
BY_HODOKU: dict[str, Technique] = {code: t for t in ALL_TECHNIQUES for code in t.hodoku}
LEVELS = ("easy", "medium", "hard", "unfair", "extreme")

__all__ = ["ALL_TECHNIQUES", "BY_HODOKU", "LEVELS", "ORDER", "TECHNIQUES"]
