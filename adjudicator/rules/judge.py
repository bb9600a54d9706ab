"""The bookkeeping of one ruling: each check, the parameters it read, and what it found.

Every check runs inside :meth:`Judge.rule`. :meth:`Judge.param` is the one way
the engine reads a rule parameter: it records the parameter for the running
check (its citations and, when the document does not state it outright, an
interpretation) and raises :class:`NotStated` for a point the document leaves
open. A missing fact or an open point makes only that check undetermined,
never the whole ruling.

The verdict follows from the findings: any failure is ``illegal``; otherwise
any open check is ``undetermined``; otherwise ``legal``.
"""

from __future__ import annotations

from typing import Any, Callable

from ..model.cards import JOKER, RANKS, is_red_three
from ..model.citations import Citation
from ..model.enums import Status, Verdict
from ..model.frozen import FrozenDict
from ..model.findings import ILLEGAL, LEGAL, UNDETERMINED, Finding, HouseRuleUsed, Interpretation, Ruling
from ..model.messages import Fact, Message, Param
from ..model.rule_ids import RULES
from ..model.situation import MissingFact
from ..variants import Variant

NO_TAGS: frozenset[str] = frozenset()

# rank (or "JK") -> the parameter holding its card value
VALUE_PARAM = {r: f"card_value.{r}" for r in RANKS} | {JOKER: "card_value.joker"}


class NotStated(Exception):
    """The variant's document does not state a parameter a check needs."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def wild_param(card: str) -> str | None:
    """The parameter that says whether a card is wild (None: a card that never is)."""
    if card == JOKER:
        return "wild.jokers"
    return "wild.twos" if card[:-1] == "2" else None


def value_param(card: str) -> str | None:
    """The card_value parameter a card counts by (a red three, a bonus card, has none)."""
    if card == JOKER:
        return "card_value.joker"
    if card[:-1] == "3":
        return None if is_red_three(card) else "card_value.black_three"
    return VALUE_PARAM[card[:-1]]


class Check:
    """One check and the ``with`` block that runs it (one object, made on every check).

    Use as ``with judge.rule("meld.min_cards") as check: ... check.result(ok, "key", **args)``.
    A block that records no result does not appear among the findings.
    """

    __slots__ = ("judge", "id", "params", "passed", "message", "outer", "deciding", "tags", "unsure")

    def __init__(self, judge: "Judge", rule_id: str):
        self.judge = judge
        self.id = rule_id
        self.outer: Check | None = None
        self.passed: bool | None = None
        self.params: list[str] = []
        self.message: Message | None = None  # set by result(): the check decided
        self.deciding: tuple[str, ...] = ()  # parameters whose words decide this check, quoted first
        self.tags: frozenset = NO_TAGS  # the case at hand (band:1500, freezer:joker, wild_in_pair ...)
        self.unsure: tuple[str, ...] = ()  # parameters it read whose values the text does not state outright

    @property
    def decided(self) -> bool:
        return self.message is not None

    def result(self, passed: bool | None, key: str, **args: Any) -> None:
        self.passed = passed
        self.message = Message(key, args)

    def __enter__(self) -> "Check":
        self.outer, self.judge._current = self.judge._current, self
        return self

    def __exit__(self, kind, error, tb) -> bool:
        judge = self.judge
        judge._current = self.outer
        open_on: tuple[str, ...] = ()
        missing: tuple[str, ...] = ()
        if error is not None:
            if isinstance(error, MissingFact):
                if error.pointer not in judge.missing:
                    judge.missing.append(error.pointer)
                missing = (error.pointer,)
                self.result(None, "check.missing", fact=Fact(error.pointer))
            elif isinstance(error, NotStated):
                if error.name not in judge.not_stated:
                    judge.not_stated.append(error.name)
                open_on = (error.name,)
                self.result(None, "check.not_stated", variant=judge.rules.ref, parameter=Param(error.name))
            else:
                return False
        message = self.message
        if message is not None:
            judge._record(self, message, open_on, missing)
        elif self.params:
            judge.skipped.setdefault(self.id, tuple(self.params))
        return True


class Judge:
    """Collects the findings of one ruling (or one scoring) under one variant."""

    def __init__(self, rules: Variant, players: int | None = None):
        self.rules = rules
        self.players = players  # citations about other player counts are left out
        self.findings: list[Finding] = []
        self.interpretations: dict[str, Interpretation] = {}
        self.not_stated: list[str] = []
        self.missing: list[str] = []
        self.consequences: list[Message] = []
        self.skipped: dict[str, tuple[str, ...]] = {}
        self.two_way: list[str] = []  # parameters read whose text reads two ways (interpreted, with readings)
        self._current: Check | None = None
        self._failed = self._open = 0  # counts of failed and open findings, for the verdict
        self.passed_kept = True  # False: a check that passed having read its parameters leaves no finding
        # The table's own checks (rules.possible) keep, finding by finding, the parameters each read whose value
        # neither the document states outright nor a house rule settles: what its outcome rests on besides the
        # stated rules. A table is refused only where no such parameter decides (rules.table_check).
        self.grounds: list[tuple[str, ...]] | None = None
        self.unsure_read: dict[str, None] = {}  # while grounds are kept: every such parameter read, in order

    # --- parameters --------------------------------------------------------------------------
    def param(self, name: str) -> Any:
        """Read a parameter for the running check; raise :class:`NotStated` when the text leaves it open."""
        current = self._current
        if current is not None:
            read = current.params
            if name not in read:
                read.append(name)
        entry = self.rules.params[name]
        if entry.status == Status.STATED and entry.source == "document":  # stated outright by the document
            return entry.value
        self._interpret(name)
        if self.grounds is not None and entry.source != "house_rule":
            self.unsure_read[name] = None
            if current is not None and name not in current.unsure:
                current.unsure += (name,)
        if not entry.settled:
            raise NotStated(name)
        if entry.readings and entry.source == "document" and name not in self.two_way:
            self.two_way.append(name)  # the text reads it two ways (interpreted, with readings)
        return entry.value

    @property
    def checking(self) -> bool:
        """Whether a check is running (its parameters and case are being recorded)."""
        return self._current is not None

    def decide(self, *names: str) -> None:
        """Say that these parameters' words decide the running check: its citations quote them first."""
        current = self._current
        assert current is not None, "decide() names what decides a running check"
        for name in names:
            if name not in current.params:
                current.params.append(name)
        current.deciding = tuple(dict.fromkeys(names + current.deciding))

    def case(self, *tags: str) -> None:
        """Name the case at hand (``band:6000``, ``freezer:joker``, ``wild_in_pair``): sentences about it are
        quoted first, sentences about another case of the same kind are left out."""
        current = self._current
        assert current is not None, "case() names the case of a running check"
        current.tags = current.tags | frozenset(tags)

    def cite(self, name: str) -> None:
        """Quote a parameter's words for the running check without resting on its value (the sentence that
        defines a meld as cards of one rank, which the size limit's citations hold)."""
        current = self._current
        assert current is not None, "cite() quotes words for a running check"
        if name not in current.params:
            current.params.append(name)
        entry = self.rules.params[name]
        if entry.status != Status.STATED or entry.source != "document":
            self._interpret(name)

    def rests_on(self, name: str, *tags: str) -> None:
        """Cite a parameter already read (outside this check) as one the running check rests on."""
        current = self._current
        assert current is not None, "rests_on() cites a parameter for a running check"
        if name not in current.params:
            current.params.append(name)
        if tags:
            current.tags = current.tags | frozenset(tags)

    def known(self, name: str) -> Any:
        """A parameter for a consequence or a flow decision: ``None`` where the text leaves it open."""
        try:
            return self.param(name)
        except NotStated:
            return None

    def interpret(self, name: str) -> None:
        """Show a parameter's interpretation without reading it (a consequence naming both its readings)."""
        self._interpret(name)

    def _interpret(self, name: str) -> None:
        if name in self.interpretations:
            return
        entry = self.rules.params[name]
        house = entry.house_rule
        self.interpretations[name] = Interpretation(name, entry.shown_status, entry.value,
                                                    None if house else entry.note, () if house else entry.citations,
                                                    notes=() if house else entry.notes)

    def wild(self, card: str) -> bool:
        """Whether ``card`` is wild in this variant (may raise NotStated for twos)."""
        name = wild_param(card)
        return name is not None and bool(self.param(name))

    def value_of(self, card: str) -> int:
        """A card's point value in this variant (a red three, a bonus card, has none)."""
        name = value_param(card)
        return 0 if name is None else self.param(name)

    # --- checks ------------------------------------------------------------------------------
    def rule(self, rule_id: str) -> Check:
        """Run one check; see :class:`Check`."""
        assert rule_id in RULES, rule_id
        return Check(self, rule_id)

    def note(self, key: str, **args: Any) -> None:
        """A consequence of the action (what the player must do next, what it changes)."""
        self.consequences.append(Message(key, args))

    def _record(self, check: Check, message: Message, open_on: tuple, missing: tuple) -> None:
        if check.passed is True and check.params and not self.passed_kept:
            return  # its parameters' interpretations are recorded as read; a passed finding is all it would add
        read = tuple(check.params)
        # worked out once per variant for each way a check can read (what it is given is its key)
        citations, house, unread = self.rules.once(check_sources, check.id, read, check.deciding, check.tags,
                                                   self.players)
        for name in unread:  # the catalogue's parameters of a check that read none: their interpretations too
            self._interpret(name)
        passed = check.passed
        self.findings.append(Finding(check.id, passed, message, read or RULES[check.id], citations, house, open_on,
                                     missing))
        if self.grounds is not None:
            self.grounds.append(check.unsure)
        if passed is not True:
            if passed is False:
                self._failed += 1
            else:
                self._open += 1

    def citations(self, names: tuple[str, ...], deciding: tuple[str, ...] = (),
                  tags: frozenset = frozenset()) -> tuple[tuple, tuple]:
        """The document's words behind ``names`` and the house rules among them, cached per variant.

        The deciding parameters' words come first, and within a parameter the
        sentences about the case at hand; a sentence about another case (another
        player count, another band) is left out. A house-ruled parameter cites the
        players' agreement, not the document.
        """
        return self.rules.once(cited_in_case, tuple(dict.fromkeys(deciding + names)), tags, self.players)

    # --- result ------------------------------------------------------------------------------
    def stopped_short(self) -> None:
        """The handler stopped before its remaining checks (a fact it needed is not given): the verdict is open."""
        self._open += 1

    def verdict(self) -> Verdict:
        if self._failed:
            return ILLEGAL
        if self._open or not self.findings:
            return UNDETERMINED
        return LEGAL

    def ruling(self, action: str) -> Ruling:
        verdict = self.verdict()
        return Ruling(self.rules.id, action, verdict, tuple(self.findings), tuple(self.interpretations.values()),
                      tuple(self.missing), tuple(self.not_stated),
                      tuple(self.consequences) if verdict != ILLEGAL else (), FrozenDict(self.skipped),
                      tuple(self.two_way), variant_ref=self.rules.ref)


def cited(rules: Variant, names, context: frozenset = frozenset()) -> tuple[tuple, tuple]:
    """The citations behind ``names`` (deduplicated, in order) and the house rules among them.

    Within each parameter, the sentences whose tags name the case in ``context``
    come first; those about another case of the same kind are left out.
    """
    citations: list[Citation] = []
    house: list[HouseRuleUsed] = []
    for name in names:
        entry = rules.params[name]
        if entry.house_rule:
            house.append(HouseRuleUsed(name, entry.value))
            continue
        fitting = [c for c in entry.citations if c.fits(context) and not _already_quoted(c, citations)]
        if context:
            fitting.sort(key=lambda c: -len(c.tags & context))  # stable: the file's order among equals
        citations.extend(fitting)
    return tuple(citations), tuple(house)


def cited_in_case(rules: Variant, names: tuple[str, ...], tags: frozenset, players: int | None) -> tuple[tuple, tuple]:
    """:func:`cited` for the case ``tags`` names at a table of ``players`` (None: not given)."""
    context = tags | ({f"players:{players}"} if players is not None else set())
    return cited(rules, names, frozenset(context))


def check_sources(rules: Variant, rule_id: str, read: tuple[str, ...], deciding: tuple[str, ...], tags: frozenset,
                  players: int | None) -> tuple[tuple, tuple, tuple]:
    """What a check's finding cites: ``(citations, house rules, unread)``. ``read`` are the parameters the check
    read (none: the rule's own, from the catalogue, whose interpretations are then listed: ``unread``);
    ``deciding`` those it named as deciding it, quoted first, then the rule's own among those read."""
    names = read or RULES[rule_id]
    deciding = deciding + tuple(n for n in RULES[rule_id] if n in names and n not in deciding)
    unread = () if read else tuple(n for n in names if rules.params[n].source != "document"
                                   or rules.params[n].status != "stated")
    return (*cited_in_case(rules, tuple(dict.fromkeys(deciding + names)), tags, players), unread)


def _already_quoted(c, quoted) -> bool:
    """True when ``c``'s words already stand, whole, inside a sentence quoted before it."""
    return any(q.start <= c.start and c.end <= q.end for q in quoted)


def answer(rules: Variant, question: Callable[[Judge], Any], players: int | None = None) -> Any:
    """``question`` asked of a fresh judge of ``rules``, or None where the text leaves a point open
    (:class:`NotStated`) or the situation lacks a fact (:class:`MissingFact`): for a figure that plans or
    reports, not for a ruling, which says what is open or missing instead."""
    try:
        return question(Judge(rules, players))
    except (NotStated, MissingFact):
        return None


def known(rules: Variant, name: str, default=None):
    """A parameter's value where the text (or the table) settles it, else ``default``."""
    entry = rules.params[name]
    return entry.value if entry.settled else default
