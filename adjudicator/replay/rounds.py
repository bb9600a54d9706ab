"""A round replayed entry by entry, scored when it ended; a whole game replayed round by round and scored."""

from __future__ import annotations

from dataclasses import replace

from ..model.errors import AdjudicatorError, ImpossibleInput, issue
from ..model.findings import ILLEGAL
from ..model.messages import msg
from ..model.requests import Event, GameLog, Log
from ..rules.turn import team_count
from .events import event_step
from .moves import step
from .results import Entry, GameReplay, Replay, Scorer
from .table import Stop, Table, new_table


def replay(log: Log) -> Replay:
    """Rule and apply each entry of ``log`` in turn, stopping at the first illegal one (or undetermined where
    an open point decides whether the round goes on). A round that ended carries the ``/v1/score`` body of its
    table (``score_request``); :func:`scored` scores it."""
    teams = team_count(log.rules, log.players)
    table = new_table(log, teams)
    entries: list[Entry] = []
    first = None
    for index, item in enumerate(log.moves):
        if table.end is not None:
            first = Entry(index, item.player, None, msg("replay.round_over", why=table.end.message()),
                          event=item.kind if isinstance(item, Event) else None, pointer=item.pointer)
            entries.append(first)
            break
        entry = event_step(log, table, teams, index, item) if isinstance(item, Event) else \
            step(log, table, teams, index, item)
        entries.append(entry)
        if entry.verdict == ILLEGAL:
            first = entry
            break
        if table.stop is not None:
            break
    ended = table.end is not None
    request = _score_request(log, table, teams) if ended else None
    return Replay(log.rules.id, tuple(entries), first, table, teams, ended, request, undetermined=table.stop,
                  end=table.end, base=log.base)


def _score_request(log: Log, table: Table, teams: int) -> dict:
    """The ``/v1/score`` body for the round as it ended."""
    out = []
    for t in range(teams):
        seats = [s for s in range(log.players) if s % teams == t]
        went_out = table.went_out in seats
        out.append({"name": f"team {t + 1}", "score_before": log.scores[t],
                    "melds": [list(m) for m in table.melds[t]],
                    "hand": [c for s in seats for c in table.hands[s]],
                    "red_threes": table.red_threes[t], "went_out": went_out,
                    "concealed": went_out and table.concealed})
    body: dict = {"variant": log.rules.id, "players": log.players, "teams": out}
    house = log.payload.get("house_rules")
    if house:
        body["house_rules"] = house
    return body


def scored(replayed: Replay, scorer: Scorer) -> Replay:
    """The replay with its ended round scored by ``scorer`` (``/v1/score``'s own path), or with the error it
    answers instead (a card value the text does not give)."""
    if replayed.score_request is None:
        return replayed
    try:
        return replace(replayed, score=scorer(replayed.score_request))
    except AdjudicatorError as e:
        return replace(replayed, score_error=e)


def replay_game(game: GameLog, scorer: Scorer) -> GameReplay:
    """Replay a game's rounds in turn, each from the totals the one before left (its teams' opening
    requirements follow from them), stopping at the first illegal move, where a round stops undetermined, or
    where a round cannot be scored; then score the ended rounds as ``/v1/score`` scores a game.

    A round after the game is over, or after a round whose moves stop before it ends, is refused as
    ``/v1/score`` refuses a round after the end (:class:`ImpossibleInput`, at the round)."""
    scores = game.scores
    done: list[Replay] = []
    over = False
    first: Entry | None = None
    first_round = stop_round = None
    stop: Stop | None = None
    for r, log in enumerate(game.rounds):
        if over:
            raise ImpossibleInput([issue(f"/rounds/{r}", "error.round_after_game_over", round=r)])
        result = scored(replay(replace(log, scores=scores)), scorer)
        done.append(result)
        if result.first_illegal is not None:
            first, first_round = result.first_illegal, r
            break
        if result.undetermined is not None:
            stop, stop_round = result.undetermined, r
            break
        if not result.ended:
            if r + 1 < len(game.rounds):
                raise ImpossibleInput([issue(f"/rounds/{r}/moves", "error.replay_round_not_over", round=r + 1)])
            break
        if result.score is None or result.score.across.undetermined:
            break  # /v1/score cannot score it (or only reading by reading): the next round's totals are not known
        scores = tuple(t.total for t in result.score.teams)
        over = result.score.game_over
    rounds = [{"teams": d.score_request["teams"]} for d in done if d.score is not None and d.score_request]
    body: dict | None = None
    sheet = error = None
    if rounds:
        body = {"variant": game.rules.id, "players": game.players, "rounds": rounds}
        house = game.payload.get("house_rules")
        if house:
            body["house_rules"] = house
        try:
            sheet = scorer(body)
        except AdjudicatorError as e:
            error = e
    elif done and done[-1].score_error is not None:
        error = done[-1].score_error
    return GameReplay(game.rules.id, game.players, tuple(done), len(game.rounds), first, first_round, stop,
                      stop_round, body, sheet, error)
