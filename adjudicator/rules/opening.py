"""The opening: a team's first melds must reach a minimum card value that grows with its score.

:func:`requirement` is the one band lookup (rulings, next-round requirements in
scores, the predicates); :func:`team_requirement` the one answer to "what must this team
meld to open?" (the listing and the option search); :func:`check_opening` the one check
of a first meld.
"""

from __future__ import annotations

from collections import Counter

from .judge import Judge, answer
from .melds import is_canasta
from ..model.messages import Word
from ..model.parameters import band_for
from ..model.requirement import Requirement
from ..model.situation import Situation
from .turn import first_round
from ..variants import Variant


def requirement(judge: Judge, score: int) -> Requirement:
    """The opening requirement for a team's cumulative score (reads ``opening.negative`` or ``opening.bands``).

    Inside a check, the parameter (and the band) becomes what decides it.
    """
    if score < 0:
        need = Requirement(judge.param("opening.negative"), False, score, negative=True,
                           **_standing(judge, "opening.negative"))
        if judge.checking:
            judge.decide("opening.negative")
        return need
    band = band_for(judge.param("opening.bands"), score)
    if judge.checking:
        judge.decide("opening.bands")
        judge.case(f"band:{band['min']}")
    return Requirement(band["points"], band["canasta_required"], score, band["min"], band["max"],
                       **_standing(judge, "opening.bands"))


def _standing(judge: Judge, name: str) -> dict:
    """The figure's status and, where the text does not state it outright, the variant's note on it."""
    entry = judge.rules.params[name]
    status = entry.shown_status
    if status == "stated":
        return {}
    return {"status": status, "note": None if entry.house_rule else entry.note,
            "notes": () if entry.house_rule else entry.notes}


def team_requirement(situation: Situation, rules: Variant) -> Requirement | None:
    """What the player's team must meld to open, from its score alone: None when the team is known to have
    opened, when its score is not given, or when the text does not give the figure. A team whose melds are not
    given is asked about as one yet to open ("is this enough to open?" before any meld is entered).

    The one answer the listing reports and the option search plans for (a ruling reads the same band through
    :func:`requirement` and says what is missing instead).
    """
    score = situation.team.score
    if situation.team_has_opened() or score is None:  # opened: no requirement to meet
        return None
    return answer(rules, lambda judge: requirement(judge, score))


def opening_value(judge: Judge, groups) -> tuple[int, bool]:
    """(value counted, counted together?) of the cards laid to open, by ``opening.melds_together``."""
    values = [sum(judge.value_of(c) for c in g) for g in groups]
    together = judge.param("opening.melds_together") if len(groups) > 1 else True
    return (sum(values) if together else max(values or [0])), together


def check_opening(judge: Judge, situation: Situation, table, groups, pile_extra, waived: bool = False,
                  concealed_out: bool = False) -> None:
    """The first melds' minimum; ``groups`` are the cards laid this turn from the hand (and the top card).

    ``concealed_out``: the action goes out concealed; where the text says in so many words whether that
    spares the opening minimum (``concealed.opening_waived_after_stock`` stated), a shortfall quotes it first.
    """
    if situation.need_team_opened():
        return
    first_round(judge, situation, "first_round.no_opening", "open")
    if waived:
        with judge.rule("opening.minimum") as check:
            judge.param("concealed.opening_waived_after_stock")
            check.result(True, "opening.waived_concealed")
        return
    need = None
    with judge.rule("opening.minimum") as check:
        need = requirement(judge, situation.need_team_score())
        counted, together = opening_value(judge, groups)
        counted += _bonuses_counted(judge, table, situation, need)
        how = Word("together" if together else "best_single_meld")
        extra = sum(judge.value_of(c) for c in pile_extra)
        if need.points is None:
            check.result(True, "opening.no_minimum", requirement=need)
        elif counted >= need.points or not extra:
            if counted < need.points:
                _what_does_not_count(judge, table, situation, need.points - counted)
                if concealed_out and judge.rules.params["concealed.opening_waived_after_stock"].status == "stated":
                    judge.param("concealed.opening_waived_after_stock")
                    judge.decide("concealed.opening_waived_after_stock")
            check.result(counted >= need.points, "opening.counts", points=counted, how=how, requirement=need)
        elif judge.param("opening.pile_top_only"):
            judge.decide("opening.pile_top_only")
            check.result(False, "opening.pile_cards_excluded", points=counted, extra=extra, requirement=need)
        else:
            check.result(counted + extra >= need.points, "opening.counts_with_pile", points=counted + extra,
                         requirement=need)
    if need is not None and need.canasta_required:
        with judge.rule("opening.canasta_required") as check:
            judge.param("opening.bands")  # the band table this check rests on
            judge.decide("opening.bands")
            judge.case(f"band:{need.band_min}")
            has = table.laid_canasta()
            check.result(has, "opening.canasta_included" if has else "opening.canasta_missing", requirement=need)


def _bonuses_counted(judge: Judge, table, situation: Situation, need: Requirement) -> int:
    """Bonuses toward the opening, where the text counts them: the laid canastas' bonuses
    (``opening.bonuses_count``) and the team's red threes (``opening.red_threes_count``). Read only when they
    could matter: an opening with a canasta in it, a team with red threes."""
    if need.points is None:
        return 0
    extra = 0
    canastas = [table.melds[i] for i in table.new | table.grown if is_canasta(judge, table.melds[i])]
    if canastas and judge.known("opening.bonuses_count"):
        for meld in canastas:
            mixed = any(judge.wild(c) for c in meld)
            extra += judge.known("score.mixed_canasta" if mixed else "score.natural_canasta") or 0
    reds = situation.team.red_threes or 0
    if reds and judge.known("opening.red_threes_count"):
        extra += reds * (judge.known("score.red_three") or 0)
    return extra


def _what_does_not_count(judge: Judge, table, situation: Situation, short: int) -> None:
    """An opening short of its minimum, by less than a bonus it might seem to earn: quote first the words
    saying that bonus does not count (a canasta's bonus, the team's red threes)."""
    deciding = []
    if table.laid_canasta():
        bonus = judge.known("score.mixed_canasta")  # the smaller canasta bonus
        if bonus is not None and bonus >= short and judge.known("opening.bonuses_count") is False:
            deciding.append("opening.bonuses_count")
    reds = situation.team.red_threes or 0
    if reds:
        bonus = judge.known("score.red_three")
        if bonus is not None and reds * bonus >= short and judge.known("opening.red_threes_count") is False:
            deciding.append("opening.red_threes_count")
    if deciding:
        judge.decide(*deciding)


def pile_cards_apart(situation: Situation, groups, used_from_pile) -> tuple[list[list[str]], list[str]]:
    """The melds of a turn that began by taking the pile, split for the opening check: the pile's top card
    (the last of ``turn.cards_from_pile``) counts as the hand's cards do (``used_from_pile`` leaves it out:
    :func:`~adjudicator.rules.pile.pile_cards_used`); the other pile cards the melds use are set apart, and
    ``opening.pile_top_only`` says whether they count."""
    if not used_from_pile:  # the usual case: no pile card in the melds, nothing to set apart
        return [list(group) for group in groups], []
    left = Counter(used_from_pile)
    kept_groups, apart = [], []
    for group in groups:
        kept = []
        for c in group:
            if left[c] > 0:
                left[c] -= 1
                apart.append(c)
            else:
                kept.append(c)
        kept_groups.append(kept)
    return kept_groups, apart


def without_pile_cards(groups, used_from_pile) -> list[list[str]]:
    """The groups with the pile's cards (beyond the top card, which leads the first group) taken out."""
    if not used_from_pile:
        return [list(g) for g in groups]
    left = Counter(used_from_pile)
    out = []
    for i, g in enumerate(groups):
        kept = []
        for c in g:
            if i > 0 and left[c] > 0:
                left[c] -= 1
            else:
                kept.append(c)
        out.append(kept)
    return out
