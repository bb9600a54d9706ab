"""Issue #42's property: for a generated table and one fact removed, each choice of the ruling's ``conditions``
gives the verdict ``rule()`` gives when that fact is supplied with that value; where the ruling is decided across
facts (``decided_across_facts``), every value of them agrees.

Tables and actions are drawn as tests/test_one_truth.py draws them (the four variants, a player's plausible
moves and odd ones), derandomized and bounded. Then one fact of a kind of the registry
(:data:`adjudicator.rules.facts.KINDS`) is taken out of the table, saying no more than a family that does not
know it would: the stock count; whether (and where) the player drew; the team's melds (so whether it opened);
its canastas (melds said as ranks); whether it has a meld of one rank; what lies among the pile's cards nobody
named; how many play; the first round; the hand (so how many cards the play leaves). The request without it is
ruled through the library and through ``/v1/adjudicate`` (the same ruling), and

* each choice (nested ones too), its ``patch`` merged into the request (RFC 7386), is ruled again through the
  library and ``/v1/adjudicate``: the verdict is the choice's, and the choice asks no fact that request does not
  (it may ask fewer: a line of choices supplies at most ``MAX_FACTS`` facts, a request with one given starts anew);
* each fact the ruling was decided across is supplied with each value the registry gives it: every value the
  table can have gives the ruling's verdict;
* a decided ruling on the table without the fact is the verdict of the table it came from (a missing fact is
  never guessed: whatever its value was, the ruling stands).

Every kind of the registry is asked at least once over the examples (counted, not assumed).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicator import ImpossibleInput, rule
from adjudicator.answers import answer
from adjudicator.input.parse import ruling_request
from adjudicator.model.cards import JOKER, is_black_three, is_red_three
from adjudicator.rules.facts import KINDS, asked
from adjudicator.rules.melds import sure_rank
from test_conditions import merged
from test_one_truth import IDS, MELD_RANKS, VARIANTS, plausible_actions, random_action, random_table

EXAMPLES = 40  # per kind, each example a handful of rulings (well under a minute in all), more for the kinds a
RARE = {"first_round": 200, "pile_unnamed": 120}  # ruling asks seldom (da-ludo's first round; a pile under its top)
KIND_NAMES = tuple(k.__name__.lstrip("_") for k in KINDS)


def bounded(kind: str) -> settings:
    return settings(max_examples=RARE.get(kind, EXAMPLES), derandomize=True, database=None, deadline=None, print_blob=False,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


# ----------------------------------------------------------------------------------------------
# One fact taken out, as a family that does not know it would say the table


def _wild(card: str) -> bool:
    return card == JOKER or card[:-1] == "2"


def _ranks(melds: list) -> list[str]:
    return [r for r in (sure_rank(m) for m in melds) if r]


def without_stock(s: dict, rng: random.Random, action: dict) -> dict | None:
    return {k: v for k, v in s.items() if k != "stock_count"}


def without_drew(s: dict, rng: random.Random, action: dict) -> dict | None:
    turn = dict(s["turn"])
    turn.pop("drew")
    if rng.random() < 0.5:  # ... or knowing only that the player drew, not where
        if s["turn"]["drew"] is None:
            return None
        turn["has_drawn"] = True
    return dict(s, turn=turn)


def without_opened(s: dict, rng: random.Random, action: dict) -> dict | None:
    team = {k: v for k, v in s["team"].items() if k != "melds"}
    player = {k: v for k, v in s["player"].items() if k != "has_melded"}
    return dict(s, team=team, player=player)


def without_canastas(s: dict, rng: random.Random, action: dict) -> dict | None:
    melds = s["team"]["melds"]
    if not melds:
        return None
    team = {"score": s["team"]["score"], "red_threes": s["team"]["red_threes"], "opened": True,
            "ranks": {r: True for r in _ranks(melds)}}
    return dict(s, team=team)


def without_rank(s: dict, rng: random.Random, action: dict) -> dict | None:
    melds = s["team"]["melds"]
    if not melds:
        return None
    held = set(_ranks(melds))
    about = [c[:-1] for c in s["discard_pile"][-1:] + list(action.get("with") or ()) if not _wild(c)]
    about += [c[:-1] for m in action.get("melds") or () for c in m if not _wild(c)]
    about += [a["to"] for a in action.get("add") or ()] + sorted(held)
    about = [r for r in about if r in MELD_RANKS]
    if not about:
        return None
    removed = rng.choice(about)
    ranks = {r: r in held for r in MELD_RANKS if r != removed}
    team = {"score": s["team"]["score"], "red_threes": s["team"]["red_threes"], "opened": True, "ranks": ranks,
            "canastas": sum(1 for m in melds if len(m) >= 7)}
    return dict(s, team=team)


def without_pile_unnamed(s: dict, rng: random.Random, action: dict) -> dict | None:
    pile = s["discard_pile"]
    if len(pile) < 2:
        return None
    below = pile[:-1]
    said = {"wild": any(_wild(c) for c in below), "black_three": any(is_black_three(c) for c in below),
            "red_three_first": is_red_three(below[0])}
    del said[rng.choice(sorted(said))]
    return dict(s, discard_pile=pile[-1:], pile_unnamed=said)


def without_players(s: dict, rng: random.Random, action: dict) -> dict | None:
    return {k: v for k, v in s.items() if k != "players"}


def without_first_round(s: dict, rng: random.Random, action: dict) -> dict | None:
    if rng.random() < 0.6:  # a table that could be in its first round: nobody has melded yet
        s.update(team=dict(s["team"], melds=[]), opponents=dict(s["opponents"], melds=[]),
                 player=dict(s["player"], has_melded=False),
                 turn={"drew": rng.choice((None, "stock")), "cards_from_pile": []})
        action.clear()
        action.update(rng.choice(plausible_actions(s)))
    return {k: v for k, v in s.items() if k != "first_round"}


def without_hand_size(s: dict, rng: random.Random, action: dict) -> dict | None:
    return dict(s, player={k: v for k, v in s["player"].items() if k != "hand"})


# Each takes the fact out of the table ``s`` (None: the table has nothing of the kind). One may first make ``s`` a
# table where the fact can matter (in place: the table the ruling without the fact is held to)
REMOVE = {"stock": without_stock, "drew": without_drew, "opened": without_opened, "canastas": without_canastas,
          "rank": without_rank, "pile_unnamed": without_pile_unnamed, "players": without_players,
          "first_round": without_first_round, "hand_size": without_hand_size}


def test_every_kind_of_the_registry_is_taken_out_by_one_of_these():
    assert set(REMOVE) == set(KIND_NAMES)


# ----------------------------------------------------------------------------------------------
# The rulings


def library(body: dict) -> str:
    """The verdict ``rule()`` gives (``refused``: the table cannot happen)."""
    try:
        request = ruling_request(body, VARIANTS)
        return str(rule(request.situation, request.action, request.rules).verdict)
    except ImpossibleInput:
        return "refused"


def adjudicate(body: dict) -> dict | None:
    out = answer("adjudicate", body, "en")
    assert out.status in (200, 422), out.document
    return out.document if out.status == 200 else None


def _asked(ruling: dict) -> set[str]:
    return {c["pointer"] for c in ruling.get("conditions", ())}


def choices_hold(body: dict, ruling: dict, faults: list[str], seen: Counter, depth: int = 0) -> None:
    """Every choice, its patch merged into ``body``: the library and /v1/adjudicate rule the choice's verdict."""
    for condition in ruling.get("conditions", ()):
        seen[f"asked {condition['kind']}"] += 1
        for choice in condition["choices"]:
            again = merged(body, choice["patch"])
            by_library, by_http = library(again), adjudicate(again)
            said = by_http["verdict"] if by_http else "refused"
            if by_library != choice["verdict"] or said != choice["verdict"]:
                faults.append(f"{condition['pointer']} = {choice['value']!r}: the choice says {choice['verdict']}, "
                              f"rule() {by_library}, /v1/adjudicate {said}")
            elif by_http and _asked(choice) - _asked(by_http):
                faults.append(f"{condition['pointer']} = {choice['value']!r}: the choice asks {_asked(choice)}, "
                              f"the request with it given {_asked(by_http)}")
            choices_hold(again, choice, faults, seen, depth + 1)


def decided_holds(body: dict, ruling: dict, faults: list[str], seen: Counter) -> None:
    """Each fact the ruling was decided across, supplied with each of its values: the ruling's verdict (or a table
    that cannot happen)."""
    request = ruling_request(body, VARIANTS)
    for pointer in ruling.get("decided_across_facts", ()):
        ask = asked(pointer, request.situation, request.action, request.rules)
        if ask is None:
            continue  # a fact asked only under another's value (nested): held by that value's own ruling
        seen[f"decided across {ask.kind}"] += 1
        for value in ask.values:
            patch: dict = {}
            for path, v in value.patch:
                at = patch.setdefault("situation", {})
                for key in path[:-1]:
                    at = at.setdefault(key, {})
                at[path[-1]] = v
            verdict = library(merged(body, patch))
            if verdict not in (ruling["verdict"], "refused"):
                faults.append(f"decided {ruling['verdict']} across {pointer}, but {value.code!r} gives {verdict}")


@pytest.mark.parametrize("kind", sorted(REMOVE))
def test_each_choice_is_the_ruling_with_that_value_supplied(kind):
    seen: Counter = Counter()

    @bounded(kind)
    @given(st.sampled_from(IDS), st.integers(0, 2 ** 32 - 1))
    def one_table(vid: str, seed: int) -> None:
        rng = random.Random(seed)
        table = random_table(rng, vid)
        action = random_action(rng, table)
        lacking = REMOVE[kind](table, rng, action)
        full = {"variant": vid, "situation": table, "action": action}
        if lacking is None:
            seen["nothing of the kind to take out"] += 1
            return
        body = dict(full, situation=lacking)
        ruled = adjudicate(body)
        if ruled is None:
            assert library(body) == "refused", body
            seen["refused without the fact"] += 1
            return
        faults: list[str] = []
        if library(body) != ruled["verdict"]:
            faults.append(f"rule() {library(body)}, /v1/adjudicate {ruled['verdict']}")
        choices_hold(body, ruled, faults, seen)
        decided_holds(body, ruled, faults, seen)
        if ruled["verdict"] != "undetermined":
            before = library(full)
            if before not in (ruled["verdict"], "refused"):
                faults.append(f"without the fact {ruled['verdict']}, with it {before}")
        seen["ruled"] += 1
        assert not faults, (body, faults)

    one_table()
    asked_here = sum(n for k, n in seen.items() if k.startswith(("asked ", "decided across ")))
    assert asked_here, f"no ruling asked for a fact once its {kind} was taken out: {dict(seen)}"
