"""The shape of a request: which members exist, their JSON types, and the sizes that bound the work.

The first step of :mod:`adjudicator.input.parse`: marshmallow schemas with strict
fields (JSON has exact types: ``"4"`` is not an integer, ``4.0`` is), every
object refusing members it does not define, every list measured before its
items are read. Sizes that are facts of the game come from the loaded
variants: no list of cards (or of melds, or additions) is longer than the
largest deck, no team lays out more red threes than the largest deck holds.
A fault is a :class:`~adjudicator.model.errors.MalformedRequest` whose issues point
into the request and carry message keys (marshmallow's own messages are
mapped to keys here, so they can be put in the reader's language).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

from marshmallow import Schema, ValidationError, fields
from marshmallow.validate import Length, Range

from ..model.errors import MAX_ISSUES, Issue, MalformedRequest, issue
from ..model.errors import pointer as json_pointer
from .fastcheck import compile_schema
from ..model.messages import Message, msg
from .shape_fields import MAX_CARD_LENGTH, MORE, AddItem, BoundedList, CardList, Form, StrictBoolean, StrictInteger, \
    StrictSchema, StrictString, doc
from ..model.actions import ACTION_TYPES
from ..model.requests import ACTION_MEMBERS, DREW, EVENT_KINDS, EVENT_MEMBERS, PARTNER_ANSWERS, PENALTY_KINDS, \
    RULING_MEMBERS, SCORE_MEMBERS
from ..model.situation import MELD_RANK_NAMES
from ..variants import Variant

MAX_VARIANT_ID_LENGTH = 64
MAX_TEAMS = 6
MAX_ROUNDS = 200
MAX_BATCH = 1000  # requests in one batch body
MAX_NAME_LENGTH = 64
MAX_SCORE = 1_000_000  # |cumulative score|; real games end near 10,000
MAX_POINTS = 100_000  # melded or hand points of one team in one round
MAX_COUNT = 55  # canastas of one team in one round
MAX_PENALTIES = 100
MAX_HOUSE_RULES = 200
MAX_VARIANTS = 64
MAX_PLAYERS = 12
MAX_LOG_MOVES = 2000  # moves and events in one replayed round (a round of four rarely takes 200)
RANK_MAX_LENGTH = 4
MAX_RANK_FACTS = 13  # team.ranks: one per rank at most
MAX_LANGUAGE_LENGTH = 35


# ----------------------------------------------------------------------------------------------
# The request schemas


@lru_cache(maxsize=8)
def _schemas(max_cards: int, max_red_threes: int) -> dict[str, Schema]:
    """One instance of each request schema per pair of caps: building one costs more than loading a body.

    The schemas are the one statement of a request's shape: validation reads them (and
    :mod:`adjudicator.input.fastcheck` compiles them), and ``scripts/openapi-requests`` writes openapi.yaml's
    request schemas from them -- their docstrings, the fields' ``metadata`` (:func:`doc`) and their ``Meta.forms``.
    A value the parser checks against a list (an action type, a penalty kind ...) is named in the metadata from
    that very list."""

    def card_list(text: str = "", **kw: Any) -> CardList:
        return CardList(max_cards, metadata=doc(text) if text else {}, **kw)

    def meld_list(text: str = "Melds, each a list of card codes.", **kw: Any) -> BoundedList:
        return BoundedList(card_list(), max_cards, metadata=doc(text), **kw)

    def variant_id_field(**kw: Any) -> StrictString:
        return StrictString(validate=Length(min=1, max=MAX_VARIANT_ID_LENGTH), metadata=doc(
            "A variant id as listed by `GET /v1/variants`; an unknown id is a 404 listing the known ones.",
            examples=["no-pagat"], component="RequestVariantId"), **kw)

    def house_rules_field() -> fields.Dict:
        return fields.Dict(keys=StrictString(validate=Length(min=1, max=MAX_NAME_LENGTH)),
                           values=fields.Raw(allow_none=True), validate=Length(max=MAX_HOUSE_RULES),
                           allow_none=True, metadata=doc(
                               "Parameter name -> value (`null`: none): the table's own settlement of points the\n"
                               "document leaves open (or overrides). Names are the catalogue's\n"
                               "(`GET /v1/variants/{variant_id}` lists them with what each `accepts`);\n"
                               "the engine checks names and values (422 pointing at\n"
                               "`/house_rules/<name>`). A list of opening bands holds at most 12\n"
                               "bands (the texts' own tables have three or four), any other list or\n"
                               "mapping at most 16 items; a longer one is a 422 pointing at it. A\n"
                               "parameter set this way is cited as a house rule instead of the\n"
                               "document.\n", examples=[{"wild.twos": True, "score.going_out": 100}],
                               component="HouseRules"))

    def players_field(**kw: Any) -> StrictInteger:
        return StrictInteger(validate=Range(min=1, max=MAX_PLAYERS), metadata=doc(
            "Players at the table; required unless the variant knows only one player count.", component="Players"),
            **kw)

    def lang_field() -> StrictString:
        return StrictString(validate=Length(min=1, max=MAX_LANGUAGE_LENGTH), metadata=doc(
            "The language of the answer's words (a BCP 47 tag such as `sv`, `nb`, `da`, `en`);\n"
            "the quotes stay in their own language.\n", examples=["sv"], component="RequestLanguage"))

    class AddTo(StrictSchema):
        """Cards onto the team's meld of the rank `to`."""
        to = StrictString(required=True, validate=Length(min=1, max=RANK_MAX_LENGTH),
                          metadata=doc("A rank such as `K` or `10`."))
        cards = card_list(required=True)

    class Side(StrictSchema):
        """A team as the situation shows it; `null` or absent means "not given"."""
        score = StrictInteger(allow_none=True, validate=Range(min=-MAX_SCORE, max=MAX_SCORE), metadata=doc(
            "The team's cumulative score before this round (decides the opening minimum)."))
        melds = meld_list("The team's melds on the table; `[]` says it has not opened.", allow_none=True)
        red_threes = StrictInteger(allow_none=True, validate=Range(min=0, max=max_red_threes),
                                   metadata=doc("Red threes the team has laid out."))
        opened = StrictBoolean(allow_none=True, metadata=doc(
            "Whether the team has opened (melded) this round, for a family that knows it without listing\n"
            "the melds. `false` is the same fact as `melds: []`; `true` with `melds` left out says the team\n"
            "has melds that are not listed: a check that needs them (is there a meld of this rank? what does\n"
            "it hold?) answers `undetermined` with `/situation/team/melds` in `missing`, and a check that does\n"
            "not is ruled. Given beside `melds`, it must agree with them (else 422 `impossible-input`).\n"))
        canastas = StrictInteger(allow_none=True, validate=Range(min=0, max=max_cards // 7), metadata=doc(
            "How many canastas the team has completed, when its melds are not listed (it then has opened).\n"
            "Read for the canastas a team needs to go out; with `melds` given, the melds say it.\n"))
        canastas_at_least = StrictInteger(allow_none=True, validate=Range(min=1, max=max_cards // 7), metadata=doc(
            "The team has completed at least this many canastas (so it has opened), when the family knows\n"
            "no more than that: what a ruling's condition \"does your team have a canasta?\" answered yes\n"
            "sends. A check that a lower bound cannot decide (a canasta completed this very turn against two\n"
            "needed) finds `/situation/team/canastas` missing. Given beside `canastas` or `melds`, it must\n"
            "agree with them (else 422 `impossible-input`).\n"))
        # rank -> whether the team has a meld of it (null: not known); the ranks are MELD_RANK_NAMES, as parse.py checks
        ranks = fields.Dict(
            keys=StrictString(validate=Length(min=1, max=RANK_MAX_LENGTH), metadata={"enum": list(MELD_RANK_NAMES)}),
            values=StrictBoolean(allow_none=True, metadata=doc(
                "Whether the team has a meld of this rank (`null`, or the rank left out, says it is not known).")),
            validate=Length(max=MAX_RANK_FACTS), allow_none=True, metadata=doc(
                "The ranks the team has melded, as a family knows them at a glance without listing the melds:\n"
                "rank (`A`, `K`, `Q`, `J`, `10`, `9` ... `4`) -> `true` (the team has a meld of it, cards not\n"
                "listed; so it has opened), `false` (it has none) or `null` (not known). Read where only whether\n"
                "the team has a meld of a rank matters (one meld per rank): a new meld of nines with `\"9\"` not\n"
                "given (and the melds not listed) answers `undetermined` with `/situation/team/ranks/9` in\n"
                "`missing`. A check that needs that meld's cards still finds `/situation/team/melds` missing.\n"
                "Given beside `melds` (or `opened: false`), it must agree with them (else 422 `impossible-input`\n"
                "pointing at the rank); a key that is no meld's rank is a 422 too.\n"))

    class Player(StrictSchema):
        """The player whose action is ruled on."""
        hand = card_list(allow_none=True)
        hand_count = StrictInteger(allow_none=True, validate=Range(min=0, max=max_cards), metadata=doc(
            "How many cards the hand holds, when the cards themselves are not given."))
        hand_count_at_least = StrictInteger(allow_none=True, validate=Range(min=1, max=max_cards), metadata=doc(
            "The hand holds at least this many cards, for a family that knows no more than that (what a\n"
            "ruling's condition \"how many cards will you have left?\" sends for \"two or more\"). Given\n"
            "beside `hand` or `hand_count`, they must hold at least as many (else 422).\n"))
        has_melded = StrictBoolean(allow_none=True, metadata=doc(
            "Whether this player has melded before in this round (for going out concealed)."))

    class Turn(StrictSchema):
        """What the player has done this turn so far."""
        # "drew": null says the player has not drawn yet; leaving "drew" out says it is not known.
        drew = StrictString(allow_none=True, validate=Length(max=MAX_NAME_LENGTH), metadata=doc(
            "`null`: not drawn yet this turn; `stock` or `pile`: drew there.\n"
            "Leave the member out when it is not known.\n", enum=list(DREW)))
        has_drawn = StrictBoolean(allow_none=True, metadata=doc(
            "Whether the player has drawn this turn, for a family that knows no more than that (what a\n"
            "ruling's condition \"have you drawn this turn?\" sends): `false` is the same fact as\n"
            "`drew: null`; `true` says the player drew without saying where (a check that needs where\n"
            "finds `/situation/turn/drew` missing). Given beside `drew`, it must agree with it (else 422).\n"))
        cards_from_pile = card_list(
            "The cards taken with the pile this turn, bottom first as in `discard_pile`: the last is the\n"
            "pile's top card, listed also once the take has laid it in a meld; the cards below it are\n"
            "those still in the hand. In an opening made after taking the pile,\n"
            "only the top card counts where the variant says so (`opening.pile_top_only`).\n", allow_none=True)
        partner_answer = StrictString(allow_none=True, validate=Length(max=MAX_NAME_LENGTH), metadata=doc(
            "The partner's answer when the player asked \"may I go out?\" this turn; leave it out (or\n"
            "`null`) when the player did not ask. Where the variant's text makes the answer binding\n"
            "(`go_out.ask_partner`, e.g. no-pagat's \"Svaret er bindende.\"), going out after a `no` is\n"
            "illegal, and after a `yes` the turn may not end without going out; `/v1/options` then\n"
            "offers no going out after a `no`. Where the text is silent, the ruling is made under\n"
            "both readings.\n", enum=[None, *PARTNER_ANSWERS]))
        asked_after_melding = StrictBoolean(allow_none=True, metadata=doc(
            "Whether the player had melded this turn before asking the partner (melds beyond the one a\n"
            "take of the pile lays with its top card); leave it out when it is not known. Where the\n"
            "variant's text says when the question is asked (`go_out.ask_partner_when`, e.g. no-pagat's\n"
            "\"rett etter trekk eller opptak av bunken, før videre melding\"), an answer asked after melding,\n"
            "or before the draw (`drew: null`), cannot be in force: the situation is refused (422 at this\n"
            "member, or at `partner_answer`).\n"))

    class PileUnnamed(StrictSchema):
        """Present when the pile holds cards under those `discard_pile` names that nobody named (how many
        is not known), with what the family knows of them. A fact left `null` is missing only where it
        could freeze a pile that nothing else freezes (the ruling is then `undetermined` and names it in
        `missing`)."""
        wild = StrictBoolean(allow_none=True, metadata=doc("A wild card lies among them."))
        black_three = StrictBoolean(allow_none=True, metadata=doc("A black three lies among them."))
        red_three_first = StrictBoolean(allow_none=True, metadata=doc("The pile was started by a red three."))

    class Situation(StrictSchema):
        """Every member is optional; `null` means "not given". A ruling that
        needs a fact that is not given is `undetermined` for that check and
        lists the fact's pointer in `missing`."""
        players = StrictInteger(allow_none=True, validate=Range(min=1, max=MAX_PLAYERS), metadata=doc(
            "Players at the table; must be a count the variant gives rules for (else 422)."))
        first_round = StrictBoolean(allow_none=True, metadata=doc(
            "Whether the starting player has not yet had a second turn."))
        stock_count = StrictInteger(allow_none=True, validate=Range(min=0, max=max_cards),
                                    metadata=doc("Cards left in the stock."))
        stock_empty = StrictBoolean(allow_none=True, metadata=doc(
            "Whether the stock is empty, for a family that knows no more than that (what a ruling's\n"
            "condition \"are there cards left in the stock?\" sends): `true` is the same fact as\n"
            "`stock_count: 0`. Given beside `stock_count`, it must agree with it (else 422).\n"))
        discard_pile = card_list("The discard pile, bottom first; the last card is the top card.", allow_none=True)
        pile_unnamed = fields.Nested(PileUnnamed, allow_none=True)
        team = fields.Nested(Side, allow_none=True)
        opponents = fields.Nested(Side, allow_none=True)
        player = fields.Nested(Player, allow_none=True)
        turn = fields.Nested(Turn, allow_none=True)

    class Action(StrictSchema):
        """The action asked about. Which members count depends on `type`:
        `take_pile` reads `with` (hand cards shown with the top card; none
        means the top card goes onto a team meld), `melds` and `add`;
        `meld` reads `melds` and `add` (at least one of them); `go_out`
        reads `melds`, `add` and `discard` (the last card, if any);
        `discard` reads `card`; `draw` reads nothing more. Every card named
        must be in the hand (for `take_pile`, melds may also use the pile)."""
        type = StrictString(required=True, validate=Length(max=MAX_NAME_LENGTH),
                            metadata={"enum": [t.value for t in ACTION_TYPES]})
        with_ = card_list(allow_none=True, data_key="with", attribute="with")
        melds = meld_list("New melds laid down, each a list of card codes.", allow_none=True)
        add = BoundedList(AddItem(card_list(), AddTo()), max_cards, allow_none=True, metadata=doc(
            "Additions to the team's melds: a list of cards (onto the meld of\n"
            "their own rank) or `{to, cards}`.\n"))
        discard = StrictString(allow_none=True, validate=Length(max=MAX_CARD_LENGTH),
                               metadata=doc("For `go_out`, the card discarded last (a card code)."))
        card = StrictString(allow_none=True, validate=Length(max=MAX_CARD_LENGTH),
                            metadata=doc("For `discard`, the card discarded (a card code)."))

    class Penalty(StrictSchema):
        kind = StrictString(required=True, validate=Length(max=MAX_NAME_LENGTH), metadata=doc(
            "The penalty parameter `score.penalty_<kind>` charged once for this entry.", enum=list(PENALTY_KINDS)))

    class ScoreTeam(StrictSchema):
        """One team's round. Give melds and hand as cards (`melds`, `hand`) or
        as counts (`melded_points`, `natural_canastas`, `mixed_canastas`,
        `hand_points`), not both for the same quantity."""
        name = StrictString(required=True, validate=Length(min=1, max=MAX_NAME_LENGTH))
        score_before = StrictInteger(validate=Range(min=-MAX_SCORE, max=MAX_SCORE), metadata=doc(
            "The team's total before the round (default 0; in a game only the first round's is read)."))
        melds = meld_list()
        hand = card_list()
        red_threes = StrictInteger(validate=Range(min=0, max=max_red_threes))
        went_out = StrictBoolean()
        concealed = StrictBoolean(metadata=doc("Went out concealed (needs `went_out`)."))
        penalties = BoundedList(fields.Nested(Penalty), MAX_PENALTIES)
        melded_points = StrictInteger(validate=Range(min=0, max=MAX_POINTS))
        natural_canastas = StrictInteger(validate=Range(min=0, max=MAX_COUNT))
        mixed_canastas = StrictInteger(validate=Range(min=0, max=MAX_COUNT))
        hand_points = StrictInteger(validate=Range(min=0, max=MAX_POINTS), metadata=doc(
            "The card values left in hand (the variant decides their sign)."))

    def teams_field(**kw: Any) -> BoundedList:
        return BoundedList(fields.Nested(ScoreTeam), MAX_TEAMS, min_length=1, **kw)

    class Round(StrictSchema):
        teams = teams_field(required=True)

    def rounds_field() -> BoundedList:
        return BoundedList(fields.Nested(Round), MAX_ROUNDS, min_length=1)

    class AdjudicateRequest(StrictSchema):
        variant = variant_id_field(required=True)
        situation = fields.Nested(Situation, required=True)
        action = fields.Nested(Action, required=True)
        house_rules = house_rules_field()
        lang = lang_field()

    class ScoreRequest(StrictSchema):
        """One round (`teams`) or a whole game (`rounds`); exactly one of the two."""
        class Meta(StrictSchema.Meta):
            forms = (Form("ScoreRoundRequest", required=("teams",), without=("rounds",)),
                     Form("ScoreGameRequest", required=("rounds",), without=("teams",)))
        variant = variant_id_field(required=True)
        players = players_field()
        house_rules = house_rules_field()
        teams = teams_field()
        rounds = rounds_field()
        lang = lang_field()

    class CompareRequest(StrictSchema):
        """A ruling comparison (`situation` and `action`), or a score
        comparison (`teams` for a round, `rounds` for a game).
        A situation alone compares the options open in it."""
        class Meta(StrictSchema.Meta):
            forms = (Form("CompareRulingRequest", required=RULING_MEMBERS, without=(*SCORE_MEMBERS, "players")),
                     Form("CompareOptionsRequest", required=("situation",),
                          without=("action", *SCORE_MEMBERS, "players"), description=(
                              "A situation alone (no `action`, no `teams` or `rounds`) compares the options "
                              "open in it.")),
                     Form("CompareRoundRequest", required=("teams",), without=(*RULING_MEMBERS, "rounds")),
                     Form("CompareGameRequest", required=("rounds",), without=(*RULING_MEMBERS, "teams")))
        variants = BoundedList(variant_id_field(), MAX_VARIANTS, metadata=doc(
            "The variants to compare, in the order to show them; default every loaded variant.",
            minItems=1, uniqueItems=True))
        situation = fields.Nested(Situation)
        action = fields.Nested(Action)
        players = players_field()
        house_rules = house_rules_field()
        teams = teams_field()
        rounds = rounds_field()
        lang = lang_field()

    class OptionsRequest(StrictSchema):  # /v1/options: a situation alone, no action
        variant = variant_id_field(required=True)
        situation = fields.Nested(Situation, required=True)
        house_rules = house_rules_field()
        lang = lang_field()

    class BatchRequest(StrictSchema):  # /v1/*/batch: each item is checked as its own request, its faults its own
        class Meta(StrictSchema.Meta):  # one copy per endpoint, each saying what its items are
            copies = tuple(Form(f"{kind}BatchRequest", overrides={"requests": {"items": {
                "description": f"A {kind}Request. Any JSON value is taken: an item that is not one\n"
                               "is answered with its own `problem`, so the batch goes on.\n",
                "anyOf": [{"$ref": f"#/components/schemas/{kind}Request"}, {}]}}}) for kind in ("Adjudicate", "Score"))
        requests = BoundedList(fields.Raw(allow_none=True), MAX_BATCH, min_length=1, required=True)
        lang = lang_field()

    class ReplayDeal(StrictSchema):  # /v1/replay: the round as dealt
        hands = BoundedList(card_list(), MAX_PLAYERS, required=True, metadata=doc(
            "One list of cards per player, in seat order, as dealt (red threes included)."))
        discard_pile = card_list()
        stock_count = StrictInteger(required=True, validate=Range(min=0, max=max_cards))
        first_player = StrictInteger(validate=Range(min=0, max=MAX_PLAYERS - 1),
                                     metadata=doc("The seat that plays first (0 unless given)."))

    class ReplayMove(StrictSchema):  # an action (action, cards?) or an event (event and what it says)
        class Meta(StrictSchema.Meta):
            forms = (Form("ReplayAction", members=ACTION_MEMBERS, required=("action",)),
                     Form("ReplayLayOut", members=EVENT_MEMBERS["lay_out"], required=("event", "red_threes"),
                          fixed={"event": "lay_out"}, overrides={"red_threes": {"minItems": 1}}, description=(
                              "Red threes laid out from the hand, and the cards the stock brought to replace "
                              "them, in order (a red three among them laid out and replaced by the next, as a "
                              "draw's are).")),
                     Form("ReplayAsk", members=EVENT_MEMBERS["ask"], required=("event",), fixed={"event": "ask"},
                          description="The player asks the partner \"may I go out?\" (in the player's own turn)."),
                     Form("ReplayAnswer", members=EVENT_MEMBERS["answer"], required=("event", "answer"),
                          fixed={"event": "answer"}, description=(
                              "The partner's answer, right after the question; it holds for the rest of the "
                              "asker's turn, and the replay rules what follows as `/v1/adjudicate` rules it with "
                              "`turn.partner_answer`.")))
        player = StrictInteger(required=True, validate=Range(min=0, max=MAX_PLAYERS - 1),
                               metadata=doc("The seat, from 0."))
        action = fields.Nested(Action)
        cards = card_list("What a draw brought from the stock, in order (a red three's replacement after it).",
                          allow_none=True)
        event = StrictString(validate=Length(min=1, max=MAX_NAME_LENGTH), metadata={"enum": list(EVENT_KINDS)})
        red_threes = card_list()
        answer = StrictString(validate=Length(min=1, max=MAX_NAME_LENGTH), metadata={"enum": list(PARTNER_ANSWERS)})

    def moves_field(**kw: Any) -> BoundedList:
        return BoundedList(fields.Nested(ReplayMove), MAX_LOG_MOVES, metadata=doc(
            "What happened, in order -- actions and events."), **kw)

    class ReplayRound(StrictSchema):  # one round of a whole game
        deal = fields.Nested(ReplayDeal, required=True)
        moves = moves_field(required=True)

    class ReplayRequest(StrictSchema):
        """One round (`deal` and `moves`) or a whole game (`rounds`)."""
        class Meta(StrictSchema.Meta):
            forms = (Form("ReplayRoundRequest", required=("deal", "moves"), without=("rounds",)),
                     Form("ReplayGameRequest", required=("rounds",), without=("deal", "moves")))
        variant = variant_id_field(required=True)
        players = players_field()
        house_rules = house_rules_field()
        lang = lang_field()
        scores = BoundedList(StrictInteger(validate=Range(min=-MAX_SCORE, max=MAX_SCORE)), MAX_TEAMS, metadata=doc(
            "Each team's score before the round (before the game's first round, for a game), default 0, in team "
            "order (team of seat 0 first)."))
        deal = fields.Nested(ReplayDeal)
        moves = moves_field()
        rounds = BoundedList(fields.Nested(ReplayRound), MAX_ROUNDS, min_length=1, metadata=doc(
            "The game's rounds in order, each with its deal and moves."))

    return {"adjudicate": AdjudicateRequest(), "score": ScoreRequest(), "compare": CompareRequest(),
            "options": OptionsRequest(), "batch": BatchRequest(), "replay": ReplayRequest()}


def caps(variants: dict[str, Variant]) -> tuple[int, int]:
    """(most cards in a list, most red threes a team lays out): the largest loaded deck's."""
    most_cards = most_reds = 0
    for v in variants.values():  # one pass, plain comparisons: every request asks (max() costs more than the rest)
        cards: int = v.deck_size
        reds: int = v.red_threes_in_deck
        if cards > most_cards:
            most_cards = cards
        if reds > most_reds:
            most_reds = reds
    return most_cards, most_reds


def check(payload: Any, kind: str, variants: dict[str, Variant]) -> dict:
    """``payload`` loaded by the ``kind`` schema (adjudicate, score, compare, options, batch), or :class:`MalformedRequest`.

    A valid payload takes the schema's compiled fast path (:mod:`adjudicator.input.fastcheck`); only a payload it is
    not sure of goes through marshmallow itself, which finds and words each fault.
    """
    if not isinstance(payload, dict):
        raise MalformedRequest([issue("", "shape.not_object")])
    limits = caps(variants)
    loaded = _fast(*limits)[kind](payload)
    if loaded is not None:
        return loaded
    try:
        return _schemas(*limits)[kind].load(payload)
    except ValidationError as error:
        raise MalformedRequest(*_issues(error.messages)) from None


@lru_cache(maxsize=8)
def _fast(max_cards: int, max_red_threes: int) -> dict:
    return {kind: compile_schema(schema) for kind, schema in _schemas(max_cards, max_red_threes).items()}


# ----------------------------------------------------------------------------------------------
# marshmallow's messages as message keys

_FIXED = {
    "Unknown field.": "shape.unknown_field",
    "Missing data for required field.": "shape.required",
    "Field may not be null.": "shape.null",
    "Invalid input type.": "shape.not_object",
    "Not a valid mapping type.": "shape.not_object",
    "Not a valid list.": "shape.not_list",
    "Not a valid string.": "shape.not_string",
    "Not a valid integer.": "shape.not_integer",
}
_PATTERNS = [
    (re.compile(r"Longer than maximum length (-?\d+)\."), "shape.too_long", ("maximum",)),
    (re.compile(r"Shorter than minimum length (-?\d+)\."), "shape.too_short", ("minimum",)),
    (re.compile(r"Length must be between (-?\d+) and (-?\d+)\."), "shape.length_between", ("minimum", "maximum")),
    (re.compile(r"Must be greater than or equal to (-?\d+) and less than or equal to (-?\d+)\."), "shape.between",
     ("minimum", "maximum")),
    (re.compile(r"Must be greater than or equal to (-?\d+)\."), "shape.at_least", ("minimum",)),
    (re.compile(r"Must be less than or equal to (-?\d+)\."), "shape.at_most", ("maximum",)),
]


def message_of(text: str) -> Message:
    """A marshmallow message (or one of this module's keys) as a message key with its arguments."""
    if text.startswith("shape."):
        return msg(text)
    key = _FIXED.get(text)
    if key:
        return msg(key)
    for pattern, key, names in _PATTERNS:
        found = pattern.fullmatch(text)
        if found:
            return msg(key, **{n: int(v) for n, v in zip(names, found.groups())})
    return msg("shape.other", text=text)



def issues_of(messages: Any, prefix: str = "") -> list[Issue]:
    """Flatten ``ValidationError.messages`` into issues with JSON pointers.

    Nested dicts become path segments and list indexes numeric segments
    (``{"hand": {0: ["Not a valid string."]}}`` points at ``/hand/0``);
    marshmallow's schema-level key ``_schema`` points at the object itself.
    """
    return _issues(messages, prefix)[0]


def _issues(messages: Any, prefix: str = "") -> tuple[list[Issue], int]:
    """:func:`issues_of`, up to :data:`~adjudicator.model.errors.MAX_ISSUES` issues, and how many there are in all."""
    out: list[Issue] = []
    count = 0

    def add(pointer: str, text: object) -> None:
        nonlocal count
        count += 1
        if len(out) < MAX_ISSUES:  # beyond it, only counted: no words, no pointer
            out.append(Issue(pointer, message_of(str(text))))

    def walk(node: Any, pointer: str) -> None:
        nonlocal count
        if isinstance(node, dict):
            # a mapping's member faults come as {"key": [...]} / {"value": [...]}: they point at the member
            # (no schema here has a field called key or value)
            member = set(node) <= {"key", "value"} and all(isinstance(v, list) for v in node.values())
            for key, value in node.items():
                if key == MORE:  # faults a list only counted (shape_fields.CardList)
                    count += value
                    continue
                within = key == "_schema" or member
                walk(value, pointer if within else
                     (pointer + json_pointer(key) if len(out) < MAX_ISSUES else pointer))
        elif isinstance(node, (list, tuple)):
            for item in node:
                if isinstance(item, (dict, list, tuple)):
                    walk(item, pointer)
                else:
                    add(pointer, item)
        else:
            add(pointer, node)

    walk(messages, prefix)
    return out, count
