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

from .messages import Items, Message, Word, msg

RANK_KEYS = ("A", "K", "Q", "J", "10", "9", "8", "7", "6", "5", "4")
FREEZERS = ("joker", "two", "red_three_upcard", "black_three")
UPCARD_KINDS = ("joker", "two", "red_three", "black_three")
# when a player may ask the partner "may I go out?": right after the draw (or the take of the pile) and before
# any further meld, or at any time of the turn before going out
ASK_TIMES = ("after_draw_before_meld", "before_going_out")


@dataclass(frozen=True)
class Param:
    """One rule parameter: its name and value type (what it means, in words: :mod:`adjudicator.words.catalogue_params`)."""

    name: str
    type: str
    choices: tuple[str, ...] = field(default=())
    minimum: int | None = None
    maximum: int | None = None

    def accepts(self) -> Message:
        """What a house rule for this parameter may hold, as a message."""
        if self.type in ("enum", "enum_list"):
            return msg(f"type.{self.type}", choices=Items(tuple(Word(c) for c in self.choices), ", "))
        return msg(f"type.{self.type}")


def _p(name, type_, **kw) -> Param:
    return Param(name, type_, **kw)


_CARD_VALUE_PARAMS = [
    _p(f"card_value.{r}", "int", minimum=0, maximum=1000)
    for r in RANK_KEYS
]

PARAMETERS: tuple[Param, ...] = tuple(
    [
        # deck, players, deal
        _p("deck.decks", "int", minimum=1, maximum=4),
        _p("deck.jokers", "int", minimum=0, maximum=12),
        _p("players.supported", "list_int"),
        _p("deal.cards", "by_players", minimum=1, maximum=30),
        _p("players.team_size", "by_players",
           minimum=1, maximum=3),
        _p("partnership.method", "enum",
           choices=("fixed_pairs_opposite", "draw_two_highest_together", "draw_highest_chooses_second_highest",
                    "individual")),
        _p("turn.draw_first", "bool"),
        _p("draw.cards", "by_players", minimum=1, maximum=3),
        # card values
        _p("card_value.joker", "int", minimum=0, maximum=1000),
        _p("card_value.2", "int", minimum=0, maximum=1000),
        *_CARD_VALUE_PARAMS,
        _p("card_value.black_three", "int", minimum=0, maximum=1000),
        # wild cards and melds
        _p("wild.jokers", "bool"),
        _p("wild.twos", "bool"),
        _p("meld.min_cards", "int", minimum=2, maximum=7),
        _p("meld.min_naturals", "int", minimum=0, maximum=7),
        _p("meld.max_wilds", "int_or_null", minimum=0, maximum=12),
        _p("meld.natural_majority", "bool"),
        _p("meld.naturals_per_wild", "int_or_null", minimum=1, maximum=7),
        _p("meld.wild_only_allowed", "bool"),
        _p("meld.one_per_rank", "bool"),
        _p("meld.add_to_opponents", "bool"),
        _p("canasta.min_cards", "int", minimum=3, maximum=13),
        _p("canasta.wild_makes_mixed", "bool"),
        # threes
        _p("red_three.laid_out", "bool"),
        _p("red_three.replaced", "bool"),
        _p("black_three.meld_only_going_out", "bool"),
        _p("black_three.meld_sizes", "list_int"),
        _p("black_three.meld_wilds_allowed", "bool"),
        _p("black_three.blocks_next_player", "bool"),
        _p("black_three.freezes_pile", "bool"),
        # opening
        _p("opening.bands", "bands"),
        _p("opening.negative", "int",
           minimum=0, maximum=1000),
        _p("opening.melds_together", "bool"),
        _p("opening.pile_top_only", "bool"),
        _p("opening.red_threes_count", "bool"),
        _p("opening.bonuses_count", "bool"),
        # first round
        _p("first_round.no_opening", "bool"),
        _p("first_round.no_pile", "bool"),
        # the discard pile
        _p("pile.taken_whole", "bool"),
        _p("pile.upcard_turn_more", "enum_list", choices=UPCARD_KINDS),
        _p("pile.frozen_by", "enum_list",
           choices=FREEZERS),
        _p("pile.before_opening", "enum",
           choices=("frozen", "allowed", "forbidden")),
        _p("pile.take_wild_top", "bool"),
        _p("pile.frozen_natural_pair", "bool"),
        _p("pile.unfrozen_natural_and_wild", "bool"),
        _p("pile.unfrozen_add_to_meld", "bool"),
        _p("pile.frozen_add_to_meld_only", "bool"),
        _p("pile.cards_usable_same_turn", "bool"),
        _p("pile.one_card_rule", "bool"),
        # going out
        _p("go_out.canastas_required", "by_players",
           minimum=0, maximum=5),
        _p("go_out.canasta_same_turn", "bool"),
        _p("go_out.meld_all", "bool"),
        _p("go_out.discard_last", "bool"),
        _p("go_out.ask_partner", "bool"),
        _p("go_out.ask_partner_when", "enum", choices=ASK_TIMES),
        _p("concealed.allowed", "bool"),
        _p("concealed.discard_allowed", "bool"),
        _p("concealed.needs_canasta_in_turn", "bool"),
        _p("concealed.no_add_to_partner", "bool"),
        _p("concealed.opening_waived_after_stock", "bool"),
        # exhausted stock
        _p("stock.empty_forced_take", "bool"),
        _p("stock.empty_round_ends", "bool"),
        _p("stock.last_red_three_ends", "bool"),
        # scoring
        _p("score.natural_canasta", "int", minimum=0, maximum=5000),
        _p("score.mixed_canasta", "int", minimum=0, maximum=5000),
        _p("score.canasta_cards_counted", "bool"),
        _p("score.red_three", "int", minimum=0, maximum=1000),
        _p("score.red_threes_all_four", "int", minimum=0, maximum=5000),
        _p("score.red_threes_negative_without_meld", "bool"),
        _p("score.red_threes_all_four_negative", "int",
           minimum=-5000, maximum=0),
        _p("score.going_out", "int", minimum=0, maximum=1000),
        _p("score.concealed_extra", "int", minimum=0, maximum=1000),
        _p("score.hand_negative", "bool"),
        _p("score.no_canasta_all_negative", "bool"),
        _p("score.penalty_hint", "int", minimum=-5000, maximum=0),
        _p("score.penalty_unverifiable_count", "int", minimum=-5000, maximum=0),
        # end of game
        _p("game.target", "by_players", minimum=100, maximum=100000),
        _p("game.several_over_target", "enum",
           choices=("highest_total",)),
        _p("game.tie", "enum", choices=("extra_round",)),
        _p("game.abandoned", "enum", choices=("opponents_win",)),
    ]
)

BY_NAME: dict[str, Param] = {p.name: p for p in PARAMETERS}


class ParamValueError(ValueError):
    """A value does not fit its parameter; ``message`` says why (a message key with arguments)."""

    def __init__(self, key: str, **args: Any):
        self.message = msg(key, **args)
        super().__init__(key)


def _int(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    return isinstance(value, float) and value.is_integer()


def check_value(param: Param, value: Any) -> Any:
    """Return ``value`` normalised for ``param`` or raise :class:`ParamValueError`."""

    def bounded(v: Any) -> int:
        if not _int(v):
            raise ParamValueError("value.not_integer")
        v = int(v)
        if param.minimum is not None and v < param.minimum:
            raise ParamValueError("value.too_small", minimum=param.minimum)
        if param.maximum is not None and v > param.maximum:
            raise ParamValueError("value.too_large", maximum=param.maximum)
        return v

    t = param.type
    if t == "bool":
        if not isinstance(value, bool):
            raise ParamValueError("value.not_bool")
        return value
    if t == "int":
        return bounded(value)
    if t == "int_or_null":
        return None if value is None else bounded(value)
    if t == "enum":
        if not isinstance(value, str) or value not in param.choices:
            raise ParamValueError("value.not_choice", choices=Items(tuple(Word(c) for c in param.choices), ", "))
        return value
    if t == "enum_list":
        if not isinstance(value, list) or any(not isinstance(v, str) or v not in param.choices for v in value):
            raise ParamValueError("value.not_choice_list",
                                  choices=Items(tuple(Word(c) for c in param.choices), ", "))
        return list(dict.fromkeys(value))
    if t == "list_int":
        if not isinstance(value, list) or not value or not all(_int(v) and 1 <= v <= 12 for v in value):
            raise ParamValueError("value.not_count_list")
        return sorted({int(v) for v in value})
    if t == "by_players":
        if not isinstance(value, dict) or not value:
            raise ParamValueError("value.not_by_players")
        out = {}
        for k, v in value.items():
            if str(k) not in ("2", "3", "4", "5", "6"):
                raise ParamValueError("value.bad_player_count", given=str(k))
            out[int(k)] = bounded(v)
        if param.name == "players.team_size":
            _check_teams(out)
        return out
    if t == "bands":
        return _check_bands(value)
    raise AssertionError(f"unknown parameter type {t}")


def _check_teams(sizes: dict[int, int]) -> None:
    """Teams of ``size`` must split ``players`` into two teams or more, each of that size: a table of four in
    teams of three, or of four in one team, cannot be dealt (no opponents, or a player left over)."""
    for players, size in sizes.items():
        if players % size or players // size < 2:
            raise ParamValueError("value.team_size_split", players=players, size=size)


def readings_of(param: Param) -> tuple:
    """The values a parameter's type allows, when they are few enough to try one by one (else empty)."""
    if param.type == "bool":
        return (True, False)
    if param.type == "enum":
        return tuple(param.choices)
    return ()


def band_for(bands: list[dict], score: int) -> dict:
    """The opening band a cumulative score of 0 or more falls in: the last whose ``min`` it reaches."""
    found = None
    for band in bands:  # a loop, not a list kept whole only for its last item: the engine asks ~2 times a ruling
        if band["min"] <= score:
            found = band
    if found is None:
        raise IndexError("no band reaches this score")  # as indexing the empty list of such bands would
    return found


def _check_bands(value: Any) -> list[dict]:
    """Bands are keyed by their lower bound: a score falls in the last band whose ``min`` it reaches.

    Scores move in steps of five, so a document's "0-1 495, 1 500-2 995" has no
    real gap; ``max`` is kept for display only.
    """
    if not isinstance(value, list) or not value:
        raise ParamValueError("value.bands_list")

    def fault(i: int, problem: str) -> ParamValueError:
        return ParamValueError("value.band", band=i + 1, problem=Word(problem))

    bands: list[dict] = []
    for i, band in enumerate(value):
        if not isinstance(band, dict) or set(band) - {"min", "max", "points", "canasta_required"}:
            raise fault(i, "band_members")
        lo, hi = band.get("min"), band.get("max")
        points, canasta = band.get("points"), band.get("canasta_required", False)
        if not _int(lo) or (hi is not None and not _int(hi)):
            raise fault(i, "band_bounds")
        if i == 0 and int(lo) != 0:
            raise fault(i, "band_first_at_zero")
        if bands and int(lo) <= bands[-1]["min"]:
            raise fault(i, "band_order")
        if hi is not None and int(hi) < int(lo):
            raise fault(i, "band_max_below_min")
        if not isinstance(canasta, bool):
            raise fault(i, "band_canasta_flag")
        if points is not None and (not _int(points) or not 0 <= points <= 1000):
            raise fault(i, "band_points")
        if points is None and not canasta:
            raise fault(i, "band_empty")
        bands.append({"min": int(lo), "max": None if hi is None else int(hi),
                      "points": None if points is None else int(points), "canasta_required": canasta})
    return bands
