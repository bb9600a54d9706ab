"""The variant comparison: one dispute (or one score) under several variants, and why they differ."""

from __future__ import annotations

from adjudicator.answers.serialize import citation  # noqa: E402

import copy

import pytest

from engine_json import InputError, UnknownVariant, adjudicate, compare
from adjudicator.variants import load_all
from ruling_cases import SHIPPED, base

VARIANTS = {vid: load_all()[vid] for vid in SHIPPED}  # the verdicts below are these variants'
IDS = list(VARIANTS)


def name(vid: str) -> str:
    """A variant as the words name it."""
    return VARIANTS[vid].ref.name("en")
KINGS = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
CANASTA_K = [KINGS]


def sit(**over) -> dict:
    """The rule matrix's ordinary mid-game situation (tests/ruling_cases.py)."""
    return base(**over)


def drawn(**over) -> dict:
    return base(turn={"drew": "stock", "cards_from_pile": []}, **over)


HAND = {"hand": ["AH", "AD", "AS", "5C", "7D", "8C", "JK", "2C", "9H", "9S"]}
UNOPENED = {"score": 1000, "melds": []}
WITH_CANASTA = {"score": 1000, "melds": CANASTA_K + [["9H", "9S", "9D"]]}

# name -> (situation, action, house rules, expected verdict or "problem" per variant id)
CASES = {
    "frozen pile, natural + wild": (
        sit(discard_pile=["6C", "JK", "8D", "9D"]), {"type": "take_pile", "with": ["9H", "JK"]}, None,
        {"da-ludo": "illegal", "no-pagat": "illegal", "sv-classic": "illegal", "sv-gamerules": "illegal"}),
    "frozen pile, natural pair": (
        sit(discard_pile=["6C", "JK", "8D", "9D"]), {"type": "take_pile", "with": ["9H", "9S"]}, None,
        {"da-ludo": "legal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "legal"}),
    "a two in the pile freezes it, in da-ludo only if twos are wild": (
        sit(discard_pile=["6C", "2C", "8D", "9D"]), {"type": "take_pile", "with": ["9H", "JK"]}, None,
        {"da-ludo": "undetermined", "no-pagat": "illegal", "sv-classic": "illegal", "sv-gamerules": "illegal"}),
    "black three on top": (
        sit(discard_pile=["8D", "9D", "3C"], player={"hand": ["3S", "3S", "5C"]}),
        {"type": "take_pile", "with": ["3S", "3S"]}, None,
        {"da-ludo": "illegal", "no-pagat": "illegal", "sv-classic": "illegal", "sv-gamerules": "illegal"}),
    "two on top": (
        sit(discard_pile=["8D", "9D", "2H"]), {"type": "take_pile", "with": ["9H", "9S"]}, None,
        {"da-ludo": "illegal", "no-pagat": "illegal", "sv-classic": "illegal", "sv-gamerules": "illegal"}),
    "take the pile in the first round": (
        sit(first_round=True, team={"score": 1000, "melds": []}, opponents={"score": 1200, "melds": []},
            player={"hand": ["9H", "9S", "AH", "AD", "AS", "5C"]}),
        {"type": "take_pile", "with": ["9H", "9S"], "melds": [["AH", "AD", "AS"]]}, None,
        {"da-ludo": "illegal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "undetermined"}),
    "open in the first round": (
        drawn(first_round=True, team=UNOPENED, opponents={"score": 1200, "melds": []}, player=HAND),
        {"type": "meld", "melds": [["AH", "AD", "AS"], ["9H", "9S", "JK"]]}, None,
        {"da-ludo": "illegal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "legal"}),
    "go out without a canasta": (
        drawn(player={"hand": ["AH", "AD", "AS", "5C"]}),
        {"type": "go_out", "melds": [["AH", "AD", "AS"]], "discard": "5C"}, None,
        {"da-ludo": "legal", "no-pagat": "illegal", "sv-classic": "illegal", "sv-gamerules": "illegal"}),
    "go out with a canasta": (
        drawn(team=WITH_CANASTA, player={"hand": ["AH", "AD", "AS"]}),
        {"type": "go_out", "melds": [["AH", "AD", "AS"]]}, None,
        {"da-ludo": "legal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "legal"}),
    "five jokers": (
        sit(player={"hand": ["JK"] * 5}), {"type": "draw"}, None,
        {"da-ludo": "legal", "no-pagat": "problem", "sv-classic": "problem", "sv-gamerules": "problem"}),
    "three players": (
        drawn(players=3, team=WITH_CANASTA, player={"hand": ["AH", "AD", "AS"]}),
        {"type": "go_out", "melds": [["AH", "AD", "AS"]]}, None,
        {"da-ludo": "problem", "no-pagat": "problem", "sv-classic": "legal", "sv-gamerules": "problem"}),
    "a two as the wild card": (
        drawn(player=HAND), {"type": "meld", "melds": [["AH", "AD", "2C"]]}, None,
        {"da-ludo": "undetermined", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "legal"}),
    "a two as the wild card, twos wild by house rule": (
        drawn(player=HAND), {"type": "meld", "melds": [["AH", "AD", "2C"]]}, {"wild.twos": True},
        {"da-ludo": "legal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "legal"}),
    "two naturals and two wilds": (
        drawn(player=HAND), {"type": "meld", "melds": [["9H", "9S", "JK", "2C"]]}, None,
        {"da-ludo": "illegal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "illegal"}),
    "three naturals and three jokers": (
        drawn(player={"hand": ["9H", "9S", "9D", "JK", "JK", "JK", "5C", "6C"]}),
        {"type": "meld", "melds": [["9H", "9S", "9D", "JK", "JK", "JK"]]}, None,
        {"da-ludo": "illegal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "illegal"}),
    "one card in hand, one card in the pile (sv-gamerules one-card rule)": (
        sit(discard_pile=["KC"], player={"hand": ["KD"]},  # the team has a canasta: the last card may go out
            team={"score": 1000, "melds": [["KH", "KS", "KD"], ["8H", "8S", "8D", "8C", "8H", "8S", "8D"]],
                  "red_threes": 0}),
        {"type": "take_pile", "with": []}, None,
        {"da-ludo": "legal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "illegal"}),
    "open with three aces at 1500": (
        drawn(player=HAND, team={"score": 1500, "melds": []}), {"type": "meld", "melds": [["AH", "AD", "AS"]]},
        None, {"da-ludo": "illegal", "no-pagat": "illegal", "sv-classic": "illegal", "sv-gamerules": "illegal"}),
    "two melds together at 1500": (
        drawn(player=HAND, team={"score": 1500, "melds": []}),
        {"type": "meld", "melds": [["AH", "AD", "AS"], ["9H", "9S", "JK"]]}, None,
        {"da-ludo": "legal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "legal"}),
    "open with three aces at 1000 (da-ludo aces are 15)": (
        drawn(player=HAND, team=UNOPENED), {"type": "meld", "melds": [["AH", "AD", "AS"]]}, None,
        {"da-ludo": "illegal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "legal"}),
    "130 points at 6000 without a canasta": (
        drawn(player=HAND, team={"score": 6000, "melds": []}),
        {"type": "meld", "melds": [["AH", "AD", "AS"], ["9H", "9S", "JK"]]}, None,
        {"da-ludo": "illegal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "legal"}),
    "meld pile cards in the same turn": (
        sit(discard_pile=["7C", "7S", "9D"], player={"hand": ["9H", "9S", "7D", "5C", "6C", "8H", "4D"]}),
        {"type": "take_pile", "with": ["9H", "9S"], "melds": [["7C", "7S", "7D"]]}, None,
        {"da-ludo": "illegal", "no-pagat": "legal", "sv-classic": "legal", "sv-gamerules": "legal"}),
    "a second meld of kings": (
        drawn(player={"hand": ["KC", "KC", "KH", "5C", "6C"]}), {"type": "meld", "melds": [["KC", "KC", "KH"]]},
        None, {"da-ludo": "undetermined", "no-pagat": "illegal", "sv-classic": "illegal",
               "sv-gamerules": "undetermined"}),
    "discard the last card without a canasta": (
        drawn(player={"hand": ["5C"]}), {"type": "discard", "card": "5C"}, None,
        {"da-ludo": "legal", "no-pagat": "illegal", "sv-classic": "illegal", "sv-gamerules": "illegal"}),
    "empty stock, top card fits a meld": (
        sit(stock_count=0, discard_pile=["5C", "KC"]), {"type": "draw"}, None,
        {"da-ludo": "undetermined", "no-pagat": "illegal", "sv-classic": "undetermined",
         "sv-gamerules": "undetermined"}),
    "unopened team, pile forbidden by house rule": (
        sit(team={"score": 1000, "melds": [], "red_threes": 0}), {"type": "take_pile", "with": ["9H", "JK"]},
        {"pile.before_opening": "forbidden"},
        {"da-ludo": "illegal", "no-pagat": "illegal", "sv-classic": "illegal", "sv-gamerules": "illegal"}),
}


def payload(name: str, variants: list[str] | None = None) -> dict:
    situation, action, house, _ = CASES[name]
    out = {"situation": copy.deepcopy(situation), "action": copy.deepcopy(action)}
    if house:
        out["house_rules"] = dict(house)
    if variants is not None:
        out["variants"] = variants
    return out


def by_variant(result: dict) -> dict:
    return {r["variant"]: r for r in result["results"]}


def difference(result: dict, rule: str) -> dict:
    found = [d for d in result["differences"] if d["rule"] == rule]
    assert found, f"no difference for {rule}: {[d['rule'] for d in result['differences']]}"
    return found[0]


def entry(diff: dict, variant: str) -> dict:
    return next(e for e in diff["variants"] if e["variant"] == variant)


def param(entry_: dict, name: str) -> dict:
    return next(p for p in entry_["parameters"] if p["parameter"] == name)


# ----------------------------------------------------------------------------------------------
# Every entry is exactly the single-variant answer


def test_enough_cases():
    assert len(CASES) >= 15


@pytest.mark.parametrize("name", list(CASES))
def test_each_entry_is_the_single_variant_ruling(name):
    request = payload(name)
    before = copy.deepcopy(request)
    result = compare(request, VARIANTS)
    assert request == before, "compare must not change the request"
    assert result["kind"] == "ruling"
    assert result["variants"] == IDS
    assert [r["variant"] for r in result["results"]] == IDS
    expected = CASES[name][3]
    for vid, r in by_variant(result).items():
        single = {**copy.deepcopy(before), "variant": vid}
        if expected[vid] == "problem":
            with pytest.raises(InputError) as err:
                adjudicate(single, VARIANTS)
            assert set(r) == {"variant", "problem"}
            problem = r["problem"]
            assert problem == {"type": err.value.type, "title": err.value.title, "status": err.value.status,
                               "detail": err.value.detail, "errors": err.value.errors}
            assert problem["status"] == 422 and problem["errors"][0]["pointer"].startswith("/situation")
        else:
            assert set(r) - {"why"} == {"variant", "ruling"} and ("why" in r) != result["agree"]
            assert r["ruling"] == adjudicate(single, VARIANTS)
            assert r["ruling"]["verdict"] == expected[vid], (vid, r["ruling"]["summary"])
    verdicts = [v for v in expected.values() if v != "problem"]
    refused = "problem" in expected.values()
    assert result["agree"] == (len(set(verdicts)) <= 1 and not (refused and verdicts))  # a refusal differs
    groups = {g["verdict"]: g["variants"] for g in result["groups"]}
    assert groups == {v: [vid for vid in IDS if expected[vid] == v] for v in dict.fromkeys(verdicts)}
    assert sum(len(g["variants"]) for g in result["groups"]) == len(verdicts)


@pytest.mark.parametrize("name", list(CASES))
def test_differences_are_exactly_the_rules_that_part_ways(name):
    result = compare(payload(name), VARIANTS)
    rulings = {vid: r["ruling"] for vid, r in by_variant(result).items() if "ruling" in r}
    outcomes: dict[str, dict[str, tuple]] = {}
    for vid, ruling in rulings.items():
        for reason in ruling["reasons"]:
            outcomes.setdefault(reason["rule"], {v: () for v in rulings})
            outcomes[reason["rule"]][vid] += (reason["passed"],)
    parting = {rule for rule, per in outcomes.items() if len(set(per.values())) > 1}
    refused = [vid for vid, r in by_variant(result).items() if "problem" in r]
    if refused and rulings:  # the table one variant rules out and another rules: that difference first
        first = result["differences"][0]
        assert first["rule"] == "table.possible"
        assert {e["variant"]: e["passed"] for e in first["variants"]} == {
            vid: vid not in refused for vid in IDS}
        parting.add("table.possible")
    assert {d["rule"] for d in result["differences"]} == parting
    for diff in result["differences"]:
        if diff["rule"] == "table.possible" and refused:
            continue
        assert [e["variant"] for e in diff["variants"]] == list(rulings)
        for e in diff["variants"]:
            mine = [r for r in rulings[e["variant"]]["reasons"] if r["rule"] == diff["rule"]]
            if not mine:
                assert e["passed"] == "not checked" and e["outcome"] == "not checked"
            else:
                passed = [r["passed"] for r in mine]
                assert e["passed"] == (False if False in passed else None if None in passed else True)
                assert e["explanation"] == " ".join(dict.fromkeys(r["explanation"] for r in mine))
                for r in mine:
                    for c in r["citations"]:
                        assert c in e["citations"]
            assert [p["parameter"] for p in e["parameters"]] == diff["parameters"]
            for p in e["parameters"]:
                entry_ = VARIANTS[e["variant"]].entry(p["parameter"])
                house = (CASES[name][2] or {})
                if p["parameter"] in house:
                    assert p["status"] == "house_rule"
                else:
                    assert p["status"] == entry_.status


# ----------------------------------------------------------------------------------------------
# Why the variants part ways


def test_three_way_split_names_the_rule_values_and_citations():
    result = compare(payload("two naturals and two wilds"), VARIANTS)
    assert not result["agree"]
    assert {g["verdict"]: g["variants"] for g in result["groups"]} == {
        "illegal": ["da-ludo", "sv-gamerules"], "legal": ["no-pagat", "sv-classic"]}

    ratio = difference(result, "meld.naturals_per_wild")
    assert "meld.naturals_per_wild" in ratio["parameters"]
    assert ratio["differing_parameters"] == ["meld.naturals_per_wild"]
    assert f"{name('sv-gamerules')} 2 (stated in the text)" in ratio["why"]
    assert f"{name('sv-classic')} no limit (read from the text)" in ratio["why"]
    gamerules = entry(ratio, "sv-gamerules")
    assert gamerules["passed"] is False and gamerules["outcome"] == "failed"
    assert "two natural cards are needed for each wild card" in gamerules["explanation"]
    assert "meld.naturals_per_wild" not in ratio["why"], "words, not codes"
    assert param(gamerules, "meld.naturals_per_wild") == {"parameter": "meld.naturals_per_wild", "value": 2,
                                                          "status": "stated"}
    cited = VARIANTS["sv-gamerules"].entry("meld.naturals_per_wild").citations[0]
    assert any(c["quote"] == cited.quote and c["start"] == cited.start for c in gamerules["citations"])
    for vid in ("no-pagat", "sv-classic"):
        e = entry(ratio, vid)
        assert e["passed"] == "not checked"
        assert param(e, "meld.naturals_per_wild")["value"] is None
        assert "does not apply" in e["explanation"]
        # the citations say why the check does not apply in this variant
        assert e["citations"] == [citation(c) for c in VARIANTS[vid].entry("meld.naturals_per_wild").citations]

    same_rank = difference(result, "meld.same_rank")
    assert "wild.twos" in same_rank["differing_parameters"]
    ludo = entry(same_rank, "da-ludo")  # open on whether twos are wild: the meld is illegal either way
    assert ludo["passed"] is None and ludo["outcome"] == "undetermined"
    assert "if twos are wild" in ludo["explanation"]
    assert param(ludo, "wild.twos") == {"parameter": "wild.twos", "value": None, "status": "not_stated"}
    assert ludo["citations"], "the open check still cites the words that leave it open"
    assert entry(same_rank, "no-pagat")["passed"] is True
    assert param(entry(same_rank, "no-pagat"), "wild.twos")["value"] is True


def test_majority_rule_against_a_wild_card_cap():
    """da-ludo's "flertal af rene kort" against the Swedish cap of three wild cards."""
    result = compare(payload("three naturals and three jokers"), VARIANTS)
    majority = difference(result, "meld.natural_majority")
    assert "meld.natural_majority" in majority["differing_parameters"]
    assert f"{name('da-ludo')} yes (stated in the text)" in majority["why"]
    ludo = entry(majority, "da-ludo")
    assert ludo["passed"] is False
    assert param(ludo, "meld.natural_majority")["value"] is True
    assert any("flertal af rene kort" in c["quote"] for c in ludo["citations"])
    classic = entry(majority, "sv-classic")
    assert classic["passed"] == "not checked"
    assert param(classic, "meld.natural_majority") == {"parameter": "meld.natural_majority", "value": False,
                                                       "status": "interpreted"}
    cap = difference(result, "meld.max_wilds")
    assert entry(cap, "sv-classic")["passed"] is True
    assert param(entry(cap, "sv-classic"), "meld.max_wilds") == {"parameter": "meld.max_wilds", "value": 3,
                                                                "status": "stated"}
    assert entry(cap, "da-ludo")["passed"] == "not checked"
    assert param(entry(cap, "da-ludo"), "meld.max_wilds")["value"] is None


def test_going_out_without_a_canasta():
    result = compare(payload("go out without a canasta"), VARIANTS)
    ludo = by_variant(result)["da-ludo"]["ruling"]
    assert ludo["verdict"] == "legal"
    assert any("count as minus" in c for c in ludo["consequences"])
    diff = difference(result, "go_out.canasta_required")
    assert "go_out.canastas_required" in diff["differing_parameters"]
    assert param(entry(diff, "da-ludo"), "go_out.canastas_required")["value"] == {"4": 0}
    assert param(entry(diff, "no-pagat"), "go_out.canastas_required") == {
        "parameter": "go_out.canastas_required", "value": {"4": 1}, "status": "stated"}
    assert entry(diff, "da-ludo")["passed"] is True and entry(diff, "no-pagat")["passed"] is False


def test_first_round_in_da_ludo():
    result = compare(payload("take the pile in the first round"), VARIANTS)
    diff = difference(result, "first_round.no_pile")
    assert diff["differing_parameters"] == ["first_round.no_pile"]
    assert entry(diff, "da-ludo")["passed"] is False
    assert param(entry(diff, "da-ludo"), "first_round.no_pile") == {"parameter": "first_round.no_pile",
                                                                    "value": True, "status": "stated"}
    assert entry(diff, "da-ludo")["citations"]
    assert entry(diff, "sv-classic")["passed"] is True


def test_one_card_rule_of_sv_gamerules():
    result = compare(payload("one card in hand, one card in the pile (sv-gamerules one-card rule)"), VARIANTS)
    diff = difference(result, "pile.one_card_rule")
    assert entry(diff, "sv-gamerules")["passed"] is False
    assert param(entry(diff, "sv-gamerules"), "pile.one_card_rule")["value"] is True
    for vid in ("da-ludo", "no-pagat", "sv-classic"):
        assert entry(diff, vid)["passed"] == "not checked"
        assert param(entry(diff, vid), "pile.one_card_rule")["value"] is False


def test_agreement_has_one_group_and_no_difference_in_verdict():
    result = compare(payload("black three on top"), VARIANTS)
    assert result["agree"] is True
    assert result["groups"] == [{"verdict": "illegal", "variants": IDS}]


def test_subset_of_variants_in_the_order_given():
    result = compare(payload("two naturals and two wilds", ["sv-gamerules", "no-pagat"]), VARIANTS)
    assert result["variants"] == ["sv-gamerules", "no-pagat"]
    assert [r["variant"] for r in result["results"]] == ["sv-gamerules", "no-pagat"]
    assert result["groups"] == [{"verdict": "illegal", "variants": ["sv-gamerules"]},
                                {"verdict": "legal", "variants": ["no-pagat"]}]
    assert [d["rule"] for d in result["differences"]] == ["meld.naturals_per_wild"]
    assert [e["variant"] for e in result["differences"][0]["variants"]] == ["sv-gamerules", "no-pagat"]


def test_one_variant_has_nothing_to_differ_from():
    result = compare(payload("two naturals and two wilds", ["sv-gamerules"]), VARIANTS)
    assert result["agree"] is True and result["differences"] == []
    assert result["results"][0]["ruling"] == adjudicate({**payload("two naturals and two wilds"),
                                                         "variant": "sv-gamerules"}, VARIANTS)


def test_problems_are_left_out_of_groups_and_a_table_ruled_out_somewhere_differs_first():
    result = compare(payload("five jokers"), VARIANTS)
    assert result["groups"] == [{"verdict": "legal", "variants": ["da-ludo"]}]
    assert result["agree"] is False  # a table that cannot happen under three variants: they differ, first there
    [table] = result["differences"]
    assert table["rule"] == "table.possible" and table["differing_parameters"] == ["deck.jokers"]
    assert {e["variant"]: e["passed"] for e in table["variants"]} == {
        "da-ludo": True, "no-pagat": False, "sv-classic": False, "sv-gamerules": False}
    assert "holds only four jokers" in entry(table, "no-pagat")["explanation"]
    problems = {r["variant"]: r["problem"] for r in result["results"] if "problem" in r}
    assert set(problems) == {"no-pagat", "sv-classic", "sv-gamerules"}
    for vid, problem in problems.items():
        assert problem["type"] == "impossible-input" and problem["status"] == 422
        assert problem["errors"][0]["pointer"] == "/situation/player/hand/4"
        assert name(vid) in problem["detail"]


def test_every_variant_refusing_is_still_an_answer():
    request = {"situation": sit(player={"hand": ["KH", "KH", "5C"]}), "action": {"type": "draw"}}
    result = compare(request, VARIANTS)
    assert [set(r) for r in result["results"]] == [{"variant", "problem"}] * len(IDS)
    assert result["groups"] == [] and result["differences"] == [] and result["agree"] is True
    assert all(r["problem"]["errors"][0]["pointer"].startswith("/situation") for r in result["results"])
    # an unsupported player count everywhere is also the variants' answer, not a malformed request
    result = compare({"situation": sit(players=6), "action": {"type": "draw"}}, VARIANTS)
    assert all(r["problem"]["errors"] == [{"pointer": "/situation/players", "detail": r["problem"]["errors"][0]
                                           ["detail"]}] for r in result["results"])
    assert "has rules for 4 players, not 6" in result["results"][0]["problem"]["detail"]


# ----------------------------------------------------------------------------------------------
# House rules


def test_house_rule_settles_da_ludos_twos():
    plain = compare(payload("a two as the wild card"), VARIANTS)
    assert by_variant(plain)["da-ludo"]["ruling"]["verdict"] == "undetermined"
    assert by_variant(plain)["da-ludo"]["ruling"]["not_stated"] == ["wild.twos"]
    assert not plain["agree"]

    result = compare(payload("a two as the wild card, twos wild by house rule"), VARIANTS)
    assert result["agree"] is True
    assert result["groups"] == [{"verdict": "legal", "variants": IDS}]
    ludo = by_variant(result)["da-ludo"]["ruling"]
    assert ludo["verdict"] == "legal" and ludo["not_stated"] == []
    same_rank = next(r for r in ludo["reasons"] if r["rule"] == "meld.same_rank")
    assert same_rank["house_rules"] == [{"parameter": "wild.twos", "value": True}]
    interp = next(i for i in ludo["interpretations"] if i["parameter"] == "wild.twos")
    assert interp["status"] == "house_rule" and interp["value"] is True
    # the house rule applies to every compared variant
    for vid in IDS:
        ruling = by_variant(result)[vid]["ruling"]
        assert any(i["parameter"] == "wild.twos" and i["status"] == "house_rule" for i in ruling["interpretations"])
    # da-ludo's majority rule now counts the two as wild (two naturals to one), where the others have no such rule
    majority = difference(result, "meld.natural_majority")
    assert entry(majority, "da-ludo")["passed"] is True
    assert "2 natural and 1 wild" in entry(majority, "da-ludo")["explanation"]
    assert entry(majority, "no-pagat")["passed"] == "not checked"


def test_house_rule_shows_in_differences():
    request = payload("two naturals and two wilds") | {"house_rules": {"meld.max_wilds": 1}}
    result = compare(request, VARIANTS)
    for vid, r in by_variant(result).items():
        assert r["ruling"] == adjudicate({**request, "variant": vid}, VARIANTS)
    diff = difference(result, "meld.max_wilds")
    assert "meld.max_wilds" in diff["parameters"]
    assert "meld.max_wilds" not in diff["differing_parameters"]  # the house rule is the same everywhere
    for vid in ("no-pagat", "sv-classic"):
        e = entry(diff, vid)
        assert e["passed"] is False
        assert e["house_rules"] == [{"parameter": "meld.max_wilds", "value": 1}]
        assert param(e, "meld.max_wilds") == {"parameter": "meld.max_wilds", "value": 1, "status": "house_rule"}
    ludo = entry(diff, "da-ludo")  # open on twos: with them wild the cap of one fails, without it is never reached
    assert ludo["passed"] is None and "if twos are wild" in ludo["explanation"]
    assert param(ludo, "wild.twos") == {"parameter": "wild.twos", "value": None, "status": "not_stated"}
    assert param(ludo, "meld.max_wilds")["status"] == "house_rule"


@pytest.mark.parametrize("house_rules, ptr", [
    ({"wild.nines": True}, "/house_rules/wild.nines"),
    ({"wild.twos": "yes"}, "/house_rules/wild.twos"),
    ({"meld.max_wilds": -1}, "/house_rules/meld.max_wilds"),
    ({"go_out.canastas_required": {"9": 1}}, "/house_rules/go_out.canastas_required"),
])
def test_bad_house_rules_are_the_requests_fault(house_rules, ptr):
    with pytest.raises(InputError) as err:
        compare(payload("a two as the wild card") | {"house_rules": house_rules}, VARIANTS)
    assert err.value.status == 422
    assert [e["pointer"] for e in err.value.errors] == [ptr]


def test_house_rules_must_be_an_object():
    with pytest.raises(InputError) as err:
        compare(payload("a two as the wild card") | {"house_rules": ["wild.twos"]}, VARIANTS)
    assert err.value.errors[0]["pointer"] == "/house_rules"


# ----------------------------------------------------------------------------------------------
# Errors of the request itself


def test_unknown_variant_is_a_404_pointing_into_the_list():
    with pytest.raises(UnknownVariant) as err:
        compare(payload("black three on top", ["sv-classic", "xx-nowhere"]), VARIANTS)
    assert err.value.status == 404 and err.value.type == "unknown-variant"
    assert err.value.errors[0]["pointer"] == "/variants/1"
    assert "xx-nowhere" in err.value.errors[0]["detail"]
    for bad in (7, None):  # not a variant id at all: the request's shape is wrong
        with pytest.raises(InputError) as err:
            compare(payload("black three on top", ["sv-classic", bad]), VARIANTS)
        assert err.value.status == 422 and err.value.errors[0]["pointer"] == "/variants/1"


@pytest.mark.parametrize("variants, ptr", [([], "/variants"), ("sv-classic", "/variants"),
                                           (["sv-classic", "sv-classic"], "/variants/1")])
def test_bad_variant_lists(variants, ptr):
    with pytest.raises(InputError) as err:
        compare(payload("black three on top", variants), VARIANTS)
    assert not isinstance(err.value, UnknownVariant)
    assert err.value.errors[0]["pointer"] == ptr


def test_single_variant_member_is_refused():
    request = payload("black three on top") | {"variant": "sv-classic"}
    with pytest.raises(InputError) as err:
        compare(request, VARIANTS)
    assert err.value.errors[0]["pointer"] == "/variant"


@pytest.mark.parametrize("request_, ptr", [
    ({}, ""),
    ({"house_rules": {"wild.twos": True}}, ""),
    ({"situation": sit(), "action": {"type": "draw"}, "teams": []}, "/teams"),
])
def test_ruling_or_score_must_be_clear(request_, ptr):
    with pytest.raises(InputError) as err:
        compare(request_, VARIANTS)
    assert err.value.errors[0]["pointer"] == ptr


def test_payload_must_be_an_object():
    with pytest.raises(InputError):
        compare(["situation"], VARIANTS)


@pytest.mark.parametrize("request_, ptr", [
    ({"situation": sit(player={"hand": ["ZZ"]}), "action": {"type": "draw"}}, "/situation/player/hand/0"),
    ({"situation": sit(), "action": {"type": "dance"}}, "/action/type"),
    ({"situation": sit(), "action": {"type": "discard", "card": "KS"}}, "/action/card"),
    ({"situation": "mid-game", "action": {"type": "draw"}}, "/situation"),
    # the player count is wrong for most variants, but the action is wrong for all of them
    ({"situation": sit(players=3), "action": {"type": "dance"}}, "/action/type"),
])
def test_shape_errors_raise_as_the_single_call_would(request_, ptr):
    with pytest.raises(InputError) as err:
        compare(request_, VARIANTS)
    assert ptr in [e["pointer"] for e in err.value.errors]
    with pytest.raises(InputError) as single:
        adjudicate({**request_, "variant": "sv-classic"}, VARIANTS)
    assert ptr in [e["pointer"] for e in single.value.errors]


# ----------------------------------------------------------------------------------------------
# Scores


ROUND = {
    "players": 4,
    "teams": [
        {"name": "Vi", "score_before": 0, "melds": [KINGS, ["8H", "8S", "8D"], ["9C", "9S", "9D"]], "hand": [],
         "red_threes": 1, "went_out": True},
        {"name": "De", "score_before": 0, "melds": [["QH", "QS", "QD"]], "hand": ["5C", "9H", "AH"], "red_threes": 0},
    ],
}
GAME = {
    "players": 4,
    "rounds": [
        {"teams": copy.deepcopy(ROUND["teams"])},
        {"teams": [{"name": "Vi", "natural_canastas": 1, "melded_points": 200, "hand_points": 10},
                   {"name": "De", "mixed_canastas": 1, "melded_points": 150, "went_out": True}]},
    ],
}


def score_entries_match(request: dict, result: dict) -> None:
    from engine_json import score

    for r in result["results"]:
        single = {**copy.deepcopy(request), "variant": r["variant"]}
        single.pop("variants", None)
        if "score" in r:
            assert set(r) == {"variant", "score"}
            assert r["score"] == score(single, VARIANTS)
        else:
            with pytest.raises(InputError) as err:
                score(single, VARIANTS)
            assert r["problem"]["errors"] == err.value.errors
            assert r["problem"]["type"] == err.value.type and r["problem"]["status"] == err.value.status


def line_diff(result: dict, team: str, item: str, round_index: int | None = None) -> dict:
    found = [d for d in result["differences"] if d["team"] == team and d["item"] == item
             and d.get("round") == round_index]
    assert found, [(d.get("round"), d["team"], d["item"]) for d in result["differences"]]
    return found[0]


def test_score_totals_differ_and_the_lines_say_why():
    request = copy.deepcopy(ROUND)
    result = compare(request, VARIANTS)
    assert request == ROUND
    assert result["kind"] == "score" and result["variants"] == IDS
    score_entries_match(request, result)
    scores = {r["variant"]: r["score"] for r in result["results"]}
    totals = {vid: {t["name"]: (t["round"], t["total"]) for t in s["teams"]} for vid, s in scores.items()}
    assert totals["da-ludo"] != totals["sv-classic"] == totals["no-pagat"] == totals["sv-gamerules"]
    assert result["agree"] is False
    assert result["groups"] == [
        {"totals": {n: t for n, (_, t) in totals["da-ludo"].items()}, "variants": ["da-ludo"]},
        {"totals": {n: t for n, (_, t) in totals["sv-classic"].items()},
         "variants": ["no-pagat", "sv-classic", "sv-gamerules"]},
    ]
    # 8s and 9s are 5 points in da-ludo, 10 elsewhere
    melded = line_diff(result, "Vi", "melded_cards")
    assert {"card_value.8", "card_value.9"} <= set(melded["differing_parameters"])
    assert "card_value.K" in melded["parameters"] and "card_value.K" not in melded["differing_parameters"]
    assert f"what an eight counts: {name('da-ludo')} 5 (stated in the text)" in melded["why"]
    ludo = entry(melded, "da-ludo")
    assert ludo["counted"] is True and ludo["count"] == 13
    assert ludo["points"] == 6 * 5  # da-ludo does not count the kings of its canasta again
    assert "score.canasta_cards_counted" in melded["differing_parameters"]
    assert entry(melded, "sv-classic")["points"] == 13 * 10
    assert any(c["quote"] == "4-9: 5 point" for c in ludo["citations"])
    assert param(ludo, "card_value.8") == {"parameter": "card_value.8", "value": 5, "status": "stated"}
    # no going-out bonus in da-ludo
    going = line_diff(result, "Vi", "going_out")
    assert [(e["variant"], e["points"]) for e in going["variants"]] == [
        ("da-ludo", 0), ("no-pagat", 100), ("sv-classic", 100), ("sv-gamerules", 100)]
    assert going["differing_parameters"] == ["score.going_out"]
    assert param(entry(going, "da-ludo"), "score.going_out") == {"parameter": "score.going_out", "value": 0,
                                                                 "status": "interpreted"}
    assert entry(going, "da-ludo")["citations"]  # the interpreted 0 still cites the words it rests on
    # the aces in De's hand count 15 in da-ludo
    hand = line_diff(result, "De", "hand")
    assert "card_value.A" in hand["differing_parameters"]
    # da-ludo alone turns a round without a canasta into minus
    minus = line_diff(result, "De", "no_canasta")
    assert entry(minus, "da-ludo")["counted"] is True and entry(minus, "da-ludo")["points"] < 0
    for vid in ("no-pagat", "sv-classic", "sv-gamerules"):
        e = entry(minus, vid)
        assert e["counted"] is False and e["points"] is None
        assert param(e, "score.no_canasta_all_negative")["value"] is False
    # every line whose points agree is left out
    keys = {(d["team"], d["item"]) for d in result["differences"]}
    assert ("Vi", "natural_canastas") not in keys and ("Vi", "red_threes") not in keys
    for d in result["differences"]:
        points = {e["points"] if e["counted"] else "absent" for e in d["variants"]}
        assert len(points) > 1


def test_score_of_a_game_compares_round_by_round():
    request = copy.deepcopy(GAME)
    result = compare(request, VARIANTS)
    assert result["kind"] == "score"
    score_entries_match(request, result)
    assert result["agree"] is False
    assert {(d.get("round"), d["team"], d["item"]) for d in result["differences"]} >= {
        (0, "Vi", "melded_cards"), (0, "Vi", "going_out"), (1, "De", "going_out")}
    for r in result["results"]:
        vid = r["variant"]
        group = next(g for g in result["groups"] if vid in g["variants"])
        assert group["totals"] == {t["name"]: t["total"] for t in r["score"]["teams"]}
    assert len(result["groups"]) == 2


def test_score_agrees_when_the_house_rules_even_things_out():
    request = copy.deepcopy(ROUND) | {"house_rules": {"score.going_out": 100, "card_value.8": 10, "card_value.9": 10,
                                                      "card_value.A": 20, "score.no_canasta_all_negative": False,
                                                      "score.canasta_cards_counted": True}}
    result = compare(request, VARIANTS)
    score_entries_match(request, result)
    assert result["agree"] is True and result["differences"] == []
    assert len(result["groups"]) == 1 and result["groups"][0]["variants"] == IDS
    for r in result["results"]:
        going = next(line for t in r["score"]["teams"] for line in t["lines"] if line["item"] == "going_out")
        assert going["points"] == 100 and going["house_rules"] == [{"parameter": "score.going_out", "value": 100}]


def test_score_house_rule_in_differences():
    request = copy.deepcopy(ROUND) | {"house_rules": {"score.going_out": 50}, "variants": ["da-ludo", "sv-classic"]}
    result = compare(request, VARIANTS)
    score_entries_match(request, result)
    keys = {(d["team"], d["item"]) for d in result["differences"]}
    assert ("Vi", "going_out") not in keys  # 50 in both now
    assert ("Vi", "melded_cards") in keys
    for r in result["results"]:
        going = next(line for t in r["score"]["teams"] for line in t["lines"] if line["item"] == "going_out")
        assert going["points"] == 50


def test_score_impossible_for_some_variants():
    request = copy.deepcopy(ROUND)
    request["teams"][1]["hand"] = ["JK"] * 5
    result = compare(request, VARIANTS)
    score_entries_match(request, result)
    ok = [r["variant"] for r in result["results"] if "score" in r]
    assert ok == ["da-ludo"]
    for r in result["results"][1:]:
        assert r["problem"]["status"] == 422 and r["problem"]["errors"][0]["pointer"] == "/teams/1/hand/4"
    assert result["groups"][0]["variants"] == ["da-ludo"] and result["agree"] is False
    assert [d["rule"] for d in result["differences"]] == ["table.possible"]

    three = {"players": 3, "teams": [{"name": n, "melds": [], "hand": ["5C"]} for n in ("A", "B", "C")]}
    three["teams"][0] = {"name": "A", "melds": [["KH", "KS", "KD"]], "hand": []}
    result = compare(three, VARIANTS)
    score_entries_match(three, result)
    assert [r["variant"] for r in result["results"] if "score" in r] == ["sv-classic"]


def test_score_not_stated_is_a_problem_that_a_house_rule_settles():
    request = copy.deepcopy(ROUND)
    request["teams"][1]["hand"] = ["5C", "3C"]
    result = compare(request, VARIANTS)
    score_entries_match(request, result)
    problem = by_variant(result)["da-ludo"]["problem"]
    assert problem["type"] == "rule-not-stated" and problem["parameters"] == ["card_value.black_three"]
    assert problem["errors"][0]["pointer"] == "/teams/1/hand/1"
    settled = compare(request | {"house_rules": {"card_value.black_three": 5}}, VARIANTS)
    score_entries_match(request | {"house_rules": {"card_value.black_three": 5}}, settled)
    assert all("score" in r for r in settled["results"])


def test_score_refused_everywhere_is_still_an_answer():
    request = copy.deepcopy(ROUND) | {"players": 6}
    result = compare(request, VARIANTS)
    assert all(set(r) == {"variant", "problem"} for r in result["results"])
    assert all(r["problem"]["errors"][0]["pointer"] == "/players" for r in result["results"])
    assert result["groups"] == [] and result["differences"] == []


@pytest.mark.parametrize("request_, ptr", [
    ({"players": 4, "teams": "Vi"}, "/teams"),
    ({"players": 4, "teams": [{"name": "Vi", "colour": "red"}, {"name": "De"}]}, "/teams/0/colour"),
    ({"players": 4, "teams": [{"name": "Vi", "hand": ["ZZ"]}, {"name": "De"}]}, "/teams/0/hand/0"),
    ({"players": 4, "teams": [{"name": "Vi"}, {"name": "De"}], "rounds": []}, "/rounds"),
    ({"players": 4, "teams": [{"name": "Vi"}, {"name": "De"}], "table": 1}, "/table"),
])
def test_score_shape_errors_raise(request_, ptr):
    with pytest.raises(InputError) as err:
        compare(request_, VARIANTS)
    assert ptr in [e["pointer"] for e in err.value.errors]


def test_score_unknown_variant():
    with pytest.raises(UnknownVariant) as err:
        compare(copy.deepcopy(ROUND) | {"variants": ["da-ludo", "xx"]}, VARIANTS)
    assert err.value.errors[0]["pointer"] == "/variants/1"
