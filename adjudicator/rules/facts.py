"""The facts a ruling may be conditioned on: one registry of kinds, each with the values a table could give it.

A ruling that lacks a fact does not guess it. Where the fact is one of the kinds below, the ruling is made
again under each of its values (:mod:`adjudicator.rules.conditions`), as it is under each reading of an
open point of the text, and answers "allowed while the stock has cards" instead of a shrug. Each kind says

* which missing fact it answers -- the pointer a check raises :class:`~adjudicator.model.situation.MissingFact`
  with, and when the pointer is that kind's (``/situation/team/melds`` asks "has your team opened?" only of a
  team not known to have opened; of one that has, it asks for the melds' cards, which no choice can give);
* the values that can matter, each with how it is supplied to a :class:`~adjudicator.model.situation.Situation`
  (through its constructor: :func:`dataclasses.replace`), the JSON a client sends to give it (a JSON Merge
  Patch onto the request's ``situation``, saying exactly what a person tapped and nothing more), and its
  words: the choice as an answer ("No, it is empty") and as a condition ("while the stock has cards");
* the question, in words.

Adding a kind means adding a function to :data:`KINDS`, not editing the engine. A fact no kind answers (the
hand, the cards of a meld, the team's score) stays in ``missing``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Callable

from ..model.actions import Action
from ..model.cards import RANKS
from ..model.enums import ActionType
from ..model.messages import Message, Rank, msg
from ..model.situation import DRAWN, MELD_RANKS, NOT_GIVEN, PileUnnamed, Situation
from ..variants import Variant

MAX_FACTS = 4  # facts asked along one line of a conditional ruling (each value ruled again): a dispute's routine
# facts (the draw, the round, the cards left) and the point argued (has the team melded? a meld of nines?)
MAX_FACT_WORK = 768  # melds checked (ruling_work), at most, by the rulings a conditional ruling makes for lines
# of MAX_FACTS (adjudicator.rules.conditions: bounded work): 384 rulings of one new meld, 109 of six; shorter past that


def ruling_work(situation: Situation, action: Action) -> int:
    """The work of one ruling, in melds checked: those the action lays and adds to, one for the rest, and the
    table's (its check weighs them), two to a meld. A count, never a time: the bound of a conditional ruling's
    search (:func:`adjudicator.rules.conditions.fact_rulings`) and the work a ruling tells its checkpoint
    (:func:`adjudicator.turns.checkpoint`) are the same on any machine."""
    listed = len(situation.team.melds or ()) + len(situation.opponents.melds or ())
    return 1 + len(action.melds) + len(action.adds) + listed // 2


@dataclass(frozen=True, slots=True)
class Value:
    """One value of a fact: what it is (``code``, as JSON), how it is sent (``patch``: ``(path below the
    situation, value)`` pairs of a JSON Merge Patch), how it is said as an answer (``label``) and as a
    condition (``condition``), and how the engine supplies it to a situation (``supply``)."""

    code: Any
    patch: tuple[tuple[tuple[str, ...], Any], ...]
    label: Message
    condition: Message
    supply: Callable[[Situation], Situation] = field(compare=False, repr=False)


def _supplying(**changes: Any) -> Callable[[Situation], Situation]:
    """A value's supply made in a loop (each value its own ``changes``; a lambda's default argument is
    beyond mypyc's inference)."""
    return lambda s: replace(s, **changes)


def _supplying_team(**changes: Any) -> Callable[[Situation], Situation]:
    """:func:`_supplying` for the team's facts."""
    return lambda s: replace(s, team=replace(s.team, **changes))


@dataclass(frozen=True, slots=True)
class Asked:
    """A missing fact as a kind asks it: its pointer, its kind, the question and the values that can matter
    (most common first), and how "whichever it is" is said of it."""

    pointer: str
    kind: str
    question: Message
    values: tuple[Value, ...]
    either: Message


def asked(pointer: str, situation: Situation, action: Action, rules: Variant) -> Asked | None:
    """The kind that answers a missing fact at ``pointer`` in ``situation``, for ``action`` (None: no choice can
    give it)."""
    base = situation.base
    if not pointer.startswith(base + "/"):
        return None
    path = pointer[len(base):]
    for kind in KINDS:
        found = kind(path, situation, action, rules)
        if found is not None:
            return replace(found, pointer=pointer) if found.pointer != pointer else found
    return None


# ----------------------------------------------------------------------------------------------
# The kinds


def _yes_no(path: str, kind: str, question: Message, either: Message, yes: Value, no: Value) -> Asked:
    return Asked(path, kind, question, (yes, no), either)


def _stock(path: str, situation: Situation, action: Action, rules: Variant) -> Asked | None:
    """Whether the stock has cards: "allowed while the stock has cards". Sent as ``stock_empty``."""
    if path != "/stock_count" or situation.stock_empty is not None:
        return None
    return _yes_no(path, "stock", msg("fact.stock.question"), msg("fact.stock.either"),
                   Value("has_cards", ((("stock_empty",), False),), msg("fact.stock.has_cards"),
                         msg("fact.stock.if_has_cards"), lambda s: replace(s, stock_empty=False)),
                   Value("empty", ((("stock_empty",), True),), msg("fact.stock.empty"),
                         msg("fact.stock.if_empty"), lambda s: replace(s, stock_empty=True)))


def _drew(path: str, situation: Situation, action: Action, rules: Variant) -> Asked | None:
    """Whether the player has drawn this turn (sent as ``turn.has_drawn``), and -- for one who has, where that
    matters -- where (``turn.drew``)."""
    if path != "/turn/drew":
        return None
    if situation.drew == NOT_GIVEN:
        return _yes_no(path, "drew", msg("fact.drew.question"), msg("fact.drew.either"),
                       Value("not_yet", ((("turn", "has_drawn"), False),), msg("fact.drew.not_yet"),
                             msg("fact.drew.if_not_yet"), lambda s: replace(s, drew=None)),
                       Value("drawn", ((("turn", "has_drawn"), True),), msg("fact.drew.drawn"),
                             msg("fact.drew.if_drawn"), lambda s: replace(s, drew=DRAWN)))
    if situation.drew == DRAWN:
        return _yes_no(path, "drew_where", msg("fact.drew_where.question"), msg("fact.drew_where.either"),
                       Value("stock", ((("turn", "drew"), "stock"),), msg("fact.drew_where.stock"),
                             msg("fact.drew_where.if_stock"), lambda s: replace(s, drew="stock")),
                       Value("pile", ((("turn", "drew"), "pile"),), msg("fact.drew_where.pile"),
                             msg("fact.drew_where.if_pile"), lambda s: replace(s, drew="pile")))
    return None


def _opened(path: str, situation: Situation, action: Action, rules: Variant) -> Asked | None:
    """Whether the team has opened (melded this round), for a team not known to have or not: the check asked
    for its melds (``/team/melds``) only to learn that. Sent as ``team.opened``."""
    team = situation.team
    if path != "/team/melds" or team.melds is not None or team.opened is not None or situation.team_has_opened():
        return None
    return _yes_no(path, "opened", msg("fact.opened.question"), msg("fact.opened.either"),
                   Value(True, ((("team", "opened"), True),), msg("fact.yes"), msg("fact.opened.if_opened"),
                         lambda s: replace(s, team=replace(s.team, opened=True))),
                   Value(False, ((("team", "opened"), False),), msg("fact.no"), msg("fact.opened.if_not"),
                         lambda s: replace(s, team=replace(s.team, opened=False))))


def _canastas(path: str, situation: Situation, action: Action, rules: Variant) -> Asked | None:
    """How many canastas the team has, where its melds are not listed: none, each count below what going out
    needs, or at least that many (``team.canastas`` / ``team.canastas_at_least``: a lower bound says exactly
    what "yes, we have one" says)."""
    team = situation.team
    if path != "/team/canastas" or team.canastas is not None:
        return None
    need = max(1, _canastas_needed(rules, situation.players))
    if team.canastas_at_least is not None and team.canastas_at_least >= need:
        return None
    one = need == 1  # "does your team have a canasta?": no / yes
    values = [Value(n, ((("team", "canastas"), n),),
                    msg("fact.no") if one else msg("fact.canastas.exactly", count=n) if n else msg("fact.canastas.none"),
                    msg("fact.canastas.if_exactly", count=n),
                    _supplying_team(canastas=n))
              for n in range(need)]
    values.insert(1, Value(
        f"at_least_{need}", ((("team", "canastas_at_least"), need),),
        msg("fact.yes") if one else msg("fact.canastas.at_least", count=need),
        msg("fact.canastas.if_at_least", count=need),
        lambda s: replace(s, team=replace(s.team, canastas_at_least=need))))
    question = msg("fact.canastas.question_one") if need == 1 else msg("fact.canastas.question", count=need)
    return Asked(path, "canastas", question, tuple(values), msg("fact.canastas.either"))


def _canastas_needed(rules: Variant, players: int | None) -> int:
    """The canastas going out needs at this table, as far as the variant file gives a figure (the most any
    player count needs, where the count is not known)."""
    figures = rules.params["go_out.canastas_required"].value
    if not isinstance(figures, dict) or not figures:
        return figures if isinstance(figures, int) else 1
    if players is not None and players in figures:
        return figures[players]
    return max(figures.values())


def _rank(path: str, situation: Situation, action: Action, rules: Variant) -> Asked | None:
    """Whether the team has a meld of a rank (``team.ranks``)."""
    head, _, code = path.rpartition("/")
    if head != "/team/ranks" or code not in MELD_RANKS or situation.team.has_meld_of(code) is not None:
        return None  # a rank ``team.ranks`` cannot name (a meld of twos where twos are natural) stays in missing
    rank = Rank(code)
    return _yes_no(path, "rank", msg("fact.rank.question", rank=rank), msg("fact.rank.either", rank=rank),
                   Value(True, ((("team", "ranks", code), True),), msg("fact.yes"),
                         msg("fact.rank.if_has", rank=rank),
                         lambda s: replace(s, team=replace(s.team, ranks=(*s.team.ranks, (code, True))))),
                   Value(False, ((("team", "ranks", code), False),), msg("fact.no"),
                         msg("fact.rank.if_not", rank=rank),
                         lambda s: replace(s, team=replace(s.team, ranks=(*s.team.ranks, (code, False))))))


_PILE_FACTS = ("wild", "black_three", "red_three_first")


def _pile_unnamed(path: str, situation: Situation, action: Action, rules: Variant) -> Asked | None:
    """What lies among the pile's cards nobody named, where it could freeze the pile (``pile_unnamed``)."""
    head, _, name = path.rpartition("/")
    unnamed = situation.pile_unnamed
    if head != "/pile_unnamed" or name not in _PILE_FACTS or unnamed is None or getattr(unnamed, name) is not None:
        return None

    def said(value: bool) -> Callable[[Situation], Situation]:
        return lambda s: replace(s, pile_unnamed=replace(s.pile_unnamed or PileUnnamed(), **{name: value}))

    return _yes_no(path, f"pile.{name}", msg(f"fact.pile.{name}.question"), msg(f"fact.pile.{name}.either"),
                   Value(True, ((("pile_unnamed", name), True),), msg("fact.yes"), msg(f"fact.pile.{name}.if_yes"),
                         said(True)),
                   Value(False, ((("pile_unnamed", name), False),), msg("fact.no"), msg(f"fact.pile.{name}.if_no"),
                         said(False)))


def _players(path: str, situation: Situation, action: Action, rules: Variant) -> Asked | None:
    """How many play, among the counts the variant gives rules for (``players``)."""
    counts = tuple(rules.value("players.supported") or ())
    if path != "/players" or len(counts) < 2:
        return None
    values = tuple(Value(n, ((("players",), n),), msg("fact.players.count", count=n),
                         msg("fact.players.if_count", count=n), _supplying(players=n))
                   for n in sorted(counts, key=lambda n: (n != 4, n)))  # four, the usual table, first
    return Asked(path, "players", msg("fact.players.question"), values, msg("fact.players.either"))


def _first_round(path: str, situation: Situation, action: Action, rules: Variant) -> Asked | None:
    """Whether it is still the first round (``first_round``)."""
    if path != "/first_round":
        return None
    return _yes_no(path, "first_round", msg("fact.first_round.question"), msg("fact.first_round.either"),
                   Value(False, ((("first_round",), False),), msg("fact.no"), msg("fact.first_round.if_not"),
                         lambda s: replace(s, first_round=False)),
                   Value(True, ((("first_round",), True),), msg("fact.yes"), msg("fact.first_round.if_yes"),
                         lambda s: replace(s, first_round=True)))


def _hand_size(path: str, situation: Situation, action: Action, rules: Variant) -> Asked | None:
    """How many cards the play leaves in the hand, where its cards are not listed and only that matters (going
    out, the last card, the one-card rule): none, one, or two or more -- sent as ``player.hand_count`` or, for
    "two or more", the lower bound ``player.hand_count_at_least``."""
    if path != "/player/hand_count" or situation.hand is not None or situation.hand_count is not None:
        return None
    used = len(action.with_cards) + len(action.laid_cards()) + (1 if action.discard else 0)
    gained = 0
    if action.type == ActionType.TAKE_PILE and situation.pile:  # the cards under the top card join the hand
        gained = len(situation.pile) - 1 + (1 if situation.pile_unnamed is not None else 0)
    values: list[Value] = []
    for left in (0, 1):
        size = used - gained + left
        if size >= max(used, 1) and (situation.hand_count_at_least or 0) <= size:
            values.append(Value(size, ((("player", "hand_count"), size),), msg("fact.hand_size.left", count=left),
                                msg("fact.hand_size.if_left", count=left),
                                _supplying(hand_count=size, hand_count_at_least=None)))
    least = max(used - gained + 2, used, 1, situation.hand_count_at_least or 0)
    values.append(Value(f"at_least_{least}", ((("player", "hand_count_at_least"), least),),
                        msg("fact.hand_size.more"), msg("fact.hand_size.if_more"),
                        lambda s: replace(s, hand_count_at_least=least)))
    return Asked(path, "hand_size", msg("fact.hand_size.question"), tuple(values), msg("fact.hand_size.either"))


_RANK_PLACE = {rank: place for place, rank in enumerate(RANKS)}


def order_of(pointer: str) -> tuple[str, int] | None:
    """Where a missing fact's question stands among the questions of its kind, for a kind asked of many values (a
    meld of each rank): ``(kind, place)`` -- "a meld of nines?" before "a meld of fives?", however the melds were
    written; None for a kind asked once. Read from the pointer alone, before the fact is asked."""
    head, _, code = pointer.rpartition("/")
    if head.endswith("/team/ranks"):
        return "rank", _RANK_PLACE.get(code, len(RANKS))
    return None


KINDS: tuple[Callable[[str, Situation, Action, Variant], Asked | None], ...] = (
    _stock, _drew, _opened, _canastas, _rank, _pile_unnamed, _players, _first_round, _hand_size)
"""Every kind of fact a ruling may be conditioned on; each answers the missing facts it knows, or None."""

