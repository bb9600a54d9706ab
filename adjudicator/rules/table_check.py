"""The table check: a situation and an action that cannot happen together under a variant.

More copies of a card than the variant's deck holds, a card the action takes that
the hand does not hold, a red three in a meld, more cards than the deck: each is an
:class:`~adjudicator.model.errors.ImpossibleInput` whose issues point at the cards.
Then what the variant's own rules say can lie on a table (:mod:`adjudicator.rules.possible`).

A table is refused only where a rule the variant **states** (or a house rule
settles) rules it out: :func:`assess` refuses a fault whose outcome rests on no
parameter the text leaves open, reads two ways or the service interprets, and a
table that every reading of those points rules out by the stated rules. Where a
reading allows the table, it is ruled: the readings that rule it out are a
:class:`~adjudicator.rules.readings.TableDoubt`, and the ruling is decided under
the others, saying so (:func:`adjudicator.rules.readings.decide_across`).
:func:`adjudicator.rules.engine.rule` applies it to every ruling and
:func:`adjudicator.options.listing.legal_moves` to every listing, so the library and the
HTTP service refuse the same tables; :func:`table_problems` asks it without raising.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

from ..model import cards as card_codes
from ..model.actions import Action
from ..model.enums import ActionType
from ..model.errors import ImpossibleInput, Issue, issue
from ..model.findings import CannotHappen, Finding
from ..model.messages import Card, Items, Message, ParamValue, Param, Rank, Word, msg
from ..model.situation import Situation
from ..variants import Variant
from .judge import cited
from .melds import sure_rank
from .possible import Fault, probe, rule_failed
from .readings import MAX_POINTS, TableDoubt, each_reading, reading_key
from ..words.clauses import reading_message

@dataclass(frozen=True)
class Assessment:
    """What the table's rules say of a situation: the issues that refuse it (a stated rule rules it out, or
    every reading does), else the readings that rule it out (None: the table can happen however it is read)."""

    refused: tuple[Issue, ...] = ()
    doubt: TableDoubt | None = None


def assess(rules: Variant, sit: Situation) -> Assessment:
    """Whether the table can happen under ``rules``, reading by reading (see the module docstring)."""
    found = probe(rules, sit)
    points = list(found.touched)
    if not found.faults and not points:
        return _FINE  # the usual table: nothing fails, nothing read that another reading could change
    stated = [f for f in found.faults if f.finding.passed is False and not f.grounds]
    if stated:
        return Assessment(tuple(Issue(f.pointer, rule_failed(f.finding, firm(rules, f.finding.parameters)))
                                for f in stated))
    points = points[:MAX_POINTS]
    if not points:  # only the service's interpretation of a limit rules the table out: ruled as given
        failed = [f for f in found.faults if f.finding.passed is False]
        if not failed:
            return _FINE
        names = tuple(dict.fromkeys(n for f in failed for n in f.grounds))
        values = tuple((n, rules.params[n].value) for n in names)
        return Assessment(doubt=TableDoubt((), (CannotHappen(values, _failures(failed)),), frozenset()))
    tried: list[tuple[tuple, list[Fault], list[Fault]]] = []
    chosen_points = set(points)
    for chosen, read in each_reading(rules, points):
        failed = [f for f in probe(read, sit).faults if f.finding.passed is False]
        tried.append((chosen, failed, [f for f in failed if set(f.grounds) <= chosen_points]))
    if all(grounded for _, _, grounded in tried):  # every reading rules it out by what the text states
        return Assessment(refused_every_way(rules, tried))
    clean = any(not failed for _, failed, _ in tried)
    excluded = frozenset(reading_key(chosen) for chosen, failed, grounded in tried
                         if (failed if clean else grounded))
    cannot = tuple(CannotHappen(chosen, _failures(failed)) for chosen, failed, _ in tried if failed)
    if not cannot:
        return _FINE
    return Assessment(doubt=TableDoubt(tuple(points), cannot, excluded))


_FINE = Assessment()


def firm(rules: Variant, names: Iterable[str]) -> tuple[str, ...]:
    """The parameters among ``names`` that the document states outright or a house rule settles: the only
    ones a refusal may name (:func:`assess` refuses on no other)."""
    return tuple(n for n in names
                 if rules.params[n].source == "house_rule"
                 or (rules.params[n].source == "document" and rules.params[n].status == "stated"))


def _failures(faults: list[Fault]) -> tuple[tuple[str, Finding], ...]:
    return tuple((f.pointer, f.finding) for f in faults)


def refused_every_way(rules: Variant, tried: list[tuple[tuple, list[Fault], list[Fault]]]) -> tuple[Issue, ...]:
    """The issues of a table (or a scored round, :mod:`adjudicator.scoring.across`) every reading rules out:
    ``tried`` holds each reading with its failed checks and those resting on the points tried; at each field,
    what rules it out under each reading (the stated parameters it rests on, the points tried being no ground
    of their own)."""
    pointers = list(dict.fromkeys(f.pointer for _, _, grounded in tried for f in grounded))
    every = len(tried)
    out = []
    for at in pointers:
        said: list[Message] = []
        findings: list[Finding] = []
        for chosen, _, grounded in tried:
            here = [f.finding for f in grounded if f.pointer == at]
            if here:
                findings += here
                said.append(msg("reading.says", reading=reading_message(chosen), says=here[0].message))
        first = findings[0]
        names = firm(rules, dict.fromkeys(n for f in findings for n in f.parameters))
        quotes = tuple(dict.fromkeys(c for f in findings for c in f.citations))
        explanation = msg("reading.whichever" if len(said) == every else "table.read_so", readings=Items(tuple(said)))
        out.append(Issue(at, msg("error.rule_failed", explanation=explanation, rule=first.rule, parameters=names,
                                 quotes=Items(tuple(msg("quote", text=c.quote) for c in quotes), " "),
                                 house_rules=Items(tuple(msg("house_rule.value", parameter=Param(h.parameter),
                                                             value=ParamValue(h.parameter, h.value))
                                                         for f in findings for h in f.house_rules)))))
    return tuple(out)


def table_doubt(rules: Variant, situation: Situation) -> TableDoubt | None:
    """The readings under which ``situation``'s table cannot happen (None: none does), for a table already
    checked (:func:`check_table` returns the same). A table the rules refuse outright is the caller's to refuse;
    here it is ruled as given."""
    return assess(rules, situation).doubt


def table_problems(situation: Situation, rules: Variant, action: Action | None = None) -> tuple[Issue, ...]:
    """What makes the table (and ``action``, if given) impossible under ``rules``; empty when nothing does (the
    table may still be one that some readings of the text rule out: :func:`table_doubt`)."""
    try:
        check_table(rules, situation, action or Action(ActionType.DRAW))  # a draw takes no card: the table's own facts
    except ImpossibleInput as e:
        return e.issues
    return ()


def deck_issues(rules: Variant, shown: list[str], locate: Callable[[], Iterable[tuple[str, str]]],
                red_threes_laid: list[tuple[int, str]]) -> list[Issue]:
    """An issue at the first card of each kind that the variant's deck cannot hold so many of.

    ``shown`` is every card in play; ``locate()`` gives the same cards with their
    pointers and is called only when there is a fault to point at. ``red_threes_laid``
    are the laid-out red threes, each count with its pointer.
    """
    decks, jokers = rules.value("deck.decks"), rules.value("deck.jokers")
    red_limit = rules.red_threes_in_deck
    laid = sum(n for n, _ in red_threes_laid)
    if _fits(shown, decks, jokers) and laid + shown.count("3H") + shown.count("3D") <= red_limit:
        return []
    counts = Counter(shown)
    issues: list[Issue] = []
    seen: Counter[str] = Counter()
    for card, at in locate():
        seen[card] += 1
        limit = jokers if card == card_codes.JOKER else decks
        if seen[card] == limit + 1:  # count=limit picks the words' plural: "one copy", "two copies"
            key = "error.too_many_copies" if card != card_codes.JOKER else \
                "error.too_many_jokers" if limit else "error.no_jokers"
            issues.append(issue(at, key, variant=rules.ref, card=Card(card), limit=limit, count=limit,
                                parameters=("deck.jokers",) if card == card_codes.JOKER else ("deck.decks",)))
    reds = counts["3H"] + counts["3D"]
    if laid + reds > red_limit:  # point at the laid-out count that passes the limit, else the first one
        running, at = reds, red_threes_laid[0][1] if red_threes_laid else ""
        for n, where in red_threes_laid:
            running += n
            if running > red_limit:
                at = where
                break
        issues.append(issue(at, "error.too_many_red_threes", variant=rules.ref, count=laid + reds, limit=red_limit,
                            parameters=("deck.decks",)))
    return issues


def _fits(shown: list[str], decks: int, jokers: int) -> bool:
    """Whether the deck holds every card of ``shown`` as often as it appears (no card more than ``decks``
    times, no more than ``jokers`` jokers); the usual table has few repeats, so a set decides most at once."""
    joker_count = shown.count(card_codes.JOKER)
    if joker_count > jokers:
        return False
    if len(shown) - joker_count - len(set(shown)) + (1 if joker_count else 0) < decks:
        return True  # fewer repeated copies in all than one card would need to pass the limit
    counts: dict[str, int] = {}
    for card in shown:
        counts[card] = counts.get(card, 0) + 1
    counts.pop(card_codes.JOKER, None)
    return max(counts.values(), default=0) <= decks


def check_table(rules: Variant, sit: Situation, act: Action) -> TableDoubt | None:
    """Refuse a situation and action that cannot happen together under the variant (the one table check:
    :func:`adjudicator.rules.engine.rule` and :func:`adjudicator.options.legal_moves` apply it, and so every
    path: the web layer, batches, compare, the library). A table only some readings rule out is not refused:
    those readings are returned: the ruling is decided under the others (:func:`adjudicator.rules.engine.rule_checked`)."""
    _check_in_hand(act, sit.hand, sit.pile)
    base = sit.base
    extra = [(c, "/action") for c in act.hand_cards()] if sit.hand is None else []
    laid = [(n, f"{base}/{name}/red_threes") for name, n in (("team", sit.team.red_threes),
                                                             ("opponents", sit.opponents.red_threes))
            if n is not None]
    issues = deck_issues(rules, sit.cards_shown() + [c for c, _ in extra],
                         lambda: _located(sit, extra), laid)
    if issues:
        raise ImpossibleInput(issues)
    if sit.has_melded is True and sit.team.melds == ():
        raise ImpossibleInput([issue(f"{base}/player/has_melded", "error.melded_without_melds")])
    for name, side in (("team", sit.team), ("opponents", sit.opponents)):
        # what a family says without listing the melds must agree with the melds where both are given
        if side.opened is not None and side.melds is not None and side.opened != bool(side.melds):
            raise ImpossibleInput([issue(f"{base}/{name}/opened", "error.opened_contradicts_melds")])
        if side.canastas and side.melds == ():
            raise ImpossibleInput([issue(f"{base}/{name}/canastas", "error.canastas_unopened")])
        if side.canastas_at_least is not None:
            if side.melds == ():
                raise ImpossibleInput([issue(f"{base}/{name}/canastas_at_least", "error.canastas_unopened")])
            if side.canastas is not None and side.canastas < side.canastas_at_least:
                raise ImpossibleInput([issue(f"{base}/{name}/canastas", "error.canastas_below_at_least")])
        if side.ranks:
            _check_ranks(side, f"{base}/{name}/ranks")
    if firm(rules, ("red_three.laid_out",)) and rules.params["red_three.laid_out"].value and \
            any("3H" in meld or "3D" in meld for side in (sit.team, sit.opponents) for meld in side.melds or ()):
        # red threes laid out as they come, as the text states: never in a meld (where the text leaves it open,
        # the table's meld checks rule it reading by reading, :mod:`adjudicator.rules.possible`)
        raise ImpossibleInput([issue(f"{base}/{name}/melds/{m}/{i}", "error.red_three_in_meld", card=Card(c))
                               for name, side in (("team", sit.team), ("opponents", sit.opponents))
                               for m, meld in enumerate(side.melds or ()) for i, c in enumerate(meld)
                               if c in ("3H", "3D")])
    if sit.stock_empty is not None and sit.stock_count is not None and sit.stock_empty != (sit.stock_count == 0):
        raise ImpossibleInput([issue(f"{base}/stock_empty", "error.stock_empty_contradicts")])
    size = sit.hand_count if sit.hand is None else len(sit.hand)
    if sit.hand_count_at_least is not None and size is not None and size < sit.hand_count_at_least:
        raise ImpossibleInput([issue(f"{base}/player/hand_count_at_least", "error.hand_below_at_least")])
    if sit.cards_from_pile and sit.drew in (None, "stock"):
        raise ImpossibleInput([issue(f"{base}/turn/cards_from_pile", "error.pile_cards_without_take")])
    if sit.hand_count is not None and sit.hand_count > rules.deck_size:
        raise ImpossibleInput([issue(f"{base}/player/hand_count", "error.more_than_deck", variant=rules.ref,
                                     limit=rules.deck_size)])
    if sit.hand is not None and sit.cards_from_pile:
        # the top card (the last) may already lie in the meld the take made; the cards below it are in the hand
        missing = Counter(sit.cards_from_pile[:-1]) - Counter(sit.hand)
        if missing:
            raise ImpossibleInput([issue(f"{base}/turn/cards_from_pile", "error.not_in_hand",
                                         card=Card(sorted(missing)[0]), where=Word("hand"))])
    assessed = assess(rules, sit)  # what the variant's own rules say can lie on a table
    if assessed.refused:
        raise ImpossibleInput(list(assessed.refused))
    return assessed.doubt


def _located(sit: Situation, extra: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Every card of the situation with its pointer (built only to explain a fault)."""
    base = sit.base
    out: list[tuple[str, str]] = []
    if sit.hand is not None:
        out += [(c, f"{base}/player/hand/{i}") for i, c in enumerate(sit.hand)]
    if sit.pile is not None:
        out += [(c, f"{base}/discard_pile/{i}") for i, c in enumerate(sit.pile)]
    for name, side in (("team", sit.team), ("opponents", sit.opponents)):
        for m, meld in enumerate(side.melds or ()):
            out += [(c, f"{base}/{name}/melds/{m}/{i}") for i, c in enumerate(meld)]
    return out + extra


def _check_in_hand(act: Action, hand: tuple | None, pile: tuple | None, base: str = "/action") -> None:
    """Refuse an action that names cards the player cannot hold.

    ``with`` and the cards of melds, additions and discards come from the hand;
    in a take of the pile, melds and additions may also use the pile's cards.
    """
    if hand is None:
        return
    if act.type != "take_pile" and _holds(hand, act.hand_cards()):
        return  # the usual case; the walk below only names the offending cards
    if act.type == "take_pile" and _holds(hand, act.with_cards) and \
            _holds(_minus(hand, act.with_cards) + list(pile[:-1] if pile else ()), act.laid_cards()):
        return
    available = Counter(hand)
    pile_rest = Counter(pile[:-1]) if (act.type == "take_pile" and pile) else None
    issues: list[Issue] = []

    def take(card: str, at: str, extra: Counter | None = None) -> None:
        if available[card] > 0:
            available[card] -= 1
        elif extra is not None and extra[card] > 0:
            extra[card] -= 1
        else:
            issues.append(issue(at, "error.not_in_hand", card=Card(card),
                                where=Word("hand" if extra is None else "hand_or_pile")))

    if act.type == "take_pile":
        for i, c in enumerate(act.with_cards):
            take(c, f"{base}/with/{i}")
    for m, meld in enumerate(act.melds):
        for i, c in enumerate(meld):
            take(c, f"{base}/melds/{m}/{i}", pile_rest)
    for add in act.adds:
        for i, c in enumerate(add.cards):
            take(c, f"{add.pointer}/{i}" if add.to is None else f"{add.pointer}/cards/{i}", pile_rest)
    if act.discard:
        take(act.discard, f"{base}/{'card' if act.type == 'discard' else 'discard'}")
    if issues:
        raise ImpossibleInput(issues)


def _holds(have, need) -> bool:
    """Whether the multiset ``have`` contains ``need`` (plain dict counting: these lists are short)."""
    if not need:
        return True
    counts: dict[str, int] = {}
    for card in have:
        counts[card] = counts.get(card, 0) + 1
    for card in need:
        n = counts.get(card, 0)
        if not n:
            return False
        counts[card] = n - 1
    return True


def _minus(have, used) -> list[str]:
    rest = list(have)
    for card in used:
        rest.remove(card)
    return rest


def _check_ranks(side, at: str) -> None:
    """What a family says of the ranks its team has melded must agree with the team's melds where both are
    given, and a meld of a rank means the team has opened."""
    listed = None if side.melds is None else [sure_rank(m) for m in side.melds]
    for rank, has in side.ranks:
        if has and side.melds == ():
            raise ImpossibleInput([issue(f"{at}/{rank}", "error.rank_unopened", rank=Rank(rank))])
        if listed is None or has == (rank in listed) or (has and None in listed):
            continue  # agrees (a listed meld of no sure rank -- wild cards only -- may be the one said)
        raise ImpossibleInput([issue(f"{at}/{rank}", "error.rank_contradicts_melds", rank=Rank(rank))])
