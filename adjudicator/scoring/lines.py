"""The score lines of one team's round, each resting on named parameters and their words.

Arithmetic choices:

* A meld of ``canasta.min_cards`` or more cards is a canasta (:func:`adjudicator.rules.melds.is_canasta`),
  natural when it holds no wild card. Its cards count their values on top of the
  bonus unless ``score.canasta_cards_counted`` is false.
* Red threes: ``score.red_three`` each, or ``score.red_threes_all_four`` when the
  team holds every red three of the deck. Where red threes are not laid out
  (``red_three.laid_out`` false), one in a meld or a hand counts ``score.red_three``
  as a card. When the team has melded nothing and
  ``score.red_threes_negative_without_meld`` holds, they count minus instead:
  ``-score.red_three`` each, or ``score.red_threes_all_four_negative`` for all.
* ``score.hand_negative``: true subtracts the hand's card values; false adds them.
* ``score.no_canasta_all_negative``: the ordinary lines stay as they are and a
  ``no_canasta`` line of ``-2 x`` (the sum of the positive lines) turns them round,
  so the round is minus (table + red threes + hand + any going-out bonus).
  Penalties are already minus and are left alone.
* Penalties (``score.penalty_<kind>``) are charged to their team, once per entry.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..model.enums import Status
from ..model.errors import Issue, RuleNotStated
from ..model.cards import is_red_three
from ..rules.judge import NotStated, value_param
from ..rules.melds import is_canasta, split
from ..model.messages import Card, Message, Word, msg
from ..model.requests import PENALTY_KINDS, PENALTY_PREFIX, TeamRound
from .reader import Reader, ordered
from .sheets import ScoreLine


@dataclass
class _Line:
    item: str
    count: int | None
    points: int
    params: list[str]


@dataclass
class _Table:
    """What a team has melded, from cards or from counts."""

    value: int
    cards: int | None
    value_params: list[str]
    natural: int
    mixed: int
    canasta_params: list[str]
    melded: bool


def team_lines(reader: Reader, team: TeamRound) -> tuple[ScoreLine, ...]:
    """Every component of the team's round, in the order a score sheet lists them."""
    table, hand = _table_and_hand(reader, team)
    lines = [_Line("melded_cards", table.cards, table.value, table.value_params)]
    if table.natural:
        lines.append(_canasta_line(reader, team, table, "natural_canastas", "score.natural_canasta", table.natural))
    if table.mixed:
        lines.append(_canasta_line(reader, team, table, "mixed_canastas", "score.mixed_canasta", table.mixed))
    lines += _red_three_lines(reader, team, table)
    lines += _going_out_lines(reader, team)
    lines.append(hand)
    if not table.natural and not table.mixed:
        lines += _no_canasta_lines(reader, team, lines)
    lines += _penalty_lines(reader, team)
    return tuple(_finished(reader, line) for line in lines)


def _canasta_line(reader: Reader, team: TeamRound, table: _Table, item: str, name: str, n: int) -> _Line:
    """The bonus of ``n`` canastas of one kind (``name``: its parameter)."""
    return _Line(item, n, n * reader.need(name, team.pointer), [name, *table.canasta_params])


def _finished(reader: Reader, line: _Line) -> ScoreLine:
    names = ordered(line.params)  # sorted once, for the line and its citations (already in catalogue order)
    citations, house = reader.judge.citations(names)
    return ScoreLine(line.item, line.count, line.points, names, citations, house)


def _table_and_hand(reader: Reader, team: TeamRound) -> tuple[_Table, _Line]:
    """Card values of the melds and of the hand, priced together so every unstated value is reported at once."""
    meld_values, meld_params, hand_value, hand_params = _price(reader, team)
    table = _table_from_cards(reader, team, team.melds, meld_values, meld_params) if team.melds is not None else \
        _table_from_counts(team)
    at = f"{team.pointer}/hand" if team.hand is not None else f"{team.pointer}/hand_points"
    negative = reader.need("score.hand_negative", at)
    if team.hand is not None:
        value, count, params = hand_value, len(team.hand), hand_params
    else:
        value, count, params = team.hand_points or 0, None, []
    return table, _Line("hand", count, -value if negative else value, ["score.hand_negative", *params])


def _price(reader: Reader, team: TeamRound) -> tuple[list[int], list[str], int, list[str]]:
    """The card values of each meld and of the hand, and the value parameters each rests on (once each);
    RuleNotStated naming every card whose value the text leaves open (a card's pointer is made only then)."""
    prices: dict[str, tuple[int, str | None]] = {}  # a card's (value, parameter) where the text states it: once
    needs: list[tuple[str, str, Message | None]] = []
    meld_params: dict[str, None] = {}
    meld_values = [_priced(reader, prices, meld, needs, meld_params, team.pointer, "melds", j)
                   for j, meld in enumerate(team.melds or ())]
    hand_params: dict[str, None] = {}
    hand_value = _priced(reader, prices, team.hand or (), needs, hand_params, team.pointer, "hand", -1)
    if needs:
        raise reader.not_stated(needs)
    return meld_values, list(meld_params), hand_value, list(hand_params)


def _priced(reader: Reader, prices: dict[str, tuple[int, str | None]], cards: tuple[str, ...],
            needs: list[tuple[str, str, Message | None]], params: dict[str, None], pointer: str, where: str,
            j: int) -> int:
    """The value of ``cards`` (a meld, ``j`` its number, or the hand, ``j`` -1); the value parameters they
    rest on are added to ``params``."""
    total = 0
    for k, card in enumerate(cards):
        value, name = _card_price(reader, prices, card, needs, pointer, where, j, k)
        total += value
        if name is not None:
            params[name] = None
    return total


def _card_price(reader: Reader, prices: dict[str, tuple[int, str | None]], card: str,
                needs: list[tuple[str, str, Message | None]], pointer: str, where: str, j: int,
                k: int) -> tuple[int, str | None]:
    """(value, parameter) of one card: from the variant's price list, or read through the reader (which
    records the interpretation); an unstated value adds a need at the card's pointer."""
    hit = prices.get(card)
    if hit is not None:
        return hit
    name = value_param(card)
    if name is None and is_red_three(card):
        # a red three laid out is a bonus card, counted among the red threes; where a text does not lay red
        # threes out (a reading of da-ludo), one in a meld or a hand is a card worth the figure the text gives it
        outright, laid_out = _outright(reader, "red_three.laid_out")
        if not outright:  # not stated outright: read (and its reading recorded) each time, never kept
            stated, laid_out = reader.maybe("red_three.laid_out")
            if not stated or laid_out is not False:
                return 0, None
        if laid_out is False:
            name = "score.red_three"
    if name is None:
        hit = prices[card] = (0, None)
        return hit
    outright, value = _outright(reader, name)
    if outright:  # stated outright: nothing to record
        hit = prices[card] = (value or 0, name)
        return hit
    stated, value = reader.maybe(name)
    if not stated:
        at = f"{pointer}/{where}/{j}/{k}" if j >= 0 else f"{pointer}/{where}/{k}"
        needs.append((at, name, msg("score.card_uncountable", card=Card(card))))
    return value or 0, name


def _outright(reader: Reader, name: str) -> tuple[bool, Any]:
    """(whether the document states ``name`` outright, that value): one with no interpretation to record."""
    entry = reader.rules.params.get(name)
    if entry is None or entry.status != Status.STATED or entry.source != "document":
        return False, None
    return True, entry.value


def _table_from_cards(reader: Reader, team: TeamRound, melds: tuple[tuple[str, ...], ...], meld_values: list[int],
                      value_params: list[str]) -> _Table:
    """The melds' card values and canastas; ``score.canasta_cards_counted`` is read only when there is a canasta."""
    natural = mixed = 0
    value = 0
    judge = reader.judge
    reader.need("canasta.min_cards", f"{team.pointer}/melds")
    for j, meld in enumerate(melds):
        meld_value = meld_values[j]
        if not is_canasta(judge, meld):
            value += meld_value
            continue
        try:
            _, wilds = split(judge, meld)
        except NotStated as e:
            raise reader.not_stated([(f"{team.pointer}/melds/{j}", e.name, msg("score.canasta_unclassed"))]) from None
        if wilds:
            mixed += 1
        else:
            natural += 1
        if reader.need("score.canasta_cards_counted", f"{team.pointer}/melds/{j}"):
            value += meld_value
        if "score.canasta_cards_counted" not in value_params:
            value_params.append("score.canasta_cards_counted")
    return _Table(value=value, cards=sum(len(m) for m in melds), value_params=value_params,
                  natural=natural, mixed=mixed, canasta_params=["canasta.min_cards"], melded=bool(melds))


def _table_from_counts(team: TeamRound) -> _Table:
    """Counts stand in for cards; a team "has melded" when they show any meld at all."""
    points, natural, mixed = team.melded_points or 0, team.natural_canastas or 0, team.mixed_canastas or 0
    return _Table(value=points, cards=None, value_params=[], natural=natural, mixed=mixed, canasta_params=[],
                  melded=bool(points or natural or mixed))


def _red_three_lines(reader: Reader, team: TeamRound, table: _Table) -> list[_Line]:
    """Red threes: plus for a team that has melded; minus without a meld where the variant says so.

    "All four" is every red three the deck holds (2 per deck).
    """
    n = team.red_threes
    if not n:
        return []
    at = f"{team.pointer}/red_threes"
    params: list[str] = []
    negative = False
    if not table.melded:
        params.append("score.red_threes_negative_without_meld")
        negative = bool(reader.need(params[-1], at))
    reader.need("deck.decks", at)  # read for its citation: how many red threes the deck holds
    if n == reader.rules.red_threes_in_deck:
        name = "score.red_threes_all_four_negative" if negative else "score.red_threes_all_four"
        points = reader.need(name, at, msg("score.all_red_threes_unmelded") if negative else None)
    else:
        name = "score.red_three"
        points = (-n if negative else n) * reader.need(name, at)
    return [_Line("red_threes", n, points, [*params, name])]


def _going_out_lines(reader: Reader, team: TeamRound) -> list[_Line]:
    """The going-out bonus (shown even when it is 0, so the reading behind the 0 is cited)."""
    if not team.went_out:
        return []
    lines = [_Line("going_out", 1, reader.need("score.going_out", f"{team.pointer}/went_out"), ["score.going_out"])]
    if team.concealed and reader.need("concealed.allowed", f"{team.pointer}/concealed"):
        extra = reader.need("score.concealed_extra", f"{team.pointer}/concealed")
        lines.append(_Line("concealed_going_out", 1, extra, ["concealed.allowed", "score.concealed_extra"]))
    return lines


def _no_canasta_lines(reader: Reader, team: TeamRound, lines: list[_Line]) -> list[_Line]:
    """A team without a canasta counts all its points as minus, where the variant says so (read only then)."""
    if not reader.need("score.no_canasta_all_negative", team.pointer):
        return []
    positive = sum(line.points for line in lines if line.points > 0)
    return [_Line("no_canasta", 1, -2 * positive, ["score.no_canasta_all_negative"])]


def _penalty_lines(reader: Reader, team: TeamRound) -> list[_Line]:
    """One line per penalty kind, charged once per entry; a kind the text does not name is RuleNotStated."""
    if not team.penalties:
        return []
    lines = []
    for kind in PENALTY_KINDS:
        at = [i for i, k in enumerate(team.penalties) if k == kind]
        if at:
            name = PENALTY_PREFIX + kind
            each = reader.need(name, f"{team.pointer}/penalties/{at[0]}", msg("score.penalty_uncharged",
                                                                              kind=Word(kind)))
            lines.append(_Line(f"penalty_{kind}", len(at), len(at) * each, [name]))
    return lines


def score_teams(reader: Reader, teams) -> list[tuple[TeamRound, tuple[ScoreLine, ...]]]:
    """Every team's lines; every unstated parameter of the round gathered into one error."""
    scored: list[tuple[TeamRound, tuple[ScoreLine, ...]]] = []
    issues: list[Issue] = []
    names: list[str] = []
    for team in teams:
        try:
            scored.append((team, team_lines(reader, team)))
        except RuleNotStated as e:
            issues += e.issues
            names += [n for n in e.parameters if n not in names]
    if issues:
        raise RuleNotStated(issues, names)
    return scored
