"""The catalogue of rule parameters: the schema every variant file fills in.

The engine is one set of rules with many knobs; this module names every knob,
its type and what it means. A variant file (``variants/*.yaml``) must give
each one a value and a status. House rules override the same names, and are
validated by the same types, so there is one definition of what a parameter
may hold.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RANK_KEYS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
FREEZERS = ("joker", "two", "red_three_upcard", "black_three")
UPCARD_KINDS = ("joker", "two", "red_three", "black_three")


@dataclass(frozen=True)
class Param:
    """One rule parameter: its name, value type and meaning."""

    name: str
    type: str
    description: str
    choices: tuple[str, ...] = field(default=())
    minimum: int | None = None
    maximum: int | None = None

    def describe_type(self) -> str:
        if self.type in ("enum", "enum_list"):
            options = ", ".join(self.choices)
            return f"{'one of' if self.type == 'enum' else 'a list drawn from'}: {options}"
        return {
            "bool": "true or false",
            "int": "an integer",
            "int_or_null": "an integer, or null for no limit",
            "by_players": "an object mapping a player count (\"2\", \"3\", \"4\") to an integer",
            "list_int": "a list of integers",
            "bands": "a list of {min, max, points, canasta_required} score bands, lowest first",
        }[self.type]


def _p(name, type_, description, **kw) -> Param:
    return Param(name, type_, description, **kw)


_CARD_VALUE_PARAMS = [
    _p(f"card_value.{r}", "int", f"Points a natural {r} counts, melded or left in hand.", minimum=0, maximum=1000)
    for r in RANK_KEYS
]

PARAMETERS: tuple[Param, ...] = tuple(
    [
        # deck, players, deal
        _p("deck.decks", "int", "How many standard 52-card decks are shuffled together.", minimum=1, maximum=4),
        _p("deck.jokers", "int", "How many jokers are in the whole deck.", minimum=0, maximum=12),
        _p("players.supported", "list_int", "Player counts the document gives rules for."),
        _p("deal.cards", "by_players", "Cards dealt to each player, by player count.", minimum=1, maximum=30),
        _p("players.team_size", "by_players", "Players in one team (side that scores together), by player count.",
           minimum=1, maximum=3),
        _p("partnership.method", "enum", "How partnerships are formed.",
           choices=("fixed_pairs_opposite", "draw_two_highest_together", "draw_highest_chooses_second_highest",
                    "individual")),
        _p("turn.draw_first", "bool",
           "A turn starts by drawing from the stock or taking the pile; melding and discarding follow."),
        _p("draw.cards", "by_players", "Cards taken by one draw from the stock, by player count.", minimum=1, maximum=3),
        # card values
        _p("card_value.joker", "int", "Points a joker counts.", minimum=0, maximum=1000),
        _p("card_value.2", "int", "Points a two counts.", minimum=0, maximum=1000),
        *_CARD_VALUE_PARAMS,
        _p("card_value.black_three", "int", "Points a black three counts.", minimum=0, maximum=1000),
        # wild cards and melds
        _p("wild.jokers", "bool", "Jokers are wild cards."),
        _p("wild.twos", "bool", "Twos are wild cards."),
        _p("meld.min_cards", "int", "Fewest cards in a meld.", minimum=2, maximum=7),
        _p("meld.min_naturals", "int", "Fewest natural cards in a meld.", minimum=0, maximum=7),
        _p("meld.max_wilds", "int_or_null", "Most wild cards in one meld (null: no fixed cap).", minimum=0, maximum=12),
        _p("meld.natural_majority", "bool", "A meld must hold more natural cards than wild cards."),
        _p("meld.naturals_per_wild", "int_or_null",
           "Natural cards a meld needs for each wild card it holds (null: no ratio).", minimum=1, maximum=7),
        _p("meld.wild_only_allowed", "bool", "A meld may consist of wild cards only."),
        _p("meld.one_per_rank", "bool", "A team may hold only one meld of each rank; more cards go onto it."),
        _p("canasta.min_cards", "int", "Cards that make a meld a canasta.", minimum=3, maximum=13),
        _p("canasta.wild_makes_mixed", "bool", "Adding a wild card to a natural canasta makes it mixed."),
        # threes
        _p("red_three.laid_out", "bool", "Red threes are bonus cards laid out at once and never melded."),
        _p("red_three.replaced", "bool", "A red three laid out is replaced by a card from the stock."),
        _p("black_three.meld_only_going_out", "bool", "Black threes may be melded only in the turn the player goes out."),
        _p("black_three.meld_sizes", "list_int", "How many black threes such a meld may hold."),
        _p("black_three.meld_wilds_allowed", "bool", "A black-three meld may hold wild cards."),
        _p("black_three.blocks_next_player", "bool", "A discarded black three stops the next player taking the pile."),
        _p("black_three.freezes_pile", "bool", "A discarded black three freezes the pile until it is taken."),
        # opening
        _p("opening.bands", "bands",
           "The first meld's minimum card value by the team's cumulative score (from 0 up); a band may demand a canasta."),
        _p("opening.negative", "int", "The first meld's minimum card value when the team's score is below zero.",
           minimum=0, maximum=1000),
        _p("opening.melds_together", "bool", "Several melds laid down together count together toward the minimum."),
        _p("opening.pile_top_only", "bool",
           "When the pile is taken for the opening, only its top card counts toward the minimum."),
        _p("opening.red_threes_count", "bool", "Red threes count toward the opening minimum."),
        _p("opening.bonuses_count", "bool", "Canasta and other bonuses count toward the opening minimum."),
        # first round
        _p("first_round.no_opening", "bool", "No team may open before the starting player's second turn."),
        _p("first_round.no_pile", "bool", "Nobody may take the pile before the starting player's second turn."),
        # the discard pile
        _p("pile.upcard_turn_more", "enum_list",
           "Upcards that are covered by turning more cards from the stock.", choices=UPCARD_KINDS),
        _p("pile.frozen_by", "enum_list", "Cards whose presence in the pile freezes it for everyone.",
           choices=FREEZERS),
        _p("pile.before_opening", "enum",
           "The pile for a team that has not opened: frozen (natural pair needed), allowed like any pile, or forbidden.",
           choices=("frozen", "allowed", "forbidden")),
        _p("pile.take_wild_top", "bool", "The pile may be taken when a wild card is on top."),
        _p("pile.frozen_natural_pair", "bool", "A frozen pile needs two natural cards of the top card's rank in hand."),
        _p("pile.unfrozen_natural_and_wild", "bool",
           "An unfrozen pile may be taken with one matching natural card and one wild card."),
        _p("pile.unfrozen_add_to_meld", "bool",
           "An unfrozen pile may be taken to add its top card to the team's meld of that rank."),
        _p("pile.frozen_add_to_meld_only", "bool",
           "A frozen pile may be taken just to add its top card to an existing meld."),
        _p("pile.cards_usable_same_turn", "bool", "Cards taken with the pile (beyond the top card) may be melded that turn."),
        _p("pile.one_card_rule", "bool",
           "A player holding one card may not take a pile of one card."),
        # going out
        _p("go_out.canastas_required", "by_players", "Canastas the team needs before a player may go out.",
           minimum=0, maximum=5),
        _p("go_out.canasta_same_turn", "bool", "A canasta completed in the going-out turn counts."),
        _p("go_out.meld_all", "bool", "A player may go out by melding every card."),
        _p("go_out.discard_last", "bool", "A player may go out by melding all but one card and discarding it."),
        _p("go_out.ask_partner", "bool", "A player may ask the partner for leave to go out; the answer binds."),
        _p("concealed.allowed", "bool", "Going out concealed (the whole hand in one turn, nothing melded before) earns a bonus."),
        _p("concealed.needs_canasta_in_turn", "bool", "A concealed go-out must lay down a complete canasta that turn."),
        _p("concealed.no_add_to_partner", "bool", "A concealed go-out may not add to the partner's melds."),
        _p("concealed.opening_waived_after_stock", "bool",
           "After drawing from the stock, a concealed go-out need not meet the opening minimum."),
        # exhausted stock
        _p("stock.empty_forced_take", "bool",
           "With the stock empty a player must take an unfrozen pile whose top card fits a team meld."),
        _p("stock.empty_round_ends", "bool", "The round ends when a player must draw from an empty stock."),
        _p("stock.last_red_three_ends", "bool",
           "A red three drawn as the last stock card ends the round at once, without melding or discarding."),
        # scoring
        _p("score.natural_canasta", "int", "Bonus for each natural canasta.", minimum=0, maximum=5000),
        _p("score.mixed_canasta", "int", "Bonus for each mixed canasta.", minimum=0, maximum=5000),
        _p("score.canasta_cards_counted", "bool",
           "The card values of the cards lying in a canasta count on top of its bonus."),
        _p("score.red_three", "int", "Bonus for each red three.", minimum=0, maximum=1000),
        _p("score.red_threes_all_four", "int", "Bonus for all four red threes together.", minimum=0, maximum=5000),
        _p("score.red_threes_negative_without_meld", "bool",
           "Red threes count against a team that has melded nothing."),
        _p("score.red_threes_all_four_negative", "int",
           "Points charged for all four red threes when the team has melded nothing (a negative number).",
           minimum=-5000, maximum=0),
        _p("score.going_out", "int", "Bonus for going out.", minimum=0, maximum=1000),
        _p("score.concealed_extra", "int", "Extra bonus for going out concealed.", minimum=0, maximum=1000),
        _p("score.hand_negative", "bool", "Cards left in hand count against the team."),
        _p("score.no_canasta_all_negative", "bool",
           "A team without a canasta in the round counts all its points (table and hand) as minus."),
        _p("score.penalty_hint", "int", "Penalty for a hint or signal between partners.", minimum=-5000, maximum=0),
        _p("score.penalty_unverifiable_count", "int",
           "Penalty for a count the opponents cannot follow and approve.", minimum=-5000, maximum=0),
        # end of game
        _p("game.target", "by_players", "Score that ends the game, by player count.", minimum=100, maximum=100000),
        _p("game.several_over_target", "enum", "Who wins when several teams pass the target in the same round.",
           choices=("highest_total",)),
        _p("game.tie", "enum", "Who wins a tie at the top.", choices=("extra_round",)),
        _p("game.abandoned", "enum", "Who wins when a team gives up.", choices=("opponents_win",)),
    ]
)

BY_NAME: dict[str, Param] = {p.name: p for p in PARAMETERS}


class ParamValueError(ValueError):
    """A value does not fit its parameter; the message says why."""


def _int(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and value.is_integer()


def check_value(param: Param, value: Any) -> Any:
    """Return ``value`` normalised for ``param`` or raise :class:`ParamValueError`."""

    def bounded(v: Any, what: str) -> int:
        if not _int(v):
            raise ParamValueError(f"{what} must be an integer")
        v = int(v)
        if param.minimum is not None and v < param.minimum:
            raise ParamValueError(f"{what} must be at least {param.minimum}")
        if param.maximum is not None and v > param.maximum:
            raise ParamValueError(f"{what} must be at most {param.maximum}")
        return v

    t = param.type
    if t == "bool":
        if not isinstance(value, bool):
            raise ParamValueError("must be true or false")
        return value
    if t == "int":
        return bounded(value, "value")
    if t == "int_or_null":
        return None if value is None else bounded(value, "value")
    if t == "enum":
        if value not in param.choices:
            raise ParamValueError(f"must be one of {', '.join(param.choices)}")
        return value
    if t == "enum_list":
        if not isinstance(value, list) or any(v not in param.choices for v in value):
            raise ParamValueError(f"must be a list drawn from {', '.join(param.choices)}")
        return list(dict.fromkeys(value))
    if t == "list_int":
        if not isinstance(value, list) or not value or not all(_int(v) and 1 <= v <= 12 for v in value):
            raise ParamValueError("must be a non-empty list of integers from 1 to 12")
        return sorted({int(v) for v in value})
    if t == "by_players":
        if not isinstance(value, dict) or not value:
            raise ParamValueError("must be an object mapping a player count to an integer")
        out = {}
        for k, v in value.items():
            if str(k) not in ("2", "3", "4", "5", "6"):
                raise ParamValueError(f"key {k!r} must be a player count from 2 to 6")
            out[int(k)] = bounded(v, f"value for {k} players")
        return out
    if t == "bands":
        return _check_bands(value)
    raise AssertionError(f"unknown parameter type {t}")


def band_for(bands: list[dict], score: int) -> dict:
    """The opening band a cumulative score of 0 or more falls in: the last whose ``min`` it reaches."""
    return [b for b in bands if b["min"] <= score][-1]


def _check_bands(value: Any) -> list[dict]:
    """Bands are keyed by their lower bound: a score falls in the last band whose ``min`` it reaches.

    Scores move in steps of five, so a document's "0-1 495, 1 500-2 995" has no
    real gap; ``max`` is kept for display only.
    """
    if not isinstance(value, list) or not value:
        raise ParamValueError("must be a non-empty list of bands")
    bands: list[dict] = []
    for i, band in enumerate(value):
        if not isinstance(band, dict) or set(band) - {"min", "max", "points", "canasta_required"}:
            raise ParamValueError(f"band {i} must be an object with min, max, points, canasta_required")
        lo, hi = band.get("min"), band.get("max")
        points, canasta = band.get("points"), band.get("canasta_required", False)
        if not _int(lo) or (hi is not None and not _int(hi)):
            raise ParamValueError(f"band {i}: min and max must be integers (max may be null)")
        if i == 0 and int(lo) != 0:
            raise ParamValueError("the first band must start at 0")
        if bands and int(lo) <= bands[-1]["min"]:
            raise ParamValueError(f"band {i} must start above band {i - 1}")
        if hi is not None and int(hi) < int(lo):
            raise ParamValueError(f"band {i}: max is below min")
        if not isinstance(canasta, bool):
            raise ParamValueError(f"band {i}: canasta_required must be true or false")
        if points is not None and (not _int(points) or not 0 <= points <= 1000):
            raise ParamValueError(f"band {i}: points must be an integer from 0 to 1000, or null")
        if points is None and not canasta:
            raise ParamValueError(f"band {i}: give points, or canasta_required: true")
        bands.append({"min": int(lo), "max": None if hi is None else int(hi),
                      "points": None if points is None else int(points), "canasta_required": canasta})
    return bands
