"""Rulings: decide one action in one situation under one variant.

Each handler reads only the facts and parameters its checks need, so a
missing fact or an unstated rule makes just those checks undetermined. All
variant facts come from parameters; nothing here names a variant.
"""

from __future__ import annotations

from collections import Counter

from . import house_rules
from .actions import LABELS as LABELS_BY_TYPE, Action, check_in_hand, parse_action
from .cards import JOKER, is_black_three, is_red_three, rank
from .errors import InputError, UnknownVariant
from .melds import check_meld, is_canasta, natural_rank, split
from .parameters import band_for
from .ruling import NotStated, RulingContext
from .situation import MissingFact, Situation, all_cards, card_locations, check_deck


def adjudicate(payload: dict, variants: dict) -> dict:
    """Rule on ``{variant, situation, action, house_rules?}``; raise InputError on impossible input."""
    return adjudicate_traced(payload, variants)[0]


def adjudicate_traced(payload: dict, variants: dict) -> tuple[dict, dict[str, list[str]]]:
    """Like :func:`adjudicate`, plus the parameters read by checks that did not apply (rule id -> names).

    Comparisons use the second part to say why a variant never reached a check.
    """
    if not isinstance(payload, dict):
        raise InputError([{"pointer": "", "detail": "the request must be a JSON object"}])
    variant_id = payload.get("variant")
    if not isinstance(variant_id, str) or variant_id not in variants:
        raise UnknownVariant(variant_id, list(variants))
    variant = house_rules.apply(variants[variant_id], payload.get("house_rules"))
    ctx = _rule(variant, payload.get("situation") or {}, payload.get("action"))
    return ctx.result(LABELS_BY_TYPE[ctx.action_type]), ctx.skipped


def _rule(variant, situation_raw: dict, action_raw: dict) -> RulingContext:
    situation = Situation(situation_raw, variant)
    action = parse_action(action_raw)
    check_in_hand(action, situation.hand, situation.pile)
    _check_counts(variant, situation, action)
    ctx = RulingContext(variant)
    ctx.action_type = action.type
    try:
        HANDLERS[action.type](ctx, situation, action)
    except MissingFact as e:
        ctx.missing.append(e.pointer)
    except NotStated as e:
        ctx.not_stated.append(e.name)
    return ctx


def _check_counts(variant, situation: Situation, action: Action) -> None:
    extra = []
    if situation.hand is None:
        extra = [(c, "/action") for c in action.hand_cards()]
    base = situation.base
    laid = []
    for side in ("team", "opponents"):
        n = getattr(situation, side).red_threes
        if n is not None:
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise InputError([{"pointer": f"{base}/{side}/red_threes", "detail": "must be a whole number >= 0"}])
            laid.append((n, f"{base}/{side}/red_threes"))
    check_deck(variant, all_cards(situation) + [c for c, _ in extra], lambda: card_locations(situation, extra), laid)
    for ptr, value in (("stock_count", situation.stock_count), ("team/score", situation.team.score),
                       ("opponents/score", situation.opponents.score)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            raise InputError([{"pointer": f"{base}/{ptr}", "detail": "must be an integer"}])
    if situation.stock_count is not None and situation.stock_count < 0:
        raise InputError([{"pointer": f"{base}/stock_count", "detail": "must be 0 or more"}])
    if situation.has_melded is True and situation.team.melds == []:
        raise InputError([{"pointer": f"{base}/player/has_melded",
                           "detail": "the player cannot have melded while the team has no melds"}])
    if situation.drew not in (None, "stock", "pile"):
        raise InputError([{"pointer": f"{base}/turn/drew", "detail": "must be null, \"stock\" or \"pile\""}])
    if situation.hand is not None and situation.cards_from_pile:
        missing = Counter(situation.cards_from_pile) - Counter(situation.hand)
        if missing:
            raise InputError([{"pointer": f"{base}/turn/cards_from_pile",
                               "detail": f"{sorted(missing)[0]} is not in the player's hand"}])


# --- shared checks ---------------------------------------------------------

def _by_players(ctx, situation: Situation, name: str) -> int:
    table = ctx.param(name)
    if len(set(table.values())) == 1:
        return next(iter(table.values()))
    players = situation.need_players()
    if players not in table:
        raise NotStated(name)
    return table[players]


def _check_drew(ctx, situation: Situation, want_drawn: bool) -> None:
    with ctx.rule("turn.draw_first") as r:
        drew = situation.need_drew()
        ctx.param("turn.draw_first")
        if want_drawn:
            r.result(drew is not None, "You have drawn this turn." if drew else
                     "Draw from the stock or take the pile first; melding and discarding come after.")
        else:
            r.result(drew is None, "Your turn starts with this draw." if drew is None else
                     f"You already drew this turn (from the {drew}); a turn has one draw.")


def _first_round(ctx, situation: Situation, rule_id: str, what: str) -> None:
    """Apply a first-round restriction (rule and parameter share the name); read it only when it can matter."""
    if situation.first_round is False:
        return
    with ctx.rule(rule_id) as r:
        restricted = ctx.param(rule_id)
        if not restricted:
            if situation.first_round:
                r.result(True, f"The text sets no first-round restriction on {what}.")
            return
        first = situation.need_first_round()
        r.result(not first, f"Nobody may {what} before the starting player's second turn."
                 if first else f"The first round is over, so you may {what}.")


def _canastas(ctx, melds: list[list[str]]) -> int:
    return sum(1 for m in melds if is_canasta(ctx, m))


class Table:
    """The team's melds as they will lie after the action, meld by meld."""

    def __init__(self, ctx, existing: list[list[str]]):
        self.ctx = ctx
        self.melds = [list(m) for m in existing]
        self.before = [list(m) for m in existing]
        self.grown: set[int] = set()
        self.new: set[int] = set()

    def find(self, meld_rank: str) -> int | None:
        """The index of the team's meld of ``meld_rank``.

        A meld's rank is that of its natural cards; where the variant leaves
        twos' wildness open, the rank is read from the cards that are surely
        natural, so that the checks on the grown meld can say what is open.
        """
        for i, m in enumerate(self.melds):
            try:
                found = natural_rank(self.ctx, m)
            except NotStated:
                sure = {rank(c) for c in m if c != JOKER and rank(c) != "2"}
                found = sure.pop() if len(sure) == 1 else None
            if found == meld_rank:
                return i
        return None

    def lay(self, cards: list[str], label: str, going_out: bool) -> None:
        """A new meld: check one-per-rank, then its composition."""
        ctx = self.ctx
        try:
            meld_rank = natural_rank(ctx, cards)
        except NotStated:
            meld_rank = None  # check_meld records what the text leaves open
        target = self.find(meld_rank) if meld_rank and not is_black_three(cards[0] if cards else JOKER) else None
        if target is not None:
            with ctx.rule("meld.one_per_rank") as r:
                one = ctx.param("meld.one_per_rank")
                r.result(not one, f"{label}: your team already has a meld of {meld_rank}s; "
                                  f"{'add these cards to it instead' if one else 'a second meld of a rank is allowed'}.")
        self.melds.append(list(cards))
        self.new.add(len(self.melds) - 1)
        check_meld(ctx, cards, label, going_out)

    def add(self, cards: list[str], to: str | None, label: str) -> None:
        """Cards onto the team's meld of a rank; the grown meld must still be legal."""
        ctx = self.ctx
        target_rank = target = None
        with ctx.rule("meld.add.target") as r:
            target_rank = to or natural_rank(ctx, cards)
            if target_rank is None:
                r.result(False, f"{label}: say which meld these cards go onto (use {{\"to\": rank, \"cards\": [...]}}).")
                return
            target = self.find(target_rank)
            r.result(target is not None, f"{label}: your team {'has' if target is not None else 'has no'} "
                                         f"meld of {target_rank}s to add to.")
        if target_rank is None or target is None:
            return
        before = list(self.melds[target])
        self.melds[target] += cards
        self.grown.add(target)
        check_meld(ctx, self.melds[target], f"{label} (the {target_rank} meld after adding)")
        self._mixed_consequence(before, self.melds[target], target_rank)

    def _mixed_consequence(self, before, after, meld_rank) -> None:
        ctx = self.ctx
        try:
            if is_canasta(ctx, before) and not split(ctx, before)[1] and split(ctx, after)[1]:
                if ctx.param("canasta.wild_makes_mixed"):
                    ctx.consequences.append(f"Your natural canasta of {meld_rank}s becomes a mixed canasta.")
        except NotStated:
            pass

    def canastas_before(self) -> int:
        return _canastas(self.ctx, self.before)

    def canastas_after(self) -> int:
        return _canastas(self.ctx, self.melds)


def _lay_all(table: Table, action: Action, going_out: bool) -> None:
    for i, meld in enumerate(action.melds):
        table.lay(meld, f"Meld {i + 1} ({' '.join(meld)})", going_out)
    for i, add in enumerate(action.adds):
        table.add(add.cards, add.to, f"Addition {i + 1} ({' '.join(add.cards)})")


def _requirement(ctx, situation: Situation) -> tuple[int | None, bool, str]:
    """(minimum points, canasta required, description) for the team's cumulative score."""
    score = situation.need_team_score()
    if score < 0:
        points = ctx.param("opening.negative")
        return points, False, f"a team below zero needs {points}"
    bands = ctx.param("opening.bands")
    band = band_for(bands, score)
    span = f"{band['min']}" + (f"-{band['max']}" if band["max"] is not None else " or more")
    if band["canasta_required"]:
        return band["points"], True, f"a team on {span} points must open with a canasta"
    return band["points"], False, f"a team on {span} points needs {band['points']}"


def _check_opening(ctx, situation: Situation, table: Table, groups: list[list[str]],
                   pile_extra: list[str], waived: str | None = None) -> None:
    """The first melds' minimum; ``groups`` are the cards laid this turn from hand (and the top card)."""
    melds = situation.need_team_melds()
    if melds:
        return
    _first_round(ctx, situation, "first_round.no_opening", "open")
    if waived:
        with ctx.rule("opening.minimum") as r:
            ctx.param("concealed.opening_waived_after_stock")
            r.result(True, waived)
        return
    requirement = None
    with ctx.rule("opening.minimum") as r:
        requirement = points, canasta_needed, described = _requirement(ctx, situation)
        values = [sum(ctx.value_of(c) for c in g) for g in groups]
        together = ctx.param("opening.melds_together") if len(groups) > 1 else True
        counted = sum(values) if together else max(values or [0])
        how = "together" if together else "in its best single meld"
        extra_value = sum(ctx.value_of(c) for c in pile_extra)
        if points is not None:
            if counted >= points or not extra_value:
                r.result(counted >= points, f"Your opening counts {counted} points {how}; {described}.")
            else:
                top_only = ctx.param("opening.pile_top_only")
                if top_only:
                    r.result(False, f"Your opening counts {counted} points from your hand and the top card; "
                                    f"the other pile cards ({extra_value}) do not count; {described}.")
                else:
                    r.result(counted + extra_value >= points,
                             f"Your opening counts {counted + extra_value} points with the pile cards; {described}.")
        else:
            r.result(True, f"No point minimum applies; {described}.")
    if requirement is not None and requirement[1]:  # the band demands a canasta
        described = requirement[2]
        with ctx.rule("opening.canasta_required") as r:
            ctx.param("opening.bands")  # cite the band table this check rests on
            has = any(is_canasta(ctx, table.melds[i]) for i in table.new | table.grown)
            r.result(has, f"{described[0].upper()}{described[1:]}; your opening "
                          f"{'includes' if has else 'does not include'} one.")


def _pile_cards_used(situation: Situation, action: Action) -> list[str]:
    """Cards the action melds that can only have come from the pile this turn."""
    laid = Counter(action.laid_cards())
    if action.type == "take_pile":
        hand_left = Counter(situation.need_hand()) - Counter(action.with_cards)
        return sorted((laid - hand_left).elements())
    if situation.drew != "pile" or not situation.cards_from_pile:
        return []
    own = Counter(situation.need_hand()) - Counter(situation.cards_from_pile)
    return sorted((laid - own).elements())


def _check_pile_cards(ctx, situation: Situation, action: Action) -> list[str]:
    if action.type != "take_pile" and (situation.drew != "pile" or not situation.cards_from_pile):
        return []
    if not action.laid_cards():
        return []
    used: list[str] = []
    with ctx.rule("pile.cards_same_turn") as r:
        used = _pile_cards_used(situation, action)
        if used:
            ok = ctx.param("pile.cards_usable_same_turn")
            r.result(bool(ok), f"You meld {', '.join(used)} from the pile this turn; "
                     + ("the pile's cards may be used at once." if ok else
                        "only the top card may be used in the turn the pile is taken."))
    return used


def _hand_size(situation: Situation) -> int:
    if situation.hand is not None:
        return len(situation.hand)
    count = situation.raw.get("player", {}).get("hand_count") if isinstance(situation.raw.get("player"), dict) else None
    if isinstance(count, int) and not isinstance(count, bool):
        return count
    raise MissingFact(f"{situation.base}/player/hand")


def _check_keep_card(ctx, situation: Situation, table: Table, cards_left: int, going_out: bool) -> None:
    """Getting rid of the last card is going out: the canasta requirement applies."""
    with ctx.rule("go_out.canasta_required" if going_out else "go_out.keep_card") as r:
        need = _by_players(ctx, situation, "go_out.canastas_required")
        have = table.canastas_after()
        if going_out or cards_left < (2 if cards_left >= 0 else 0):
            if need == 0:
                r.result(True, "The text makes no canasta a condition of going out.")
                if have == 0 and ctx.param("score.no_canasta_all_negative"):
                    ctx.consequences.append("Your team has no canasta this round: all its points in the round, "
                                            "table and hand, count as minus.")
                return
            completed_now = table.canastas_before() < need <= have
            if completed_now:
                same_turn = ctx.param("go_out.canasta_same_turn")
                r.result(bool(same_turn), "A canasta completed this turn counts for going out."
                         if same_turn else "The canasta must be complete before the going-out turn.")
                return
            if going_out:
                r.result(have >= need, f"Your team has {have} canasta(s); {need} needed to go out.")
            else:
                r.result(have >= need, f"You would keep {cards_left} card(s) and could not discard without going "
                                       f"out, but your team has {have} of the {need} canasta(s) needed to go out."
                         if have < need else "Your team has its canastas, so it may go out.")


# --- handlers ----------------------------------------------------------------

def rule_draw(ctx, situation: Situation, action: Action) -> None:
    _check_drew(ctx, situation, want_drawn=False)
    stock = None
    with ctx.rule("stock.empty") as r:
        stock = situation.need_stock_count()
        if stock == 0:
            ends = ctx.param("stock.empty_round_ends")
            r.result(True, "The stock is empty: the round ends when a player must draw." if ends else
                     "The stock is empty.")
            if ends:
                ctx.consequences.append("The stock is empty, so the round ends here.")
    if stock == 0:
        _forced_take(ctx, situation)
        return
    with ctx.rule("draw.count") as r:
        n = _by_players(ctx, situation, "draw.cards")
        r.result(True, f"A draw takes {n} card{'s' if n > 1 else ''} from the stock.")
        ctx.consequences.append(f"Draw {n} card{'s' if n > 1 else ''} from the stock"
                                + ("; lay out any red three at once and draw a replacement." if
                                   _safe(ctx, "red_three.replaced") else "."))
    if stock == 1 and _safe(ctx, "stock.last_red_three_ends", quiet=True):
        ctx.consequences.append("If this last card is a red three, lay it out; the round stops at once, "
                                "without melding or discarding.")


def _safe(ctx, name: str, quiet: bool = False):
    """A parameter for a consequence: None when unstated (consequences never decide a verdict)."""
    entry = ctx.variant.entry(name)
    if quiet and entry.status == "not_stated" and not entry.house_rule:
        return None
    try:
        return ctx.param(name)
    except NotStated:
        return None


def _forced_take(ctx, situation: Situation) -> None:
    with ctx.rule("stock.empty.forced_take") as r:
        if not ctx.param("stock.empty_forced_take"):
            return
        pile = situation.need_pile()
        melds = situation.need_team_melds()
        if not pile:
            r.result(True, "The pile is empty too, so nothing must be taken.")
            return
        top = pile[-1]
        frozen = _frozen_reasons(ctx, situation, pile, melds)
        fits = any(natural_rank(ctx, m) == rank(top) for m in melds) and not ctx.wild(top)
        must = fits and not frozen
        r.result(not must, f"The stock is empty and the unfrozen pile's top card {top} fits your team's meld, "
                           f"so you must take the pile instead of drawing." if must else
                 "The stock is empty and the pile is frozen or its top card fits no team meld, so drawing ends "
                 "the round.")


def _frozen_reasons(ctx, situation: Situation, pile: list[str], team_melds: list[list[str]]) -> list[str]:
    freezers = ctx.param("pile.frozen_by")
    reasons = []
    if "joker" in freezers and JOKER in pile:
        reasons.append("a joker lies in the pile")
    if "two" in freezers and any(c != JOKER and c[:-1] == "2" for c in pile):
        if ctx.wild("2S"):
            reasons.append("a wild two lies in the pile")
    if "red_three_upcard" in freezers and pile and is_red_three(pile[0]):
        reasons.append("a red three started the pile")
    if "black_three" in freezers and any(is_black_three(c) for c in pile):
        reasons.append("a black three lies in the pile")
    if not team_melds:
        before = ctx.param("pile.before_opening")
        if before == "frozen":
            reasons.append("your team has not opened")
    return reasons


def rule_take_pile(ctx, situation: Situation, action: Action) -> None:
    _check_drew(ctx, situation, want_drawn=False)
    _first_round(ctx, situation, "first_round.no_pile", "take the pile")
    pile: list[str] | None = None
    with ctx.rule("pile.empty") as r:
        pile = situation.need_pile()
        ctx.param("turn.draw_first")
        if not pile:
            r.result(False, "The pile is empty; there is no top card to take.")
    if not pile:
        return
    top = pile[-1]
    if not _top_usable(ctx, top):
        return
    if len(pile) == 1:
        with ctx.rule("pile.one_card_rule") as r:
            if ctx.param("pile.one_card_rule"):
                size = _hand_size(situation)
                r.result(size != 1, "You hold one card and the pile has one card; you may not take it."
                         if size == 1 else "The one-card rule does not apply: you hold more than one card.")
    melds = situation.need_team_melds()
    if not melds:
        with ctx.rule("pile.before_opening") as r:
            before = ctx.param("pile.before_opening")
            if before == "forbidden":
                r.result(False, "Your team has not opened, and a team may not take the pile before its first meld.")
            elif before == "allowed":
                r.result(True, "Your team has not opened; it may take the pile if this take meets the opening "
                               "minimum.")
    frozen: list[str] = []
    with ctx.rule("pile.frozen.natural_pair") as r:
        frozen = _frozen_reasons(ctx, situation, pile, melds)
    table = Table(ctx, melds)
    if not action.with_cards:
        _take_onto_meld(ctx, table, top, frozen)
    else:
        _take_with_hand(ctx, table, top, action.with_cards, frozen)
    _lay_all(table, action, going_out=False)
    pile_used = _check_pile_cards(ctx, situation, action)
    groups = [[top] + action.with_cards] + [list(m) for m in action.melds] + [list(a.cards) for a in action.adds]
    _check_opening(ctx, situation, table, _without(groups, pile_used), pile_used)
    rest = len(pile) - 1
    ctx.consequences.append(f"Take the other {rest} card{'s' if rest != 1 else ''} of the pile into your hand."
                            if rest else "The pile held only its top card.")
    if rest and _safe(ctx, "pile.cards_usable_same_turn") is False:
        ctx.consequences.append("Only the top card may be used this turn; the rest of the pile waits for your "
                                "next turn.")
    if any(is_red_three(c) for c in pile[:-1]):
        ctx.consequences.append("Lay out the red threes that came with the pile.")


def _without(groups: list[list[str]], used_from_pile: list[str]) -> list[list[str]]:
    """The groups with the pile cards (beyond the top card) taken out, for the opening count."""
    left = Counter(used_from_pile)
    out = []
    for i, g in enumerate(groups):
        kept = []
        for c in g:
            if i > 0 and left[c] > 0:
                left[c] -= 1
            else:
                kept.append(c)
        out.append(kept)
    return out


def _top_usable(ctx, top: str) -> bool:
    if is_red_three(top):
        with ctx.rule("pile.top.red_three") as r:
            ctx.param("red_three.laid_out")
            r.result(False, f"The top card {top} is a red three, which is never melded.")
        return False
    if is_black_three(top):
        with ctx.rule("pile.top.black_three") as r:
            blocks = ctx.param("black_three.blocks_next_player")
            freezes = ctx.param("black_three.freezes_pile")
            if blocks or freezes:
                r.result(False, f"A black three ({top}) on top "
                         + ("blocks the pile for the next player." if blocks else
                            "freezes the pile; it can be taken only when a natural card is on top."))
                return False
            r.result(False, "A black three on top cannot be melded before going out.")
        return False
    with ctx.rule("pile.top.wild") as r:
        if ctx.wild(top):
            allowed = ctx.param("pile.take_wild_top")
            r.result(bool(allowed), f"The top card {top} is a wild card; "
                     + ("it may be taken." if allowed else "the pile cannot be taken with a wild card on top."))
    return not r.decided or r.passed is True


def _take_onto_meld(ctx, table: Table, top: str, frozen: list[str]) -> None:
    if frozen:
        with ctx.rule("pile.frozen.add_to_meld") as r:
            ok = ctx.param("pile.frozen_add_to_meld_only")
            r.result(bool(ok), f"The pile is frozen ({'; '.join(frozen)}): "
                     + ("its top card may still go onto your meld." if ok else
                        f"adding {top} to a meld is not enough; you need two natural {rank(top)}s from your hand."))
        if not ctx.variant.value("pile.frozen_add_to_meld_only"):
            with ctx.rule("pile.frozen.natural_pair") as r:
                ctx.param("pile.frozen_natural_pair")
                r.result(False, f"The pile is frozen ({'; '.join(frozen)}): you need two natural {rank(top)}s "
                                "from your hand with the top card.")
            return
    else:
        with ctx.rule("pile.unfrozen.add_to_meld") as r:
            ok = ctx.param("pile.unfrozen_add_to_meld")
            target = table.find(rank(top))
            r.result(bool(ok) and target is not None,
                     f"The top card {top} goes onto your team's meld of {rank(top)}s."
                     if target is not None and ok else
                     f"Your team has no meld of {rank(top)}s for the top card {top}; show two cards from your hand "
                     "that meld with it." if ok else "The top card must be melded with cards from your hand.")
        if target is None:
            return
    table.add([top], rank(top), f"The top card {top}")


def _take_with_hand(ctx, table: Table, top: str, with_cards: list[str], frozen: list[str]) -> None:
    top_rank = rank(top)
    matching = [c for c in with_cards if c != JOKER and rank(c) == top_rank]
    if frozen:
        with ctx.rule("pile.frozen.natural_pair") as r:
            ctx.param("pile.frozen_natural_pair")
            wild_shown = []
            try:
                wild_shown = [c for c in with_cards if ctx.wild(c)]
            except NotStated:
                pass
            r.result(len(matching) >= 2,
                     f"The pile is frozen ({'; '.join(frozen)}), so you need two natural {top_rank}s from your hand; "
                     + (f"you show {len(matching)}." if len(matching) >= 2 else
                        f"you show {len(matching)} natural {top_rank}"
                        + (f" and {', '.join(wild_shown)}; a wild card does not count." if wild_shown else ".")))
    else:
        with ctx.rule("pile.unfrozen.natural_and_wild") as r:
            if len(matching) >= 2:
                r.result(True, f"You show a natural pair of {top_rank}s for the top card.")
            elif len(matching) == 1:
                others = [c for c in with_cards if c not in matching]
                wild = [c for c in others if ctx.wild(c)]
                if not wild:
                    r.result(False, f"You show one natural {top_rank}"
                                    + (f" and {', '.join(others)}, which is not wild" if others else "")
                                    + "; the top card needs a natural pair, or a natural card and a wild card.")
                else:
                    ok = ctx.param("pile.unfrozen_natural_and_wild")
                    r.result(bool(ok), f"You show one natural {top_rank} and the wild card {wild[0]}; "
                             + ("that is enough for an unfrozen pile." if ok else "a natural pair is needed."))
            else:
                r.result(False, f"You show no natural {top_rank} to meld with the top card {top}.")
    target = table.find(top_rank)
    group = [top] + list(with_cards)
    if target is not None:
        with ctx.rule("meld.one_per_rank") as r:
            one = ctx.param("meld.one_per_rank")
            r.result(True, f"Your team has a meld of {top_rank}s; "
                     + ("these cards go onto it." if one else "a second meld of that rank is allowed."))
        if ctx.variant.value("meld.one_per_rank"):
            table.add(group, top_rank, f"The top card {top} with {' '.join(with_cards)}")
            return
    table.lay(group, f"The top card {top} with {' '.join(with_cards)}", going_out=False)


def rule_meld(ctx, situation: Situation, action: Action) -> None:
    _check_drew(ctx, situation, want_drawn=True)
    table = Table(ctx, situation.need_team_melds())
    _lay_all(table, action, going_out=False)
    _check_pile_cards(ctx, situation, action)
    _check_opening(ctx, situation, table, [list(m) for m in action.melds], [])
    left = _hand_size(situation) - len(action.laid_cards())
    if left <= 1:
        _check_keep_card(ctx, situation, table, left, going_out=False)


def rule_go_out(ctx, situation: Situation, action: Action) -> None:
    _check_drew(ctx, situation, want_drawn=True)
    with ctx.rule("go_out.all_cards") as r:
        hand = situation.need_hand()
        left = Counter(hand) - Counter(action.hand_cards())
        if action.discard:
            ok = ctx.param("go_out.discard_last")
            how = "melding all but one card and discarding it"
        else:
            ok = ctx.param("go_out.meld_all")
            how = "melding every card"
        if left:
            r.result(False, f"{sum(left.values())} card(s) would stay in your hand ({' '.join(sorted(left.elements()))}); "
                            "going out gets rid of every card.")
        else:
            r.result(bool(ok), f"You go out by {how}" + (", as the text allows." if ok else
                                                         ", which the text does not allow."))
    table = Table(ctx, situation.need_team_melds())
    _lay_all(table, action, going_out=True)
    _check_pile_cards(ctx, situation, action)
    _check_keep_card(ctx, situation, table, 0, going_out=True)
    waived = _concealed(ctx, situation, action, table)
    _check_opening(ctx, situation, table, [list(m) for m in action.melds], [], waived=waived)


def _concealed(ctx, situation: Situation, action: Action, table: Table) -> str | None:
    """Record the concealed bonus as a consequence; return why the opening minimum is waived, if it is.

    A player whose team has no melds cannot have melded before, so ``has_melded``
    need not be given then; otherwise an unknown ``has_melded`` leaves the bonus open.
    """
    has_melded = situation.has_melded
    if has_melded is None and situation.team.melds == []:
        has_melded = False
    if has_melded is None:
        ctx.consequences.append("Whether this go-out earns the concealed bonus depends on "
                                f"{situation.base}/player/has_melded.")
        return None
    if has_melded:
        return None
    if not _safe(ctx, "concealed.allowed"):
        return None
    reasons = []
    if _safe(ctx, "concealed.no_add_to_partner") and action.adds:
        reasons.append("it adds to the partner's melds")
    new_canasta = any(is_canasta(ctx, m) for m in action.melds)
    if _safe(ctx, "concealed.needs_canasta_in_turn") and not new_canasta:
        reasons.append("it lays down no complete canasta")
    bonus = _safe(ctx, "score.concealed_extra")
    if reasons:
        ctx.consequences.append(f"This is not a concealed go-out ({'; '.join(reasons)}): no concealed bonus.")
        return None
    ctx.consequences.append(f"You go out concealed: your team scores the extra {bonus} for it.")
    if _safe(ctx, "concealed.opening_waived_after_stock") and situation.drew == "stock" and new_canasta:
        return "After drawing from the stock, a concealed go-out with a complete canasta need not meet the " \
               "opening minimum."
    return None


def rule_discard(ctx, situation: Situation, action: Action) -> None:
    _check_drew(ctx, situation, want_drawn=True)
    card = action.discard
    if is_red_three(card):
        with ctx.rule("red_three.never_melded") as r:
            ctx.param("red_three.laid_out")
            r.result(False, f"{card} is a red three: it is laid out at once, never kept or discarded.")
        return
    left = _hand_size(situation) - 1
    if left == 0:
        table = Table(ctx, situation.need_team_melds())
        with ctx.rule("go_out.all_cards") as r:
            ok = ctx.param("go_out.discard_last")
            r.result(bool(ok), "Discarding your last card goes out" + (", as the text allows." if ok else
                                                                       "; the text does not allow that."))
        _check_keep_card(ctx, situation, table, 0, going_out=True)
    _discard_consequences(ctx, card)


def _discard_consequences(ctx, card: str) -> None:
    freezers = _safe(ctx, "pile.frozen_by") or []
    try:
        wild = ctx.wild(card)
    except NotStated:
        wild = None
    if wild and (("joker" in freezers and card == JOKER) or ("two" in freezers and card != JOKER)):
        ctx.consequences.append(f"The wild card {card} freezes the pile for everyone; lay it crosswise.")
    if is_black_three(card):
        if _safe(ctx, "black_three.freezes_pile"):
            ctx.consequences.append("The black three freezes the pile until it is taken.")
        elif _safe(ctx, "black_three.blocks_next_player"):
            ctx.consequences.append("The black three blocks the pile for the next player.")


HANDLERS = {"draw": rule_draw, "take_pile": rule_take_pile, "meld": rule_meld, "go_out": rule_go_out,
            "discard": rule_discard}
