"""The round as it lies while it is replayed: the table (hands, pile, stock, melds, red threes, the turn's
state), the situation a seat sees on it, the engine's ruling there, and what the moves do to it (cards laid,
red threes laid out and replaced, the round's end)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace

from ..model.actions import Action
from ..model.cards import is_red_three
from ..model.errors import AdjudicatorError, Issue, issue
from ..model.findings import Ruling
from ..model.messages import Message, msg
from ..model.requests import Log
from ..model.situation import Side, Situation
from ..rules.engine import rule
from ..rules.judge import Judge, MissingFact, NotStated, known
from ..rules.melds import sure_rank
from ..rules.readings import readings_for
from ..rules.table_check import deck_issues
from ..rules.turn import by_players

END_REASONS = ("went_out", "stock_ran_out", "last_red_three")


@dataclass(frozen=True)
class End:
    """Why the round ended (one of :data:`END_REASONS`) and the seat it ended with."""

    reason: str
    player: int

    def message(self) -> Message:
        return msg(f"replay.end.{self.reason}", seat=self.player + 1)


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


def rule_at(log: Log, table: Table, teams: int, seat: int, act: Action,
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


def beyond_deck(log: Log, table: Table, drawn, at: str):
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


def lay(table: Table, team: int, melds, adds, hand: list[str] | None = None) -> None:
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


def replaced(log: Log, table: Table, seat: int, cards: list[str], want: int | None,
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


def last_card(log: Log, table: Table, index: int, seat: int, cards, at: str) -> None:
    """The stock's last card is a red three: the round stops at once where the text says so, goes on where a
    table says it does not, and where the text is silent the replay stops undetermined on that point."""
    if table.stock_count or not cards or not is_red_three(cards[-1]) or table.end is not None:
        return
    if known(log.rules, "red_three.laid_out", True) is False:
        return
    name = "stock.last_red_three_ends"
    ends = known(log.rules, name)
    if ends:
        end_round(table, "last_red_three", seat)
    elif ends is None:
        values = readings_for(log.rules, name) or (True, False)
        table.stop = Stop(index, seat, msg("replay.stopped.last_red_three"), None, ((name, values),), at)


def went_out(table: Table, seat: int, ruling: Ruling) -> None:
    table.went_out = seat
    table.concealed = any(c.key == "consequence.concealed" for c in ruling.consequences)
    end_round(table, "went_out", seat)


def end_round(table: Table, reason: str, seat: int) -> None:
    table.over, table.end = True, End(reason, seat)


def end_turn(log: Log, table: Table, seat: int) -> None:
    table.melded[seat] = table.melded[seat] or table.laid
    table.seat = (seat + 1) % log.players
    table.drew, table.from_pile = None, ()
    table.turns += 1
    table.laid, table.partner_answer, table.group = False, None, None
    table.melded_now = table.asked_late = False


def draw_count(log: Log) -> int | None:
    try:
        return by_players(Judge(log.rules), Situation(players=log.players), "draw.cards")
    except (MissingFact, NotStated):
        return None
