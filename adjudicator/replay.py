"""Rounds and whole games replayed move by move under one variant; the first illegal move is flagged with its
ruling.

:func:`replay` takes a round's log (:class:`~adjudicator.model.requests.Log`, read by
:func:`adjudicator.input.replay_log.replay_request`) -- the deal (hands in seat order as dealt, the discard
pile, the stock's count, who plays first) and what happened, in order: actions, each ``{player, action,
cards?}`` with the action exactly as ``/v1/adjudicate`` takes it and, for a draw, the cards it brought; and
events (:class:`~adjudicator.model.requests.Event`): red threes laid out and the cards that replaced them, the
question "may I go out?" and the partner's answer. It plays them on a table: hands, pile, each team's melds
and red threes, who has drawn, who melded before this turn, the partner's answer in force, the first time
round. Each action is ruled by the engine (:func:`adjudicator.rules.engine.rule`) in the situation the table
stands in -- the partner's answer as ``turn.partner_answer``, so the replay rules what follows an answer as
``/v1/adjudicate`` does -- then applied.

The replay stops at the first move the engine finds illegal, or that the log cannot hold (a card the player
does not hold, a move out of turn, a draw without its cards or bringing a card the deck cannot hold, an
answer nobody asked for, a move after the round ended): that move is ``first_illegal``, with its ruling or
its reason and where in the log the fault lies. It stops *undetermined* where what the rules leave open
decides whether the round goes on -- a draw from an empty stock the engine cannot rule, the stock's last card
a red three where the text does not say the round ends -- with the open point, never an invented outcome.

A turn's laying moves are one laying: the melds and additions a player writes as several moves after the
draw (and the discard that goes out, if the turn goes out) are ruled together as the one ``meld`` or
``go_out`` of the same cards, so that the two ways of writing a turn get the same verdict and the same score
(a concealed going-out written as melds and a discard earns its bonus).

A round ends where the rules say: a player goes out, a draw from an empty stock ends it, or the stock's last
card is a red three where the text stops the round there. An ended round is scored as ``/v1/score`` scores
its table (:func:`scored`, through the scorer the caller gives: this wing does not import scoring).
:func:`replay_game` replays a game's rounds in turn, each starting from the totals the last one left, and
scores the game as ``/v1/score`` scores its rounds.

Players take turns in seat order from the deal's first player; seats ``i`` and ``i + teams`` are one team
(seats 0 and 2 with four players). Red threes are laid out as the variants' texts say (``red_three.laid_out``,
``red_three.replaced``): drawn from the stock, each is laid out and, where the text replaces it, replaced by
the next card of the draw's ``cards``; taken with the pile, laid out without replacement; dealt, laid out by a
``lay_out`` event with the cards that replaced them. A log with no ``lay_out`` event (the form before events)
has the dealt red threes laid out before the first move, their replacements not in the log.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace
from typing import Any, Callable

from .model.actions import Action
from .model.cards import is_red_three
from .model.enums import ActionType
from .model.errors import AdjudicatorError, ImpossibleInput, Issue, issue
from .model.findings import ILLEGAL, LEGAL, UNDETERMINED, Ruling
from .model.messages import Cards, Message, msg
from .model.requests import Event, GameLog, Log, Move
from .model.situation import Side, Situation

from .rules.engine import rule
from .rules.table_check import deck_issues, table_problems
from .rules.judge import known
from .rules.melds import sure_rank
from .rules.readings import readings_for
from .rules.judge import Judge, MissingFact, NotStated
from .rules.turn import by_players, team_count

LAYING = ("meld", "go_out")
END_REASONS = ("went_out", "stock_ran_out", "last_red_three")


@dataclass(frozen=True)
class Entry:
    """One entry of the log ruled: its index, the seat, and the ruling (for an action) or what happened (for an
    event, ``said``); for an entry the log cannot hold, the ``reason``, and ``pointer``, where in the log the
    fault lies. ``together`` are the moves of one turn ruled as one laying with this one."""

    index: int
    player: int
    ruling: Ruling | None
    reason: Message | None = None
    event: str | None = None
    said: Message | None = None
    pointer: str = ""
    together: tuple[int, ...] = ()

    @property
    def verdict(self) -> str:
        if self.reason is not None:
            return ILLEGAL
        if self.ruling is not None:
            return self.ruling.verdict
        return LEGAL if self.event is not None else ILLEGAL


@dataclass(frozen=True)
class Stop:
    """Where the replay stopped undetermined: the entry, why, and the points of the text a table could settle
    (house rules) to replay further -- each ``(parameter, the values it could take)``."""

    index: int
    player: int
    reason: Message
    ruling: Ruling | None
    open_points: tuple
    pointer: str = ""


@dataclass(frozen=True)
class End:
    """Why the round ended (one of :data:`END_REASONS`) and the seat it ended with."""

    reason: str
    player: int

    def message(self) -> Message:
        return msg(f"replay.end.{self.reason}", seat=self.player + 1)


@dataclass(frozen=True)
class Group:
    """The laying moves of one turn (``indices``), ruled together as one ``meld`` or ``go_out`` (``ruling``;
    None where the engine refuses the table: the moves are then ruled one by one)."""

    indices: tuple[int, ...]
    ruling: Ruling | None
    goes_out: bool


@dataclass
class Table:
    """The round as it lies: hands by seat, the pile, the stock, each team's melds and red threes, and the
    turn's state (who plays, what was drawn, the partner's answer, the turn's laying)."""

    hands: list[list[str]]
    pile: list[str]
    stock_count: int
    melds: list[list[list[str]]]
    red_threes: list[int]
    melded: list[bool]  # by seat: has the player melded in an earlier turn of this round
    seat: int = 0
    drew: str | None = None
    from_pile: tuple[str, ...] = ()
    turns: int = 0  # turns completed
    went_out: int | None = None  # the seat that went out
    concealed: bool = False
    over: bool = False  # the round has ended (end says why)
    end: End | None = None
    started: bool = False  # the first action has been played (before it, any seat lays out its red threes)
    laid: bool = False  # the player to play has laid cards this turn
    melded_now: bool = False  # ... beyond the meld a take of the pile lays with its top card
    asked: int | None = None  # the seat whose question "may I go out?" waits for its answer
    partner_answer: str | None = None  # the answer in force for this turn
    asked_late: bool = False  # that question was asked after the player had melded this turn
    group: Group | None = None
    stop: Stop | None = None


@dataclass(frozen=True)
class Replay:
    """What the replay of a round found: an entry per move ruled, the first illegal one (or None), where it
    stopped undetermined (or None), the table after the last legal move, why the round ended, and its score
    request and sheet when it ended."""

    variant: str
    entries: tuple[Entry, ...]
    first_illegal: Entry | None
    table: Table
    teams: int
    ended: bool
    score_request: dict | None
    score: Any = None
    score_error: AdjudicatorError | None = None  # what /v1/score answers instead, where it cannot score the round
    undetermined: Stop | None = None
    end: End | None = None
    base: str = ""  # where the round stands in the request ("" alone, /rounds/1 in a game)


@dataclass(frozen=True)
class GameReplay:
    """A game replayed round by round: each round's replay (up to the one that stopped), the first illegal
    move (``first_illegal_round``: its round), where it stopped undetermined, and the game's ``/v1/score``
    body of its ended rounds with the sheet (or the problem) ``/v1/score`` answers for it."""

    variant: str
    players: int
    rounds: tuple[Replay, ...]
    rounds_given: int
    first_illegal: Entry | None
    first_illegal_round: int | None
    undetermined: Stop | None
    undetermined_round: int | None
    score_request: dict | None
    score: Any = None
    score_error: AdjudicatorError | None = None

    @property
    def game_over(self) -> bool:
        return bool(self.score is not None and self.score.game_over)


Scorer = Callable[[dict], Any]  # a /v1/score body -> its sheet, or raises the AdjudicatorError /v1/score answers


# ----------------------------------------------------------------------------------------------
# Replaying a round


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


def new_table(log: Log, teams: int) -> Table:
    """The table as dealt. A log that lays out no red three itself (the form before events) has the dealt red
    threes laid out here, before the first move."""
    table = Table([list(h) for h in log.hands], list(log.pile), log.stock_count,
                  [[] for _ in range(teams)], [0] * teams, [False] * log.players, seat=log.first_player)
    if not log.lays_out and known(log.rules, "red_three.laid_out", True) is not False:
        for seat, hand in enumerate(table.hands):
            reds = [c for c in hand if is_red_three(c)]
            for c in reds:
                hand.remove(c)
            table.red_threes[seat % teams] += len(reds)
    return table


def situation_of(log: Log, table: Table, teams: int, seat: int) -> Situation:
    """The situation of the player at ``seat``, as the table lies (``has_melded``: in an earlier turn; the
    partner's answer, where this player asked this turn)."""
    team = seat % teams
    others = [t for t in range(teams) if t != team]
    opponents = Side(log.scores[others[0]], tuple(tuple(m) for m in table.melds[others[0]]),
                     table.red_threes[others[0]]) if others else Side(None, (), 0)
    return Situation(
        players=log.players, first_round=table.turns < log.players, stock_count=table.stock_count,
        pile=tuple(table.pile),
        team=Side(log.scores[team], tuple(tuple(m) for m in table.melds[team]), table.red_threes[team]),
        opponents=opponents,
        hand=tuple(table.hands[seat]), has_melded=table.melded[seat], drew=table.drew,
        cards_from_pile=_still_held(table.from_pile[:-1], table.hands[seat]) + table.from_pile[-1:],
        partner_answer=table.partner_answer if seat == table.seat else None,
        asked_after_melding=table.asked_late if seat == table.seat and table.partner_answer is not None else None)


def _still_held(from_pile, hand) -> tuple[str, ...]:
    """The cards taken from the pile this turn below its top that are still in the hand (those already laid lie
    on the table, where the take's own ruling counted them); the top card follows them in ``cards_from_pile``,
    laid by the take, so the engine never reads a lower card as the top."""
    left = Counter(hand)
    kept = []
    for card in from_pile:
        if left[card]:
            left[card] -= 1
            kept.append(card)
    return tuple(kept)


def step(log: Log, table: Table, teams: int, index: int, move: Move) -> Entry:
    """Rule one action and, where it is allowed, apply it to the table."""
    act, seat, at = move.action, move.player, move.pointer
    if seat != table.seat:
        return Entry(index, seat, None, msg("replay.out_of_turn", seat=seat + 1, expected=table.seat + 1),
                     pointer=at)
    if table.asked is not None:
        return Entry(index, seat, None, msg("replay.unanswered"), pointer=at)
    table.started = True
    hand = table.hands[seat]
    short = Counter(act.hand_cards()) - Counter(hand)
    if act.type == "take_pile" and not short:  # what a take lays comes from the hand or the pile below the top
        short = Counter(act.laid_cards()) - (Counter(hand) - Counter(act.with_cards) + Counter(table.pile[:-1]))
    if short:
        return Entry(index, seat, None, msg("replay.not_held", cards=Cards(tuple(sorted(short.elements())))),
                     pointer=f"{at}/action")
    if act.type == "draw":
        problem = _drawn_cards(log, table, index, move)
        if problem is not None:
            return problem
    elif move.cards:
        return Entry(index, seat, None, msg("replay.cards_not_drawn"), pointer=f"{at}/cards")
    group = table.group if table.group is not None and index in table.group.indices else None
    if group is None and table.drew is not None and (act.type in LAYING or act.type == "discard"):
        group = table.group = _laying_group(log, table, teams, index)
    together: tuple[int, ...] = ()
    if group is not None and group.ruling is not None and group.ruling.verdict != ILLEGAL:
        ruling, together = group.ruling, _together(group)
    else:
        ruling, found = _rule(log, table, teams, seat, act)
        if ruling is None:
            assert found is not None
            return _refused(index, seat, found, at)
        if group is not None and group.ruling is not None and ruling.verdict != ILLEGAL and \
                index == group.indices[-1]:  # each move passes alone, but not the turn they make: flag its end
            ruling, together = group.ruling, _together(group)
    if ruling.verdict == ILLEGAL:
        return Entry(index, seat, ruling, pointer=at, together=together)
    if act.type == "draw" and table.stock_count == 0 and ruling.verdict == UNDETERMINED:
        table.stop = Stop(index, seat, msg("replay.stopped.empty_stock"), ruling, ruling.open_points, at)
        return Entry(index, seat, ruling, pointer=at)
    problem = _apply(log, table, teams, seat, move, ruling, group)
    if problem is not None:  # the move itself is allowed; the log's cards are not
        return Entry(index, seat, ruling, problem, pointer=f"{at}/cards")
    if act.type == "draw":
        _last_card(log, table, index, seat, move.cards or (), at)
    return Entry(index, seat, ruling, pointer=at, together=together)


def _together(group: Group) -> tuple[int, ...]:
    """The moves ruled as one, where there are several (a single move is simply ruled as the one laying)."""
    return group.indices if len(group.indices) > 1 else ()


def _rule(log: Log, table: Table, teams: int, seat: int, act: Action,
          answer: str | None = None, asked_late: bool = False) -> tuple[Ruling | None, Issue | None]:
    """The engine's ruling on ``act`` as the table lies, or -- where the engine refuses the table as impossible
    -- the first issue it finds (its pointer into the request, to be put into the log by :func:`_refused`).
    ``answer``: the partner's answer the ruling follows (asked after melding: ``asked_late``)."""
    situation = situation_of(log, table, teams, seat)
    if answer is not None:
        situation = replace(situation, partner_answer=answer, asked_after_melding=asked_late)
    try:
        return rule(situation, act, log.rules), None
    except AdjudicatorError as e:
        return None, e.issues[0] if e.issues else Issue("", msg("replay.impossible"))


def _refused(index: int, seat: int, found: Issue, at: str) -> Entry:
    """A move the engine refuses as impossible, flagged with the engine's words, pointing into the log: at the
    place in the move the engine names (``/moves/17/action/melds/0/1``), else at the move."""
    where = at
    if found.pointer.startswith("/action"):
        where = at + found.pointer
    elif found.pointer.startswith(at + "/"):
        where = found.pointer
    return Entry(index, seat, None, found.message, pointer=where)


def _drawn_cards(log: Log, table: Table, index: int, move: Move) -> Entry | None:
    """Why a draw's cards cannot be (none given, more than the stock, a card the deck cannot hold), or None."""
    seat, at = move.player, move.pointer
    if move.cards is None:
        if table.stock_count == 0:
            return None  # nothing to bring
        return Entry(index, seat, None, msg("replay.draw_without_cards"), pointer=at)
    if len(move.cards) > table.stock_count:
        return Entry(index, seat, None, msg("replay.stock_short", count=len(move.cards), stock=table.stock_count),
                     pointer=f"{at}/cards")
    beyond = _beyond_deck(log, table, move.cards, f"{at}/cards")
    if beyond is not None:
        return Entry(index, seat, None, beyond.message, pointer=beyond.pointer)
    return None


def _beyond_deck(log: Log, table: Table, drawn, at: str):
    """The issue of the first card a draw (or a red three's replacements) brings that cannot exist -- with every
    card the round has shown (hands, pile, melds, red threes laid out) the deck would hold one copy too many --
    or None. The table check's own count (:func:`~adjudicator.rules.table_check.deck_issues`): the copy it
    finds one too many is a drawn one, pointed at in the log (``/moves/17/cards/0``)."""
    shown = [c for hand in table.hands for c in hand] + table.pile + \
        [c for melds in table.melds for meld in melds for c in meld]
    issues = deck_issues(log.rules, shown + list(drawn),
                         lambda: [(c, "") for c in shown] + [(c, f"{at}/{j}") for j, c in enumerate(drawn)],
                         [(n, "") for n in table.red_threes])
    if not issues:
        return None
    found = issues[0]
    return found if found.pointer else issue(at, found.message.key, **found.message.args)


def _apply(log: Log, table: Table, teams: int, seat: int, move: Move, ruling: Ruling,
           group: Group | None) -> Message | None:
    act, hand, team = move.action, table.hands[seat], seat % teams
    if act.type == "draw":
        cards = list(move.cards or ())
        if cards:
            problem = _replaced(log, table, seat, cards, _draw_count(log))
            if problem is not None:
                return problem
        table.drew, table.from_pile = "stock", ()
        if any(c.key == "consequence.round_ends" for c in ruling.consequences):
            _ends(table, "stock_ran_out", seat)
        return None
    if act.type == "take_pile":
        top, rest = table.pile[-1], table.pile[:-1]
        for c in act.with_cards:
            hand.remove(c)
        group_ = [top, *act.with_cards]
        _lay(table, team, [group_], [])
        reds = [c for c in rest if is_red_three(c)]
        taken = [c for c in rest if not is_red_three(c)]
        table.red_threes[team] += len(reds)
        hand += taken
        _lay(table, team, act.melds, act.adds, hand)
        table.pile = []
        table.drew, table.from_pile = "pile", (*taken, top)  # the top card last, as cards_from_pile has it
        table.laid = True
        table.melded_now = table.melded_now or bool(act.melds or act.adds)
        return None
    if act.type in LAYING:
        _lay(table, team, act.melds, act.adds, hand)
        if act.melds or act.adds:
            table.laid = table.melded_now = True
        if act.type == "go_out" and act.discard:
            hand.remove(act.discard)
            table.pile.append(act.discard)
        if act.type == "go_out" or not hand:
            _went_out(table, seat, group.ruling if group is not None and group.ruling is not None else ruling)
        return None
    # discard
    hand.remove(act.discard)
    table.pile.append(act.discard)
    if not hand:
        _went_out(table, seat, group.ruling if group is not None and group.ruling is not None else ruling)
    _end_turn(log, table, seat)
    return None


def _went_out(table: Table, seat: int, ruling: Ruling) -> None:
    table.went_out = seat
    table.concealed = any(c.key == "consequence.concealed" for c in ruling.consequences)
    _ends(table, "went_out", seat)


def _ends(table: Table, reason: str, seat: int) -> None:
    table.over, table.end = True, End(reason, seat)


def _end_turn(log: Log, table: Table, seat: int) -> None:
    table.melded[seat] = table.melded[seat] or table.laid
    table.seat = (seat + 1) % log.players
    table.drew, table.from_pile = None, ()
    table.turns += 1
    table.laid, table.partner_answer, table.group = False, None, None
    table.melded_now = table.asked_late = False


def _replaced(log: Log, table: Table, seat: int, cards: list[str], want: int | None,
              laid: tuple[str, ...] = ()) -> Message | None:
    """Put cards off the stock in the player's hand, each red three among them laid out (where the text lays
    them out) and replaced by the next. A draw (``want``: the cards a draw takes; None where the text does not
    say) brings ``want`` cards besides the replacements; a lay-out replaces the red threes ``laid`` from the
    hand. Where the text leaves replacing open, either count fits; where the stock runs out on the way, fewer
    do. The wrong count is the message (nothing is applied)."""
    hand, team = table.hands[seat], seat % len(table.melds)
    laid_out = known(log.rules, "red_three.laid_out", True) is not False
    got = [c for c in cards if not (laid_out and is_red_three(c))]
    reds = len(cards) - len(got)
    drawing = not laid
    wanted = (want or 0) if drawing else len(laid)  # the cards that stay in hand, each red three replaced
    unreplaced = (want or 0) if drawing else 0  # the cards taken, where red threes are not replaced
    replaced = known(log.rules, "red_three.replaced")  # None: the text leaves it open, either count fits
    fits = {True: len(got) == wanted, False: len(cards) == unreplaced,
            None: len(got) == wanted or len(cards) == unreplaced}[replaced]
    short = len(cards) == table.stock_count and len(got) < wanted  # the stock ran out on the way
    if not fits and not short and (want is not None or not drawing):
        if drawing:
            return msg("replay.draw_count", count=len(cards), wanted=wanted, reds=reds)
        return msg("replay.replacement_count", count=len(cards), reds=len(laid) + reds)
    hand += got
    table.red_threes[team] += reds
    table.stock_count -= len(cards)
    return None


def _last_card(log: Log, table: Table, index: int, seat: int, cards, at: str) -> None:
    """The stock's last card is a red three: the round stops at once where the text says so, goes on where a
    table says it does not, and where the text is silent the replay stops undetermined on that point."""
    if table.stock_count or not cards or not is_red_three(cards[-1]) or table.end is not None:
        return
    if known(log.rules, "red_three.laid_out", True) is False:
        return
    name = "stock.last_red_three_ends"
    ends = known(log.rules, name)
    if ends:
        _ends(table, "last_red_three", seat)
    elif ends is None:
        values = readings_for(log.rules, name) or (True, False)
        table.stop = Stop(index, seat, msg("replay.stopped.last_red_three"), None, ((name, values),), at)


def _lay(table: Table, team: int, melds, adds, hand: list[str] | None = None) -> None:
    """New melds and additions onto the team's melds (of the addition's rank, as the engine finds it)."""
    for meld in melds:
        if hand is not None:
            for c in meld:
                hand.remove(c)
        rank = sure_rank(meld)
        target = next((m for m in table.melds[team] if rank and sure_rank(m) == rank), None)
        if target is not None and hand is None:  # the pile's top (and its cards) onto the meld of its rank
            target += list(meld)
        else:
            table.melds[team].append(list(meld))
    for add in adds:
        if hand is not None:
            for c in add.cards:
                hand.remove(c)
        rank = add.to or sure_rank(add.cards)
        target = next((m for m in reversed(table.melds[team]) if sure_rank(m) == rank), None)
        if target is None:
            table.melds[team].append(list(add.cards))
        else:
            target += list(add.cards)


def _draw_count(log: Log) -> int | None:
    try:
        return by_players(Judge(log.rules), Situation(players=log.players), "draw.cards")
    except (MissingFact, NotStated):
        return None


# --- one turn's laying, ruled as one ----------------------------------------------------------


def _laying_group(log: Log, table: Table, teams: int, index: int) -> Group | None:
    """The turn's laying moves from ``index`` on (melds and additions by the player to play, the partner's
    question and answer between them, and the discard that empties the hand), ruled together as the one
    ``go_out`` (the turn goes out) or ``meld`` (it does not) of the same cards -- or None where there is
    nothing to put together (a single move rules as itself)."""
    seat = table.seat
    if not _may_group(log, table, index, seat):
        return None
    left = Counter(table.hands[seat])
    indices: list[int] = []
    melds: list[tuple[str, ...]] = []
    adds: list = []
    discard = None
    answer = table.partner_answer
    late = table.asked_late
    goes_out = False
    for j in range(index, len(log.moves)):
        item = log.moves[j]
        if isinstance(item, Event):
            if item.kind == "lay_out":
                break
            if item.kind == "ask":
                late = table.melded_now or bool(indices)  # asked after melding this turn, or before
            if item.kind == "answer":
                answer = item.answer
            continue
        act = item.action
        if item.player != seat or act.type not in (*LAYING, "discard"):
            break
        need = Counter(act.hand_cards())
        if need - left:
            break  # a card not held: the move is flagged alone
        if act.type != "meld" and +(left - need):
            break  # a discard or go-out that leaves cards ends the turn without going out: it is ruled alone
        left -= need
        indices.append(j)
        melds += act.melds
        adds += act.adds
        discard = act.discard if act.type != "meld" else discard
        if not +left:
            goes_out = True
            break
    if not indices or (len(indices) == 1 and (log.moves[indices[0]].action.type == "go_out" or not goes_out)):
        return None
    kind = ActionType.GO_OUT if goes_out else ActionType.MELD
    if kind == ActionType.MELD:
        discard = None
    laying = _one_laying(kind, melds, adds, discard)
    ruling, _ = _rule(log, table, teams, seat, laying, answer, late)
    return Group(tuple(indices), ruling, goes_out)


def _may_group(log: Log, table: Table, index: int, seat: int) -> bool:
    """Whether the moves from ``index`` can make a laying of more than one move or a going-out, counted by
    sizes alone (the usual turn -- one meld, or none, and a discard that keeps cards -- is told at once)."""
    left = len(table.hands[seat])
    moves = log.moves
    first = True
    for j in range(index, len(moves)):
        item = moves[j]
        if isinstance(item, Event):
            if item.kind == "lay_out":
                return False
            continue
        if item.player != seat:
            return False
        kind = item.action.type
        if kind == "discard":
            return left == 1
        if kind not in LAYING:
            return False
        left -= len(item.action.hand_cards())
        if left <= 0 or not first:
            return True
        first = False
    return False


def _one_laying(kind: ActionType, melds: list, adds: list, discard: str | None) -> Action:
    """One action laying ``melds`` and ``adds``: an addition to a meld laid in the same turn joins that meld
    (as one move would have laid it)."""
    laid = [list(m) for m in melds]
    rest = []
    for add in adds:
        rank = add.to or sure_rank(add.cards)
        target = next((m for m in laid if rank and sure_rank(m) == rank), None)
        if target is not None:
            target += list(add.cards)
        else:
            rest.append(add)
    return Action(kind, melds=tuple(tuple(m) for m in laid), adds=tuple(rest), discard=discard)


# --- events -----------------------------------------------------------------------------------


def event_step(log: Log, table: Table, teams: int, index: int, ev: Event) -> Entry:
    """One event: red threes laid out (and their replacements drawn), a question, an answer."""
    seat, at = ev.player, ev.pointer

    def refused(reason: Message, where: str = at) -> Entry:
        return Entry(index, seat, None, reason, event=ev.kind, pointer=where)

    if ev.kind == "answer":
        asker = table.asked  # set by the entry just before: every other entry is refused while it waits
        if asker is None:
            return refused(msg("replay.answer_without_question"))
        if seat == asker or seat % teams != asker % teams:
            return refused(msg("replay.not_partner", seat=seat + 1, asker=asker + 1))
        table.asked, table.partner_answer = None, ev.answer
        return Entry(index, seat, None, event=ev.kind, pointer=at,
                     said=msg(f"replay.said.answer_{ev.answer}", seat=seat + 1))
    if seat != table.seat and (table.started or ev.kind != "lay_out"):
        return refused(msg("replay.out_of_turn", seat=seat + 1, expected=table.seat + 1))
    if table.asked is not None:
        return refused(msg("replay.unanswered"))
    if ev.kind == "ask":
        if table.partner_answer is not None:
            return refused(msg("replay.asked_again"))
        not_now = _may_not_ask(log, table, teams, seat)
        if not_now is not None:
            return refused(not_now)
        table.asked, table.asked_late = seat, table.melded_now
        return Entry(index, seat, None, event=ev.kind, pointer=at, said=msg("replay.said.ask", seat=seat + 1))
    # lay_out
    if known(log.rules, "red_three.laid_out", True) is False:
        return refused(msg("replay.red_threes_kept", variant=log.rules.ref))
    hand = table.hands[seat]
    short = Counter(ev.red_threes) - Counter(hand)
    if short:
        return refused(msg("replay.not_held", cards=Cards(tuple(sorted(short.elements())))), f"{at}/red_threes")
    if len(ev.cards) > table.stock_count:
        return refused(msg("replay.stock_short", count=len(ev.cards), stock=table.stock_count), f"{at}/cards")
    beyond = _beyond_deck(log, table, ev.cards, f"{at}/cards")
    if beyond is not None:
        return refused(beyond.message, beyond.pointer)
    for c in ev.red_threes:
        hand.remove(c)
    problem = _replaced(log, table, seat, list(ev.cards), None, ev.red_threes)
    if problem is not None:
        hand += ev.red_threes
        return refused(problem, f"{at}/cards")
    table.red_threes[seat % teams] += len(ev.red_threes)
    _last_card(log, table, index, seat, ev.cards, at)
    got = tuple(c for c in ev.cards if not is_red_three(c))
    reds = ev.red_threes + tuple(c for c in ev.cards if is_red_three(c))
    return Entry(index, seat, None, event=ev.kind, pointer=at,
                 said=msg("replay.said.lay_out", seat=seat + 1, red_threes=Cards(reds), count=len(reds),
                          cards=Cards(got)))


def _may_not_ask(log: Log, table: Table, teams: int, seat: int) -> Message | None:
    """Why the player may not ask "may I go out?" now -- nobody to ask, or not the moment the text gives the
    question (the engine's own checks of a partner's answer, where they refuse the table; else the replay's
    teams) -- or None."""
    asked = replace(situation_of(log, table, teams, seat), partner_answer="yes",
                    asked_after_melding=table.melded_now)
    for found in table_problems(asked, log.rules):
        if found.pointer.endswith(("/turn/partner_answer", "/turn/asked_after_melding")):
            return found.message
    if not any(s != seat and s % teams == seat % teams for s in range(log.players)):
        return msg("replay.no_partner", players=log.players)
    return None


# ----------------------------------------------------------------------------------------------
# Scoring and whole games


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
