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

from typing import Any, Final

from ..model import cards as card_codes
from . import house_rules, shape
from ..model.actions import ACTION_TYPES, Action, Add, action_type
from ..model.enums import ActionType
from ..model.errors import COUNTED, MAX_ISSUES, AdjudicatorError, ImpossibleInput, Issue, MalformedRequest, UnknownVariant, issue, pointer
from ..model.messages import Items, Word
from ..model import requests
from ..model.requests import PENALTY_KINDS, RULING_MEMBERS, SCORE_MEMBERS, CompareRequest, OptionsRequest, RulingRequest, \
    ScoreRequest, TeamRound
from ..model.situation import DRAWN, EMPTY_SIDE, MELD_RANKS, NOT_GIVEN, PileUnnamed, Side, Situation, rank_facts
from ..rules.table_check import deck_issues
from ..variants import Variant

# Final: compiled, each is a static, not a look-up in the module's globals at each use
DREW: Final = requests.DREW
PARTNER_ANSWERS: Final = (None, *requests.PARTNER_ANSWERS)
_CANONICAL: Final[dict[str, str]] = card_codes.CANONICAL  # every canonical code, to itself
# Penalty kinds are the catalogue's score.penalty_<kind> parameters ("hint", "unverifiable_count").
TABLE_COUNTS = ("melded_points", "natural_canastas", "mixed_canastas")
LAYING: Final = (ActionType.TAKE_PILE, ActionType.MELD, ActionType.GO_OUT)  # the actions that may lay melds


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


def _canonical_cards(value: Any) -> tuple[str, ...] | None:
    """The codes of ``value`` when each is canonical already (the usual request), else None."""
    out: list[str] = []
    try:
        for code in value:  # stops at the first code that is not canonical (no `None in out`: == per card)
            card = _CANONICAL.get(code)
            if card is None:
                return None
            out.append(card)
    except TypeError:  # an unhashable item where a code should be
        return None
    return tuple(out)


def card_list(value: Any, at: str, issues: list[Issue], under: str = "") -> tuple[str, ...]:
    """A list of card codes in canonical form, one issue per code that names no card (at ``at + under``: joined
    only for a list with a fault, since nearly every list has none)."""
    known = _canonical_cards(value)
    if known is not None:
        return known
    at += under
    out: list[str] = []
    for i, code in enumerate(value):  # the slow path: 10/T, suit symbols, lower case, and faults
        card = card_codes.canonical(code)
        if card is not None:
            out.append(card)
        else:  # past MAX_ISSUES a fault is counted, not worded
            issues.append(issue(f"{at}/{i}", "error.card_code", code=str(code)) if len(issues) < MAX_ISSUES
                          else COUNTED)
    return tuple(out)


def meld_list(value: Any, at: str, issues: list[Issue], under: str = "") -> tuple[tuple[str, ...], ...]:
    """Melds of card codes in canonical form (:func:`card_list` for each, pointed at ``at + under``)."""
    out = []
    for i, meld in enumerate(value):  # a meld's pointer is written only for a meld with a fault
        cards = _canonical_cards(meld)
        out.append(cards if cards is not None else card_list(meld, f"{at}{under}/{i}", issues))
    return tuple(out)


def one_card(code: Any, at: str, issues: list[Issue]) -> str | None:
    card = card_codes.canonical(code)
    if card is None:
        issues.append(issue(at, "error.card_code", code=str(code)))
    return card


def players(rules: Variant, value: Any, at: str, required: bool) -> int | None:
    """The player count: one the variant has rules for; absent means the only one it knows, if one (else
    None, or with ``required`` an error: :func:`required_players` says so in its type)."""
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
                                     supported=_counts(supported), players=int(value),
                                     parameters=("players.supported",))])
    return int(value)


def required_players(rules: Variant, value: Any, at: str) -> int:
    """:func:`players` where the count must be known (scoring, a replay): an error where it is not."""
    count = players(rules, value, at, required=True)
    assert count is not None  # players() raised instead
    return count


def _counts(values) -> str:
    return ", ".join(map(str, values))


# ----------------------------------------------------------------------------------------------
# Rulings


def ruling_request(payload: Any, variants: dict[str, Variant]) -> RulingRequest:
    """Parse ``{variant, situation, action, house_rules?}`` (:func:`rule` then refuses a table that cannot happen)."""
    return ruling_of(shape.check(payload, "adjudicate", variants), variants)


def ruling_of(payload: dict, variants: dict[str, Variant]) -> RulingRequest:
    """:func:`ruling_request` for a payload whose shape is already checked."""
    ruled = rules(variants, payload)
    act = action(payload.get("action") or {})
    sit = situation(payload.get("situation") or {}, ruled)
    return RulingRequest(ruled, sit, act)  # rule() refuses a table that cannot happen (check_table)


def options_request(payload: Any, variants: dict[str, Variant]) -> OptionsRequest:
    """Parse ``{variant, situation, house_rules?, lang?}`` (:func:`legal_moves` then refuses a table that cannot
    happen)."""
    return options_of(shape.check(payload, "options", variants), variants)


def options_of(payload: dict, variants: dict[str, Variant]) -> OptionsRequest:
    """:func:`options_request` for a payload whose shape is already checked."""
    ruled = rules(variants, payload)
    sit = situation(payload.get("situation") or {}, ruled)
    return OptionsRequest(ruled, sit)  # legal_moves() refuses a table that cannot happen (check_table)


def situation(raw: dict, rules: Variant, base: str = "/situation") -> Situation:
    """A :class:`Situation` from its JSON (every member optional)."""
    issues: list[Issue] = []
    player = raw.get("player") or {}
    turn = raw.get("turn")
    drew = NOT_GIVEN if not isinstance(turn, dict) or "drew" not in turn else turn["drew"]
    if drew != NOT_GIVEN and drew not in DREW:
        raise MalformedRequest([issue(f"{base}/turn/drew", "error.drew")])
    drew = _has_drawn(drew, (turn or {}).get("has_drawn"), f"{base}/turn/has_drawn")
    answer = (turn or {}).get("partner_answer")
    if answer not in PARTNER_ANSWERS:
        raise MalformedRequest([issue(f"{base}/turn/partner_answer", "error.partner_answer")])
    pile = raw.get("discard_pile")
    hand = player.get("hand")
    taken = (turn or {}).get("cards_from_pile")
    out = Situation(  # the cards are canonical here: the constructor keeps them as they are
        players(rules, raw.get("players"), f"{base}/players", required=False),
        raw.get("first_round"),
        raw.get("stock_count"),
        None if pile is None else card_list(pile, base, issues, "/discard_pile"),  # pointers joined on a fault only
        _side(raw.get("team"), base, "/team/melds", issues),
        _side(raw.get("opponents"), base, "/opponents/melds", issues),
        None if hand is None else card_list(hand, base, issues, "/player/hand"),
        player.get("hand_count"),
        player.get("has_melded"),
        drew,
        () if taken is None else card_list(taken, base, issues, "/turn/cards_from_pile"),
        answer,
        base,
        _pile_unnamed(raw.get("pile_unnamed")),
        (turn or {}).get("asked_after_melding"),
        raw.get("stock_empty"),
        player.get("hand_count_at_least"),
    )
    if issues:
        raise ImpossibleInput(issues)
    return out


def _has_drawn(drew: str | None, has_drawn: bool | None, at: str) -> str | None:
    """``turn.drew`` with ``turn.has_drawn`` read into it: ``false`` is the same fact as ``drew: null``, ``true``
    says the player drew without saying where (:data:`~adjudicator.model.situation.DRAWN`); beside ``drew`` it
    must agree with it."""
    if has_drawn is None:
        return drew
    if drew == NOT_GIVEN:
        return DRAWN if has_drawn else None
    if has_drawn != (drew is not None):
        raise ImpossibleInput([issue(at, "error.has_drawn_contradicts")])
    return drew


def _pile_unnamed(raw: dict | None) -> PileUnnamed | None:
    if raw is None:
        return None
    return PileUnnamed(raw.get("wild"), raw.get("black_three"), raw.get("red_three_first"))


def _side(raw: dict | None, base: str, melds_at: str, issues: list[Issue]) -> Side:
    if raw is None:
        return EMPTY_SIDE
    melds = raw.get("melds")
    return Side(raw.get("score"), None if melds is None else meld_list(melds, base, issues, melds_at),
                raw.get("red_threes"), raw.get("opened"), raw.get("canastas"),
                _ranks(raw.get("ranks"), base + melds_at.rpartition("/")[0] + "/ranks", issues),
                raw.get("canastas_at_least"))


def _ranks(raw: dict | None, at: str, issues: list[Issue]) -> tuple[tuple[str, bool], ...]:
    """``ranks`` (rank -> whether the team has a meld of it; null: not known) as the pairs of a
    :class:`Side` (the shape has checked the values); a key that names no rank a meld is made of is pointed at."""
    if not raw:
        return ()
    pairs = []
    for code, has in raw.items():
        where = at + pointer(code)
        if code.upper() not in MELD_RANKS:
            issues.append(issue(where, "error.team_rank"))
        else:
            pairs.append((code, has))
    return rank_facts(pairs) if not issues else ()


def action(raw: dict, base: str = "/action") -> Action:
    """An :class:`Action` from its JSON; what each type needs is checked here."""
    kind = raw.get("type")
    typed = action_type(kind)
    if typed is None:
        raise MalformedRequest([issue(f"{base}/type", "error.action_type",
                                      types=Items(tuple(Word(t) for t in ACTION_TYPES), ", "))])
    issues: list[Issue] = []
    with_cards: tuple = ()
    melds: tuple = ()
    adds: tuple = ()
    discard = None
    if kind == ActionType.TAKE_PILE:
        with_cards = card_list(raw.get("with") or [], base, issues, "/with")
    if kind in LAYING:
        melds = meld_list(raw.get("melds") or [], base, issues, "/melds")
        add = raw.get("add")
        if add:
            adds = _adds(add, f"{base}/add", issues)
    if kind == ActionType.GO_OUT and raw.get("discard") is not None:
        discard = one_card(raw["discard"], f"{base}/discard", issues)
    if kind == ActionType.DISCARD:
        if raw.get("card") is None:
            issues.append(issue(f"{base}/card", "error.discard_without_card"))
        else:
            discard = one_card(raw["card"], f"{base}/card", issues)
    if kind == ActionType.MELD and not melds and not adds:
        issues.append(issue(f"{base}/melds", "error.meld_without_melds"))
    if issues:
        raise ImpossibleInput(issues)
    return Action(typed, with_cards, melds, adds, discard)  # canonical cards: kept as they are


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


# ----------------------------------------------------------------------------------------------
# Scores


def score_request(payload: Any, variants: dict[str, Variant]) -> ScoreRequest:
    """Parse ``{variant, players?, house_rules?, teams | rounds}``."""
    return score_of(shape.check(payload, "score", variants), variants)


def score_of(payload: dict, variants: dict[str, Variant]) -> ScoreRequest:
    """:func:`score_request` for a payload whose shape is already checked."""
    ruled = rules(variants, payload)
    form = _score_form(payload)
    count = required_players(ruled, payload.get("players"), "/players")
    rounds: tuple[tuple[TeamRound, ...], ...]
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
    shown = [c for t in teams for c in t.cards_shown()]  # their pointers are written only when the deck cannot hold them
    issues += deck_issues(rules, shown, lambda: [lc for t in teams for lc in t.located_cards()],
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
    ``variant``.

    What one variant finds impossible another may not, so the table is read under each variant -- but only
    where the variant can change the reading: the action never does, and a situation only through its player
    count (which counts the variant has rules for, with the house rules applied). So the action is read once,
    and the situation once per player count it comes to; each variant's refusal keeps its pointer and words."""
    if isinstance(payload, dict) and "variant" in payload and "variants" not in payload:
        raise MalformedRequest([issue("/variant", "error.compare_variant")])
    payload = shape.check(payload, "compare", variants)
    kind = _compare_kind(payload)
    ids = _variant_ids(payload.get("variants"), variants)
    body = {k: v for k, v in payload.items() if k != "variants"}
    act = action(body["action"]) if kind == "ruling" else None  # an unusable action is wrong under every variant
    # a bad house rule is the request's fault, whichever variant it meets (the check reads no variant)
    house_rules.apply(variants[ids[0]], body.get("house_rules"))
    if kind == "score":
        return CompareRequest(kind, ids, tuple(_each(ids, lambda vid: score_of({**body, "variant": vid}, variants))))
    raw = body.get("situation") or {}
    read: dict[int | None, Situation] = {}  # the situation as read, by the player count it came to

    def one(vid: str):
        ruled = rules(variants, {**body, "variant": vid})
        if read:  # the checks before the player count have passed: only the count can differ
            count = players(ruled, raw.get("players"), "/situation/players", required=False)
            sit = read.get(count)
            if sit is None:
                sit = read[count] = situation(raw, ruled)
        else:
            sit = situation(raw, ruled)
            read[sit.players] = sit
        return RulingRequest(ruled, sit, act) if act is not None else OptionsRequest(ruled, sit)  # act: a ruling

    return CompareRequest(kind, ids, tuple(_each(ids, one)))


def _each(ids: tuple[str, ...], parse_one) -> list:
    """Each variant's typed request, or the error it finds in the input (an unknown variant is the request's)."""
    asked = []
    for vid in ids:
        try:
            asked.append(parse_one(vid))
        except UnknownVariant:
            raise
        except AdjudicatorError as e:
            asked.append(e.with_traceback(None))  # a value now: its frames would hold this list in a cycle
    return asked


def _variant_ids(raw: Any, variants: dict[str, Variant]) -> tuple[str, ...]:
    """The variants asked for (default: every loaded one), each known and named once."""
    if raw is None:
        return tuple(variants)
    if not raw:
        raise MalformedRequest([issue("/variants", "error.empty_list")])
    seen: list[str] = []
    for i, vid in enumerate(raw):
        variant(variants, vid, pointer("variants", i))
        if vid in seen:
            raise MalformedRequest([issue(pointer("variants", i), "error.variant_twice", variant=vid)])
        seen.append(vid)
    return tuple(seen)


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
