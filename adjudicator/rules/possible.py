"""Whether a table can happen under a variant: the one check every path runs before it rules.

A ruling, the options of a situation, a comparison and a batch item all pass
through :func:`check_situation` (:func:`adjudicator.rules.table_check.check_table` calls it,
and :func:`adjudicator.rules.engine.rule` calls that). Each
limit comes from the variant's own parameters, so a new variant file gets them
without code:

* the stock: no more cards than the deal leaves (``deck`` less ``deal.cards``
  for every player, less the upcard), nor more than the deck leaves beside the
  cards the table shows;
* the melds lying on the table: every composition rule of the variant
  (:func:`adjudicator.melds.check_meld`), black threes only in the act of going
  out, one meld per rank where the text says so;
* the opening band: a team whose band opens only with a canasta has one once it
  has melded (canastas are never broken up);
* a pile taken this turn leaves no pile behind (a team yet to open may still be
  showing the opening the take makes, so an unopened team is not refused: its
  melds are ruled, with only the top card counting where the text says so);
* a partner's answer only where the player has a partner (``players.team_size``);
* a red three lies in the pile only as an upcard, or under upcards that make one
  turn another (``pile.upcard_turn_more``): it is never discarded.

A failed check is an :class:`~adjudicator.errors.ImpossibleInput` whose issue
points at the field and says, with the rule's words quoted, what rules it out.
Where the text leaves a limit open, the table is not refused.
"""

from __future__ import annotations

from ..model.cards import JOKER, is_black_three, is_red_three
from ..model.errors import ImpossibleInput, Issue
from ..model.findings import Finding
from .judge import Judge, NotStated
from .melds import canastas, check_meld, natural_rank, sure_rank
from ..model.messages import Card, Cards, Items, Message, Param, ParamValue, Rank, msg
from .opening import requirement
from ..model.parameters import band_for
from ..model.situation import Side, Situation
from ..variants import Variant

SIDES = (("team", "subject.our_meld"), ("opponents", "subject.their_meld"))
_NOT_WORKED_OUT = object()  # a cache entry not made yet (None is an answer: no deal to go by)
MAX_KNOWN_MELDS = 4096  # melds a variant remembers as possible (cleared when full: a client may send many)


def rule_failed(finding: Finding) -> Message:
    """A failed check as an error: what failed, the rule id and the words of the rule it rests on."""
    return msg("error.rule_failed", explanation=finding.message, rule=finding.rule,
               quotes=Items(tuple(msg("quote", text=c.quote) for c in finding.citations), " "),
               house_rules=Items(tuple(msg("house_rule.value", parameter=Param(h.parameter),
                                           value=ParamValue(h.parameter, h.value)) for h in finding.house_rules)))


def check_situation(rules: Variant, sit: Situation) -> None:
    """Refuse a situation whose table cannot happen under ``rules``; every fault is gathered first."""
    issues = situation_issues(rules, sit)
    if issues:
        raise ImpossibleInput(issues)


def situation_issues(rules: Variant, sit: Situation) -> list[Issue]:
    """The faults of the table, each an issue at its field quoting the rule that rules it out."""
    issues: list[Issue] = []
    base = sit.base
    count = sit.stock_count
    if count is not None and not _stock_fits(rules, sit, count):
        _check(rules, sit, f"{base}/stock_count", issues, lambda judge: _stock(judge, sit, count))
    for name, subject in SIDES:
        side: Side = getattr(sit, name)
        if side.melds:
            _check_melds(rules, sit, side.melds, side.score, f"{base}/{name}", subject, issues)
    if sit.partner_answer is not None and sit.players is not None and _alone(rules, sit.players):
        _check(rules, sit, f"{base}/turn/partner_answer", issues, lambda judge: _no_partner(judge, sit.players))
    if sit.drew == "pile" and sit.pile:
        _check(rules, sit, f"{base}/discard_pile", issues, lambda judge: _pile_left(judge, len(sit.pile)))
    if sit.pile:
        for i, card in enumerate(sit.pile):
            if is_red_three(card) and i:
                _check(rules, sit, f"{base}/discard_pile/{i}", issues,
                       lambda judge, i=i, card=card: _red_three_in_pile(judge, sit.pile, i, card))
    return issues


def _check(rules: Variant, sit: Situation, at: str, issues: list[Issue], run) -> None:
    """Run one check under a judge of its own; its failed findings become issues at ``at``."""
    judge = Judge(rules, sit.players)
    try:
        run(judge)
    except NotStated:
        return
    issues.extend(Issue(at, rule_failed(f)) for f in judge.findings if f.passed is False)


# --- the stock ---------------------------------------------------------------------------------

def stock_limit(judge: Judge, players: int | None) -> tuple[int, int, int] | None:
    """(most cards the stock can hold, players, cards each) after the deal and the upcard.

    With the player count unknown, the count that deals fewest cards gives the limit. None where the
    variant gives no deal for any count it supports.
    """
    deal = judge.param("deal.cards")
    counts = [players] if players is not None else [p for p in judge.rules.value("players.supported")]
    dealt = [(p * each[p], p, each[p]) for each in _deals(judge.rules, deal) for p in counts if p in each]
    if not dealt:
        return None
    total, p, each = min(dealt)
    return judge.rules.deck_size - total - 1, p, each


def _deals(rules: Variant, value) -> list[dict]:
    """The deal as the text gives it, and each other reading of it (sv-classic: 13 or 11 for three players)."""
    entry = rules.params["deal.cards"]
    return [value, *(entry.readings if entry.source == "document" else ())]


def _shown(sit: Situation) -> int:
    """The cards the table shows outside the stock (a hand given only by its count included)."""
    melds = sum(len(m) for side in (sit.team, sit.opponents) for m in side.melds or ())
    hand = len(sit.hand) if sit.hand is not None else (sit.hand_count or 0)
    return hand + len(sit.pile or ()) + melds + (sit.team.red_threes or 0) + (sit.opponents.red_threes or 0)


def _stock_fits(rules: Variant, sit: Situation, count: int) -> bool:
    """The usual case, worked out without a judge: the stock fits the deal and the table (a judge words the
    rest; a deal the text leaves open is never refused)."""
    entry = rules.params["deal.cards"]
    if not entry.settled:
        return True
    key = ("least_dealt", sit.players)  # per variant (and house rules: their copy has its own cache)
    least = rules.cite_cache.get(key, _NOT_WORKED_OUT)
    if least is _NOT_WORKED_OUT:
        counts = [sit.players] if sit.players is not None else rules.value("players.supported")
        dealt = [p * deal[p] for deal in _deals(rules, entry.value) for p in counts if p in deal]
        least = rules.cite_cache[key] = min(dealt) if dealt else None
    size = rules.deck_size
    return least is None or count <= min(size - least - 1, size - _shown(sit))


def _stock(judge: Judge, sit: Situation, count: int) -> None:
    with judge.rule("deal.stock") as check:
        judge.param("deck.decks")
        judge.param("deck.jokers")
        limit = stock_limit(judge, sit.players)
        judge.decide("deal.cards")
        if limit is None:
            return
        most, players, each = limit
        if count > most:
            check.result(False, "table.stock_after_deal", count=count, most=most, deck=judge.rules.deck_size,
                         players=players, each=each)
            return
        shown = _shown(sit)
        room = judge.rules.deck_size - shown
        check.result(count <= room, "table.stock_beside_table", count=count, shown=shown,
                     deck=judge.rules.deck_size)


# --- the melds on the table --------------------------------------------------------------------

def _check_melds(rules: Variant, sit: Situation, melds: tuple[tuple[str, ...], ...], score: int | None, at: str,
                 subject_key: str, issues: list[Issue]) -> None:
    clean = True
    known = rules.cite_cache.setdefault("possible_melds", {})  # melds found possible, per variant
    if len(known) > MAX_KNOWN_MELDS:
        known.clear()
    for j, meld in enumerate(melds):
        if meld in known:
            continue
        judge = Judge(rules, sit.players)
        check_meld(judge, list(meld), msg(subject_key, index=j + 1, cards=Cards(tuple(meld))), going_out=False)
        failed = [f for f in judge.findings if f.passed is False]
        issues.extend(Issue(f"{at}/melds/{j}", rule_failed(f)) for f in failed)
        if failed or judge.not_stated:
            clean = False
        else:
            known[meld] = True
    if not clean:
        return
    if len(melds) > 1:
        ranks = [sure_rank(m) for m in melds]
        if None in ranks or len(set(ranks)) < len(ranks):  # else no two melds can share a rank
            _check(rules, sit, f"{at}/melds", issues, lambda judge: _one_per_rank(judge, melds, subject_key))
    if score is not None and score >= 0 and _band_may_need_canasta(rules, melds, score):
        _check(rules, sit, f"{at}/melds", issues, lambda judge: _band_canasta(judge, melds, score, subject_key))


def _band_may_need_canasta(rules: Variant, melds: tuple[tuple[str, ...], ...], score: int) -> bool:
    """Whether the band check can refuse this side: its score's band opens only with a canasta, and no meld
    is long enough to be one (worked out without a judge; a judge words a refusal)."""
    bands, least = rules.params["opening.bands"], rules.params["canasta.min_cards"]
    if not bands.settled or least.settled and max(map(len, melds), default=0) >= least.value:
        return False  # the usual case: a meld long enough to be a canasta (the band then never refuses)
    return band_for(bands.value, score)["canasta_required"]


def _one_per_rank(judge: Judge, melds: tuple[tuple[str, ...], ...], subject_key: str) -> None:
    first: dict[str, int] = {}
    for j, meld in enumerate(melds):
        meld_rank = natural_rank(judge, meld)
        if meld_rank is None or is_black_three(meld[0]):
            continue
        if meld_rank not in first:
            first[meld_rank] = j
            continue
        with judge.rule("meld.one_per_rank") as check:
            if judge.param("meld.one_per_rank"):
                check.result(False, "table.two_melds_of_a_rank", rank=Rank(meld_rank), whose=_whose(subject_key),
                             first=first[meld_rank] + 1, second=j + 1)


def _band_canasta(judge: Judge, melds: tuple[tuple[str, ...], ...], score: int, subject_key: str) -> None:
    band_canasta(judge, score, True, canastas(judge, melds), _whose(subject_key))


def band_canasta(judge: Judge, score: int, melded: bool, canasta_count: int, whose) -> None:
    """A team that has melded in a band whose opening needs a canasta has one (canastas stay on the table):
    the one check behind rulings, options and scores (``whose`` names the team in words)."""
    with judge.rule("opening.canasta_required") as check:
        need = requirement(judge, score)
        if need.canasta_required and melded and not canasta_count:
            judge.case(f"band:{need.band_min}")
            check.result(False, "table.band_needs_canasta", score=score, whose=whose)


def _whose(subject_key: str) -> Message:
    return msg("table.whose_team" if subject_key == "subject.our_meld" else "table.whose_opponents")


# --- the partner ------------------------------------------------------------------------------

def _alone(rules: Variant, players: int) -> bool:
    entry = rules.params["players.team_size"]
    return entry.settled and entry.value.get(players) == 1


def _no_partner(judge: Judge, players: int) -> None:
    """A partner's answer where everyone plays alone (sv-classic with two or three players)."""
    with judge.rule("go_out.partner_answer") as check:
        judge.param("players.team_size")
        judge.decide("players.team_size")
        check.result(False, "table.partner_answer_alone", players=players)


# --- the pile ----------------------------------------------------------------------------------

def _pile_left(judge: Judge, count: int) -> None:
    with judge.rule("pile.taken_whole") as check:
        judge.param("turn.draw_first")
        check.result(False, "table.pile_left_after_take", count=count)


UPCARD_KIND = {"joker": lambda c: c == JOKER, "two": lambda c: c != JOKER and c[:-1] == "2",
               "red_three": is_red_three, "black_three": is_black_three}


def _red_three_in_pile(judge: Judge, pile, i: int, card: str) -> None:
    """A red three above the pile's first card: possible only among upcards that each made one turn another."""
    with judge.rule("red_three.never_melded") as check:
        if not judge.param("red_three.laid_out"):
            return
        more = judge.param("pile.upcard_turn_more")
        turned = all(any(UPCARD_KIND[k](c) for k in more) for c in pile[:i])
        if not turned:
            judge.decide("red_three.laid_out")
            check.result(False, "table.red_three_in_pile", card=Card(card), position=i + 1)
