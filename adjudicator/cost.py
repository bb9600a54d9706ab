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
  with its ruling; for a comparison, all that per **variant**, and the moves of the pages ruled
  under each variant; for a replay, each **move**; for a score, each **round**.

The units are calibrated against measured CPU (``bench/budget_bench.py --calibrate``: the ratio of
CPU seconds to units over a corpus of light to the heaviest valid requests of every kind; BENCHMARKS.md
has the figures). A caller compares an estimate with its budget -- the web layer refuses a request
over it with a 413 that says what to send instead (``web_api/budgets.py``) -- before any work is done;
for the options, the page's share is counted again from the real group sizes once the walk (itself
estimated and bounded) has found them, before any option is made (:func:`page_cost`).

Everything here reads the request as sent (plain JSON values): a misshapen member costs nothing,
since the parser refuses it before any work.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .input.house_rules import MAX_BANDS
from .model.parameters import BY_NAME
from .options.paging import Page
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


def ruling_cost(item: Any, variants: dict[str, Variant], rules: Variant | None = None) -> int:
    """Estimated cost of one ``/v1/adjudicate`` request or batch item, in units (a misshapen one costs the base)."""
    if not isinstance(item, dict):
        return BASE_UNITS
    rules = rules or _variant_of(item, variants)
    if rules is None:
        return BASE_UNITS
    situation, action = _dict(item.get("situation")), _dict(item.get("action"))
    team, player = _dict(situation.get("team")), _dict(situation.get("player"))
    melded = _cards(team.get("melds")) + _cards(_dict(situation.get("opponents")).get("melds")) \
        + _cards(action.get("melds")) + _cards(action.get("add"))
    held = _cards(player.get("hand"))
    opened = bool(team.get("melds") or player.get("has_melded"))
    twos = "wild.twos" in _open_names(rules) and _has_two(player.get("hand"), action.get("melds"), action.get("add"))
    points = _open_points(rules, item, situation, twos, opened)
    units = runs(points) * (BASE_UNITS + melded // CARDS_PER_UNIT + held // HAND_CARDS_PER_UNIT)
    return _with_house_rules(units, item)


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


def _phases(situation: dict) -> tuple[str, ...]:
    turn = situation.get("turn")
    if isinstance(turn, dict) and "drew" not in turn and isinstance(turn.get("has_drawn"), bool):
        return ("after_draw",) if turn["has_drawn"] else ("before_draw",)
    if not isinstance(turn, dict) or "drew" not in turn:
        return ("before_draw", "after_draw")  # not said: both phases are listed
    return ("before_draw",) if turn.get("drew") is None else ("after_draw",)


def _option_facts(body: dict, rules: Variant) -> tuple[int, int, int]:
    """``(cards in hand, cards on the team's melds, runs of one ruling)`` of an options request."""
    situation = _dict(body.get("situation"))
    team, player = _dict(situation.get("team")), _dict(situation.get("player"))
    held = _cards(player.get("hand"))
    melded = _cards(team.get("melds"))
    opened = bool(team.get("melds") or player.get("has_melded"))
    twos = "wild.twos" in _open_names(rules) and _has_two(player.get("hand"), situation.get("discard_pile"),
                                                          team.get("melds"))
    return held, melded, runs(_open_points(rules, body, situation, twos, opened))


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


def options_cost(body: Any, variants: dict[str, Variant], page: Page, rules: Variant | None = None) -> int:
    """Estimated cost of listing the options of a situation, before any work: the groups the page shows, each
    walked (at most to the engine's bound) and its first option ruled. The page itself is priced from the
    groups' real sizes once the walk has found them, before any option is made (:func:`page_cost`)."""
    if not isinstance(body, dict):
        return BASE_UNITS
    rules = rules or _variant_of(body, variants)
    if rules is None:
        return BASE_UNITS
    held, melded, ruling_runs = _option_facts(body, rules)
    shown = [kind for phase in _phases(_dict(body.get("situation"))) for kind in PHASE_GROUPS[phase]
             if page.shows(kind)]
    walks = sum(walk_units(kind, held) for kind in shown)  # measured with and without house rules: as they are
    return BASE_UNITS + walks + _with_house_rules(len(shown) * option_units(held, melded, ruling_runs), body)


def page_cost(body: Any, variants: dict[str, Variant], listed: list, page: Page) -> int:
    """The cost of making the page of each variant's listing -- ``listed`` pairs each variant with its
    :class:`~adjudicator.options.listing.Options` -- from the groups' real sizes, before any option of it is
    made; in a comparison of several variants, each move of a page is also ruled under the others (at most)."""
    total = 0
    for rules, options in listed:
        shown = sum(page.size(g) for g in page.groups(options))
        total += _with_house_rules(shown * option_units(*_option_facts(_dict(body), rules)), body)
    return total * _compared(len(listed))


def largest_page(body: Any, variants: dict[str, Variant], listed: list, page: Page, spend: int) -> int:
    """The largest ``limit`` whose pages of ``listed`` (as :func:`page_cost`) cost at most ``spend`` units (0: not
    even one option of each group)."""
    low = 0
    high = max([g.count - page.offset for _, options in listed for g in page.groups(options)] + [0])
    while low < high:  # the pages' cost grows with their limit: the largest that fits
        middle = (low + high + 1) // 2
        if page_cost(body, variants, listed, Page(middle, page.offset, page.group)) <= spend:
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


def compare_cost(body: Any, variants: dict[str, Variant], page: Page) -> int:
    """Estimated cost of a ``/v1/compare`` request before any work: each variant's ruling, score or options walk
    (the pages of options are priced once the walks have found their sizes: :func:`page_cost`)."""
    if not isinstance(body, dict):
        return BASE_UNITS
    ids = compare_ids(body, variants)
    kind = compare_kind(body)
    total = BASE_UNITS
    for vid in ids:
        if kind == "score":
            total += COMPARED_SCORE * score_cost({**body, "variant": vid}, variants)
        elif kind == "ruling":
            total += COMPARED_RULING * ruling_cost(body, variants, variants[vid])
        else:
            total += options_cost(body, variants, page, variants[vid])
    return total


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
