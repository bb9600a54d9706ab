"""The team's opening not said: every move ``rule()`` does not refuse is listed, as it rules it (issue 42).

Nobody said whether the team has melded this round (no melds, no ``opened``): the engine rules a move under
both cases, with the condition ("if your team has melded this round", then "if it has a meld of nines").
The listing once took "not said" for "not opened": it held only openings, so an addition to the team's meld of
nines -- undetermined, allowed if the team has melded and has nines -- was absent in silence, and a meld
allowed only if the team has melded was worded "Open with 9 9 9: 30 points".

A brute force (as :mod:`test_options_complete`'s, with additions onto a meld of every rank the hand holds:
the team may have any) rules every move after the draw; for generated tables of the four variants:

* every move the engine rules legal or undetermined is listed with the same verdict and conditions (each fact
  asked, and the verdict under every value of them, in whatever order the ruling asks them) --
  or, for a move onto the team's melds, whose cards nobody listed, the group names them in ``missing``;
* each rank's naturals onto the team's meld of that rank, where the engine does not refuse it, is listed;
* every listed move is ruled as ``rule()`` rules it, and no move that may be allowed if the team has melded is
  worded as an opening (for such a team it is a meld).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from adjudicator import table_problems
from adjudicator.input.parse import options_request
from adjudicator.model.actions import Action, Add
from adjudicator.model.findings import ILLEGAL, LEGAL, UNDETERMINED
from adjudicator.options import complete as options_complete
from adjudicator.options.listing import AFTER_DRAW, legal_moves
from adjudicator.rules.engine import rule
from adjudicator.variants import load_all
from test_options_complete import MELD_RANKS, candidates, canon, dealer, pools_of, to_action

VARIANTS = load_all()
IDS = tuple(VARIANTS)
CASES = 5  # tables per variant
BUDGET = 1500  # candidate moves a table may have: a bigger one is drawn again
MELDS = "/situation/team/melds"
GROUP = {"meld": "meld", "go_out": "go_out", "discard": "discard"}


@pytest.fixture
def unbounded(monkeypatch):
    """The listing's bound on moves ruled whole, lifted: these hands are checked in full."""
    monkeypatch.setattr(options_complete, "MAX_WORK", 10**9)


def unsaid_table(rng: random.Random, vid: str) -> dict:
    """A table after the draw from the stock with nothing said of the team's melds or opening: 3-8 cards in
    hand, of a few ranks, perhaps a wild card or two; the team's score given or not."""
    _, take = dealer(vid, rng)
    hand: list[str] = []
    for r in rng.sample(MELD_RANKS, rng.randint(1, 3)):
        hand += take(lambda c, r=r: c != "JK" and c[:-1] == r, rng.randint(1, 3))
    hand += take(lambda c: c == "JK" or c[:-1] == "2", rng.choice((0, 1, 1, 2)))
    hand += take(lambda c: c[:-1] not in ("2", "3") and c != "JK", max(0, rng.randint(3, 8) - len(hand)))
    hand = hand[:8]
    rng.shuffle(hand)
    team: dict = {"red_threes": rng.randint(0, 1)}
    if rng.random() < 0.6:
        team["score"] = rng.choice((0, 1600, 3200))
    return {"players": rng.choice(VARIANTS[vid].value("players.supported")), "first_round": False,
            "stock_count": 30, "discard_pile": take(lambda c: True, rng.randint(1, 3)), "team": team,
            "opponents": {"score": 0, "melds": [], "red_threes": 0},
            "player": {"hand": hand}, "turn": {"drew": "stock", "cards_from_pile": []}}


def moves(sit, rules):
    """Every move after the draw, in canonical form, with additions onto a meld of each rank in hand."""
    counts, _ = pools_of(sit, sit.hand)
    return candidates(sit, rules, AFTER_DRAW, [k for k, _ in counts if k not in ("JK", "2", "3R", "3B")])


def leaves(ruling, path=()) -> list[tuple[dict, object]]:
    """A ruling's conditions as their ends: each line of facts supplied (pointer -> value) and its verdict."""
    if not ruling.conditions:
        return [(dict(path), ruling.verdict)]
    return [leaf for c in ruling.conditions for ch in c.choices
            for leaf in leaves(ch.ruling, (*path, (c.pointer, ch.value)))]


def same_ways(one, other) -> bool:
    """Whether two rulings give the same verdict, ask the same facts, and give the same verdict for every value of
    them -- in whatever order they ask them (two ways of writing one move may list its melds in another order)."""
    a, b = leaves(one), leaves(other)
    if one.verdict != other.verdict or {p for line, _ in a for p in line} != {p for line, _ in b for p in line}:
        return False
    return all(va == vb for la, va in a for lb, vb in b if all(lb.get(p, v) == v for p, v in la.items()))


def _allowed_if_melded(ruling) -> bool:
    """Whether the move may be allowed if the team has melded (then it is no opening)."""
    return any(c.kind == "opened" and any(ch.value is True and ch.verdict != ILLEGAL for ch in c.choices)
               for c in ruling.conditions)


def _check(vid: str, situation: dict) -> bool:
    request = options_request({"variant": vid, "situation": situation}, VARIANTS)
    sit, rules = request.situation, request.rules
    if table_problems(sit, rules):
        return False
    actions = []
    for action in moves(sit, rules):
        actions.append(action)
        if len(actions) > BUDGET:
            return False
    options = legal_moves(sit, rules)
    listed, missing = {}, {}
    for group in options.groups:
        assert group.complete, group.kind
        missing[group.kind] = group.missing
        for option in group.options:
            ruled = rule(sit, option.action, rules)
            assert option.verdict == ruled.verdict and option.ruling.conditions == ruled.conditions, \
                (vid, option.key, option.body)  # listed as rule() rules it, to the words
            if option.message.key.startswith("options.opening."):
                assert not _allowed_if_melded(ruled), (vid, option.key, "worded as an opening")
            listed[canon(option.action, sit)] = option
    for action in actions:
        ruled = rule(sit, action, rules)
        if ruled.verdict not in (LEGAL, UNDETERMINED):
            continue
        option = listed.get(canon(action, sit))
        if option is None:
            assert action.adds and MELDS in missing[GROUP[action.type]], \
                (vid, situation, action, ruled.verdict, "absent, and the group does not say what it lacks")
            continue
        assert same_ways(option.ruling, ruled), (vid, option.key, action)
    # each rank's naturals onto the team's meld of it, if it has one: listed wherever not refused
    counts, pools = pools_of(sit, sit.hand)
    for (k, _), n in counts.items():
        if k in ("JK", "2", "3R", "3B"):
            continue
        action = to_action("meld", {("add", k): Counter({c: m for c, m in counts.items() if c[0] == k})}, pools)
        if rule(sit, action, rules).verdict != ILLEGAL:
            assert canon(action, sit) in listed, (vid, situation["player"]["hand"], k, "not listed")
    return True


@pytest.mark.parametrize("vid", IDS)
def test_every_move_of_a_team_whose_opening_is_unsaid_is_listed_as_ruled(vid, unbounded):
    rng = random.Random(f"opening-unsaid/{vid}")
    done = tries = 0
    while done < CASES:
        tries += 1
        assert tries < 20 * CASES, "the generator makes tables that can happen, of a size the brute force takes"
        done += _check(vid, unsaid_table(rng, vid))


@pytest.mark.parametrize("vid", IDS)
def test_the_issues_hand_lists_the_additions_and_words_a_meld_as_one(vid):
    """Top of the pile 7, hand 7 7 K K K 5 9 Joker (and with 9 9 9), drawn, nothing said of the team's melds."""
    for hand in (["7S", "7H", "KS", "KH", "KD", "5C", "9S", "JK"], ["9S", "9H", "9D", "KS", "5C"],
                 ["7S", "7H", "KS", "KH", "KD", "9S", "9H", "9D", "JK"]):
        situation = {"players": 4, "discard_pile": ["7D"], "player": {"hand": hand}, "turn": {"drew": "stock"}}
        request = options_request({"variant": vid, "situation": situation}, VARIANTS)
        meld = legal_moves(request.situation, request.rules).group("meld")
        keys = {o.key: o for o in meld.options}
        assert "add:9" in keys, (vid, hand, sorted(keys))
        assert keys["add:9"].verdict == UNDETERMINED
        assert [c.kind for c in keys["add:9"].ruling.conditions] == ["opened"]
        assert MELDS in meld.missing  # a wild card onto the team's melds cannot be listed: the group says so
        for option in meld.options:
            if option.message.key.startswith("options.opening."):
                assert not _allowed_if_melded(option.ruling), (vid, option.key)


@pytest.mark.parametrize("vid", IDS)
def test_a_take_that_lays_onto_the_teams_unlisted_melds_is_listed_or_its_group_says_what_it_lacks(vid):
    """Before the draw, top of the pile 5H, hand 8 8 8 2 2, nothing said of the team's melds: the take that lays
    the five onto the team's meld of fives, a meld 8 8 8 2 and the other two onto it is undetermined (if the team
    has melded, and has fives); the listing, which cannot list every such take without the melds' cards, names
    them in the take's group (found by a brute force of the takes, which was too slow for the suite: 13 minutes)."""
    situation = {"players": 4, "first_round": False, "stock_count": 30, "discard_pile": ["4H", "KS", "5H"],
                 "team": {"red_threes": 1, "score": 1600}, "opponents": {"score": 0, "melds": [], "red_threes": 0},
                 "player": {"hand": ["8C", "8H", "2S", "2D", "8S"]}, "turn": {"has_drawn": False}}
    request = options_request({"variant": vid, "situation": situation}, VARIANTS)
    sit, rules = request.situation, request.rules
    take = Action("take_pile", melds=(("2D", "8S", "8H", "8C"),), adds=(Add(("2S",), "8"),))
    ruled = rule(sit, take, rules)
    group = legal_moves(sit, rules).group("take_pile")
    listed = {canon(o.action, sit) for o in group.options}
    if ruled.verdict in (LEGAL, UNDETERMINED) and canon(take, sit) not in listed:
        assert MELDS in group.missing, (vid, ruled.verdict, sorted(listed))
