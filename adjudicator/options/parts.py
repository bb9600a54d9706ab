"""A meld's verdict from its parts: what lets the complete listing decide hundreds of moves from a few rulings.

A team that has opened lays each rank on its own: a move is legal when each of
its parts -- the cards it lays onto or as melds of one rank -- is legal laid
alone, and illegal when one of them is illegal (:func:`~adjudicator.options.complete._by_parts`
says when that holds). A part is ruled once per request, under the variant as
written: the engine decides it across the open points it reads
(:func:`~adjudicator.rules.readings.decide_across`), and its readings say what it
comes to under each reading the search tries. Ruling it under each search reading
instead cost one ruling per reading, most of them of parts that read none of the
points (da-ludo: four readings, ~220 rulings per 15-card hand where ~60 do).

The parts' rulings are also kept across requests, by the variant object (:meth:`~adjudicator.variants.Variant.once`:
bounded by bytes, a copy with house rules has its own). A meld's parts are made on a table that holds only the
facts that change slowly in a round -- players, the turn, both teams' melds, the hand's size -- so the next turn
of the same hand, a second page, or the other phase of an unsaid turn finds them. That table is exact by
construction, not by convention (:class:`~adjudicator.model.situation.PartTable`): it is keyed by every fact it
keeps, and every other fact is withheld, so a check that reads one -- through the judge's ``need_*`` readers or
directly -- finds it missing, and a direct read is also recorded, so the part's ruling is set aside whatever the
check made of it; the move is then ruled whole on the real table (``tests/test_options_exact.py``: every option
listed is what ``rule()`` gives its move). A take's parts (a team that has opened laying melds in the take) read
the pile and the hand: they are made, and kept, on the real table (keyed by all of it).
"""

from __future__ import annotations

from ..model.actions import Action
from ..model.enums import ActionType
from ..model.findings import ILLEGAL, LEGAL, UNDETERMINED, Ruling
from ..model.situation import PartTable, Situation, part_table
from ..rules.engine import rule_checked
from ..rules.readings import TableDoubt
from ..variants import Variant
from .every import Hand, Place, build


class Parts:
    """The parts of one request's meld moves, ruled once each, and the moves' verdicts from them, under each
    reading the search tries (``chosen``: the values each reading gives its points)."""

    def __init__(self, situation: Situation, rules: Variant, chosen: list[dict], doubt: TableDoubt | None,
                 with_cards: tuple[str, ...] | None = None, take: tuple | None = None):
        # with_cards: the parts are of a take (the cards shown with the top card, then one rank's cards
        # laid), ruled on the real table -- a take reads the pile and the hand; else of a meld move.
        # take: (the taken meld's rank, the bare take's verdict per reading, the lays of other ranks found so
        # far, shared by the takes of one request): a take's part of another rank is the bare take and that
        # rank's cards laid -- the take's checks read nothing laid, a rank's laying reads no other rank -- so
        # what a rank's cards come to, ruled with one take the engine allows bare, serves every other take
        self.with_cards = with_cards
        self.meld_rank, self.bare, self.lays = take if take is not None else (None, None, None)
        self.table: Situation = part_table(situation) if with_cards is None else situation
        # the readings the real table cannot happen under (``doubt``, worked out on it, not on the part's table): a
        # part is decided under the same readings as its whole move, and kept under them
        self.points: tuple[str, ...] | None = None if doubt is None else doubt.points
        self.excluded: frozenset | None = None if doubt is None else doubt.excluded
        self.rules = rules
        self.chosen = chosen
        # part (places, ids of their contents) -> its verdict per search reading: LEGAL, ILLEGAL or None (open)
        self.by_id: dict[tuple, tuple] = {}
        self.legal, self.illegal = (LEGAL,) * len(chosen), (ILLEGAL,) * len(chosen)  # shared: compared by identity
        if self.bare == self.legal:
            self.bare = self.legal
        self.combined: dict[tuple, tuple] = {}
        # the places last read, their ranks, and whether no two share a rank (see _parts)
        self._spots: list[Place] | None = None
        self._ranks: list[str | None] = []
        self._unique = True
        self.by_kinds: dict[tuple, tuple] = {}  # the same, by what the part lays where: the walk makes equal
        # contents as distinct objects (one per count of what is left), so one part has several ids

    def verdict(self, hand: Hand, spots, chosen: dict) -> str | None:
        """Under each search reading: illegal when a part is, legal when every part is; then legal or
        illegal when the readings agree, else undetermined. None when a part stays open under a reading:
        the move is then ruled whole."""
        by_id, legal, illegal = self.by_id, self.legal, self.illegal
        both = None  # the move's verdict per reading from its parts not legal throughout (legal ANDs as itself)
        for part in self._parts(spots, chosen):
            verdicts = by_id.get(part)
            if verdicts is None:
                verdicts = by_id[part] = self._ruled(hand, spots, {i: chosen[i] for i, _ in part})
            if verdicts is illegal:
                return ILLEGAL  # illegal under every reading, whatever the other parts are
            if verdicts is not legal:
                both = verdicts if both is None else self._and(both, verdicts)
        if both is None:
            return LEGAL
        if None in both:
            return None
        found = set(both)
        return found.pop() if len(found) == 1 else UNDETERMINED

    def _parts(self, spots, chosen: dict):
        """The layout's parts, one per rank: ``((place, id of its content), ...)`` -- a content is one shared
        object per content the walk found. Where no two places share a rank (most readings), each place is
        its own part and needs no grouping."""
        if self._spots is not spots:
            ranks = [s.rank for s in spots]
            self._spots, self._ranks, self._unique = spots, ranks, len(set(ranks)) == len(ranks)
        if self._unique:
            return [((i, id(content)),) for i, content in chosen.items()]
        ranks = self._ranks
        bundles: dict[str | None, tuple] = {}
        for i, content in chosen.items():
            rank = ranks[i]
            bundles[rank] = bundles.get(rank, ()) + ((i, id(content)),)
        return bundles.values()

    def _and(self, one: tuple, other: tuple) -> tuple:
        key = (one, other)
        hit = self.combined.get(key)
        if hit is None:
            hit = self.combined[key] = tuple(
                ILLEGAL if ILLEGAL in (a, b) else (LEGAL if a == b == LEGAL else None) for a, b in zip(one, other))
        return hit

    def _ruled(self, hand: Hand, spots, part: dict) -> tuple:
        key = tuple(sorted((spots[i].how, spots[i].rank or "", tuple(sorted(content.items())))
                           for i, content in part.items()))
        verdicts = self.by_kinds.get(key)
        if verdicts is None:
            other_rank = self.lays is not None and spots[next(iter(part))].rank != self.meld_rank
            lay = self.lays.get(key) if other_rank else None
            if lay is not None:
                verdicts = self._and(self.bare, lay)
            else:
                summary = self.ruling(build(ActionType.MELD, hand, spots, part) if self.with_cards is None else
                                      build(ActionType.TAKE_PILE, hand, spots, part, with_cards=self.with_cards))
                verdicts = per_reading(summary, self.chosen)
                if other_rank and self.bare is self.legal:  # the take passes: the part is the lay alone
                    self.lays[key] = verdicts
            verdicts = self.by_kinds[key] = self.legal if verdicts == self.legal else \
                self.illegal if verdicts == self.illegal else verdicts
        return verdicts

    def ruling(self, action: Action) -> tuple:
        """The part's verdict and its readings' ``(values, verdict)``, worked out once per variant and table."""
        return self.rules.once(part_ruling, self.table, action, self.points, self.excluded)


def part_ruling(rules: Variant, table: Situation, action: Action, points: tuple[str, ...] | None,
                excluded: frozenset | None) -> tuple:
    """What the parts keep of ``action``'s ruling on ``table`` (:func:`summary_of`), decided under the readings
    but those ``excluded`` of ``points`` (the real table's doubt: what the doubt says in words is no part of a
    verdict). A ruling that read a withheld fact directly (past the judge's readers) is not the part's: it is
    open, and the move is ruled whole on the real table."""
    doubt = None if points is None else TableDoubt(points, (), excluded or frozenset())
    reads = table.reads if isinstance(table, PartTable) else None
    before = 0 if reads is None else len(reads)
    summary = summary_of(rule_checked(table, action, rules, doubt))
    return OPEN if reads is not None and len(reads) > before else summary


OPEN: tuple = (UNDETERMINED, ())  # a part that cannot be decided on its table: its move is ruled whole


def summary_of(ruling: Ruling) -> tuple:
    """What the parts keep of a ruling: its verdict and its readings' ``(values, verdict)``."""
    return ruling.verdict, tuple((r.values, r.verdict) for r in ruling.readings)


def per_reading(summary: tuple, chosen: list[dict]) -> tuple:
    """A ruling's verdict under each search reading: LEGAL, ILLEGAL, or None where it is undetermined (a move
    with such a part is open under that reading, and ruled whole)."""
    return tuple(v if v != UNDETERMINED else None for v in (_under(summary, values) for values in chosen))


def _under(summary: tuple, values: dict) -> str:
    """What a part's ruling (decided across the points it read) comes to where the points of ``values`` are
    read that way: the verdict of its readings that agree with them, undetermined where those differ."""
    verdict, readings = summary
    if not readings:
        return verdict
    verdicts = {v for read, v in readings if all(values.get(p, x) == x for p, x in read)}
    return verdicts.pop() if len(verdicts) == 1 else UNDETERMINED
