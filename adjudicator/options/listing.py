"""What may I do? Every move open to the player in a situation, each with the engine's ruling on it.

:func:`legal_moves` lists the options by group -- draw, take the pile, melds
and additions (or the openings of a team yet to open), going out, discards --
for the phase of the turn ``situation.drew`` says (not drawn yet: draw or take
the pile; drawn: meld, go out, discard; not given: both, each group saying which
``drew`` it assumes). The generators (``options_*`` modules) propose candidate
actions from the hand counted by rank, never from subsets of cards; every
option shown is one the engine itself rules on (:func:`adjudicator.rules.engine.rule`)
and finds ``legal`` -- or ``undetermined``, when it hangs on a fact the
situation lacks or on a point the text leaves open (the ruling then carries its
``readings``). Where a group has no option, ``blocked`` is the ruling of the
most natural attempt, whose failing findings say why.

Where the search itself depends on an open point (whether twos are wild, one
meld per rank ...), it proposes candidates under each reading of it and lets
the rulings sort them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import partial

from ..model.actions import Action
from ..model.enums import ActionType
from ..rules.conditions import legal_when
from ..rules.engine import rule_table
from ..rules.table_check import check_table, table_doubt
from ..model.findings import ILLEGAL, LEGAL, UNDETERMINED, Ruling
from ..rules.judge import wild_param
from ..rules.melds import sure_rank
from ..model.messages import Items, Message, Rank, msg
from ..rules.opening import Requirement, team_requirement
from .body import action_body
from .complete import complete, lay_message
from .going_out import go_out_slots
from .hand import melds_unlisted, view
from .melds import meld_slots
from .pile import take_slots
from .slots import Slot, merge
from .turn import discard_slots, draw_slots
from ..rules.readings import MAX_POINTS, TableDoubt, each_reading, readings_for
from ..model.situation import NOT_GIVEN, Situation
from ..variants import Variant

BEFORE_DRAW, AFTER_DRAW, UNKNOWN = "before_draw", "after_draw", "unknown"
GROUPS = {BEFORE_DRAW: ("draw", "take_pile"), AFTER_DRAW: ("meld", "go_out", "discard")}
# Open points the search's own choices depend on, and when they can matter.
SEARCH_POINTS = ("wild.twos", "meld.one_per_rank", "opening.negative", "pile.cards_usable_same_turn",
                 "opening.melds_together", "opening.bonuses_count", "opening.red_threes_count")
HAND = "/player/hand"
_OPENING = ("opening.negative", "opening.melds_together", "opening.bonuses_count", "opening.red_threes_count")
# The open points each generator's proposals depend on: it runs once per reading of these, not of all of them.
READS = {"draw": (), "discard": (), "take_pile": ("wild.twos", *_OPENING), "meld": SEARCH_POINTS,
         "go_out": ("wild.twos", "pile.cards_usable_same_turn", "opening.negative")}
# go_out: its plans aim at the opening minimum (``opening.negative`` sets a negative score's) and read none of
# the other opening points (how melds count together, bonuses, red threes): under readings that differ only in
# those, the plans are the same, and were made again and thrown away in the merge.
# Each group's generator: (hand view, situation) -> (slots, the most natural attempt or None).
GENERATORS = {"draw": lambda hand, situation: (draw_slots(hand, situation), None), "take_pile": take_slots,
              "meld": meld_slots, "go_out": go_out_slots,
              "discard": lambda hand, situation: (discard_slots(hand, situation), None)}


@dataclass(frozen=True)
class Option:
    """One move: the action (``body`` is its JSON for ``/v1/adjudicate``) and the engine's ruling on it.

    ``key`` names the option stably across requests and variants (``take_pile:natural_pair``,
    ``meld:9``, ``opening:cheapest``, ``discard:3C``); ``way`` says how it is done; ``cards`` are the
    hand cards it uses; ``points`` what an opening counts; ``concealed`` whether a go-out is concealed
    (None: not a go-out, or it depends on a fact not given).
    """

    key: str
    kind: str  # draw | take_pile | meld | add | opening | go_out | discard
    way: str  # how the search found it; ``every`` for a move the complete walk adds
    message: Message
    action: Action
    ruling: Ruling
    rank: str | None = None
    cards: tuple[str, ...] = ()
    points: int | None = None
    concealed: bool | None = None

    @property
    def condition(self) -> Message | None:
        """Where the move hangs on a fact the table did not give: the value under which it is allowed, as a
        condition ("while the stock has cards", "if your team has a meld of sevens"); else None."""
        found = legal_when(self.ruling)
        if found is None:
            return None
        return next(c.condition for c in found.choices if c.verdict == LEGAL)

    @property
    def verdict(self) -> str:
        return self.ruling.verdict

    @property
    def body(self) -> dict:
        return action_body(self.action)


class Listing(Sequence):
    """A group's options, in order: those already made, then the complete walk's, each made (its action
    built, its words and ruling) only when it is read -- a page of a long group costs the page."""

    def __init__(self, made, pending: list[tuple], make):
        self._made = list(made)
        self._pending = pending  # (verdict, () -> (move, ruling))
        self._make = make
        self._done: dict[int, Option] = {}
        self.verdicts = [o.verdict for o in self._made] + [verdict for verdict, _ in pending]

    def __len__(self) -> int:
        return len(self._made) + len(self._pending)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError(index)
        if index < len(self._made):
            return self._made[index]
        at = index - len(self._made)
        if at not in self._done:
            self._done[at] = self._make(*self._pending[at][1]())
        return self._done[at]

    def each(self, start: int, stop: int):
        """The options from ``start`` to ``stop``, one at a time; those not made yet are made and not kept (an
        answer written as it is made holds one at a time, with its ruling)."""
        for index in range(*slice(start, stop).indices(len(self))):
            at = index - len(self._made)
            if at < 0:
                yield self._made[index]
            elif at in self._done:
                yield self._done[at]
            else:
                yield self._make(*self._pending[at][1]())


@dataclass(frozen=True)
class OptionGroup:
    """The options of one kind, in the phase of the turn ``drew`` stands for (``assumed``: the request did
    not say whether the player has drawn). ``possible`` is True when an option is legal, None when the only
    ones are undetermined (or the hand, in ``missing``, is not given), False when there is none; then
    ``blocked`` is the ruling of the most natural attempt."""

    kind: str  # draw | take_pile | meld | go_out | discard
    phase: str
    drew: str | None
    assumed: bool
    possible: bool | None
    options: Sequence[Option]
    blocked: Ruling | None
    message: Message
    missing: tuple[str, ...] = ()
    complete: bool = True  # False: the walk stopped at its bound; more moves may exist than are listed

    @property
    def count(self) -> int:
        return len(self.options)


@dataclass(frozen=True)
class Options:
    """Every option in a situation under one variant, by group; ``requirement`` is the opening requirement
    of a team yet to open."""

    variant: str
    phase: str  # before_draw | after_draw | unknown (both phases listed)
    groups: tuple[OptionGroup, ...]
    requirement: Requirement | None = None

    def group(self, kind: str, phase: str | None = None) -> OptionGroup | None:
        return next((g for g in self.groups if g.kind == kind and phase in (None, g.phase)), None)

    def all(self) -> tuple[Option, ...]:
        return tuple(o for g in self.groups for o in g.options)


def legal_moves(situation: Situation, rules: Variant, only: str | None = None) -> Options:
    """Every option open to the player in ``situation`` under ``rules`` (a variant with house rules applied);
    with ``only`` (a group's kind), that group's alone -- the others are neither searched nor walked, and the
    group is what it is in the whole listing (no group reads another's).

    A table that cannot happen is refused first, as :func:`~adjudicator.rules.engine.rule` refuses it."""
    doubt = check_table(rules, situation, Action(ActionType.DRAW))  # an action that takes no card: the table's own
    if situation.drew == NOT_GIVEN:
        phases = [(BEFORE_DRAW, None, True), (AFTER_DRAW, "stock", True)]
    else:
        phases = [(BEFORE_DRAW if situation.drew is None else AFTER_DRAW, situation.drew, False)]
    groups: list[OptionGroup] = []
    for phase, drew, assumed in phases:
        sit = replace(situation, drew=drew) if assumed else situation
        groups += _phase(sit, rules, phase, assumed, table_doubt(rules, sit) if assumed else doubt, only)
    phase = phases[0][0] if len(phases) == 1 else UNKNOWN
    return Options(rules.id, phase, tuple(groups), team_requirement(situation, rules))


def _phase(situation: Situation, rules: Variant, phase: str, assumed: bool, doubt: TableDoubt | None,
           only: str | None = None) -> list[OptionGroup]:
    kinds = tuple(k for k in GROUPS[phase] if only in (None, k))
    if not kinds:
        return []
    slots: dict[str, dict[str, Slot]] = {kind: {} for kind in kinds}
    attempts: dict[str, Action | None] = {}
    after = phase == AFTER_DRAW
    done: set[tuple] = set()
    chosen = search_readings(situation, rules, after)  # the readings the search tries, and their values
    readings = [variant for _, variant in chosen]
    for ruled in readings:
        todo = []  # the groups whose proposals this reading can change
        for kind in kinds:
            reading = (kind, *(ruled.params[p].value for p in READS[kind]))
            if reading in done or (kind != "draw" and situation.hand is None):
                continue
            done.add(reading)
            todo.append(kind)
        if not todo:
            continue
        hand = view(situation, ruled, after)
        for kind in todo:
            found, attempt = GENERATORS[kind](hand, situation)
            merge(slots[kind], found)
            attempts.setdefault(kind, attempt)
    memo: dict = {"chosen": [dict(values) for values, _ in chosen]}  # the complete walk's layouts, shared by the meld and go-out groups
    out = []
    for kind in kinds:
        if kind != "draw" and situation.hand is None:
            out.append(OptionGroup(kind, phase, situation.drew, assumed, None, (), None, msg(f"options.group.{kind}"),
                                   (situation.base + HAND,)))
            continue
        out.append(_group(situation, rules, kind, phase, assumed, list(slots[kind].values()), attempts.get(kind),
                          doubt, readings, memo))
    return out


def _group(situation: Situation, rules: Variant, kind: str, phase: str, assumed: bool, slots: list[Slot],
           attempt: Action | None, doubt: TableDoubt | None, readings: list[Variant], memo: dict) -> OptionGroup:
    """The group's options: the search's own proposals first (the most useful moves, with stable keys),
    then every other distinct legal move the complete walk finds (:mod:`adjudicator.options_complete`)."""
    options: list[Option] = []
    seen: set[Action] = set()
    for slot in slots:
        option = _decide(situation, rules, slot, doubt)
        if option is not None and option.action not in seen:
            seen.add(option.action)
            options.append(option)
    options, more, whole = complete(situation, rules, kind, readings, options,
                                    partial(rule_table, situation, rules=rules, doubt=doubt), doubt, memo)
    # partials, not closures: a listing keeps its maker, and a compiled closure and its environment would
    # hold each other (and the request's moves) in a reference cycle after the answer is sent
    listing = Listing(options, more, partial(_made, kind, not situation.team_has_opened()))
    blocked = None
    if not listing:
        attempt = attempt or (slots[0].candidates[0].action if slots and slots[0].candidates else None)
        if attempt is not None:
            blocked = rule_table(situation, attempt, rules, doubt)
    possible = True if LEGAL in listing.verdicts else (None if listing else False)
    # the team's melds not listed: a move that needs their cards (a wild card onto one, in a laying or with a take
    # of the pile) cannot be listed, and the group says so rather than leave it out in silence
    unlisted = kind in LAYS_ONTO_MELDS and melds_unlisted(situation)  # it has opened, or may have
    return OptionGroup(kind, phase, situation.drew, assumed, possible, listing, blocked,
                       msg(f"options.group.{kind}"), (situation.base + "/team/melds",) if unlisted else (),
                       complete=whole)


def _made(kind: str, unopened: bool, c, ruling) -> Option:
    """A complete-walk move's option, made when the listing reads it."""
    return Option(c.key, c.kind, "every", worded(c.message, ruling), c.action, ruling, c.rank, _cards(c.action),
                  _points(ruling) if unopened and kind != "discard" else None,
                  _concealed(ruling) if kind == "go_out" else None)


def _decide(situation: Situation, rules: Variant, slot: Slot, doubt: TableDoubt | None) -> Option | None:
    """The slot's first candidate the engine finds legal, else its first undetermined one. Candidates whose
    cards the text leaves open (twos, where it does not say whether they are wild) are tried last."""
    fallback = None
    for candidate in sorted(slot.candidates, key=lambda c: _hangs_open(c.action, rules)):
        ruling = rule_table(situation, candidate.action, rules, doubt)
        if ruling.verdict == LEGAL or (ruling.verdict == UNDETERMINED and fallback is None):
            message = lay_message(candidate.action) if slot.kind == "opening" and _meld_if_melded(ruling) \
                else candidate.message
            option = Option(slot.key, slot.kind, candidate.way, worded(message, ruling), candidate.action, ruling,
                            slot.rank, _cards(candidate.action), candidate.points, _concealed(ruling))
            if ruling.verdict == LEGAL:
                return option
            fallback = option
    return fallback


def _meld_if_melded(ruling: Ruling) -> bool:
    """Whether the move may be allowed if the team has melded already (the table did not say): then, for such a
    team, it is no opening, and its words must not call it one ("Open with 9 9 9: 30 points ... if your team has
    melded"); they say what it lays, true whichever the team has done."""
    return any(c.kind == "opened" and any(ch.value is True and ch.verdict != ILLEGAL for ch in c.choices)
               for c in ruling.conditions)


# the groups whose moves may lay cards onto the team's melds on the table
LAYS_ONTO_MELDS = ("meld", "go_out", "take_pile")


# the words of a move that name the team's meld of a rank, and their words where that meld is a condition
IF_MELD = {key: f"{key}_if" for key in ("options.take_pile.onto_meld", "options.add.naturals", "options.add.wild",
                                        "options.move.part_add")}


def worded(message: Message, ruling: Ruling) -> Message:
    """A move's words as its ruling leaves them: where whether the team has a meld of a rank is a condition of
    the ruling, the move never says "your meld of sevens" -- it says "your team's meld of sevens, if it has one"."""
    ranks = frozenset(c.pointer.rpartition("/")[2] for c in ruling.conditions if c.kind == "rank")
    return _if_meld(message, ranks) if ranks else message


def _if_meld(message: Message, ranks: frozenset) -> Message:
    args = {name: _if_meld(arg, ranks) if isinstance(arg, Message) else
            Items(tuple(_if_meld(i, ranks) if isinstance(i, Message) else i for i in arg.items), arg.joiner)
            if isinstance(arg, Items) else arg for name, arg in message.args.items()}
    rank = message.args.get("rank")
    key = IF_MELD.get(message.key) if isinstance(rank, Rank) and rank.value in ranks else None
    return Message(key or message.key, args)


def _cards(action: Action) -> tuple[str, ...]:
    """The player's cards an action shows, lays or discards."""
    return (*action.with_cards, *action.laid_cards(), *((action.discard,) if action.discard else ()))


def _hangs_open(action: Action, rules: Variant) -> bool:
    """Whether the action uses a card whose wildness the text leaves open."""
    return any(name is not None and not rules.params[name].settled
               for name in map(wild_param, _cards(action)))


def _points(ruling: Ruling) -> int | None:
    """What an opening counts, as its ruling worked it out."""
    for finding in ruling.findings:
        if finding.rule == "opening.minimum" and finding.message is not None:
            points = finding.message.args.get("points")
            return points if isinstance(points, int) else None
    return None


def _concealed(ruling: Ruling) -> bool | None:
    keys = {c.key for c in ruling.consequences}
    if "consequence.concealed" in keys:
        return True
    if ruling.action == ActionType.GO_OUT and not keys & {"consequence.concealed_depends", "consequence.concealed_disputed"}:
        return False
    return None


def search_readings(situation: Situation, rules: Variant, after_draw: bool) -> list[tuple[tuple, Variant]]:
    """``rules`` under each reading of the open points the search's choices depend on here (at most
    :data:`~adjudicator.rules.readings.MAX_POINTS` of them), with the values the reading gives its points
    (``((point, value), ...)``); just ``((), rules)`` when none is open."""
    points = [p for p in SEARCH_POINTS if _matters(p, situation, after_draw) and readings_for(rules, p)]
    points = points[:MAX_POINTS]
    if not points:
        return [((), rules)]
    return list(each_reading(rules, points))


def _matters(name: str, situation: Situation, after_draw: bool) -> bool:
    opened = situation.team_has_opened()
    if name == "wild.twos":
        cards = list(situation.hand or ()) + list(situation.pile or ()) + \
            [c for m in situation.team.melds or () for c in m]
        return any(c[:-1] == "2" for c in cards)
    if name == "meld.one_per_rank":  # a rank the hand holds and the team has melded
        held = {c[:-1] for c in situation.hand or () if c != "JK"}
        return opened and (any(sure_rank(m) in held for m in situation.team.melds or ())
                           or any(has and rank in held for rank, has in situation.team.ranks))  # said, not listed
    if name == "opening.negative":
        return not opened and (situation.team.score or 0) < 0
    if name == "pile.cards_usable_same_turn":
        return after_draw and situation.drew == "pile" and bool(situation.cards_from_pile)
    if name in ("opening.melds_together", "opening.bonuses_count"):
        return not opened
    if name == "opening.red_threes_count":
        return not opened and bool(situation.team.red_threes)
    return False
