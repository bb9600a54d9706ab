"""Meld composition: the checks every new or grown meld must pass, per variant.

One function serves new melds, melds grown by adding cards, the meld a taken
pile's top card makes, and the melds of a scored round, so that "the limits
still hold" is the same code everywhere. ``subject`` is a message naming the
meld for the reader ("Meld 1 (9H 9S JK)").
"""

from __future__ import annotations

from ..model.cards import JOKER, is_black_three, is_red_three, rank
from .judge import Judge, NotStated, wild_param
from ..model.messages import Card, Message, Rank


def split(judge: Judge, cards) -> tuple[list[str], list[str]]:
    """(naturals, wilds) of a group of cards; may raise NotStated for twos.

    Each wildness parameter (:func:`~adjudicator.rules.judge.wild_param`) is read once per group, at
    its first card (a second read of the same parameter records nothing new): the same parameters, in
    the same order, as reading card by card, and most groups (no joker, no two) read none."""
    naturals: list[str] = []
    wilds: list[str] = []
    wild: dict[str, bool] = {}
    for c in cards:
        name = wild_param(c)
        if name is None:
            naturals.append(c)
            continue
        is_wild = wild.get(name)
        if is_wild is None:
            is_wild = wild[name] = bool(judge.param(name))
        (wilds if is_wild else naturals).append(c)
    return naturals, wilds


def natural_rank(judge: Judge, cards) -> str | None:
    """The one rank of a meld's natural cards (None when they mix ranks or there are none)."""
    naturals, _ = split(judge, cards)
    ranks = {rank(c) for c in naturals}
    return ranks.pop() if len(ranks) == 1 else None


def sure_rank(cards) -> str | None:
    """A meld's rank read from the cards that are natural in every variant (not jokers, not twos).

    Where the text leaves twos' wildness open, this still finds the meld a card
    goes onto, so that the checks on the grown meld can say what is open.
    """
    ranks = {c[:-1] for c in cards if c != JOKER and c[:-1] != "2"}
    return ranks.pop() if len(ranks) == 1 else None


def is_canasta(judge: Judge, cards) -> bool:
    """The one canasta test: enough cards (``canasta.min_cards``)."""
    return len(cards) >= judge.param("canasta.min_cards")


def canastas(judge: Judge, melds) -> int:
    return sum(1 for m in melds if is_canasta(judge, m))


def check_meld(judge: Judge, cards, subject: Message, going_out: bool = False) -> None:
    """Run every composition check on one meld as it will lie on the table."""
    threes = [c for c in cards if c[:-1] == "3"]  # (a joker's code, "JK", is no three)
    if threes:
        reds = [c for c in threes if is_red_three(c)]
        if reds:
            with judge.rule("red_three.never_melded") as check:
                if judge.param("red_three.laid_out"):  # a bonus card, laid out as it comes: never melded
                    check.result(False, "meld.red_three", subject=subject, card=Card(reds[0]))
            if check.decided:
                return
            # where red threes are not laid out, nothing makes a red three other than a card of rank three
        if len(reds) < len(threes):
            _check_black_threes(judge, cards, subject, going_out)  # black threes (a red one among them mixes)
            return
    naturals: list[str] | None = None
    wilds: list[str] = []
    with judge.rule("meld.same_rank") as check:
        judge.cite("meld.min_cards")  # the sentence that defines a meld as cards of one rank (not its size)
        naturals, wilds = split(judge, cards)
        ranks = {rank(c) for c in naturals}
        if len(ranks) > 1:
            check.result(False, "meld.mixed_ranks", subject=subject, ranks=tuple(Rank(r) for r in sorted(ranks)))
        elif ranks:
            check.result(True, "meld.one_rank", subject=subject, rank=Rank(next(iter(ranks))))
    if naturals is None:
        return  # the check above recorded that the text leaves a card's wildness open
    n, w = len(naturals), len(wilds)
    with judge.rule("meld.min_cards") as check:
        least = judge.param("meld.min_cards")
        check.result(len(cards) >= least, "meld.min_cards", subject=subject, count=len(cards), least=least)
    if n == 0:
        with judge.rule("meld.wild_only") as check:
            allowed = judge.param("meld.wild_only_allowed")
            check.result(bool(allowed), "meld.wild_only" if allowed else "meld.wild_only_refused", subject=subject)
    _wild_limits(judge, subject, n, w)


def _wild_limits(judge: Judge, subject: Message, n: int, w: int) -> None:
    """The limits on a meld's natural cards (``n``) and wild cards (``w``): the least natural cards, and where it
    holds wild cards, the most wild cards, the natural majority and the natural cards needed for each wild."""
    with judge.rule("meld.min_naturals") as check:
        least = judge.param("meld.min_naturals")
        check.result(n >= least, "meld.min_naturals", subject=subject, count=n, least=least)
    if w:
        with judge.rule("meld.max_wilds") as check:
            cap = judge.param("meld.max_wilds")
            if cap is not None:
                check.result(w <= cap, "meld.max_wilds", subject=subject, count=w, cap=cap)
        with judge.rule("meld.natural_majority") as check:
            if judge.param("meld.natural_majority"):
                check.result(n > w, "meld.natural_majority", subject=subject, naturals=n, wilds=w)
        with judge.rule("meld.naturals_per_wild") as check:
            ratio = judge.param("meld.naturals_per_wild")
            if ratio:
                check.result(n >= ratio * w, "meld.naturals_per_wild", subject=subject, naturals=n, wilds=w,
                             ratio=ratio)


def _check_black_threes(judge: Judge, cards, subject: Message, going_out: bool) -> None:
    with judge.rule("black_three.going_out_only") as check:
        if judge.param("black_three.meld_only_going_out"):
            check.result(going_out, "black_three.going_out" if going_out else "black_three.not_going_out",
                         subject=subject)
    naturals: list[str] = []
    wilds: list[str] = []
    with judge.rule("black_three.meld") as check:
        naturals, wilds = split(judge, cards)
        others = [c for c in naturals if not is_black_three(c)]
        if others:
            check.result(False, "black_three.mixed", subject=subject, card=Card(others[0]), rank=Rank(rank(others[0])))
            return
        sizes = judge.param("black_three.meld_sizes")
        sizes_word = tuple(sizes)
        wilds_ok = not wilds or bool(judge.param("black_three.meld_wilds_allowed"))
        if wilds and wilds_ok:
            # wild cards stand in for black threes: the meld is sized by all its cards, and holds no more black
            # threes than a meld of them may
            if len(cards) < min(sizes) or len(naturals) > max(sizes):
                check.result(False, "black_three.size_with_wilds", subject=subject, count=len(cards),
                             threes=len(naturals), least=min(sizes), most=max(sizes))
            else:
                check.result(True, "black_three.ok_with_wilds", subject=subject, count=len(naturals),
                             wilds=len(wilds))
        elif len(naturals) not in sizes:
            check.result(False, "black_three.size", subject=subject, count=len(naturals), sizes=sizes_word)
        elif not wilds_ok:
            check.result(False, "black_three.wilds", subject=subject, sizes=sizes_word)
        else:
            check.result(True, "black_three.ok", subject=subject, count=len(naturals), sizes=sizes_word)
    if wilds and check.passed is True:  # the wild cards a meld may hold, as in any meld
        _wild_limits(judge, subject, len(naturals), len(wilds))


def meld_rank_or_open(judge: Judge, cards) -> str | None:
    """The meld's natural rank, or None when the text leaves a card's wildness open."""
    try:
        return natural_rank(judge, cards)
    except NotStated:
        return None
