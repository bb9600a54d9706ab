"""The cost model: what a request will make the engine do, estimated before it does it.

One request can ask for very different amounts of work: a ruling on a draw is a few checks, the
options of a whole deck walk thousands of layouts, a comparison does that under every variant,
a replay rules every move of a log. A service that starts whatever it is sent can be kept busy
for minutes by 500 bytes (issue 36). So every kind of request is priced here, in **units** (one
meld checked under one reading; about 50 µs of CPU at the heaviest on the machine the model was
calibrated on, 5-10 µs typically), from what drives the engine's work:

* the **cards**: laid in melds (the table's and the action's; each meld is checked card by card),
  held (a twelfth as much), the cards of a layout walk (the options);
* the **open points** a request can reach: a ruling that hangs on a point its variant's text
  leaves open is made again under each reading (``1 + 2 ** k`` runs for ``k`` points, at most
  :data:`~adjudicator.rules.readings.MAX_POINTS`);
* the **house rules**: a variant with house rules is a fresh copy whose citations are worked out
  afresh, and each item of their lists (opening bands) is shown wherever the rule is used;
* for the options: the **groups** walked (each walk is bounded by the engine itself,
  :data:`~adjudicator.options.complete.MAX_WORK`) and the **page** of options made in full, each
  with its ruling -- at most as many a group as the hand's cards can make (:func:`group_bounds`,
  counted from the cards alone) and as the page asks; for a comparison, all that per **variant**,
  and the moves of the pages ruled under each variant; for a replay, each **move**; for a score,
  each **round**.

The units are calibrated against measured CPU (``bench/budget_bench.py --calibrate``: the ratio of
CPU seconds to units over a corpus of light to the heaviest valid requests of every kind; BENCHMARKS.md
has the figures). A caller compares an estimate with its budget -- the web layer refuses a request
over it with a 413 that says what to send instead (``web_api/budgets.py``) -- before any work is done,
before any search even for the options: a refusal costs next to nothing (issue 45). Once walked, a
page's cost from its groups' real sizes (:func:`page_cost`) is never above its price
(:func:`pages_priced`); the service checks it before any option is made.

Everything here reads the request as sent (plain JSON values): a misshapen member costs nothing,
since the parser refuses it before any work.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from itertools import product
from math import comb
from typing import Any

from .input.house_rules import MAX_BANDS
from .model.parameters import BY_NAME
from .options.paging import MAX_LIMIT, Page
from .rules.readings import MAX_POINTS
from .rules.readings import readings_for
from .variants import Variant

BASE_UNITS = 2  # reading the request, the checks every ruling makes, its words
CARDS_PER_UNIT = 3  # cards laid in melds (the table's and the action's)
HAND_CARDS_PER_UNIT = 12  # cards held
UNITS_PER_ROUND = 6  # a round of a game (score): its lines, citations and words, about 5 KB of answer
# A comparison does each variant's work, then reads the results side by side: for each rule (rulings) or each
# line of each round (scores) that differs, each variant's parameters, citations and words.
COMPARED_RULING = 2  # a comparison of rulings: twice the rulings' own work
COMPARED_SCORE = 2  # a comparison of scores: twice the scores' (every line of every round, compared)
HOUSE_RULES_UNITS = 4  # a copy of the variant with the house rules applied
HOUSE_ITEMS_PER_SHARE = 12  # each 12 items of the house rules' lists add the ruling's cost once more
# The options (calibrated: bench/budget_bench.py --calibrate). A group's walk -- the search's proposals, then
# every layout of the hand, ruled or decided from its parts -- grows with the square of the cards in hand until
# the engine's own bounds on it (MAX_MOVES layouts, MAX_WORK of rulings) stop it: (the units it reaches, at how
# many cards). The heaviest walks measured, over every variant, opened or not, with house rules that multiply
# the melds a hand can make: taking the pile 650 ms for a whole deck (250 ms at 20 cards), the melds and going
# out 350 ms, on a loaded 2-core machine (BENCHMARKS.md).
WALKS = {"take_pile": (13_000, 20), "meld": (7_000, 25), "go_out": (7_000, 30)}
OPTION_BASE_UNITS = 10  # one option made in full: its move, its words, its ruling's sentences ...
# ... and its ruling, made over the cards in hand and on the team's melds, under each reading it hangs on:
# (runs + 2) / 2 units a card (7.5 ms an option of a whole deck under da-ludo, whose twos are open)
PHASE_GROUPS = {"before_draw": ("draw", "take_pile"), "after_draw": ("meld", "go_out", "discard")}
# The parser refuses a list of cards (or of melds) longer than the largest deck before reading an item of it; no
# deck, house rules included, holds more than this: a longer list counts as this long.
MOST_CARDS = 52 * BY_NAME["deck.decks"].maximum + BY_NAME["deck.jokers"].maximum


@dataclass(frozen=True)
class OverBudget(Exception):
    """A request whose estimated cost is over the budget, and what to send instead.

    ``limit``: the largest page (options per group) that fits; ``group``: ask for one group at a time (where
    even a page of one option of each group does not fit); ``variants``: how many variants a comparison may
    name at once to fit; ``moves``: the moves of a log; ``items``: the items of a batch. Only the members
    that apply are set; none when nothing smaller of the same request would fit.
    """

    kind: str  # the kind of request: adjudicate, options, compare, replay, score, batch
    cost: int
    budget: int
    limit: int | None = None
    variants: int | None = None
    moves: int | None = None
    items: int | None = None
    group: bool = False

    def __str__(self) -> str:
        return f"{self.kind}: {self.cost} units over the budget of {self.budget}"


# ----------------------------------------------------------------------------------------------
# Reading the request as sent


def _cards(value: Any) -> int:
    """Cards in a list of cards or a list of melds (additions ``{to, cards}`` too; anything else counts nothing),
    each list counted at most :data:`MOST_CARDS` long (the parser refuses a longer one before any work). Only
    strings count: an item of another kind is refused by the shape check before the engine sees it."""
    if not isinstance(value, list):
        return 0
    count = 0
    for part in value[:MOST_CARDS + 1]:
        if isinstance(part, dict):
            part = part.get("cards")
        if isinstance(part, list):
            count += sum(1 for card in part[:MOST_CARDS + 1] if isinstance(card, str))
        elif isinstance(part, str):
            count += 1
    return count


def _get(value: Any, *path: str) -> Any:
    for key in path:
        value = value.get(key) if isinstance(value, dict) else None
    return value


_NOTHING: dict = {}


def _dict(value: Any) -> dict:
    """``value`` when it is an object, else an empty one (a misshapen member costs nothing)."""
    return value if isinstance(value, dict) else _NOTHING


def _list(value: Any) -> list:
    return value if isinstance(value, list) else []


def _has_two(*values: Any) -> bool:
    """Whether a card code starting with ``2`` is among these lists of cards or of melds."""
    for value in values:
        if isinstance(value, list):
            for part in value:
                for card in (part if isinstance(part, list) else (part,)):
                    if isinstance(card, str) and card.startswith("2"):
                        return True
    return False


_OPEN: dict[str, tuple[Variant, tuple[str, ...]]] = {}  # variant id -> (the variant, its open points)


def _open_names(rules: Variant) -> tuple[str, ...]:
    """The points the variant's text leaves open (worked out once per loaded variant)."""
    hit = _OPEN.get(rules.id)
    if hit is None or hit[0] is not rules:
        hit = _OPEN[rules.id] = (rules, tuple(n for n in rules.params if readings_for(rules, n)))
    return hit[1]


def _open_points(rules: Variant, body: dict, situation: dict, twos: bool, melded: bool) -> int:
    """How many of the variant's open points this request can hang on (its rulings are made under each reading)."""
    settled = _dict(body.get("house_rules"))
    count = 0
    for name in _open_names(rules):
        if name in settled:
            continue  # the table's own house rule settles it: ruled once
        if name == "wild.twos":
            if not twos:
                continue  # a point this request cannot reach
        elif (name.startswith("opening.") and melded) or (name.startswith("stock.") and not (
                situation.get("stock_count") == 0 or situation.get("stock_empty") is True)):
            continue  # a point this request cannot reach
        count += 1
    return min(count, MAX_POINTS)


def runs(points: int) -> int:
    """The rulings one ruling takes with ``points`` open points: the first, then one per combination of readings."""
    return 1 + 2 ** points if points else 1


def house_rules_share(body: Any) -> tuple[int, int]:
    """``(extra units, multiplier in twelfths)`` the house rules of a request add to its work.

    A list longer than a house rule may hold (:data:`~adjudicator.input.house_rules.MAX_BANDS`) is refused by
    the parser before any work, so it counts as one item over the bound, whatever its length."""
    rules = _dict(body).get("house_rules") if isinstance(body, dict) else None
    if not isinstance(rules, dict) or not rules:
        return 0, 12
    items = 0
    for value in rules.values():
        if isinstance(value, (list, dict)):
            items += min(len(value), MAX_BANDS + 1)
    return HOUSE_RULES_UNITS + len(rules), 18 + 12 * items // HOUSE_ITEMS_PER_SHARE


def _with_house_rules(units: int, body: Any) -> int:
    extra, twelfths = house_rules_share(body)
    return units * twelfths // 12 + extra


def _variant_of(body: dict, variants: dict[str, Variant]) -> Variant | None:
    variant_id = body.get("variant")
    return variants.get(variant_id) if isinstance(variant_id, str) else None


# ----------------------------------------------------------------------------------------------
# Rulings and scores (/v1/adjudicate, /v1/score, the batches' items)


@dataclass(frozen=True)
class _RulingFacts:
    """What a ruling's cost hangs on whatever the variant, read from the body once: ``(cards laid in melds,
    cards held, whether the team has opened, whether a two is in play)``."""

    melded: int
    held: int
    opened: bool
    twos: bool


def _ruling_facts(item: dict) -> _RulingFacts:
    situation, action = _dict(item.get("situation")), _dict(item.get("action"))
    team, player = _dict(situation.get("team")), _dict(situation.get("player"))
    melded = _cards(team.get("melds")) + _cards(_dict(situation.get("opponents")).get("melds")) \
        + _cards(action.get("melds")) + _cards(action.get("add"))
    return _RulingFacts(melded, _cards(player.get("hand")), bool(team.get("melds") or player.get("has_melded")),
                        _has_two(player.get("hand"), action.get("melds"), action.get("add")))


def _ruling_under(item: dict, rules: Variant, facts: _RulingFacts) -> int:
    """A ruling's cost under ``rules``: its runs (one per reading of the open points it can reach) of its checks."""
    twos = facts.twos and "wild.twos" in _open_names(rules)
    points = _open_points(rules, item, _dict(item.get("situation")), twos, facts.opened)
    units = runs(points) * (BASE_UNITS + facts.melded // CARDS_PER_UNIT + facts.held // HAND_CARDS_PER_UNIT)
    return _with_house_rules(units, item)


def ruling_cost(item: Any, variants: dict[str, Variant], rules: Variant | None = None) -> int:
    """Estimated cost of one ``/v1/adjudicate`` request or batch item, in units (a misshapen one costs the base)."""
    if not isinstance(item, dict):
        return BASE_UNITS
    rules = rules or _variant_of(item, variants)
    if rules is None:
        return BASE_UNITS
    return _ruling_under(item, rules, _ruling_facts(item))


def score_cost(item: Any, variants: dict[str, Variant]) -> int:
    """Estimated cost of one ``/v1/score`` request or batch item: its rounds, and the cards its teams list."""
    if not isinstance(item, dict):
        return BASE_UNITS
    rounds = item.get("rounds") if isinstance(item.get("rounds"), list) else [item]
    cards = 0
    for one in rounds:
        for team in _list(_get(one, "teams")):
            cards += _cards(_get(team, "melds")) + _cards(_get(team, "hand"))
    return _with_house_rules(BASE_UNITS + len(rounds) * UNITS_PER_ROUND + cards // CARDS_PER_UNIT, item)


# ----------------------------------------------------------------------------------------------
# The options of a situation (/v1/options, and each variant of /v1/compare of a situation alone)
#
# Priced before any search, from the table as sent: each group shown is walked (at most to the engine's bound) and
# its page made, each option of it in full. How many options a group holds is not known before the walk, so the
# page is priced at most as many as the group can hold (:func:`group_bounds`, an upper bound worked out from the
# hand's cards by kind and the places they can go: no walk), and at most ``limit``. A request over the budget is
# refused before any work (a refusal costs no walk), with the largest ``limit`` whose price fits.


@dataclass(frozen=True)
class Table:
    """What an options request's table drives, whatever the variant: read from the body as sent, once.

    ``classes``: the hand's cards by class (the kind the walk tells apart -- rank, joker, two, red or black three
    -- and whether it came from the pile this turn) and how many; ``kinds``: how many classes (one discard each:
    two cards of one class are one move); ``team_ranks``: the ranks of the team's melds (additions), those said
    without cards too; ``team_sizes``: the cards of its largest meld of each rank; ``canastas``: whether it is
    said to have a canasta; ``top``: the pile's top card's kind."""

    held: int
    melded: int
    opened: bool
    twos: bool
    classes: tuple[tuple[str, bool, int], ...]
    kinds: int
    team_ranks: frozenset[str]
    team_sizes: tuple[tuple[str, int], ...]
    canastas: bool
    top: str | None
    phases: tuple[str, ...]


def _card_kind(card: str) -> str:
    """A card as the walk counts it (:func:`adjudicator.options.every.kind`): its suit matters only for threes."""
    if card == "JK":
        return "JK"
    rank = card[:-1]
    if rank == "3":
        return "3R" if card[-1:] in ("H", "D") else "3B"
    return rank


def _strings(value: Any) -> list[str]:
    return [c for c in _list(value)[:MOST_CARDS + 1] if isinstance(c, str)]


def read_table(body: Any) -> Table:
    """The table of an options request (or of a comparison of options), as sent."""
    situation = _dict(_dict(body).get("situation"))
    team, player = _dict(situation.get("team")), _dict(situation.get("player"))
    hand = _strings(player.get("hand"))
    pile = _strings(situation.get("discard_pile"))
    turn = _dict(situation.get("turn"))
    taken = Counter(_strings(situation.get("cards_from_pile"))) if turn.get("drew") == "pile" else Counter()
    own = Counter(hand) - taken
    classes: Counter = Counter()
    for card, n in Counter(hand).items():
        mine = min(n, own[card])
        if mine:
            classes[(_card_kind(card), False)] += mine
        if n - mine:
            classes[(_card_kind(card), True)] += n - mine
    team_ranks = {"10" if r.upper() == "T" else r.upper() for r, has in _dict(team.get("ranks")).items()
                  if has is not False}
    sizes: dict[str, int] = {}
    for meld in _list(team.get("melds"))[:MOST_CARDS + 1]:
        cards = _strings(meld)
        naturals = {_card_kind(c) for c in cards} - {"JK", "2"}
        if len(naturals) == 1:
            (rank,) = naturals
            team_ranks.add(rank)
            sizes[rank] = max(sizes.get(rank, 0), len(cards))
    canastas = team.get("canastas")
    return Table(held=_cards(player.get("hand")), melded=_cards(team.get("melds")),
                 opened=bool(team.get("melds") or player.get("has_melded")),
                 twos=_has_two(player.get("hand"), situation.get("discard_pile"), team.get("melds")),
                 classes=tuple((k, p, n) for (k, p), n in classes.items()), kinds=len(classes),
                 team_ranks=frozenset(team_ranks), team_sizes=tuple(sizes.items()),
                 canastas=isinstance(canastas, int) and not isinstance(canastas, bool) and canastas > 0,
                 top=_card_kind(pile[-1]) if pile else None,
                 phases=_phases(situation))


def _phases(situation: dict) -> tuple[str, ...]:
    turn = situation.get("turn")
    if isinstance(turn, dict) and "drew" not in turn and isinstance(turn.get("has_drawn"), bool):
        return ("after_draw",) if turn["has_drawn"] else ("before_draw",)
    if not isinstance(turn, dict) or "drew" not in turn:
        return ("before_draw", "after_draw")  # not said: both phases are listed
    return ("before_draw",) if turn.get("drew") is None else ("after_draw",)


def _ruling_runs(body: dict, rules: Variant, table: Table) -> int:
    """The runs of one ruling of an option under ``rules``: one per reading of the open points it can reach."""
    situation = _dict(body.get("situation"))
    twos = table.twos and "wild.twos" in _open_names(rules)
    return runs(_open_points(rules, body, situation, twos, table.opened))


def option_units(held: int, melded: int, ruling_runs: int) -> int:
    """One option made in full: its move built, its words, and its ruling (under each reading it hangs on)."""
    return OPTION_BASE_UNITS + (ruling_runs + 2) * (held + melded) // 2


def walk_units(kind: str, held: int) -> int:
    """The walk of one group over a hand of ``held`` cards (bounded by the engine); nothing for a group no walk
    makes (the draw, the discards)."""
    if kind not in WALKS:
        return 0
    most, full = WALKS[kind]
    return BASE_UNITS + most * min(held, full) ** 2 // full ** 2


BOUND_CAP = 10**6  # more moves than any page holds (MAX_LIMIT): an upper bound is cut here, exact or not


def _spread(count: int, places: int) -> int:
    """The ways ``count`` cards of one class can be spread over ``places`` places, some left in hand."""
    return min(comb(count + places, places), BOUND_CAP)


def _several(rules: Variant, house: dict) -> bool:
    """Whether a team may hold two melds of a rank under some reading (the walk then tries several per rank)."""
    name = "meld.one_per_rank"
    if name in house:
        return house[name] is not True
    entry = rules.params[name]  # as the walk reads it: settled True by the text, and no reading otherwise
    return not (entry.settled and entry.value is True) or bool(readings_for(rules, name))


Classes = tuple[tuple[str, bool, int], ...]  # (kind, from the pile, how many): a hand as the walk counts it


def _layouts(classes: Classes, adds: set[str], several: bool, least: int) -> int:
    """At most how many layouts of the hand ``classes`` the walk finds (:func:`adjudicator.options.every.layouts`):
    each class of cards spread over the places that take it, or left in hand -- additions to the team's melds
    (``adds``: their ranks), new melds of its rank (several per rank where a reading allows; none where the rank's
    naturals and every wild card in hand make fewer than ``least`` cards), a black-three meld; wild cards anywhere,
    a meld of twos or of wild cards alone included. Places are counted as the walk lists them, so the product
    bounds its layouts, and so the distinct moves among them."""
    naturals: Counter = Counter()
    wilds = 0
    for k, _, n in classes:
        if k in ("JK", "2"):
            wilds += n
        elif k not in ("3R", "3B"):
            naturals[k] += n
    new = {r: (max(1, n // 2) if several else 1) for r, n in naturals.items()
           if (r not in adds or several) and n + wilds >= least}
    places = len(adds) + sum(new.values()) + any(k == "3B" for k, _, _ in classes) \
        + any(k == "2" for k, _, _ in classes) + (wilds >= 2)  # + a meld of twos (where natural), of wilds alone
    total = 1
    for k, _, n in classes:
        if k in ("JK", "2"):
            spots = places
        elif k == "3B":
            spots = 1
        elif k == "3R":
            spots = 0
        else:
            spots = (k in adds) + new.get(k, 0)
        total = min(total * _spread(n, spots), BOUND_CAP)
    return total


def _takes(table: Table, several: bool, least: int) -> int:
    """At most how many ways of taking the pile there are: each choice of the hand's cards shown with a natural top
    card -- naturals of its rank and wild cards, enough to make a meld with it, or none onto the team's meld of its
    rank -- bare, or with a layout of the rest of the hand (:func:`_layouts`, the taken meld among the additions).
    With another top card (a wild card, a three, none said), every choice of one rank's naturals and wild cards."""
    top, adds = table.top, set(table.team_ranks)
    if top in (None, "JK", "2", "3R", "3B"):
        shown = sum(n + 1 for k, _, n in table.classes if k not in ("JK", "2", "3R", "3B")) + 1
        for k, _, n in table.classes:
            if k in ("JK", "2"):
                shown *= n + 1
        return min(shown * (1 + _layouts(table.classes, adds | {top} if top else adds, several, least)), BOUND_CAP)
    kinds = [(k, p) for k, p, _ in table.classes]
    counts = [n for _, _, n in table.classes]
    naturals = [i for i, (k, _) in enumerate(kinds) if k == top]
    wild = [i for i, (k, _) in enumerate(kinds) if k in ("JK", "2")]
    total = 0
    for used in product(*(range(counts[i] + 1) for i in naturals + wild)):
        if top not in adds and sum(used) + 1 < least:
            continue  # too few cards to make a meld with the top card
        left = list(counts)
        for i, n in zip(naturals + wild, used):
            left[i] -= n
        rest = tuple((k, p, n) for (k, p), n in zip(kinds, left) if n)
        total += 1 + _layouts(rest, adds | {top}, several, least)
        if total >= BOUND_CAP:
            return BOUND_CAP
    return total


def _smallest_meld(rules: Variant, house: dict) -> int:
    """The fewest cards a new meld may hold under any reading of the variant, or its house rule."""
    name = "meld.min_cards"
    given = house.get(name)
    if isinstance(given, int) and not isinstance(given, bool):
        return max(given, BY_NAME[name].minimum)
    values = [v for v in (rules.value(name), *readings_for(rules, name)) if isinstance(v, int)]
    return min(values) if values else BY_NAME[name].minimum


def _can_go_out(table: Table, rules: Variant, house: dict) -> bool:
    """Whether the hand could be laid down but for one card at most, by counting alone: each rank of natural cards
    with no meld of the team's to add to needs a new meld, made up to the fewest cards a meld may hold with wild
    cards (jokers and twos, as if each were wild). A necessary condition: where it fails, no go-out is listed."""
    least = _smallest_meld(rules, house)
    naturals: Counter = Counter()
    wilds = 0
    for k, _, n in table.classes:
        if k in ("JK", "2"):
            wilds += n
        elif k not in ("3R", "3B"):
            naturals[k] += n

    def needs(rank: str, count: int) -> int:  # wild cards a new meld of ``count`` naturals needs at the least
        return 0 if count == 0 or rank in table.team_ranks else max(0, least - count)

    need = sum(needs(r, n) for r, n in naturals.items())
    # the one card left to discard may be a natural, whose rank then needs a meld of one card fewer (or none)
    left_one = [need - needs(r, n) + needs(r, n - 1) for r, n in naturals.items()]
    return min([need, *left_one]) <= wilds and _can_have_canasta(table, rules, house, naturals, wilds)


def _least(rules: Variant, name: str) -> int | None:
    """The smallest value a numeric point takes under any reading (by players: under any count of players)."""
    values = []
    for value in (rules.value(name), *readings_for(rules, name)):
        values += list(value.values()) if isinstance(value, dict) else [value]
    numbers = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    return min(numbers) if numbers else None


def _can_have_canasta(table: Table, rules: Variant, house: dict, naturals: Counter, wilds: int) -> bool:
    """Whether the team could hold the canastas going out requires, by counting: none required (under any reading,
    any count of players), one said or listed, or a rank whose naturals in hand, its team meld's cards and every
    wild card in hand reach a canasta's size. Where the house rules touch either point, not judged (True)."""
    if "go_out.canastas_required" in house or "canasta.min_cards" in house:
        return True
    required, size = _least(rules, "go_out.canastas_required"), _least(rules, "canasta.min_cards")
    if required is None or size is None or required <= 0 or table.canastas:
        return True
    held = dict(table.team_sizes)
    return wilds >= size or any(naturals.get(r, 0) + held.get(r, 0) + wilds >= size
                                for r in set(naturals) | set(held))


def group_bounds(table: Table, rules: Variant, house: dict) -> dict[str, int]:
    """At most how many options each group can hold, before any search: the draw one, the discards one per class of
    card in hand, the melds the layouts of the hand (:func:`_layouts`), taking the pile each choice of cards shown
    with its top card, bare or with a layout of the rest (:func:`_takes`), going out the layouts but none where the
    hand cannot be laid down (:func:`_can_go_out`). Every move of a group, the search's own proposals among them, is
    one of those, so the real count is never above (``tests/test_budgets.py`` holds it so over every variant,
    phase and house rule)."""
    several, least = _several(rules, house), _smallest_meld(rules, house)
    layouts = _layouts(table.classes, set(table.team_ranks), several, least)
    return {"draw": 1, "discard": table.kinds, "take_pile": _takes(table, several, least), "meld": layouts,
            "go_out": layouts if _can_go_out(table, rules, house) else 0}


def _shown(table: Table, page: Page) -> list[str]:
    """The groups the page shows, of the phases the table's turn is in."""
    return [kind for phase in table.phases for kind in PHASE_GROUPS[phase] if page.shows(kind)]


def _page_size(bound: int, page: Page) -> int:
    left = max(0, bound - page.offset)
    return left if page.limit is None else min(left, page.limit)


class OptionsPrice:
    """The price of listing the options of one table under the variants ``ids`` (a comparison of options: each
    page's moves also ruled under the others, :func:`_compared`), for any page: the table is read and each
    variant's bounds worked out once (:func:`group_bounds`), so a page priced again -- the largest ``limit`` that
    fits, found by halving -- costs a few additions."""

    __slots__ = ("table", "body", "walked", "per_variant", "compared")

    def __init__(self, body: dict, variants: dict[str, Variant], ids: list[str]):
        self.body, self.table = body, read_table(body)
        house = _dict(body.get("house_rules"))
        self.walked = len(ids)  # each variant walks its groups
        self.compared = _compared(len(ids))
        self.per_variant = [(group_bounds(self.table, variants[vid], house),
                             option_units(self.table.held, self.table.melded,
                                          _ruling_runs(body, variants[vid], self.table))) for vid in ids]

    def walks(self, page: Page) -> int:
        """The walks of the groups the page shows (each at most to the engine's bound), under every variant."""
        return self.walked * sum(walk_units(kind, self.table.held) for kind in _shown(self.table, page))

    def pages(self, page: Page) -> int:
        """Each variant's page before its walk: each group shown at most as many options as it can hold and as the
        page asks, each made in full: what :func:`page_cost` may reach once walked."""
        shown = _shown(self.table, page)
        total = 0
        for bounds, per_option in self.per_variant:
            options = sum(_page_size(bounds[kind], page) for kind in shown)
            total += _with_house_rules(options * per_option, self.body) * self.compared
        return total

    def __call__(self, page: Page) -> int:
        return BASE_UNITS + self.walks(page) + self.pages(page)


def options_price(body: Any, variants: dict[str, Variant]) -> Callable[[Page], int]:
    """The price of an options request (``/v1/options``) for any page, before any search: each group the page
    shows walked (at most to the engine's bound) and its page made (at most as many options as the group can
    hold). A request that names no loaded variant costs the base (it is refused before any work)."""
    rules = _variant_of(body, variants) if isinstance(body, dict) else None
    if rules is None:
        return lambda page: BASE_UNITS
    return OptionsPrice(body, variants, [body["variant"]])


def options_cost(body: Any, variants: dict[str, Variant], page: Page) -> int:
    """Estimated cost of listing the options of a situation, before any work (:func:`options_price`)."""
    return options_price(body, variants)(page)


def pages_priced(body: Any, variants: dict[str, Variant], page: Page, ids: list[str]) -> int:
    """The share of the pages of options of the variants ``ids`` in the price of an options request or a
    comparison of options (:func:`options_price`, :func:`compare_price`): what :func:`page_cost` may reach."""
    return OptionsPrice(_dict(body), variants, ids).pages(page)


def page_cost(body: Any, variants: dict[str, Variant], listed: list, page: Page) -> int:
    """What the pages of ``listed`` -- each variant paired with its :class:`~adjudicator.options.listing.Options`
    -- cost from the groups' real sizes, once walked: never more than :func:`pages_priced` (the service checks it
    before any option is made, :mod:`web_api.budgets`)."""
    table = read_table(body)
    total = 0
    for rules, options in listed:
        shown = sum(page.size(g) for g in page.groups(options))
        per_option = option_units(table.held, table.melded, _ruling_runs(_dict(body), rules, table))
        total += _with_house_rules(shown * per_option, body)
    return total * _compared(len(listed))


def largest_limit(price: Callable[[Page], int], page: Page, budget: int) -> int:
    """The largest ``limit`` (at most the page's own) whose ``price`` is within ``budget`` (0: not even one option
    of each group). The price grows with the limit."""
    low, high = 0, page.limit if page.limit is not None else MAX_LIMIT
    while low < high:
        middle = (low + high + 1) // 2
        if price(Page(middle, page.offset, page.group)) <= budget:
            low = middle
        else:
            high = middle - 1
    return low


# ----------------------------------------------------------------------------------------------
# Comparisons (/v1/compare), replays (/v1/replay)


def compare_kind(body: dict) -> str:
    """What a comparison compares, as its parser decides it: a score, a ruling, or the options of a situation."""
    if body.get("teams") is not None or body.get("rounds") is not None:
        return "score"
    return "ruling" if body.get("action") is not None else "options"


def compare_ids(body: dict, variants: dict[str, Variant]) -> list[str]:
    """The variants a comparison names (every loaded one by default; unknown ones cost nothing)."""
    named = body.get("variants")
    if named is None:
        return list(variants)
    return [v for v in _list(named) if isinstance(v, str) and v in variants]


def compare_price(body: Any, variants: dict[str, Variant]) -> Callable[[Page], int]:
    """The price of a ``/v1/compare`` request for any page, before any work, its body read once: each variant's
    ruling or score, or walks and pages of options (:class:`OptionsPrice`; a comparison of rulings or scores
    costs the same whatever the page)."""
    if not isinstance(body, dict):
        return lambda page: BASE_UNITS
    ids = compare_ids(body, variants)
    kind = compare_kind(body)
    if kind == "options":
        return OptionsPrice(body, variants, ids)
    if kind == "score":
        units = BASE_UNITS + len(ids) * COMPARED_SCORE * score_cost(body, variants)
    else:
        facts = _ruling_facts(body)
        units = BASE_UNITS + sum(COMPARED_RULING * _ruling_under(body, variants[vid], facts) for vid in ids)
    return lambda page: units


def compare_cost(body: Any, variants: dict[str, Variant], page: Page) -> int:
    """Estimated cost of a ``/v1/compare`` request before any work (:func:`compare_price`)."""
    return compare_price(body, variants)(page)


def _compared(count: int) -> int:
    """What a variant's page of options costs in a comparison of ``count`` variants, as a multiple of its own:
    each move of a page is ruled under every other variant that does not list it there (at most)."""
    return max(1, count)


def replay_cost(body: Any, variants: dict[str, Variant]) -> int:
    """Estimated cost of a ``/v1/replay`` request: each move ruled over the cards the round shows (at most those
    dealt, in the pile and drawn: a twelfth of a unit each) and the cards it lays (a third each), twice where the
    variant leaves the twos open and the round has twos; the round's score. A game costs its rounds."""
    if not isinstance(body, dict):
        return BASE_UNITS
    rules = _variant_of(body, variants)
    if rules is None:
        return BASE_UNITS
    rounds = body.get("rounds")
    if isinstance(rounds, list):  # a whole game: each round as a log of its own (its deal, moves and score)
        return sum(replay_cost({**body, "rounds": None, "deal": _dict(r).get("deal"), "moves": _dict(r).get("moves")},
                               variants) for r in rounds) or BASE_UNITS
    deal = _dict(body.get("deal"))
    hands = _list(deal.get("hands"))
    moves = _list(body.get("moves"))
    drawn = sum(_cards(_dict(m).get("cards")) for m in moves)
    shown = sum(_cards(h) for h in hands) + _cards(deal.get("discard_pile")) + drawn
    laid = 0
    for move in moves:
        action = _dict(_dict(move).get("action"))
        laid += _cards(action.get("melds")) + _cards(action.get("add")) + _cards(action.get("with"))
    twos = "wild.twos" in _open_names(rules) and "wild.twos" not in _dict(body.get("house_rules")) \
        and (_has_two(*hands) or any(_has_two(_dict(m).get("cards")) for m in moves))
    units = len(moves) * (BASE_UNITS + shown // HAND_CARDS_PER_UNIT) + laid // CARDS_PER_UNIT
    return _with_house_rules(BASE_UNITS + units * (2 if twos else 1) + UNITS_PER_ROUND, body)


def largest_log(body: dict, variants: dict[str, Variant], budget: int) -> int:
    """The most moves of this log a replay within ``budget`` may hold (0: not even one)."""
    moves = _list(body.get("moves"))
    low, high = 0, len(moves)
    while low < high:
        middle = (low + high + 1) // 2
        if replay_cost({**body, "moves": moves[:middle]}, variants) <= budget:
            low = middle
        else:
            high = middle - 1
    return low


def largest_comparison(body: dict, variants: dict[str, Variant], page: Page, budget: int) -> int:
    """How many of the variants a comparison names fit in ``budget`` together (0: not even one)."""
    ids = compare_ids(body, variants)
    low, high = 0, len(ids)
    while low < high:
        middle = (low + high + 1) // 2
        if compare_cost({**body, "variants": ids[:middle]}, variants, page) <= budget:
            low = middle
        else:
            high = middle - 1
    return low
