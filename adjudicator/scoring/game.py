"""A round's sheet and a game's under one reading of the variant: totals carried round to round, the next
opening, the end and the winner (:mod:`adjudicator.scoring.across` makes the score across the readings)."""

from __future__ import annotations

from dataclasses import replace

from ..model.errors import ImpossibleInput, RuleNotStated, issue
from ..model.messages import Items, msg
from ..model.requests import ScoreRequest, TeamRound
from ..variants import Variant
from ..rules.possible import Fault
from .legality import check_round
from .lines import score_teams
from .opening import next_opening
from .reader import ORDER, Reader
from .sheets import GameSheet, RoundSheet, TeamScore


class Run:
    """What one scoring of a request under one reading of its variant met: every reader (one per round) and
    the faults of its rounds that rest on values the text does not state outright
    (:func:`adjudicator.scoring.legality.check_round`)."""

    __slots__ = ("readers", "faults")

    def __init__(self) -> None:
        self.readers: list[Reader] = []
        self.faults: list[Fault] = []

    def reader(self, rules: Variant, variants: dict[str, Variant], players: int) -> Reader:
        made = Reader(rules, variants, players)
        self.readers.append(made)
        return made

    def two_way(self) -> list[str]:
        """The parameters read whose text reads two ways, in the order first read."""
        names: dict[str, None] = {}
        for reader in self.readers:
            for name in reader.judge.two_way:
                names[name] = None
        return list(names)


def score_under(request: ScoreRequest, rules: Variant, variants: dict[str, Variant],
                run: Run) -> RoundSheet | GameSheet:
    """Score one round, or a whole game carrying totals, under ``rules`` (the request's variant, or one reading
    of it); ``variants`` supply example house-rule values. A fault that rests on a value the text does not state
    outright goes into ``run``, not raised (:mod:`adjudicator.scoring.across` decides what it rules out)."""
    if not request.game:
        return score_round(run.reader(rules, variants, request.players), request.players, request.rounds[0], "",
                           run)
    sheets: list[RoundSheet] = []
    totals: dict[str, int] | None = None
    for r, teams in enumerate(request.rounds):
        base = f"/rounds/{r}"
        if sheets and sheets[-1].game_over:
            raise ImpossibleInput([issue(base, "error.round_after_game_over", round=r)])
        if totals is not None:
            teams = tuple(replace(t, score_before=totals[t.name]) for t in teams)
        sheets.append(score_round(run.reader(rules, variants, request.players), request.players, teams, base, run))
        totals = {t.name: t.total for t in sheets[-1].teams}
    interpretations = {}
    for sheet in sheets:
        interpretations.update({i.parameter: i for i in sheet.interpretations})
    last = sheets[-1]
    return GameSheet(rules.id, request.players, last.target, tuple(sheets), last.teams, last.game_over,
                     last.winner, tuple(sorted(interpretations.values(), key=lambda i: ORDER.get(i.parameter, 0))))


def score_round(reader: Reader, players: int, teams: tuple[TeamRound, ...], base: str, run: Run) -> RoundSheet:
    team_size = _team_size(reader, players)
    expected = max(1, players // team_size)
    if len(teams) != expected:
        raise ImpossibleInput([issue(f"{base}/teams", "error.team_count", players=players, count=expected,
                                     given=len(teams))])
    found = check_round(reader, teams, players, team_size)
    run.faults += found.faults
    if found.issues:
        raise ImpossibleInput(found.issues)
    if found.needs and not found.stated:  # (a round a stated rule rules out is refused for that first)
        raise reader.not_stated(found.needs)
    scored = []
    for team, lines in score_teams(reader, teams):
        points = sum(line.points for line in lines)
        total = team.score_before + points
        scored.append(TeamScore(team.name, team.score_before, lines, points, total, next_opening(reader, total)))
    stated, target = reader.maybe("game.target")  # (its pointer and words made only when the text is silent)
    if not stated:
        raise reader.not_stated([(f"{base}/teams", "game.target", msg("score.end_unjudged"))])
    if players not in target:
        raise RuleNotStated([issue("/players", "error.no_target", variant=reader.rules.ref, players=players)],
                            ["game.target"])
    game_over, winner = _outcome(reader, {t.name: t.total for t in scored}, target[players])
    return RoundSheet(reader.rules.id, target[players], tuple(scored), game_over, winner, reader.interpretations())


def _team_size(reader: Reader, players: int) -> int:
    """Players per team (side that scores together) at this table: ``players.team_size`` says."""
    size = reader.need("players.team_size", "/players").get(players)
    if size is None:
        raise ImpossibleInput([issue("/players", "error.no_team_size", variant=reader.rules.ref, players=players)])
    return size


def _outcome(reader: Reader, totals: dict[str, int], target: int) -> tuple[bool, str | None]:
    """(game over?, winner) after a round.

    One team at or over the target wins. Several: ``game.several_over_target``
    decides (highest_total: the highest wins); a tie at the top goes to
    ``game.tie`` (extra_round: the game goes on). Where the text is silent the
    game is over with no winner named, and the interpretation says why.
    """
    over = [n for n, t in totals.items() if t >= target]
    if len(over) <= 1:
        return bool(over), (over[0] if over else None)
    stated, rule = reader.maybe("game.several_over_target")
    if not stated:
        listed = Items(tuple(msg("score.team_total", team=n, total=totals[n]) for n in over), ", ")
        _occasion(reader, "game.several_over_target", msg("game.several_over", target=target, teams=listed))
        return True, None
    top = max(totals[n] for n in over)
    leaders = [n for n in over if totals[n] == top]
    if rule == "highest_total" and len(leaders) == 1:
        return True, leaders[0]
    stated, tie = reader.maybe("game.tie")
    names = Items(tuple(leaders), " & ")
    if not stated:
        _occasion(reader, "game.tie", msg("game.tie_unsettled", teams=names, total=top))
        return True, None
    _occasion(reader, "game.tie", msg("game.tie_extra_round", teams=names, total=top))
    return False, None


def _occasion(reader: Reader, name: str, occasion) -> None:
    """Add what happened in this game to a recorded interpretation."""
    entry = reader.judge.interpretations.get(name)
    if entry is not None:
        reader.judge.interpretations[name] = replace(entry, occasion=occasion)
