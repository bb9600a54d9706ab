"""Public predicates: the engine's questions one at a time, for programs that build on it.

In the manner of python-chess (``board.is_legal(move)``) and pokerkit (``can_x``
returns a bool, ``verify_x`` beside it raises :class:`~adjudicator.model.errors.RuleIllegal`
with the reason). Card codes are normalised as the model's types do (``"th"`` is the ten
of hearts; a code that names no card is a :class:`~adjudicator.model.cards.CardError`). Each takes typed input and
``rules`` (a :class:`~adjudicator.variants.Variant`, with any house rules applied
by :func:`adjudicator.input.house_rules.apply`). Where the answer depends on a fact the
situation lacks or a point the text leaves open, a ``can_``/``is_`` predicate
answers ``None`` ("cannot say"); the full :class:`~adjudicator.model.findings.Ruling`
of :func:`adjudicator.rules.engine.rule` says why.

The rulings are built from these same checks (:mod:`adjudicator.rules.pile`,
:mod:`adjudicator.rules.melds`, :mod:`adjudicator.rules.opening`, :mod:`adjudicator.rules.going_out`).
"""

from __future__ import annotations

from .model.actions import Action
from .rules.engine import rule
from .model.cards import parse, parse_all
from .model.errors import RuleIllegal, RuleNotStated, issue
from .model.findings import Finding, LEGAL, ILLEGAL
from .rules.judge import Judge, MissingFact, NotStated, answer
from .rules.melds import check_meld, is_canasta as _is_canasta
from .model.messages import Cards, Param, msg
from .rules.opening import Requirement, opening_value as _opening_value, requirement
from .rules.pile import frozen_reasons
from .model.situation import Situation
from .rules.turn import by_players
from .variants import Variant


def _strict(rules: Variant, ask):
    """``ask(judge)``; a point the text leaves open becomes :class:`RuleNotStated`."""
    judge = Judge(rules)
    try:
        return ask(judge)
    except NotStated as e:
        raise RuleNotStated([issue("", "check.not_stated", variant=rules.ref, parameter=Param(e.name))],
                            [e.name]) from None


def is_legal(situation: Situation, action: Action, rules: Variant) -> bool | None:
    """Whether the action is legal: True, False, or None when the ruling is undetermined."""
    verdict = rule(situation, action, rules).verdict
    return True if verdict == LEGAL else (False if verdict == ILLEGAL else None)


def verify_legal(situation: Situation, action: Action, rules: Variant) -> None:
    """Raise :class:`RuleIllegal` with the failing (or open) findings unless the action is legal."""
    ruling = rule(situation, action, rules)
    if ruling.verdict != LEGAL:
        raise RuleIllegal(ruling.failed() or ruling.open())


def card_value(card: str, rules: Variant) -> int:
    """A card's point value (a red three, a bonus card, has none); RuleNotStated where the text is silent."""
    card = parse(card)
    return _strict(rules, lambda judge: judge.value_of(card))


def is_wild(card: str, rules: Variant) -> bool:
    """Whether the card is wild; RuleNotStated where the text is silent (twos in da-ludo)."""
    card = parse(card)
    return _strict(rules, lambda judge: judge.wild(card))


def is_canasta(cards, rules: Variant) -> bool:
    """Whether a meld of these cards is a canasta (enough cards)."""
    cards = parse_all(cards)
    return _strict(rules, lambda judge: _is_canasta(judge, cards))


def meld_problems(cards, rules: Variant, going_out: bool = False) -> tuple[Finding, ...]:
    """The checks a new meld of ``cards`` fails or leaves open (empty: the meld is legal)."""
    cards = parse_all(cards)
    judge = Judge(rules)
    check_meld(judge, list(cards), msg("subject.meld", index=1, cards=Cards(tuple(cards))), going_out)
    return tuple(f for f in judge.findings if f.passed is not True)


def opening_requirement(score: int, rules: Variant) -> Requirement:
    """What a team on ``score`` must meld to open (points, and whether a canasta is required)."""
    return _strict(rules, lambda judge: requirement(judge, score))


def opening_value(groups, rules: Variant) -> int:
    """The value the cards laid to open count toward the requirement (groups of cards, one per meld)."""
    return _strict(rules, lambda judge: _opening_value(judge, [list(parse_all(g)) for g in groups])[0])


def pile_frozen(situation: Situation, rules: Variant) -> bool | None:
    """Whether the pile is frozen for the player's team; None when that depends on an open point or fact."""
    reasons = answer(rules, lambda judge: frozen_reasons(judge, situation.need_pile(), situation.need_team_opened(),
                                                                 situation.pile_unnamed, situation.base))
    return None if reasons is None else bool(reasons)


def canastas_needed(situation: Situation, rules: Variant) -> int | None:
    """Canastas the team needs before a player may go out (None: the player count is needed and not given)."""
    try:
        return _strict(rules, lambda judge: by_players(judge, situation, "go_out.canastas_required"))
    except MissingFact:
        return None


def can_take_pile(situation: Situation, with_cards, rules: Variant) -> bool | None:
    """Whether the player may take the pile showing ``with_cards`` from the hand (empty: onto a meld)."""
    return is_legal(situation, Action("take_pile", with_cards=tuple(with_cards)), rules)


def verify_take_pile(situation: Situation, with_cards, rules: Variant) -> None:
    """Raise :class:`RuleIllegal` with the failing (or open) findings unless taking the pile so is legal."""
    verify_legal(situation, Action("take_pile", with_cards=tuple(with_cards)), rules)


def can_go_out(situation: Situation, melds, rules: Variant, discard: str | None = None) -> bool | None:
    """Whether the player may go out laying ``melds`` (and discarding ``discard``)."""
    return is_legal(situation, Action("go_out", melds=tuple(tuple(m) for m in melds), discard=discard), rules)


def verify_go_out(situation: Situation, melds, rules: Variant, discard: str | None = None) -> None:
    """Raise :class:`RuleIllegal` with the failing (or open) findings unless going out so is legal."""
    verify_legal(situation, Action("go_out", melds=tuple(tuple(m) for m in melds), discard=discard), rules)
