"""The listing is complete, move by move: a brute force rules every candidate action and the legal ones are
exactly the listed ones.

For every variant and turn state (not drawn yet; drawn from the stock; drawn from the pile, some of its
cards in hand), seeded random hands of up to 10 cards with random tables. The brute force
(:func:`candidates`) builds every action of the phase in canonical form -- each card a *kind* (its rank; a
joker; a two; a red or black three), so one action per distinct move -- and asks the engine about each:

* ``draw``; ``discard`` of each kind in hand;
* ``take_pile`` with every sub-multiset of the hand's cards of the top card's rank and wild cards (a wild
  card on top: of any one rank), each bare and with every layout of the rest of the hand (additions to the
  taken meld and to the team's melds, new melds) -- a team that has opened may lay its melds in the take;
* ``meld``: every non-empty layout: each kind's cards split between the hand, additions to the team's meld
  of its rank and new melds of its rank (two new melds of a rank where the hand holds enough naturals for
  two: ``2 * meld.min_naturals``); wild cards anywhere; black threes into a meld of their own;
* ``go_out``: each layout that leaves no card, or one to discard.

The pile's other cards are laid after the take, in a meld move (``drew: pile``), as the listing's documented
canonical form has it. The moves the engine rules ``legal`` must be exactly the listing's
``legal`` moves, and likewise ``undetermined``, compared by canonical move (not by kind of option).
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

import pytest

from adjudicator.model.actions import Action, Add
from adjudicator.model.cards import RANKS, SUITS, is_red_three
from adjudicator.rules.engine import rule
from adjudicator.model.findings import LEGAL, UNDETERMINED
from adjudicator.rules.melds import sure_rank
from adjudicator.options import complete as options_complete
from adjudicator.options.listing import AFTER_DRAW, BEFORE_DRAW, legal_moves
from adjudicator.options.body import action_body
from adjudicator.input.parse import options_request
from adjudicator import table_problems
from adjudicator.variants import load_all

VARIANTS = load_all()
IDS = tuple(VARIANTS)
CASES = 8  # random situations per variant and turn state
BUDGET = 3000  # candidate actions a case may have: a bigger one is drawn again (the suite stays fast)
TURNS = {"before": {"drew": None, "cards_from_pile": []}, "stock": {"drew": "stock", "cards_from_pile": []},
         "pile": "pile"}
MELD_RANKS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")


def kind(card: str) -> str:
    if card == "JK":
        return "JK"
    r = card[:-1]
    if r == "3":
        return "3R" if is_red_three(card) else "3B"
    return r


def canon(action: Action, sit) -> tuple:
    """A move up to suits: kinds per part, parts unordered, and the kinds laid from the pile this turn."""
    def kinds(cards):
        return tuple(sorted(kind(c) for c in cards))
    pile = ()
    if sit.drew == "pile" and sit.cards_from_pile:
        own = Counter(sit.hand) - Counter(sit.cards_from_pile)
        pile = kinds((Counter(action.laid_cards()) - own).elements())
    return (action.type, kinds(action.with_cards), tuple(sorted(kinds(m) for m in action.melds)),
            tuple(sorted((a.to or "", kinds(a.cards)) for a in action.adds)),
            kind(action.discard) if action.discard else None, pile)


# ----------------------------------------------------------------------------------------------
# Random tables


def deck(vid: str) -> list[str]:
    rules = VARIANTS[vid]
    cards = [r + s for r in RANKS for s in SUITS] * rules.value("deck.decks") + ["JK"] * rules.value("deck.jokers")
    return [c for c in cards if not is_red_three(c)]


def dealer(vid: str, rng: random.Random):
    """A shuffled deck of the variant and ``take(pred, n)``, which deals up to ``n`` of its cards matching ``pred``."""
    cards = deck(vid)
    rng.shuffle(cards)

    def take(pred, n):
        out = [c for c in cards if pred(c)][:n]
        for c in out:
            cards.remove(c)
        return out
    return cards, take


def random_situation(rng: random.Random, vid: str, turn) -> dict:
    _, take = dealer(vid, rng)
    melds = []
    for r in rng.sample(MELD_RANKS, rng.choice((0, 1, 1, 2))):
        meld = take(lambda c, r=r: c != "JK" and c[:-1] == r, rng.randint(3, 7))
        if len(meld) >= 4 and rng.random() < 0.3:
            meld = meld[:-1] + take(lambda c: c == "JK", 1)
        melds.append(meld)
    size = rng.choice((2, 3, 4, 5, 6, 6, 7, 8, 9, 10))
    hand: list[str] = []
    for _ in range(rng.randint(1, 3)):
        r = rng.choice(MELD_RANKS + ("3",) + tuple(sure_rank(m) for m in melds))
        hand += take(lambda c, r=r: c != "JK" and c[:-1] == r, rng.randint(1, 4))
    hand += take(lambda c: c == "JK" or c[:-1] == "2", rng.choice((0, 1, 1, 2)))
    hand = (hand + take(lambda c: c[:-1] != "2" and c != "JK", max(0, size - len(hand))))[:size]
    rng.shuffle(hand)
    pile = take(lambda c: True, rng.randint(0, 3))
    naturals = [c for c in hand if c[:-1] not in ("2", "3") and c != "JK"]
    if naturals and rng.random() < 0.7:
        pile += take(lambda c, r=rng.choice(naturals)[:-1]: c != "JK" and c[:-1] == r, 1)
    if turn == "pile":  # the pile was taken whole this turn: none of it lies there any more
        pile = []
        turn = {"drew": "pile", "cards_from_pile": rng.sample(hand, min(len(hand), rng.randint(0, 2)))}
    return {"players": rng.choice(VARIANTS[vid].value("players.supported")), "first_round": False,
            "stock_count": 30, "discard_pile": pile,
            "team": {"score": rng.choice((0, 1600, 3200, -50)), "melds": melds, "red_threes": rng.randint(0, 1)},
            "opponents": {"score": 0, "melds": [], "red_threes": 0},
            "player": {"hand": hand, "has_melded": bool(melds)}, "turn": turn}


# ----------------------------------------------------------------------------------------------
# The brute force


def _splits(count: int, bins: int):
    if bins == 1:
        yield (count,)
        return
    for first in range(count + 1):
        for rest in _splits(count - first, bins - 1):
            yield (first, *rest)


def pools_of(sit, cards) -> tuple[Counter, dict]:
    """The cards as counts of (kind, from the pile this turn), with representative cards of each."""
    taken = Counter(sit.cards_from_pile) if sit.drew == "pile" else Counter()
    own = Counter(cards) - taken
    both = set(own) & set(Counter(cards) - own)
    counts, pools = Counter(), {}
    left = Counter(own)
    for card in cards:
        pile = left[card] <= 0
        if not pile:
            left[card] -= 1
        counts[(kind(card), pile)] += 1
        pools.setdefault((kind(card), pile), []).append(card)
    # laid cards come off the end of a pool: a code both the pile and the player's own cards hold counts
    # as the pile's only beyond the own copies, so those own copies are laid first, those pile copies last
    for (k, pile), pool in pools.items():
        pool.sort(key=lambda c: (c in both) if not pile else (c not in both))
    return counts, pools


def layouts(counts: Counter, rules, team_ranks: list[str]):
    """Every assignment of the cards to places (see the module docstring): (contents by place, left)."""
    min_n = rules.value("meld.min_naturals") if rules.params["meld.min_naturals"].settled else 1
    ranks = [k for k, _ in counts if k not in ("JK", "3R", "3B")]
    places = [("add", r) for r in dict.fromkeys(team_ranks)]
    for r in dict.fromkeys(ranks):
        naturals = sum(n for (k, _), n in counts.items() if k == r)
        places += [("new", r, i) for i in range(2 if naturals >= 2 * max(1, min_n) else 1)]
    if any(k == "3B" for k, _ in counts):
        places.append(("new", "3B", 0))
    per_class = []
    for cls, n in counts.items():
        k = cls[0]
        if k == "3R":
            allowed = []
        elif k in ("JK", "2"):
            allowed = places
        else:
            allowed = [p for p in places if p[1] == k]
        per_class.append((cls, n, allowed))
    for choice in product(*(list(_splits(n, len(allowed) + 1)) for _, n, allowed in per_class)):
        content: dict = {}
        left = Counter()
        for (cls, n, allowed), split in zip(per_class, choice):
            left[cls] += split[0]
            for p, m in zip(allowed, split[1:]):
                if m:
                    content.setdefault(p, Counter())[cls] += m
        if content and all(p[0] == "add" or any(c[0] == p[1] for c in content[p]) for p in content):
            yield content, +left


def to_action(kind_name: str, content: dict, pools: dict, with_cards=(), discard=None) -> Action:
    left = {k: list(v) for k, v in pools.items()}
    melds, adds = [], []
    for place, classes in content.items():
        cards = tuple(left[c].pop() for c, n in sorted(classes.items()) for _ in range(n))
        if place[0] == "new":
            melds.append(cards)
        else:
            adds.append(Add(cards, place[1]))
    card = left[discard].pop() if discard is not None else None
    return Action(kind_name, with_cards=tuple(with_cards), melds=tuple(melds), adds=tuple(adds), discard=card)


def candidates(sit, rules, phase: str, team_ranks: list[str] | None = None):
    """Every move of the phase; additions onto the team's listed melds, or onto a meld of each of ``team_ranks``
    (melds not listed: the team may have any)."""
    counts, pools = pools_of(sit, sit.hand)
    if team_ranks is None:
        team_ranks = [r for r in (sure_rank(m) for m in sit.team.melds or ()) if r]
    if phase == BEFORE_DRAW:
        yield Action("draw")
        pile = sit.pile or ()
        if not pile:
            return
        top = kind(pile[-1])
        ranks = [top] if top not in ("JK", "2") else list(dict.fromkeys(k for k, _ in counts))
        for r in ranks:
            fitting = [c for c in counts if c[0] in ("JK", "2", r)]
            for split in product(*(range(counts[c] + 1) for c in fitting)):
                shown = Counter({c: m for c, m in zip(fitting, split) if m})
                with_cards = [pools[c][i] for c, m in shown.items() for i in range(m)]
                yield Action("take_pile", with_cards=tuple(with_cards))
                rest = [c for c in sit.hand]
                for c in with_cards:
                    rest.remove(c)
                rest_counts, rest_pools = pools_of(sit, rest)
                for content, _ in layouts(rest_counts, rules, [r, *team_ranks]):
                    yield to_action("take_pile", content, rest_pools, with_cards)
        return
    for content, left in layouts(counts, rules, team_ranks):
        yield to_action("meld", content, pools)
        size = sum(left.values())
        if size == 0:
            yield to_action("go_out", content, pools)
        elif size == 1:
            yield to_action("go_out", content, pools, discard=next(iter(left)))
    for cls in counts:
        yield Action("discard", discard=pools[cls][0])
    if len(sit.hand) == 1:
        yield Action("go_out", discard=sit.hand[0])


# ----------------------------------------------------------------------------------------------


@pytest.fixture
def unbounded(monkeypatch):
    """The listing's bound on moves ruled whole, lifted: these hands are checked in full."""
    monkeypatch.setattr(options_complete, "MAX_WORK", 10**9)


@pytest.mark.parametrize("turn", list(TURNS))
@pytest.mark.parametrize("vid", IDS)
def test_the_legal_moves_are_exactly_the_listed_ones(vid, turn, unbounded):
    rng = random.Random(f"{vid}/{turn}")
    done, sizes, impossible = 0, [], 0
    while done < CASES:
        assert impossible < 10 * CASES, "the generator makes tables that can happen, mostly"
        situation = random_situation(rng, vid, TURNS[turn])
        request = options_request({"variant": vid, "situation": situation}, VARIANTS)
        sit, rules = request.situation, request.rules
        if table_problems(sit, rules):
            impossible += 1
            continue  # a table the variant's own rules rule out (two melds of one rank, ...): nothing to list
        phase = BEFORE_DRAW if sit.drew is None else AFTER_DRAW
        actions = []
        for action in candidates(sit, rules, phase):
            actions.append(action)
            if len(actions) > BUDGET:
                break
        if len(actions) > BUDGET:
            continue
        done += 1
        sizes.append(len(sit.hand))
        options = legal_moves(sit, rules)
        listed = {LEGAL: set(), UNDETERMINED: set()}
        for group in options.groups:
            assert group.complete, group.kind
            for option in group.options:
                listed[option.verdict].add(canon(option.action, sit))
            assert len({o.key for o in group.options}) == len(group.options), group.kind  # a key per move
        found = {LEGAL: set(), UNDETERMINED: set()}
        for action in actions:
            verdict = rule(sit, action, rules).verdict
            if verdict in found:
                found[verdict].add(canon(action, sit))
        for verdict in (LEGAL, UNDETERMINED):
            missing = found[verdict] - listed[verdict]
            extra = listed[verdict] - found[verdict]
            assert not missing and not extra, (verdict, situation, sorted(missing)[:5], sorted(extra)[:5])
    assert max(sizes) >= 8, sizes  # not only small hands


def _moves(vid: str, situation: dict):
    request = options_request({"variant": vid, "situation": situation}, VARIANTS)
    return legal_moves(request.situation, request.rules)


def _table(team_melds, hand) -> dict:
    return {"players": 4, "first_round": False, "stock_count": 30, "discard_pile": ["5C"],
            "team": {"score": 1000, "melds": team_melds, "red_threes": 0},
            "opponents": {"score": 0, "melds": [], "red_threes": 0},
            "player": {"hand": hand, "has_melded": True}, "turn": {"drew": "stock", "cards_from_pile": []}}


def test_one_two_or_three_kings_onto_the_kings_are_each_listed():
    """The issue's first example: K K K on the table, K♣ K♥ K♠ in hand (sv-classic)."""
    options = _moves("sv-classic", _table([["KD", "KH", "KS"]], ["KC", "KH", "KS", "5D", "7C"]))
    adds = {tuple(sorted(action_body(o.action)["add"][0]["cards"])): o.verdict
            for o in options.group("meld").options if o.action.adds and not o.action.melds}
    assert {len(cards): verdict for cards, verdict in adds.items()} == {1: LEGAL, 2: LEGAL, 3: LEGAL}


def test_a_natural_and_a_joker_onto_a_meld_of_four_jokers_in_da_ludo():
    """The issue's second example: 9 9 9 9 + three jokers; 9♥ and a joker in hand: five naturals to four
    jokers is still a majority."""
    options = _moves("da-ludo", _table([["9C", "9D", "9S", "9C", "JK", "JK", "JK"]], ["9H", "JK", "5D", "7C"]))
    moves = {tuple(sorted(o.action.adds[0].cards)): o for o in options.group("meld").options
             if o.action.adds and not o.action.melds}
    assert moves[("9H", "JK")].verdict == LEGAL
    assert moves[("9H",)].verdict == LEGAL
    assert ("JK",) not in moves  # four naturals to four jokers is no majority


def test_a_long_group_is_paged_with_an_honest_count():
    hand = ["AH", "AS", "KC", "QH", "QS", "JD", "10C", "10H", "9S", "8D", "7C", "5H", "4S", "2C", "JK"]
    melds = [["KH", "KS", "KD"], ["QD", "QC", "QH"], ["6H", "6S", "6D", "6C", "JK"], ["8H", "8S", "8C"]]
    group = _moves("sv-classic", _table(melds, hand)).group("meld")
    assert group.complete and group.count == len(group.options) > 100
    assert len({o.key for o in group.options}) == group.count  # every key names one move
    first = group.options[0]
    assert first.way != "every"  # the search's own proposals come first
