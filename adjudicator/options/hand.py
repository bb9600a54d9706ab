"""The hand as the option search sees it: cards counted by rank, under one reading of the rules.

The search never walks subsets of cards. It counts the natural cards of each
rank and the wild cards by value, and asks :class:`Shape` -- the engine's own
meld check (:func:`adjudicator.rules.melds.check_meld`), run once per composition --
how many wild cards a meld of ``n`` naturals may hold. A :class:`HandView` is
made per reading of the points the search depends on (whether twos are wild,
...), so every figure here is settled; what stays open is the rulings' business.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..model.cards import JOKER, RANKS, is_black_three, is_red_three, rank
from ..rules.judge import Judge, answer, known, value_param, wild_param
from ..rules.melds import check_meld
from ..model.messages import msg
from ..model.situation import Situation
from ..variants import Variant

_SUBJECT = msg("subject.this_meld")


class Shape:
    """Which counts of natural and wild cards make a legal meld, by the engine's meld check."""

    def __init__(self, rules: Variant):
        self.rules = rules
        self.wild_card = JOKER if known(rules, "wild.jokers") else ("2S" if known(rules, "wild.twos") else None)
        self._ranges: dict[tuple[int, int], range | None] = {}
        self.memo: dict[tuple, list] = {}  # the opening search's uses of a rank, by the rank's counts

    def fits(self, n: int, w: int) -> bool:
        """Whether ``n`` naturals of one rank and ``w`` wild cards pass every composition check
        (a check the text leaves open counts as passing: the ruling says what is open)."""
        if w and self.wild_card is None:
            return False
        return self.rules.once(meld_fits, n, w, self.wild_card or JOKER)

    def wild_range(self, n: int, have: int) -> range | None:
        """The wild-card counts (up to ``have``) a meld of ``n`` naturals may hold, or None when none."""
        key = (n, have)
        if key not in self._ranges:
            ok = [w for w in range(have + 1) if self.fits(n, w)]  # the hand's wild cards bound it
            self._ranges[key] = range(ok[0], ok[-1] + 1) if ok else None
        return self._ranges[key]


def meld_fits(rules: Variant, n: int, w: int, wild: str) -> bool:
    """Whether a meld of ``n`` naturals of one rank and ``w`` wild cards (``wild``) passes every composition check
    of ``rules`` that the text settles: the engine's meld check, run once per variant and composition."""
    judge = Judge(rules)
    check_meld(judge, ["5S"] * n + [wild] * w, _SUBJECT)
    return all(f.passed is not False for f in judge.findings)


@dataclass(frozen=True)
class TeamMeld:
    """One of the team's melds: its rank, its cards, and its natural and wild counts."""

    rank: str | None
    cards: tuple[str, ...]
    naturals: int
    wilds: int


@dataclass
class HandView:
    """The player's usable cards, counted, and the team's melds, under one reading of the rules."""

    rules: Variant
    naturals: dict[str, list[str]]  # rank -> its natural cards (threes apart), in a fixed order
    wilds: list[str]  # wild cards, lowest value first
    black_threes: list[str]
    red_threes: list[str]
    team: list[TeamMeld]
    usable: tuple[str, ...]  # the cards the player may lay this turn
    hand: tuple[str, ...]
    shape: Shape = field(repr=False)
    # the team's melds not listed (it has opened, or may have: not said): the ranks it is said to have a meld of,
    # and not to have
    said: frozenset[str] = frozenset()
    said_not: frozenset[str] = frozenset()
    unlisted: bool = False

    # --- reading cards ---------------------------------------------------------------------------
    def value(self, card: str) -> int:
        name = value_param(card)
        return 0 if name is None else (known(self.rules, name, 0) or 0)

    def is_wild(self, card: str) -> bool:
        return is_wild(self.rules, card)

    def wild_kinds(self) -> list[str]:
        """One wild card of each kind the hand holds, cheapest first (one two is as good as another)."""
        kinds: dict[str, str] = {}
        for card in self.wilds:
            kinds.setdefault(JOKER if card == JOKER else "2", card)
        return list(kinds.values())

    def meld_of(self, meld_rank: str) -> TeamMeld | None:
        return next((m for m in self.team if m.rank == meld_rank), None)

    def may_have(self, meld_rank: str) -> bool:
        """Whether the team has, or (its melds not listed, nobody saying it has none) may have, a meld of the
        rank: natural cards may go onto it."""
        return self.meld_of(meld_rank) is not None or (self.unlisted and meld_rank not in self.said_not)

    def may_lack(self, meld_rank: str) -> bool:
        """Whether the team has, or may have, no meld of the rank: a new meld of it may be laid."""
        return self.meld_of(meld_rank) is None and meld_rank not in self.said

    @property
    def canasta_min(self) -> int:
        return known(self.rules, "canasta.min_cards", 7)

    def canastas(self) -> int:
        return sum(1 for m in self.team if len(m.cards) >= self.canasta_min)

    def ranks(self) -> list[str]:
        """The ranks of which the player holds naturals, highest first."""
        return [r for r in RANKS if self.naturals.get(r)]


def is_wild(rules: Variant, card: str) -> bool:
    name = wild_param(card)  # open (twos in da-ludo): counted wild; the rulings say it is open
    return name is not None and bool(known(rules, name, True))


def usable_cards(situation: Situation, rules: Variant, hand: tuple[str, ...]) -> tuple[str, ...]:
    """The hand less the pile's cards taken this turn, where those may not be melded until the next."""
    if situation.drew == "pile" and situation.cards_from_pile and \
            known(rules, "pile.cards_usable_same_turn", True) is False:
        return tuple((Counter(hand) - Counter(situation.cards_from_pile)).elements())
    return hand


def view(situation: Situation, rules: Variant, after_draw: bool) -> HandView:
    """The hand counted by rank; after the draw only the cards the player may lay this turn."""
    hand = tuple(situation.hand or ())
    usable = usable_cards(situation, rules, hand) if after_draw else hand
    naturals: dict[str, list[str]] = {}
    wilds, blacks, reds = [], [], []
    for card in sorted(usable, key=_order):
        if is_red_three(card):
            reds.append(card)
        elif is_wild(rules, card):
            wilds.append(card)
        elif is_black_three(card):
            blacks.append(card)
        else:
            naturals.setdefault(rank(card), []).append(card)
    out = HandView(rules, naturals, [], blacks, reds, [], usable, hand, Shape(rules))
    out.wilds = sorted(wilds, key=lambda c: (out.value(c), c))
    out.team = [_team_meld(rules, m) for m in situation.team.melds or ()]
    if melds_unlisted(situation):
        out.unlisted = True
        out.said = frozenset(r for r, has in situation.team.ranks if has)
        out.said_not = frozenset(r for r, has in situation.team.ranks if not has)
    return out


def opening_unsaid(situation: Situation) -> bool:
    """Whether nobody said if the team has opened (no melds listed, no ``opened``, nothing that implies it):
    the engine asks it (:meth:`~adjudicator.model.situation.Situation.need_team_opened`), so the options are
    those of both cases, each ruled on the table as given -- never those of a team yet to open alone."""
    team = situation.team
    return team.melds is None and team.opened is None and not situation.team_has_opened()


def melds_unlisted(situation: Situation) -> bool:
    """Whether the team has, or may have, melds on the table that are not listed: a move onto them is ruled
    with a condition, and one that needs their cards (a wild card onto one) cannot be listed."""
    return situation.team.melds is None and (situation.team_has_opened() or opening_unsaid(situation))


def _team_meld(rules: Variant, cards) -> TeamMeld:
    naturals = [c for c in cards if not is_wild(rules, c)]
    ranks = {rank(c) for c in naturals}
    return TeamMeld(ranks.pop() if len(ranks) == 1 else None, tuple(cards), len(naturals),
                    len(cards) - len(naturals))


def _order(card: str) -> tuple:
    """A fixed order for cards of a rank (so that the same hand always gives the same options)."""
    return (RANKS.index(rank(card)) if card != JOKER else len(RANKS), card)


def players_figure(rules: Variant, situation: Situation, name: str):
    """A by-players figure for this table, or None where the player count or the text does not give it."""
    from ..rules.turn import by_players
    return answer(rules, lambda judge: by_players(judge, situation, name))
