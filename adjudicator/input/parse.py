"""Requests into typed objects: the one place that knows the input rules.

Takes a request as JSON has it, in the shape ``openapi.yaml`` describes (the
web layer's schemas check member names, JSON types and sizes), and returns
typed :class:`~adjudicator.model.situation.Situation`, :class:`~adjudicator.model.actions.Action`
and score objects. Everything that needs the rules to judge is checked here,
once, with a JSON pointer for every refusal:

* which variant, and its house rules;
* card codes; more copies of a card (or red threes) than the variant's deck holds;
* a player count the variant has no rules for;
* what each action type needs, and cards it takes that the player does not hold;
* a table that cannot happen (a player who melded while the team has no melds);
* a score: one round (``teams``) or a game (``rounds``), cards or counts, team
  counts, names, who went out;
* the options of a situation (``/v1/options``): the situation alone;
* a comparison: rulings, scores or options, and which variants.

Refusals are :class:`~adjudicator.model.errors.MalformedRequest` (the parts do not fit
together), :class:`~adjudicator.model.errors.ImpossibleInput` (the table cannot happen),
or :class:`~adjudicator.model.errors.UnknownVariant`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Iterable

from ..model import cards as card_codes
from . import house_rules, shape
from ..model.actions import ACTION_TYPES, Action, Add
from ..model.errors import COUNTED, MAX_ISSUES, AdjudicatorError, ImpossibleInput, Issue, MalformedRequest, UnknownVariant, issue, pointer
from ..model.messages import Card, Items, Word
from ..model.requests import PENALTY_KINDS, PENALTY_PREFIX, CompareRequest, OptionsRequest, RulingRequest, ScoreRequest, \
    TeamRound
from ..model.situation import NOT_GIVEN, Side, Situation
from ..variants import Variant

DREW = (None, "stock", "pile")
# Penalty kinds are the catalogue's score.penalty_<kind> parameters ("hint", "unverifiable_count").
TABLE_COUNTS = ("melded_points", "natural_canastas", "mixed_canastas")
RULING_MEMBERS = ("situation", "action")
SCORE_MEMBERS = ("teams", "rounds")


# ----------------------------------------------------------------------------------------------
# Variants


def variant(variants: dict[str, Variant], variant_id: Any, at: str = "/variant") -> Variant:
    """The loaded variant with this id, or :class:`UnknownVariant`."""
    found = variants.get(variant_id) if isinstance(variant_id, str) else None
    if found is None:
        raise UnknownVariant(variant_id, list(variants), pointer=at)
    return found


def rules(variants: dict[str, Variant], payload: dict) -> Variant:
    """The request's variant with its house rules applied."""
    return house_rules.apply(variant(variants, payload.get("variant")), payload.get("house_rules"))


# ----------------------------------------------------------------------------------------------
# Cards


def card_list(value: Any, at: str, issues: list[Issue]) -> tuple[str, ...]:
    """A list of card codes in canonical form, one issue per code that names no card."""
    get = card_codes.CANONICAL.get
    try:
        out = [get(code) for code in value]
    except TypeError:  # an unhashable item where a code should be
        out = [None]
    if None not in out:
        return tuple(out)
    out = []
    for i, code in enumerate(value):  # the slow path: 10/T, suit symbols, lower case, and faults
        try:
            out.append(card_codes.parse(code))
        except card_codes.CardError:  # past MAX_ISSUES a fault is counted, not worded
            issues.append(issue(f"{at}/{i}", "error.card_code", code=str(code)) if len(issues) < MAX_ISSUES
                          else COUNTED)
    return tuple(out)


def meld_list(value: Any, at: str, issues: list[Issue]) -> tuple[tuple[str, ...], ...]:
    return tuple(card_list(meld, f"{at}/{i}", issues) for i, meld in enumerate(value))


def one_card(code: Any, at: str, issues: list[Issue]) -> str | None:
    try:
        return card_codes.parse(code)
    except card_codes.CardError:
        issues.append(issue(at, "error.card_code", code=str(code)))
        return None


def deck_issues(rules: Variant, shown: list[str], locate: Callable[[], Iterable[tuple[str, str]]],
                red_threes_laid: list[tuple[int, str]]) -> list[Issue]:
    """An issue at the first card of each kind that the variant's deck cannot hold so many of.

    ``shown`` is every card in play; ``locate()`` gives the same cards with their
    pointers and is called only when there is a fault to point at. ``red_threes_laid``
    are the laid-out red threes, each count with its pointer.
    """
    decks, jokers = rules.value("deck.decks"), rules.value("deck.jokers")
    counts = Counter(shown)
    red_limit = rules.red_threes_in_deck
    laid = sum(n for n, _ in red_threes_laid)
    most = max(counts.values(), default=0)
    fits = most <= decks and counts[card_codes.JOKER] <= jokers or \
        not [c for c, n in counts.items() if n > (jokers if c == card_codes.JOKER else decks)]
    if fits and laid + counts["3H"] + counts["3D"] <= red_limit:
        return []
    issues, seen = [], Counter()
    for card, at in locate():
        seen[card] += 1
        limit = jokers if card == card_codes.JOKER else decks
        if seen[card] == limit + 1:
            issues.append(issue(at, "error.too_many_copies", variant=rules.ref, card=Card(card), limit=limit))
    reds = counts["3H"] + counts["3D"]
    if laid + reds > red_limit:  # point at the laid-out count that passes the limit, else the first one
        running, at = reds, red_threes_laid[0][1] if red_threes_laid else ""
        for n, where in red_threes_laid:
            running += n
            if running > red_limit:
                at = where
                break
        issues.append(issue(at, "error.too_many_red_threes", variant=rules.ref, count=laid + reds, limit=red_limit))
    return issues


def players(rules: Variant, value: Any, at: str, required: bool) -> int | None:
    """The player count: one the variant has rules for; absent means the only one it knows, if one."""
    supported = rules.value("players.supported")
    if value is None:
        if len(supported) == 1:
            return supported[0]
        if required:
            raise ImpossibleInput([issue(at, "error.players_required", variant=rules.ref,
                                         supported=_counts(supported))])
        return None
    if int(value) not in supported:
        raise ImpossibleInput([issue(at, "error.players_unsupported", variant=rules.ref,
                                     supported=_counts(supported), players=int(value))])
    return int(value)


def _counts(values) -> str:
    return ", ".join(map(str, values))


# ----------------------------------------------------------------------------------------------
# Rulings


def ruling_request(payload: Any, variants: dict[str, Variant]) -> RulingRequest:
    """Parse ``{variant, situation, action, house_rules?}`` and check that the table can happen."""
    return ruling_of(shape.check(payload, "adjudicate", variants), variants)


def ruling_of(payload: dict, variants: dict[str, Variant]) -> RulingRequest:
    """:func:`ruling_request` for a payload whose shape is already checked."""
    ruled = rules(variants, payload)
    act = action(payload.get("action") or {})
    sit = situation(payload.get("situation") or {}, ruled)
    check_table(ruled, sit, act)
    return RulingRequest(ruled, sit, act)


def options_request(payload: Any, variants: dict[str, Variant]) -> OptionsRequest:
    """Parse ``{variant, situation, house_rules?, lang?}`` and check that the table can happen."""
    return options_of(shape.check(payload, "options", variants), variants)


def options_of(payload: dict, variants: dict[str, Variant]) -> OptionsRequest:
    """:func:`options_request` for a payload whose shape is already checked."""
    ruled = rules(variants, payload)
    sit = situation(payload.get("situation") or {}, ruled)
    check_table(ruled, sit, Action("draw"))  # an action that takes no card: the table's own facts
    return OptionsRequest(ruled, sit)


def situation(raw: dict, rules: Variant, base: str = "/situation") -> Situation:
    """A :class:`Situation` from its JSON (every member optional)."""
    issues: list[Issue] = []
    player = raw.get("player") or {}
    turn = raw.get("turn")
    drew = NOT_GIVEN if not isinstance(turn, dict) or "drew" not in turn else turn["drew"]
    if drew != NOT_GIVEN and drew not in DREW:
        raise MalformedRequest([issue(f"{base}/turn/drew", "error.drew")])
    pile = raw.get("discard_pile")
    hand = player.get("hand")
    taken = (turn or {}).get("cards_from_pile")
    out = Situation(
        players=players(rules, raw.get("players"), f"{base}/players", required=False),
        first_round=raw.get("first_round"),
        stock_count=raw.get("stock_count"),
        pile=None if pile is None else card_list(pile, f"{base}/discard_pile", issues),
        team=_side(raw.get("team"), f"{base}/team", issues),
        opponents=_side(raw.get("opponents"), f"{base}/opponents", issues),
        hand=None if hand is None else card_list(hand, f"{base}/player/hand", issues),
        hand_count=player.get("hand_count"),
        has_melded=player.get("has_melded"),
        drew=drew,
        cards_from_pile=() if taken is None else card_list(taken, f"{base}/turn/cards_from_pile", issues),
        base=base,
    )
    if issues:
        raise ImpossibleInput(issues)
    return out


def _side(raw: dict | None, at: str, issues: list[Issue]) -> Side:
    if raw is None:
        return Side()
    melds = raw.get("melds")
    return Side(raw.get("score"), None if melds is None else meld_list(melds, f"{at}/melds", issues),
                raw.get("red_threes"))


def action(raw: dict, base: str = "/action") -> Action:
    """An :class:`Action` from its JSON; what each type needs is checked here."""
    kind = raw.get("type")
    if kind not in ACTION_TYPES:
        raise MalformedRequest([issue(f"{base}/type", "error.action_type",
                                      types=Items(tuple(Word(t) for t in ACTION_TYPES), ", "))])
    issues: list[Issue] = []
    with_cards: tuple = ()
    melds: tuple = ()
    adds: tuple = ()
    discard = None
    if kind == "take_pile":
        with_cards = card_list(raw.get("with") or [], f"{base}/with", issues)
    if kind in ("take_pile", "meld", "go_out"):
        melds = meld_list(raw.get("melds") or [], f"{base}/melds", issues)
        adds = _adds(raw.get("add") or [], f"{base}/add", issues)
    if kind == "go_out" and raw.get("discard") is not None:
        discard = one_card(raw["discard"], f"{base}/discard", issues)
    if kind == "discard":
        if raw.get("card") is None:
            issues.append(issue(f"{base}/card", "error.discard_without_card"))
        else:
            discard = one_card(raw["card"], f"{base}/card", issues)
    if kind == "meld" and not melds and not adds:
        issues.append(issue(f"{base}/melds", "error.meld_without_melds"))
    if issues:
        raise ImpossibleInput(issues)
    return Action(kind, with_cards, melds, adds, discard)


def _adds(raw: list, at: str, issues: list[Issue]) -> tuple[Add, ...]:
    out = []
    for i, item in enumerate(raw):
        where = f"{at}/{i}"
        if isinstance(item, dict):
            to = item.get("to")
            rank = card_codes.parse(f"{to}S")[:-1] if isinstance(to, str) and _is_rank(to) else None
            if rank is None:
                issues.append(issue(f"{where}/to", "error.add_to_rank"))
            out.append(Add(card_list(item.get("cards") or [], f"{where}/cards", issues), rank, where))
        else:
            out.append(Add(card_list(item, where, issues), None, where))
    return tuple(out)


def _is_rank(text: str) -> bool:
    try:
        card_codes.parse(f"{text}S")
        return True
    except card_codes.CardError:
        return False


def check_table(rules: Variant, sit: Situation, act: Action) -> None:
    """Refuse a situation and action that cannot happen together under the variant."""
    _check_in_hand(act, sit.hand, sit.pile)
    base = sit.base
    extra = [(c, "/action") for c in act.hand_cards()] if sit.hand is None else []
    laid = [(n, f"{base}/{name}/red_threes") for name, n in (("team", sit.team.red_threes),
                                                             ("opponents", sit.opponents.red_threes))
            if n is not None]
    issues = deck_issues(rules, sit.cards_shown() + [c for c, _ in extra],
                         lambda: _located(sit, extra), laid)
    if issues:
        raise ImpossibleInput(issues)
    if sit.has_melded is True and sit.team.melds == ():
        raise ImpossibleInput([issue(f"{base}/player/has_melded", "error.melded_without_melds")])
    reds = [issue(f"{base}/{name}/melds/{m}/{i}", "error.red_three_in_meld", card=Card(c))
            for name, side in (("team", sit.team), ("opponents", sit.opponents))
            for m, meld in enumerate(side.melds or ()) for i, c in enumerate(meld) if c in ("3H", "3D")]
    if reds:
        raise ImpossibleInput(reds)
    if sit.first_round and rules.params["first_round.no_opening"].value is True:
        opened = [issue(f"{base}/{name}/melds", "error.melds_in_first_round", variant=rules.ref)
                  for name, side in (("team", sit.team), ("opponents", sit.opponents)) if side.melds]
        if opened:
            raise ImpossibleInput(opened)
    if sit.cards_from_pile and sit.drew in (None, "stock"):
        raise ImpossibleInput([issue(f"{base}/turn/cards_from_pile", "error.pile_cards_without_take")])
    for what, count in (("hand_count", sit.hand_count), ("stock_count", sit.stock_count)):
        if count is not None and count > rules.deck_size:
            at = f"{base}/player/hand_count" if what == "hand_count" else f"{base}/stock_count"
            raise ImpossibleInput([issue(at, "error.more_than_deck", variant=rules.ref, limit=rules.deck_size)])
    if sit.hand is not None and sit.cards_from_pile:
        missing = Counter(sit.cards_from_pile) - Counter(sit.hand)
        if missing:
            raise ImpossibleInput([issue(f"{base}/turn/cards_from_pile", "error.not_in_hand",
                                         card=Card(sorted(missing)[0]), where=Word("hand"))])


def _located(sit: Situation, extra: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Every card of the situation with its pointer (built only to explain a fault)."""
    base = sit.base
    out: list[tuple[str, str]] = []
    if sit.hand is not None:
        out += [(c, f"{base}/player/hand/{i}") for i, c in enumerate(sit.hand)]
    if sit.pile is not None:
        out += [(c, f"{base}/discard_pile/{i}") for i, c in enumerate(sit.pile)]
    for name, side in (("team", sit.team), ("opponents", sit.opponents)):
        for m, meld in enumerate(side.melds or ()):
            out += [(c, f"{base}/{name}/melds/{m}/{i}") for i, c in enumerate(meld)]
    return out + extra


def _check_in_hand(act: Action, hand: tuple | None, pile: tuple | None, base: str = "/action") -> None:
    """Refuse an action that names cards the player cannot hold.

    ``with`` and the cards of melds, additions and discards come from the hand;
    in a take of the pile, melds and additions may also use the pile's cards.
    """
    if hand is None:
        return
    if act.type != "take_pile" and _holds(hand, act.hand_cards()):
        return  # the usual case; the walk below only names the offending cards
    if act.type == "take_pile" and _holds(hand, act.with_cards) and \
            _holds(_minus(hand, act.with_cards) + list(pile[:-1] if pile else ()), act.laid_cards()):
        return
    available = Counter(hand)
    pile_rest = Counter(pile[:-1]) if (act.type == "take_pile" and pile) else None
    issues: list[Issue] = []

    def take(card: str, at: str, extra: Counter | None = None) -> None:
        if available[card] > 0:
            available[card] -= 1
        elif extra is not None and extra[card] > 0:
            extra[card] -= 1
        else:
            issues.append(issue(at, "error.not_in_hand", card=Card(card),
                                where=Word("hand" if extra is None else "hand_or_pile")))

    if act.type == "take_pile":
        for i, c in enumerate(act.with_cards):
            take(c, f"{base}/with/{i}")
    for m, meld in enumerate(act.melds):
        for i, c in enumerate(meld):
            take(c, f"{base}/melds/{m}/{i}", pile_rest)
    for add in act.adds:
        for i, c in enumerate(add.cards):
            take(c, f"{add.pointer}/{i}" if add.to is None else f"{add.pointer}/cards/{i}", pile_rest)
    if act.discard:
        take(act.discard, f"{base}/{'card' if act.type == 'discard' else 'discard'}")
    if issues:
        raise ImpossibleInput(issues)


def _holds(have, need) -> bool:
    """Whether the multiset ``have`` contains ``need`` (plain dict counting: these lists are short)."""
    if not need:
        return True
    counts: dict[str, int] = {}
    for card in have:
        counts[card] = counts.get(card, 0) + 1
    for card in need:
        n = counts.get(card, 0)
        if not n:
            return False
        counts[card] = n - 1
    return True


def _minus(have, used) -> list[str]:
    rest = list(have)
    for card in used:
        rest.remove(card)
    return rest


# ----------------------------------------------------------------------------------------------
# Scores


def score_request(payload: Any, variants: dict[str, Variant]) -> ScoreRequest:
    """Parse ``{variant, players?, house_rules?, teams | rounds}``."""
    return score_of(shape.check(payload, "score", variants), variants)


def score_of(payload: dict, variants: dict[str, Variant]) -> ScoreRequest:
    """:func:`score_request` for a payload whose shape is already checked."""
    ruled = rules(variants, payload)
    form = _score_form(payload)
    count = players(ruled, payload.get("players"), "/players", required=True)
    if form == "teams":
        rounds = (_round(payload["teams"], "", ruled),)
    else:
        rounds = tuple(_round(r.get("teams") or [], f"/rounds/{i}", ruled) for i, r in enumerate(payload["rounds"]))
        _same_teams(rounds)
    return ScoreRequest(ruled, count, rounds, game=form == "rounds")


def _score_form(payload: dict) -> str:
    has = [k for k in SCORE_MEMBERS if payload.get(k) is not None]
    if len(has) == 2:
        raise MalformedRequest([issue("/rounds", "error.teams_and_rounds")])
    if not has:
        raise MalformedRequest([issue("", "error.teams_or_rounds")])
    if not payload[has[0]]:
        raise MalformedRequest([issue(f"/{has[0]}", "error.empty_list")])
    return has[0]


def _round(raw: list, base: str, rules: Variant) -> tuple[TeamRound, ...]:
    if not raw:
        raise MalformedRequest([issue(f"{base}/teams", "error.empty_list")])
    malformed: list[Issue] = []
    issues: list[Issue] = []
    teams = tuple(_team(t, f"{base}/teams/{i}", malformed, issues) for i, t in enumerate(raw))
    if malformed:
        raise MalformedRequest(malformed)
    if not issues:
        issues = _round_issues(teams, base, rules)
    if issues:
        raise ImpossibleInput(issues)
    return teams


def _team(raw: dict, at: str, malformed: list[Issue], issues: list[Issue]) -> TeamRound:
    """One team's round; ``malformed`` collects faults of form, ``issues`` tables that cannot happen."""
    melds, hand = raw.get("melds"), raw.get("hand")
    for k in TABLE_COUNTS:
        if melds is not None and raw.get(k) is not None:
            issues.append(issue(f"{at}/{k}", "error.cards_and_counts", count=Word(k)))
    if hand is not None and raw.get("hand_points") is not None:
        issues.append(issue(f"{at}/hand_points", "error.cards_and_counts", count=Word("hand_points")))
    if raw.get("concealed") and not raw.get("went_out"):
        issues.append(issue(f"{at}/concealed", "error.concealed_without_going_out"))
    penalties = []
    for i, item in enumerate(raw.get("penalties") or []):
        if item.get("kind") not in PENALTY_KINDS:
            malformed.append(issue(f"{at}/penalties/{i}/kind", "error.penalty_kind",
                                   kinds=Items(tuple(Word(k) for k in PENALTY_KINDS), ", ")))
        else:
            penalties.append(item["kind"])
    if not isinstance(raw.get("name"), str) or not raw["name"].strip():
        malformed.append(issue(f"{at}/name", "error.team_name"))
    return TeamRound(
        name=raw.get("name") or "", pointer=at, score_before=int(raw.get("score_before") or 0),
        melds=None if melds is None else meld_list(melds, f"{at}/melds", issues),
        hand=None if hand is None else card_list(hand, f"{at}/hand", issues),
        **{k: None if raw.get(k) is None else int(raw[k]) for k in (*TABLE_COUNTS, "hand_points")},
        red_threes=int(raw.get("red_threes") or 0), went_out=bool(raw.get("went_out")),
        concealed=bool(raw.get("concealed")), penalties=tuple(penalties))


def _round_issues(teams: tuple[TeamRound, ...], base: str, rules: Variant) -> list[Issue]:
    """Facts about the round as a whole: distinct names, one team going out, the deck's limits."""
    issues: list[Issue] = []
    first: dict[str, int] = {}
    for i, team in enumerate(teams):
        if team.name in first:
            issues.append(issue(f"{team.pointer}/name", "error.team_name_twice", other=first[team.name],
                                name=team.name))
        first.setdefault(team.name, i)
    out = [t for t in teams if t.went_out]
    issues += [issue(f"{t.pointer}/went_out", "error.two_went_out", name=out[0].name) for t in out[1:]]
    located = [lc for t in teams for lc in t.located_cards()]
    issues += deck_issues(rules, [c for c, _ in located], lambda: located,
                          [(t.red_threes, f"{t.pointer}/red_threes") for t in teams])
    return issues


def _same_teams(rounds: tuple[tuple[TeamRound, ...], ...]) -> None:
    names = sorted(t.name for t in rounds[0])
    for i, teams in enumerate(rounds[1:], start=1):
        if sorted(t.name for t in teams) != names:
            raise ImpossibleInput([issue(f"/rounds/{i}/teams", "error.teams_differ", names=", ".join(names),
                                         given=", ".join(t.name for t in teams))])


# ----------------------------------------------------------------------------------------------
# Comparisons


def compare_request(payload: Any, variants: dict[str, Variant]) -> CompareRequest:
    """Parse a comparison: what a ruling, a score or the options take, with ``variants`` (default: all) for
    ``variant``."""
    if isinstance(payload, dict) and "variant" in payload and "variants" not in payload:
        raise MalformedRequest([issue("/variant", "error.compare_variant")])
    payload = shape.check(payload, "compare", variants)
    kind = _compare_kind(payload)
    raw = payload.get("variants")
    if raw is None:
        ids = tuple(variants)
    else:
        if not raw:
            raise MalformedRequest([issue("/variants", "error.empty_list")])
        seen: list[str] = []
        for i, vid in enumerate(raw):
            variant(variants, vid, pointer("variants", i))
            if vid in seen:
                raise MalformedRequest([issue(pointer("variants", i), "error.variant_twice", variant=vid)])
            seen.append(vid)
        ids = tuple(seen)
    body = {k: v for k, v in payload.items() if k != "variants"}
    if kind == "ruling":
        action(body["action"])  # an unusable action is wrong under every variant
    # a bad house rule is the request's fault, whichever variant it meets (the check reads no variant)
    house_rules.apply(variants[ids[0]], body.get("house_rules"))
    parse_one = {"options": options_of, "ruling": ruling_of, "score": score_of}[kind]
    asked = []
    for vid in ids:  # the table parsed under each variant: what one finds impossible, another may not
        try:
            asked.append(parse_one({**body, "variant": vid}, variants))
        except UnknownVariant:
            raise
        except AdjudicatorError as e:
            asked.append(e)
    return CompareRequest(kind, ids, tuple(asked))


def _compare_kind(payload: dict) -> str:
    ruling = [k for k in RULING_MEMBERS if payload.get(k) is not None]
    scoring = [k for k in SCORE_MEMBERS if payload.get(k) is not None]
    if ruling and scoring:
        raise MalformedRequest([issue(f"/{scoring[0]}", "error.ruling_and_score",
                                      given=", ".join(ruling + scoring))])
    if scoring:
        _score_form(payload)
        return "score"
    if ruling == ["situation"]:  # a situation alone: compare the options open in it
        return "options"
    if ruling:
        missing = [k for k in RULING_MEMBERS if payload.get(k) is None]
        if missing:
            raise MalformedRequest([issue(f"/{missing[0]}", "error.required")])
        return "ruling"
    raise MalformedRequest([issue("", "error.ruling_or_score")])
