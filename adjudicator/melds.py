"""Meld composition: the checks every new or grown meld must pass, per variant.

One function serves new melds, melds grown by adding cards, and the meld a
taken pile's top card makes, so that "the limits still hold" is the same code
in every action.
"""

from __future__ import annotations

from .cards import is_black_three, is_red_three, rank


def split(ctx, cards: list[str]) -> tuple[list[str], list[str]]:
    """(naturals, wilds) of a group of cards; may raise NotStated for twos."""
    naturals, wilds = [], []
    for c in cards:
        (wilds if ctx.wild(c) else naturals).append(c)
    return naturals, wilds


def natural_rank(ctx, cards: list[str]) -> str | None:
    naturals, _ = split(ctx, cards)
    ranks = {rank(c) for c in naturals}
    return ranks.pop() if len(ranks) == 1 else None


def is_canasta(ctx, cards: list[str]) -> bool:
    return len(cards) >= ctx.param("canasta.min_cards")


def check_meld(ctx, cards: list[str], label: str, going_out: bool = False) -> None:
    """Run every composition check on one meld as it will lie on the table."""
    reds = [c for c in cards if is_red_three(c)]
    if reds:
        with ctx.rule("red_three.never_melded") as r:
            ctx.param("red_three.laid_out")
            r.result(False, f"{label} holds a red three ({reds[0]}); red threes are bonus cards, never melded.")
        return
    if any(is_black_three(c) for c in cards):
        _check_black_threes(ctx, cards, label, going_out)
        return
    naturals = wilds = None
    with ctx.rule("meld.same_rank") as r:
        ctx.param("meld.min_cards")  # the sentence that defines a meld as cards of one rank
        naturals, wilds = split(ctx, cards)
        ranks = sorted({rank(c) for c in naturals})
        if len(ranks) > 1:
            r.result(False, f"{label} mixes ranks {', '.join(ranks)}; a meld is cards of one rank.")
        elif ranks:
            r.result(True, f"{label} is a meld of {ranks[0]}s.")
    if naturals is None:
        return  # the block above recorded that the text leaves a card's wildness open
    n, w = len(naturals), len(wilds)
    with ctx.rule("meld.min_cards") as r:
        least = ctx.param("meld.min_cards")
        r.result(len(cards) >= least, f"{label} has {len(cards)} cards; a meld needs at least {least}.")
    if n == 0:
        with ctx.rule("meld.wild_only") as r:
            allowed = ctx.param("meld.wild_only_allowed")
            r.result(bool(allowed), f"{label} is wild cards only, which "
                                    f"{'is allowed' if allowed else 'is not a meld'} here.")
    with ctx.rule("meld.min_naturals") as r:
        least = ctx.param("meld.min_naturals")
        r.result(n >= least, f"{label} has {n} natural cards; at least {least} are needed.")
    if w:
        with ctx.rule("meld.max_wilds") as r:
            cap = ctx.param("meld.max_wilds")
            if cap is not None:
                r.result(w <= cap, f"{label} has {w} wild cards; at most {cap} are allowed.")
        with ctx.rule("meld.natural_majority") as r:
            if ctx.param("meld.natural_majority"):
                r.result(n > w, f"{label} has {n} natural and {w} wild cards; natural cards must be the majority.")
        with ctx.rule("meld.naturals_per_wild") as r:
            ratio = ctx.param("meld.naturals_per_wild")
            if ratio:
                r.result(n >= ratio * w, f"{label} has {n} natural cards for {w} wild; "
                                         f"{ratio} natural cards are needed for each wild card.")


def _check_black_threes(ctx, cards: list[str], label: str, going_out: bool) -> None:
    with ctx.rule("black_three.going_out_only") as r:
        only = ctx.param("black_three.meld_only_going_out")
        if only:
            r.result(going_out, f"{label} holds black threes, which may be melded only when going out"
                     + ("; this is a go-out." if going_out else "."))
    with ctx.rule("black_three.meld") as r:
        naturals, wilds = split(ctx, cards)
        others = [c for c in naturals if not is_black_three(c)]
        if others:
            r.result(False, f"{label} mixes black threes with {others[0]}.")
            return
        sizes = ctx.param("black_three.meld_sizes")
        size_ok = len(naturals) in sizes
        wilds_ok = not wilds or bool(ctx.param("black_three.meld_wilds_allowed"))
        rule_text = f"a black-three meld is {' or '.join(map(str, sizes))} black threes"
        if not size_ok:
            r.result(False, f"{label} has {len(naturals)} black threes; {rule_text}.")
        elif not wilds_ok:
            r.result(False, f"{label} holds wild cards; {rule_text} without wild cards.")
        else:
            r.result(True, f"{label} has {len(naturals)} black threes; {rule_text}.")
