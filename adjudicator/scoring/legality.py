"""Whether a scored round's tables could have happened under the variant.

A score means nothing for a table the rules forbid, so each team's melds go
through the same meld checks as a ruling (:func:`adjudicator.rules.melds.check_meld`),
and the round through the checks only a finished round has: red threes never
in hand, one meld per rank, the canastas a team needed to go out, the canasta
an opening needed in a high band. A check that fails on what the text states
outright (or a house rule settles) is an :class:`~adjudicator.model.errors.ImpossibleInput`
quoting the rule; one that fails only on a value the text does not state outright
is a :class:`~adjudicator.rules.possible.Fault` handed back with the parameters it
rests on, for the score to be made reading by reading (:mod:`adjudicator.scoring.across`),
as the table check does for a ruling; a check the text leaves open is a
:class:`~adjudicator.model.errors.RuleNotStated`.
"""

from __future__ import annotations

from ..model.cards import is_red_three
from ..model.errors import Issue, issue
from ..rules.judge import Judge, wild_param
from ..rules.melds import canastas, check_meld, natural_rank
from ..model.messages import Cards, Message, Rank, msg
from ..model.requests import TeamRound
from ..rules.possible import Fault, band_canasta, unsure_for
from .opening import next_opening
from .reader import Reader


class Faults:
    """What a round's checks found: the issues no rule's check words (``issues``: a player alone who went out
    with cards), the checks that failed (``faults``, each with the parameters it rests on that the text does
    not state outright: none where a stated rule rules the round out), and the points left open."""

    __slots__ = ("issues", "faults", "needs")

    def __init__(self) -> None:
        self.issues: list[Issue] = []
        self.faults: list[Fault] = []
        self.needs: list[tuple[str, str, Message | None]] = []

    @property
    def stated(self) -> bool:
        """Whether a stated rule (or a house rule) already rules the round out."""
        return bool(self.issues) or any(not f.grounds for f in self.faults)


def check_round(reader: Reader, teams: tuple[TeamRound, ...], players: int, team_size: int) -> Faults:
    """Every fault of the round's tables, gathered (see :class:`Faults`). Whether a failed check rules the round
    out -- a stated rule, or some readings of the text only -- is for :mod:`adjudicator.scoring.across` to say."""
    found = Faults()
    for team in teams:
        _check_hand(reader, team, team_size, found)
        if team.melds:
            _check_melds(reader, team, team.melds, found)
        _check_canasta_band(reader, team, found)
        if team.went_out and not found.stated and not found.needs:
            _check_canastas_to_go_out(reader, team, players, found)
    return found


def _check_hand(reader: Reader, team: TeamRound, team_size: int, found: Faults) -> None:
    """Red threes never stay in hand; a player alone who went out has no hand left at all."""
    for k, card in enumerate(team.hand or ()):
        if is_red_three(card):
            judge = reader.fresh()
            with judge.rule("red_three.never_melded") as check:
                if judge.param("red_three.laid_out"):
                    check.result(False, "score.red_three_in_hand", card=Cards((card,)), team=team.name)
            reader.absorb(judge)
            _collect(judge, f"{team.pointer}/hand/{k}", (), found)
    left = bool(team.hand) or bool(team.hand_points)
    if team_size == 1 and team.went_out and left:
        where = "hand" if team.hand else "hand_points"
        found.issues.append(issue(f"{team.pointer}/{where}", "error.alone_went_out_with_cards", team=team.name))


def _check_melds(reader: Reader, team: TeamRound, melds: tuple[tuple[str, ...], ...], found: Faults) -> None:
    """The composition rules on each meld (``melds``: the team's), then one meld per rank across them.

    A meld's words name it (its number, team and cards) only in a fault shown to the reader, so the checks
    run first with an unnamed subject; a meld they fault or leave open is checked again, named (the checks
    are the same, on a fresh judge), and only that run's findings are kept."""
    clean = True
    for j, meld in enumerate(melds):
        judge = reader.fresh()
        check_meld(judge, meld, _UNNAMED, going_out=team.went_out)
        if _all_passed(judge):
            reader.absorb(judge)
            continue
        judge = reader.fresh()
        subject = msg("subject.team_meld", index=j + 1, team=team.name, cards=Cards(meld))
        check_meld(judge, meld, subject, going_out=team.went_out)
        reader.absorb(judge)
        clean &= _collect(judge, f"{team.pointer}/melds/{j}", meld, found)
    if clean and len(melds) > 1:  # (one meld alone has no rank to share; its wildness reads are absorbed above)
        _check_one_per_rank(reader, team, melds, found)


def _check_one_per_rank(reader: Reader, team: TeamRound, melds: tuple[tuple[str, ...], ...], found: Faults) -> None:
    """Two melds of one rank are refused where the text says so, and unsettled where it is silent."""
    judge = reader.fresh()
    first: dict[str | None, int] = {}
    for j, meld in enumerate(melds):
        meld_rank = natural_rank(judge, meld)
        if meld_rank is None or meld_rank not in first:
            first.setdefault(meld_rank, j)
            continue
        with judge.rule("meld.one_per_rank") as check:
            if judge.param("meld.one_per_rank"):
                check.result(False, "score.two_melds_of_a_rank", team=team.name, rank=Rank(meld_rank),
                             first=first[meld_rank] + 1, second=j + 1)
        reader.absorb(judge)
        _collect(judge, f"{team.pointer}/melds/{j}", meld, found, msg("subject.second_meld", rank=Rank(meld_rank)))
        judge = reader.fresh()
    reader.absorb(judge)


def _check_canastas_to_go_out(reader: Reader, team: TeamRound, players: int, found: Faults) -> None:
    """A team that went out must have had the canastas the text demands for going out."""
    judge = reader.fresh()
    with judge.rule("go_out.canasta_required") as check:
        need = (judge.param("go_out.canastas_required") or {}).get(players)
        if need:
            if team.melds is None:
                have = (team.natural_canastas or 0) + (team.mixed_canastas or 0)
            else:
                have = canastas(judge, team.melds)
            check.result(have >= need, "score.went_out_canastas", team=team.name, count=have, need=need)
    reader.absorb(judge)
    _collect(judge, f"{team.pointer}/went_out", (), found, msg("subject.going_out_table"))


def _check_canasta_band(reader: Reader, team: TeamRound, found: Faults) -> None:
    """A team whose score band opens only with a canasta cannot have melds without one (canastas stay)."""
    if team.score_before < 0:
        return
    stated, _ = reader.maybe("opening.bands")
    if not stated or not next_opening(reader, team.score_before).canasta_required:
        return
    judge = reader.fresh()
    if team.melds is not None:
        melded, count, where = bool(team.melds), canastas(judge, team.melds), "melds"
    else:
        melded = bool(team.melded_points or team.natural_canastas or team.mixed_canastas)
        count = (team.natural_canastas or 0) + (team.mixed_canastas or 0)
        where = "melded_points" if team.melded_points else "natural_canastas"
    band_canasta(judge, team.score_before, melded, count, team.name)
    reader.absorb(judge)
    _collect(judge, f"{team.pointer}/{where}", (), found)


_UNNAMED = msg("subject.this_meld")  # a meld's subject in checks whose words nobody reads


def _all_passed(judge: Judge) -> bool:
    """No fault and no open point among the judge's findings (nothing :func:`_collect` would gather)."""
    for finding in judge.findings:
        if finding.passed is not True:
            return False
    return not judge.not_stated


def _collect(judge: Judge, at: str, cards, found: Faults, what: Message | None = None) -> bool:
    """A check's failed findings become faults (with the parameters each rests on that the text does not state
    outright: ``judge.grounds``) and its open ones needs; True when all passed."""
    clean = True
    for finding, grounds in zip(judge.findings, judge.grounds or ()):
        if finding.passed is False:
            found.faults.append(Fault(at, finding, unsure_for(judge, grounds)))
            clean = False
    for name in judge.not_stated:
        k = next((k for k, c in enumerate(cards) if wild_param(c) == name), None)
        found.needs.append((at if k is None else f"{at}/{k}", name,
                            msg("score.cannot_judge", what=what or msg("subject.this_meld"))))
        clean = False
    return clean



