"""The team's melds as they will lie after an action, and the checks that laying or adding runs."""

from __future__ import annotations

from typing import NoReturn

from ..model.cards import JOKER, is_black_three, rank
from ..model.findings import LEGAL
from .judge import Judge, MissingFact, NotStated
from .melds import canastas, check_meld, is_canasta, meld_rank_or_open, natural_rank, split, sure_rank
from ..model.messages import Cards, Message, Rank, msg
from ..model.situation import Situation

SAID = -2  # the index of the team's meld of a rank said without its cards (``team.ranks``)


class Table:
    """The team's melds, meld by meld, as an action lays and grows them.

    ``existing`` None: the team has opened but its melds are not listed (``unknown`` points at them). Then
    only what the action lays is known: a check that needs an earlier meld (is there one of this rank? how
    many canastas?) finds it missing, unless the situation gives the fact itself (``canastas``, or at least
    ``canastas_at_least``, missing at ``canastas_at`` when neither is said; ``ranks``, the ranks the team has or
    has not melded, each missing at ``ranks_at``/rank when not said). A meld said without its cards
    (:data:`SAID`) takes natural cards of its rank, which never break a meld; a wild card needs its cards.
    """

    def __init__(self, judge: Judge, existing, opponents=(), unknown: str | None = None, canastas: int | None = None,
                 ranks: tuple = (), ranks_at: str = "", canastas_at_least: int | None = None, canastas_at: str = ""):
        self.judge = judge
        self.opponents = opponents  # the opponents' melds: never added to, where the text says so
        self.unknown: str = (unknown or "") if existing is None else ""
        self.known_canastas = canastas
        self.canastas_at_least = canastas_at_least
        self.canastas_at = canastas_at or self.unknown
        self.known_ranks = dict(ranks)
        self.ranks_at = ranks_at or self.unknown
        self.before = [list(m) for m in existing or ()]
        self.melds = [list(m) for m in existing or ()]
        self.grown: set[int] = set()
        self.new: set[int] = set()
        self.grown_said = False  # natural cards went onto a meld said without its cards (it may now be a canasta)

    def missing(self) -> NoReturn:
        """The melds not listed are needed: say so (the check running, or the ruling, stops on it)."""
        raise MissingFact(self.unknown)

    def _listed(self, meld_rank: str) -> int | None:
        for i, m in enumerate(self.melds):
            try:
                found = natural_rank(self.judge, m)
            except NotStated:
                found = sure_rank(m)
            if found == meld_rank:
                return i
        return None

    def find(self, meld_rank: str) -> int | None:
        """The index of the team's meld of ``meld_rank`` (read from its sure cards where twos are open). Among
        melds not listed, one the family says the team has is :data:`SAID`, one it says the team has not got
        is none; of any other, whether the team has it is missing ("do you have a meld of nines?")."""
        found = self._listed(meld_rank)
        if found is None and self.unknown:
            said = self.known_ranks.get(meld_rank)
            if said is None:
                raise MissingFact(f"{self.ranks_at}/{meld_rank}")
            return SAID if said else None
        return found

    def has(self, meld_rank: str) -> bool:
        """Whether the team has a meld of ``meld_rank`` (listed, laid by this action, or said without its cards);
        where its melds are not listed and nobody said, the fact is missing: "do you have a meld of nines?"."""
        if self._listed(meld_rank) is not None:
            return True
        if not self.unknown:
            return False
        said = self.known_ranks.get(meld_rank)
        if said is None:
            raise MissingFact(f"{self.ranks_at}/{meld_rank}")
        return said

    def _only_rank(self) -> str | None:
        """The rank of the team's one meld, where it has exactly one (cards without a natural card, added
        without saying where, can go nowhere else)."""
        if self.unknown:
            self.missing()
        if len(self.melds) != 1:
            return None
        try:
            return natural_rank(self.judge, self.melds[0])
        except NotStated:
            return sure_rank(self.melds[0])

    def theirs(self, meld_rank: str) -> bool:
        """Whether the opponents have a meld of ``meld_rank`` (and the team none to add to)."""
        return any(sure_rank(m) == meld_rank for m in self.opponents)

    def refuse_theirs(self, check, meld_rank: str, key: str, **args) -> bool:
        """With only the opponents holding a meld of this rank, the text's words on adding to the opponents'
        melds decide: True when they refuse it (the finding recorded)."""
        if self.find(meld_rank) is not None or not self.theirs(meld_rank):
            return False
        if self.judge.param("meld.add_to_opponents"):
            return False
        self.judge.decide("meld.add_to_opponents")
        check.result(False, key, rank=Rank(meld_rank), **args)
        return True

    def lay(self, cards, subject: Message, going_out: bool, joins: bool = False) -> None:
        """A new meld: one meld per rank, then its composition. ``joins``: where the team has a meld of this
        rank among those not listed, these cards go onto it (a take's natural cards), so the limit of one meld
        per rank does not apply."""
        judge = self.judge
        meld_rank = meld_rank_or_open(judge, cards)  # None where twos are open: check_meld says so
        present = False
        if meld_rank and not is_black_three(cards[0] if cards else JOKER):
            try:
                present = self.has(meld_rank)
            except MissingFact:  # the melds not listed may hold one of this rank: that matters only where one is the limit
                if not joins:
                    with judge.rule("meld.one_per_rank"):
                        if judge.param("meld.one_per_rank"):
                            raise
            if present and joins and self._listed(meld_rank) is None:
                present = False  # said, not listed: these cards go onto that meld (the take rules it so)
        if present and meld_rank:
            with judge.rule("meld.one_per_rank") as check:
                one = judge.param("meld.one_per_rank")
                check.result(not one, "meld.add_instead" if one else "meld.second_allowed", subject=subject,
                             rank=Rank(meld_rank))
        self.melds.append(list(cards))
        self.new.add(len(self.melds) - 1)
        check_meld(judge, cards, subject, going_out)

    def add(self, cards, to: str | None, subject: Message) -> None:
        """Cards onto the team's meld of a rank; the grown meld must still be legal."""
        judge = self.judge
        target_rank = target = None
        with judge.rule("meld.add.target") as check:
            target_rank = to or natural_rank(judge, cards) or self._only_rank()
            if target_rank is None:
                check.result(False, "meld.add_which", subject=subject)
                return
            target = self.find(target_rank)
            if self.refuse_theirs(check, target_rank, "meld.add_opponents_meld", subject=subject):
                return
            check.result(target is not None, "meld.add_target" if target is not None else "meld.add_no_target",
                         subject=subject, rank=Rank(target_rank))
        if target_rank is None or target is None:
            return
        if target == SAID:
            self._add_said(cards, target_rank, subject)
            return
        target = self._fitting(target, target_rank, cards)
        before = list(self.melds[target])
        self.melds[target] += cards
        self.grown.add(target)
        check_meld(judge, self.melds[target], msg("subject.grown", subject=subject, rank=Rank(target_rank)))
        self._mixed_consequence(before, self.melds[target], target_rank)

    def _add_said(self, cards, meld_rank: str, subject: Message) -> None:
        """Cards onto the team's meld of ``meld_rank``, said without its cards: natural cards of its rank keep any
        meld of that rank legal (no text limits a meld's natural cards), so they are ruled; a wild card's fit
        (or a card of another rank) needs the meld's cards."""
        judge = self.judge
        for card in cards:
            if card == JOKER or rank(card) != meld_rank or judge.wild(card):
                self.missing()
        with judge.rule("meld.same_rank") as check:
            judge.cite("meld.min_cards")
            check.result(True, "meld.add_naturals_said", subject=subject, rank=Rank(meld_rank))
        self.grown_said = True

    def _fitting(self, first: int, meld_rank: str, cards) -> int:
        """Which of the team's melds of ``meld_rank`` the cards go onto: the first, unless the team holds two
        melds of the rank (where its text lets it) and only another one takes them -- the player adds them
        where they fit, never where they break a meld."""
        others = [i for i, m in enumerate(self.melds) if i != first and sure_rank(m) == meld_rank]
        if not others:
            return first
        for i in (first, *others):
            trial = Judge(self.judge.rules, self.judge.players)
            check_meld(trial, self.melds[i] + list(cards), msg("subject.this_meld"))
            if trial.verdict() == LEGAL:
                return i
        return first

    def _mixed_consequence(self, before, after, meld_rank: str) -> None:
        judge = self.judge
        try:
            if is_canasta(judge, before) and not split(judge, before)[1] and split(judge, after)[1]:
                if judge.param("canasta.wild_makes_mixed"):
                    judge.note("consequence.canasta_becomes_mixed", rank=Rank(meld_rank))
        except NotStated:
            pass

    def canastas_before(self) -> int:
        """The team's canastas before the action: counted, or given; at least so many where only a lower bound
        is given (:meth:`canastas_for` says whether the count is exact)."""
        if self.unknown:
            known = self.known_canastas
            if known is None:
                if self.canastas_at_least is not None:
                    return self.canastas_at_least
                raise MissingFact(self.canastas_at)  # "how many canastas does your team have?"
            return known
        return canastas(self.judge, self.before)

    def canastas_after(self) -> int:
        if self.unknown:  # the canastas given, and those this action lays (it can grow no meld it cannot find)
            return self.canastas_before() + canastas(self.judge, [self.melds[i] for i in self.new | self.grown])
        return canastas(self.judge, self.melds)

    def canastas_for(self, need: int) -> tuple[int, int, bool]:
        """``(canastas before, canastas after, exact)`` where they decide ``need``: a lower bound (the count said
        as "at least", a meld said without its cards grown by this action) decides only once it reaches
        ``need``; short of it, the count is missing (or the grown meld's cards are)."""
        before, after = self.canastas_before(), self.canastas_after()
        bound = self.unknown and self.known_canastas is None  # the count before is "at least"
        if bound and before < need:
            raise MissingFact(self.canastas_at)
        if self.grown_said and after < need:
            self.missing()  # the meld said without its cards may be a canasta now: its cards decide
        return before, after, not (bound or self.grown_said)

    def laid_canasta(self) -> bool:
        """Whether a meld laid or grown by this action is a canasta."""
        return any(is_canasta(self.judge, self.melds[i]) for i in self.new | self.grown)


def lay_all(table: Table, melds, adds, going_out: bool) -> None:
    """An action's new melds, then its additions."""
    for i, meld in enumerate(melds):
        table.lay(meld, _new_meld(i, meld), going_out)
    for i, add in enumerate(adds):
        table.add(list(add.cards), add.to, msg("subject.addition", index=i + 1, cards=Cards(tuple(add.cards))))


def _new_meld(i: int, meld) -> Message:
    return msg("subject.meld", index=i + 1, cards=Cards(tuple(meld)))


def team_table_or_melds(judge: Judge, situation: Situation, melds, going_out: bool) -> Table:
    """:func:`team_table`; where it is missing (whether the team has melded is not said), the action's new melds
    are checked on their own first -- what they are made of hangs on no team (nor does the text's open point on
    it: a two in a meld of nines), and a meld that breaks a rule is refused whatever the team has."""
    try:
        return team_table(judge, situation)
    except MissingFact:
        for i, meld in enumerate(melds):
            check_meld(judge, meld, _new_meld(i, meld), going_out)
        raise


def team_table(judge: Judge, situation: Situation, opponents: bool = True) -> Table:
    """The team's melds as the action finds them: listed, or (a team known to have opened, its melds not
    listed) unknown, with what the situation says of them (the canastas, the ranks melded)."""
    team = situation.team
    base = situation.base
    return Table(judge, situation.team_melds_or_unknown(), (situation.opponents.melds or ()) if opponents else (),
                 unknown=base + "/team/melds", canastas=team.canastas, ranks=team.ranks, ranks_at=base + "/team/ranks",
                 canastas_at_least=team.canastas_at_least, canastas_at=base + "/team/canastas")
