"""Whether a table can happen under a variant: the checks every path runs before it rules.

A ruling, the options of a situation, a comparison and a batch item all pass
through :func:`probe` (:func:`adjudicator.rules.table_check.check_table` runs it,
and :func:`adjudicator.rules.engine.rule` runs that). Each limit comes from the
variant's own parameters, so a new variant file gets them without code:

* the stock: no more cards than the deal leaves (``deck`` less ``deal.cards``
  for every player, less the upcard -- or less every card of the pile: each was
  turned up from the stock or discarded after a draw from it), nor more than the
  deck leaves beside the cards the table shows;
* the melds lying on the table: every composition rule of the variant
  (:func:`adjudicator.melds.check_meld`), black threes only in the act of going
  out, one meld per rank where the text says so;
* the opening band: a team whose band opens only with a canasta has one once it
  has melded (canastas are never broken up);
* nobody has melded in a first round that allows no opening;
* a pile taken this turn leaves no pile behind, and its top card lies in a meld of
  the team (``pile.taken_whole``);
* a partner's answer only where the player has a partner (``players.team_size``), and asked when the text
  says the question comes (``go_out.ask_partner_when``: not before the draw, nor after melding);
* a red three lies in the pile only as an upcard, or under upcards that make one
  turn another (``pile.upcard_turn_more``): it is never discarded.

:func:`probe` only finds: each check that fails (or cannot be decided) is a
:class:`Fault` at its field, with the parameters its outcome rests on that the
text does not state outright (its ``grounds``). Whether that refuses the table or
only rules out some readings of the text is :mod:`adjudicator.rules.table_check`'s
to say: a table is refused only where a stated rule rules it out.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..model.cards import JOKER, is_black_three, is_red_three
from ..model.findings import Finding
from .judge import Judge, NotStated
from .melds import canastas, check_meld, natural_rank, sure_rank
from ..model.messages import Card, Cards, Items, Message, Param, ParamValue, Rank, msg
from .opening import requirement
from ..model.parameters import band_for
from ..model.situation import Side, Situation
from ..variants import Variant

SIDES = (("team", "subject.our_meld"), ("opponents", "subject.their_meld"))


@dataclass(frozen=True, slots=True)
class Fault:
    """A check of the table that failed (``finding.passed`` False) or could not be decided (None): the field it
    points at, and the parameters it read whose values neither the document states outright nor a house rule
    settles -- what its outcome rests on besides the stated rules."""

    pointer: str
    finding: Finding
    grounds: tuple[str, ...]


class Probe:
    """What the table's checks found under one variant: the faults, and every parameter any check read that the
    text leaves open or reads two ways (``points``: another reading of it might rule the table out, or in)."""

    __slots__ = ("faults", "touched", "points")

    def __init__(self, points: dict) -> None:
        self.faults: list[Fault] = []
        self.touched: dict[str, None] = {}
        self.points = points

    def collect(self, judge: Judge, at: str) -> None:
        for name in judge.unsure_read:  # read by checks that found something, and by those that found nothing
            if name in self.points:
                self.touched[name] = None
        for found, rests in zip(judge.findings, judge.grounds or ()):
            if found.passed is not True:
                self.faults.append(Fault(at, found, unsure_for(judge, rests)))


def unsure_for(judge: Judge, names: tuple[str, ...]) -> tuple[str, ...]:
    """``names`` (what a check rests on that the text does not state outright) less the figures by player count
    that the text states for this table's count (``stated_for``: sv-classic's canastas to go out, stated for two
    and four players, read for three)."""
    players = judge.players
    if players is None or not names:
        return names
    params = judge.rules.params
    return tuple(n for n in names if players not in params[n].stated_for)


def rule_failed(finding: Finding, parameters: tuple[str, ...] = ()) -> Message:
    """A failed check as an error: what failed, the rule id, the stated parameters it rests on and the words of
    the rule."""
    return msg("error.rule_failed", explanation=finding.message, rule=finding.rule, parameters=parameters,
               quotes=Items(tuple(msg("quote", text=c.quote) for c in finding.citations), " "),
               house_rules=Items(tuple(msg("house_rule.value", parameter=Param(h.parameter),
                                           value=ParamValue(h.parameter, h.value)) for h in finding.house_rules)))


def probe(rules: Variant, sit: Situation) -> Probe:
    """Run every check of the table under ``rules``; every fault is gathered, none raised."""
    out = Probe(open_points(rules))
    base = sit.base
    count = sit.stock_count
    if count is not None and not _stock_fits(rules, sit, count):
        _check(rules, sit, f"{base}/stock_count", out, _Stock(sit, count))
    for name, subject in SIDES:
        side: Side = getattr(sit, name)
        if side.melds:
            _check_melds(rules, sit, side.melds, side.score, f"{base}/{name}", subject, out)
    if sit.first_round and rules.params["first_round.no_opening"].value is not False:
        for name, _ in SIDES:
            if getattr(sit, name).melds:
                _check(rules, sit, f"{base}/{name}/melds", out, _FirstRound())
    if sit.partner_answer is not None and sit.players is not None and _alone(rules, sit.players):
        _check(rules, sit, f"{base}/turn/partner_answer", out, _NoPartner(sit.players))
    elif sit.partner_answer is not None and (sit.drew is None or sit.asked_after_melding):
        late = bool(sit.asked_after_melding)
        at = f"{base}/turn/asked_after_melding" if late else f"{base}/turn/partner_answer"
        _check(rules, sit, at, out, _AskedOutOfTime(late))
    if sit.drew == "pile":
        if sit.pile:
            _check(rules, sit, f"{base}/discard_pile", out, _PileLeft(len(sit.pile)))
        if sit.team.melds == ():
            _check(rules, sit, f"{base}/team/melds", out, _TopNotMelded())
    if sit.pile and sit.pile_unnamed is None:  # with unnamed cards below, the first named is not the first laid
        for i, card in enumerate(sit.pile):
            if is_red_three(card) and i:
                _check(rules, sit, f"{base}/discard_pile/{i}", out, _RedThreeInPile(sit.pile, i, card))
    return out


def open_points(rules: Variant) -> dict:
    """The parameters that can be tried reading by reading under ``rules``, with their values (made with the
    variant)."""
    return rules.point_values


def _check(rules: Variant, sit: Situation, at: str, out: Probe, run) -> None:
    """Run one check under a judge of its own; its findings are collected at ``at``."""
    judge = Judge(rules, sit.players)
    judge.grounds = []
    try:
        run(judge)
    except NotStated:
        pass  # the check records the open point as its finding
    out.collect(judge, at)


# --- the stock ---------------------------------------------------------------------------------

def stock_limit(judge: Judge, players: int | None) -> tuple[int, int, int] | None:
    """(most cards the stock can hold, players, cards each) after the deal and the upcard.

    With the player count unknown, the count that deals fewest cards gives the limit. None where the
    variant gives no deal for any count it supports.
    """
    deal = judge.param("deal.cards")
    counts = [players] if players is not None else [p for p in judge.rules.value("players.supported")]
    dealt = [(p * deal[p], p, deal[p]) for p in counts if p in deal]
    if not dealt:
        return None
    total, p, each = min(dealt)
    return judge.rules.deck_size - total - 1, p, each


def _upcards(sit: Situation) -> int:
    """Cards that have left the stock besides the deal, at the least: each card in the pile was turned up from
    the stock or discarded by a player who drew (a take empties the pile), and one was turned up at the start."""
    return max(1, len(sit.pile)) if sit.pile is not None else 1


def _shown(sit: Situation) -> int:
    """The cards the table shows outside the stock (a hand given only by its count included)."""
    melds = sum(len(m) for side in (sit.team, sit.opponents) for m in side.melds or ())
    hand = len(sit.hand) if sit.hand is not None else (sit.hand_count or 0)
    return hand + len(sit.pile or ()) + melds + (sit.team.red_threes or 0) + (sit.opponents.red_threes or 0)


def _stock_fits(rules: Variant, sit: Situation, count: int) -> bool:
    """The usual case, worked out without a judge: the stock fits the deal and the table under every deal the
    text gives (a judge words the rest, reading by reading; a deal the text leaves open is never refused)."""
    entry = rules.params["deal.cards"]
    if not entry.settled:
        return True
    counts = [sit.players] if sit.players is not None else rules.value("players.supported")
    deals = [entry.value, *(entry.readings if entry.source == "document" else ())]
    # the limit each deal sets is its smallest over the player counts; the deals' largest of those is the
    # deal that leaves the fewest cards, under which the stock must fit for no reading to rule it out
    least = [min((p * deal[p] for p in counts if p in deal), default=None) for deal in deals]
    most = None if None in least else max(x for x in least if x is not None)
    size = rules.deck_size
    return most is None or count <= min(size - most - _upcards(sit), size - _shown(sit))


class _Stock:
    """The stock's limits (a callable object, not a closure: nothing of the request is kept in a cycle)."""

    __slots__ = ("sit", "count")

    def __init__(self, sit: Situation, count: int) -> None:
        self.sit, self.count = sit, count

    def __call__(self, judge: Judge) -> None:
        sit, count = self.sit, self.count
        with judge.rule("deal.stock") as check:
            judge.param("deck.decks")
            judge.param("deck.jokers")
            limit = stock_limit(judge, sit.players)
            judge.decide("deal.cards")
            if limit is None:
                return
            most, players, each = limit
            upcards = _upcards(sit)
            if upcards > 1:
                judge.param("turn.draw_first")  # every turn draws (or takes the pile, emptying it) first
                most -= upcards - 1
                if count > most:
                    check.result(False, "table.stock_after_pile", count=count, most=most, deck=judge.rules.deck_size,
                                 players=players, each=each, pile=upcards)
                    return
            elif count > most:
                check.result(False, "table.stock_after_deal", count=count, most=most, deck=judge.rules.deck_size,
                             players=players, each=each)
                return
            shown = _shown(sit)
            room = judge.rules.deck_size - shown
            check.result(count <= room, "table.stock_beside_table", count=count, shown=shown,
                         deck=judge.rules.deck_size)


# --- the melds on the table --------------------------------------------------------------------

def _check_melds(rules: Variant, sit: Situation, melds: tuple[tuple[str, ...], ...], score: int | None, at: str,
                 subject_key: str, out: Probe) -> None:
    clean = True
    for j, meld in enumerate(melds):
        read = rules.once(possible_meld, meld)  # a meld the variant allows: the open points its checks read
        if read is not None:
            for name in read:
                out.touched[name] = None
            continue
        judge = Judge(rules, sit.players)
        judge.grounds = []
        check_meld(judge, list(meld), msg(subject_key, index=j + 1, cards=Cards(tuple(meld))), going_out=False)
        out.collect(judge, f"{at}/melds/{j}")
        clean = False
    if not clean:
        return
    if len(melds) > 1:
        ranks = [sure_rank(m) for m in melds]
        if None in ranks or len(set(ranks)) < len(ranks):  # else no two melds can share a rank
            _check(rules, sit, f"{at}/melds", out, _OnePerRank(melds, subject_key))
    if score is not None and score >= 0 and _band_may_need_canasta(rules, melds, score):
        _check(rules, sit, f"{at}/melds", out, _BandCanasta(melds, score, subject_key))


def possible_meld(rules: Variant, meld: tuple[str, ...]) -> tuple[str, ...] | None:
    """For a meld every check of ``rules`` allows, the points the text leaves open that its checks read (they may
    rule it in or out under another reading); None for a meld a check refuses or cannot decide (its faults are
    collected by a judge of the table's own)."""
    judge = Judge(rules)
    judge.grounds = []
    check_meld(judge, list(meld), msg("subject.our_meld", index=1, cards=Cards(tuple(meld))), going_out=False)
    if judge.not_stated or any(f.passed is not True for f in judge.findings):
        return None
    return tuple(n for n in judge.unsure_read if n in rules.point_values)


def _band_may_need_canasta(rules: Variant, melds: tuple[tuple[str, ...], ...], score: int) -> bool:
    """Whether the band check can refuse this side: its score's band opens only with a canasta, and no meld
    is long enough to be one (worked out without a judge; a judge words a refusal)."""
    bands, least = rules.params["opening.bands"], rules.params["canasta.min_cards"]
    if not bands.settled or least.settled and max(map(len, melds), default=0) >= least.value:
        return False  # the usual case: a meld long enough to be a canasta (the band then never refuses)
    return band_for(bands.value, score)["canasta_required"]


class _OnePerRank:
    __slots__ = ("melds", "subject_key")

    def __init__(self, melds: tuple[tuple[str, ...], ...], subject_key: str) -> None:
        self.melds, self.subject_key = melds, subject_key

    def __call__(self, judge: Judge) -> None:
        first: dict[str, int] = {}
        for j, meld in enumerate(self.melds):
            meld_rank = natural_rank(judge, meld)
            if meld_rank is None or is_black_three(meld[0]):
                continue
            if meld_rank not in first:
                first[meld_rank] = j
                continue
            with judge.rule("meld.one_per_rank") as check:
                if judge.param("meld.one_per_rank"):
                    check.result(False, "table.two_melds_of_a_rank", rank=Rank(meld_rank),
                                 whose=_whose(self.subject_key), first=first[meld_rank] + 1, second=j + 1)


class _BandCanasta:
    __slots__ = ("melds", "score", "subject_key")

    def __init__(self, melds: tuple[tuple[str, ...], ...], score: int, subject_key: str) -> None:
        self.melds, self.score, self.subject_key = melds, score, subject_key

    def __call__(self, judge: Judge) -> None:
        band_canasta(judge, self.score, True, canastas(judge, self.melds), _whose(self.subject_key))


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


class _FirstRound:
    """Melds on the table in a first round that allows no opening."""

    __slots__ = ()

    def __call__(self, judge: Judge) -> None:
        with judge.rule("first_round.no_opening") as check:
            if judge.param("first_round.no_opening"):
                check.result(False, "table.melds_in_first_round")


# --- the partner ------------------------------------------------------------------------------

def _alone(rules: Variant, players: int) -> bool:
    entry = rules.params["players.team_size"]
    return entry.settled and entry.value.get(players) == 1


class _NoPartner:
    """A partner's answer where everyone plays alone (sv-classic with two or three players)."""

    __slots__ = ("players",)

    def __init__(self, players: int) -> None:
        self.players = players

    def __call__(self, judge: Judge) -> None:
        with judge.rule("go_out.partner_answer") as check:
            judge.param("players.team_size")
            judge.decide("players.team_size")
            check.result(False, "table.partner_answer_alone", players=self.players)


class _AskedOutOfTime:
    """A partner's answer in force that was asked outside the moment the text gives the question: before the
    draw, or after the player had melded this turn (``late``)."""

    __slots__ = ("late",)

    def __init__(self, late: bool) -> None:
        self.late = late

    def __call__(self, judge: Judge) -> None:
        with judge.rule("go_out.partner_answer") as check:
            if judge.param("go_out.ask_partner_when") == "after_draw_before_meld":
                judge.decide("go_out.ask_partner_when")
                check.result(False, "table.asked_after_meld" if self.late else "table.asked_before_draw")


# --- the pile ----------------------------------------------------------------------------------

class _PileLeft:
    """A pile still lying there after it was taken this turn."""

    __slots__ = ("count",)

    def __init__(self, count: int) -> None:
        self.count = count

    def __call__(self, judge: Judge) -> None:
        with judge.rule("pile.taken_whole") as check:
            if judge.param("pile.taken_whole"):
                check.result(False, "table.pile_left_after_take", count=self.count)


class _TopNotMelded:
    """A pile taken this turn while the team has no meld: the take lays the top card in one. A text that lets a
    take leave cards in the pile (``pile.taken_whole`` false) still has its top card melded: the parameter's
    words are quoted, its value changes nothing here."""

    __slots__ = ()

    def __call__(self, judge: Judge) -> None:
        with judge.rule("pile.taken_whole") as check:
            judge.param("pile.taken_whole")
            check.result(False, "table.pile_taken_no_meld")


UPCARD_KIND = {"joker": lambda c: c == JOKER, "two": lambda c: c != JOKER and c[:-1] == "2",
               "red_three": is_red_three, "black_three": is_black_three}


class _RedThreeInPile:
    """A red three above the pile's first card: possible only among upcards that each made one turn another."""

    __slots__ = ("pile", "i", "card")

    def __init__(self, pile: tuple[str, ...], i: int, card: str) -> None:
        self.pile, self.i, self.card = pile, i, card

    def __call__(self, judge: Judge) -> None:
        with judge.rule("red_three.never_melded") as check:
            if not judge.param("red_three.laid_out"):
                return
            more = judge.param("pile.upcard_turn_more")
            turned = all(any(UPCARD_KIND[k](c) for k in more) for c in self.pile[:self.i])
            if not turned:
                judge.decide("red_three.laid_out")
                check.result(False, "table.red_three_in_pile", card=Card(self.card), position=self.i + 1)
