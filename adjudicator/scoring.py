"""Scoring: the points of a finished round, or of a whole game, under one variant.

Every figure comes from a parameter of :mod:`adjudicator.parameters`; nothing
here names a variant. Each score line says which parameters it rests on and
quotes their citations, so a table can check the arithmetic against its own
rules text. Parameters are read through a :class:`~adjudicator.ruling.RulingContext`,
whose bookkeeping gives the ``interpretations``: every parameter the score
rested on that the document does not state outright, or that a house rule set.

Public API: :func:`score`.

Input (one round)::

    {"variant": "sv-classic", "players": 4, "house_rules": {...},
     "teams": [{"name": "Vi", "score_before": 0,
                "melds": [["KH", ...]], "hand": ["5C"],          # cards ...
                "melded_points": 120, "natural_canastas": 1,     # ... or counts
                "mixed_canastas": 0, "hand_points": 5,
                "red_threes": 2, "went_out": true, "concealed": false,
                "penalties": [{"kind": "hint"}]}, ...]}

or a whole game, ``{"variant", "players", "house_rules", "rounds": [{"teams": [...]}, ...]}``.
In a game only the first round's ``score_before`` is read (missing means 0);
later rounds start from the running totals and any ``score_before`` they give
is ignored, even when it differs. Every round must name the same teams.

Arithmetic choices (see the module's helpers for the reasons):

* A meld of ``canasta.min_cards`` or more cards is a canasta, natural when it
  holds no wild card. Melded cards always count their card values on top.
* Red threes: ``score.red_three`` each, or ``score.red_threes_all_four`` when
  the team holds every red three of the deck (2 x ``deck.decks``). When the team
  has melded nothing and ``score.red_threes_negative_without_meld`` holds, they
  count minus instead: ``-score.red_three`` each, or
  ``score.red_threes_all_four_negative`` for all of them.
* ``score.hand_negative``: true subtracts the hand's card values; false adds
  them (the alternative reading that parameter exists for).
* ``score.no_canasta_all_negative`` (a team without a canasta counts "all its
  points, hand and table" as minus): the ordinary lines stay as they are and a
  ``no_canasta`` line of ``-2 x`` (the sum of the positive lines) turns them
  round, so the round is ``-(melded cards + red threes + hand + any going-out
  bonus)``. Penalties are already minus and are left alone.
* Penalties (``score.penalty_<kind>``) are charged to the team they are listed
  under, once per entry.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from . import house_rules
from .cards import JOKER, is_black_three, is_red_three, rank
from .errors import InputError, NotStatedError, UnknownVariant
from .melds import check_meld, natural_rank, split
from .parameters import BY_NAME, PARAMETERS, band_for
from .ruling import NotStated, RulingContext
from .situation import parse_cards, parse_melds
from .variants import cited

_ORDER = {p.name: i for i, p in enumerate(PARAMETERS)}
_PENALTY = "score.penalty_"
PENALTY_KINDS = tuple(p.name[len(_PENALTY):] for p in PARAMETERS if p.name.startswith(_PENALTY))
TABLE_COUNTS = ("melded_points", "natural_canastas", "mixed_canastas")
TOP_FIELDS = frozenset({"variant", "players", "house_rules", "teams", "rounds"})
ROUND_FIELDS = frozenset({"teams"})
TEAM_FIELDS = frozenset({"name", "score_before", "melds", "hand", "red_threes", "went_out", "concealed",
                         "penalties", "hand_points", *TABLE_COUNTS})


def score(payload: Any, variants: dict) -> dict:
    """Score one round (``teams``) or a whole game (``rounds``); raise InputError (422/404) on bad input."""
    if not isinstance(payload, dict):
        raise InputError([{"pointer": "", "detail": "the request must be a JSON object"}])
    variant = _variant(payload, variants)
    _unknown_keys(payload, TOP_FIELDS, "", "request")
    players = _players(payload, variant)
    has_rounds, has_teams = payload.get("rounds") is not None, payload.get("teams") is not None
    if has_rounds == has_teams:
        raise InputError([{"pointer": "", "detail": "give either teams (one round) or rounds (a game), not "
                                                    + ("both" if has_rounds else "neither")}])
    if has_teams:
        teams = _parse_teams(payload["teams"], "")
        return _score_round(Reader(variant, variants), players, teams, "")
    return _score_game(payload["rounds"], variant, variants, players)


# --- the variant and its parameters -------------------------------------------

def _variant(payload: dict, variants: dict):
    variant_id = payload.get("variant")
    if not isinstance(variant_id, str) or variant_id not in variants:
        raise UnknownVariant(variant_id, list(variants))
    return house_rules.apply(variants[variant_id], payload.get("house_rules"))


class Reader:
    """Reads one variant's parameters through a RulingContext.

    The context records the interpretations; this class adds what scoring
    needs on top: a parameter the text does not state becomes a 422 that names
    it and shows the house rule that would settle it, with an example value
    taken from another variant that does state it.
    """

    def __init__(self, variant, variants: dict):
        self.variant = variant
        self.variants = variants
        self.ctx = RulingContext(variant)

    def need(self, name: str, ptr: str, why: str = "") -> Any:
        """The parameter's value, or NotStatedError pointing at ``ptr``."""
        try:
            return self.ctx.param(name)
        except NotStated:
            raise NotStatedError([self.not_stated_error(name, ptr, why)], [name]) from None

    def maybe(self, name: str) -> tuple[bool, Any]:
        """(stated?, value) without raising; the interpretation is recorded either way."""
        try:
            return True, self.ctx.param(name)
        except NotStated:
            return False, None

    def fresh(self) -> RulingContext:
        """A separate context for one legality check, so its reasons stay apart."""
        return RulingContext(self.variant)

    def absorb(self, ctx: RulingContext) -> None:
        for name, interpretation in ctx.interpretations.items():
            self.ctx.interpretations.setdefault(name, interpretation)

    def not_stated_error(self, name: str, ptr: str, why: str = "") -> dict:
        entry = self.variant.entry(name)
        example = json.dumps({"house_rules": {name: self.example(name)}}, ensure_ascii=False)
        detail = f"The {self.variant.id} text does not state {name} ({BY_NAME[name].description.rstrip('.')})"
        detail += f", so {why}." if why else "."
        if entry.note:
            detail += f" {entry.note.strip()}"
        return {"pointer": ptr, "detail": f"{detail} A house rule settles it, e.g. {example}."}

    def example(self, name: str) -> Any:
        """A plausible house-rule value: what another variant's text says, else a value of the right type."""
        for status in ("stated", "interpreted"):
            for other in self.variants.values():
                entry = getattr(other, "params", {}).get(name)
                if entry is not None and entry.status == status and entry.value is not None:
                    return entry.value
        param = BY_NAME[name]
        if param.type == "bool":
            return True
        if param.choices:
            return param.choices[0]
        if param.maximum is not None and param.maximum <= 0:
            return param.minimum
        return param.minimum or 0

    def not_stated(self, needs: list[tuple[str, str, str]]) -> NotStatedError:
        """One NotStatedError for many (pointer, parameter, why) needs."""
        names = list(dict.fromkeys(name for _, name, _ in needs))
        return NotStatedError([self.not_stated_error(name, ptr, why) for ptr, name, why in needs], names)

    def sources(self, names: list[str]) -> dict:
        """The citations (and house rules) behind a line or a figure, in catalogue order."""
        citations, houses = cited(self.variant, sorted(dict.fromkeys(names), key=lambda n: _ORDER.get(n, len(_ORDER))))
        out: dict = {"citations": citations}
        if houses:
            out["house_rules"] = houses
            if len(houses) == 1:
                out["house_rule"] = houses[0]
        return out

    def interpretations(self) -> list[dict]:
        return sorted(self.ctx.interpretations.values(), key=lambda i: _ORDER.get(i["parameter"], len(_ORDER)))


def _players(payload: dict, variant) -> int:
    """The player count: required unless the document knows only one."""
    supported = variant.value("players.supported") or []
    value = payload.get("players")
    if value is None:
        if len(supported) == 1:
            return supported[0]
        raise InputError([{"pointer": "/players", "detail": f"players is required: {variant.id} scores "
                                                            f"{', '.join(map(str, supported))} players differently"}])
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or value not in supported:
        raise InputError([{"pointer": "/players", "detail": f"{variant.id} supports "
                                                            f"{', '.join(map(str, supported))} players, not {value!r}"}])
    return value


def _team_count(reader: Reader, players: int) -> int:
    """How many teams (sides that score together) a game of ``players`` has: players.team_size says."""
    sizes = reader.need("players.team_size", "/players")
    size = sizes.get(players)
    if size is None:
        raise InputError([{"pointer": "/players", "detail": f"{reader.variant.id} gives no team size for "
                                                            f"{players} players"}])
    return max(1, players // size)


# --- parsing -------------------------------------------------------------------

@dataclass
class Team:
    """One team's round as given; ``melds``/``hand`` are None when counts were given instead."""

    ptr: str
    name: str
    score_before: int
    melds: list[list[str]] | None
    hand: list[str] | None
    counts: dict[str, int]
    red_threes: int
    went_out: bool
    concealed: bool
    penalties: list[str] = field(default_factory=list)

    def located_cards(self) -> list[tuple[str, str]]:
        """Every card the team shows (melds, then hand) with its JSON pointer."""
        out = [(c, f"{self.ptr}/melds/{j}/{k}") for j, m in enumerate(self.melds or []) for k, c in enumerate(m)]
        return out + [(c, f"{self.ptr}/hand/{k}") for k, c in enumerate(self.hand or [])]


def _unknown_keys(raw: dict, allowed: frozenset, ptr: str, what: str) -> None:
    """A misspelt field would silently change a score, so unknown fields are refused."""
    unknown = [k for k in raw if k not in allowed]
    if unknown:
        raise InputError([{"pointer": f"{ptr}/{_escape(k)}",
                           "detail": f"unknown field in a {what}; known: {', '.join(sorted(allowed))}"}
                          for k in unknown])


def _escape(key: Any) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _whole(value: Any, ptr: str, errors: list, minimum: int | None = None) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            (isinstance(value, float) and not value.is_integer()):
        errors.append({"pointer": ptr, "detail": "must be a whole number"})
        return None
    if minimum is not None and value < minimum:
        errors.append({"pointer": ptr, "detail": f"must be {minimum} or more"})
        return None
    return int(value)


def _flag(raw: dict, key: str, ptr: str, errors: list) -> bool:
    value = raw.get(key)
    if value is None:
        return False
    if not isinstance(value, bool):
        errors.append({"pointer": f"{ptr}/{key}", "detail": "must be true or false"})
        return False
    return value


def _parse_teams(raw: Any, base: str) -> list[Team]:
    if not isinstance(raw, list) or not raw:
        raise InputError([{"pointer": f"{base}/teams", "detail": "must be a non-empty list of teams"}])
    errors: list[dict] = []
    teams = [_parse_team(t, f"{base}/teams/{i}", errors) for i, t in enumerate(raw)]
    if errors:
        raise InputError(errors)
    return teams


def _parse_team(raw: Any, ptr: str, errors: list) -> Team | None:
    if not isinstance(raw, dict):
        errors.append({"pointer": ptr, "detail": "must be an object"})
        return None
    errors += [{"pointer": f"{ptr}/{_escape(k)}", "detail": f"unknown team field; known: {', '.join(sorted(TEAM_FIELDS))}"}
               for k in raw if k not in TEAM_FIELDS]
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        errors.append({"pointer": f"{ptr}/name", "detail": "every team needs a name (a non-empty string)"})
    score_before = 0 if raw.get("score_before") is None else _whole(raw["score_before"], f"{ptr}/score_before", errors)
    melds = parse_melds(raw["melds"], f"{ptr}/melds", errors) if raw.get("melds") is not None else None
    hand = parse_cards(raw["hand"], f"{ptr}/hand", errors) if raw.get("hand") is not None else None
    counts = {k: _whole(raw[k], f"{ptr}/{k}", errors, minimum=0) for k in (*TABLE_COUNTS, "hand_points")
              if raw.get(k) is not None}
    _conflicts(raw, ptr, errors)
    red_threes = 0 if raw.get("red_threes") is None else _whole(raw["red_threes"], f"{ptr}/red_threes", errors, 0)
    went_out, concealed = _flag(raw, "went_out", ptr, errors), _flag(raw, "concealed", ptr, errors)
    if concealed and not went_out:
        errors.append({"pointer": f"{ptr}/concealed", "detail": "a team goes out concealed only when it goes out; "
                                                                "went_out is not true"})
    penalties = _parse_penalties(raw.get("penalties"), f"{ptr}/penalties", errors)
    return Team(ptr, name, score_before, melds, hand, counts, red_threes, went_out, concealed, penalties)


def _conflicts(raw: dict, ptr: str, errors: list) -> None:
    """Cards and counts for the same quantity would have to agree; rather than check that, refuse both."""
    if raw.get("melds") is not None:
        errors += [{"pointer": f"{ptr}/{k}", "detail": f"give melds (cards) or {k} (a count), not both"}
                   for k in TABLE_COUNTS if raw.get(k) is not None]
    if raw.get("hand") is not None and raw.get("hand_points") is not None:
        errors.append({"pointer": f"{ptr}/hand_points", "detail": "give hand (cards) or hand_points, not both"})


def _parse_penalties(raw: Any, ptr: str, errors: list) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        errors.append({"pointer": ptr, "detail": "must be a list of {kind} objects"})
        return []
    kinds = []
    for i, item in enumerate(raw):
        kind = item.get("kind") if isinstance(item, dict) else None
        if not isinstance(item, dict) or set(item) != {"kind"} or kind not in PENALTY_KINDS:
            errors.append({"pointer": f"{ptr}/{i}",
                           "detail": f"must be {{\"kind\": ...}} with kind one of {', '.join(PENALTY_KINDS)}"})
            continue
        kinds.append(kind)
    return kinds


# --- a game --------------------------------------------------------------------

def _score_game(raw_rounds: Any, variant, variants: dict, players: int) -> dict:
    """Score the rounds in order, carrying totals; refuse rounds played after the game ended."""
    if not isinstance(raw_rounds, list) or not raw_rounds:
        raise InputError([{"pointer": "/rounds", "detail": "must be a non-empty list of rounds"}])
    results: list[dict] = []
    interpretations: dict[str, dict] = {}
    totals: dict[str, int] | None = None
    for r, raw in enumerate(raw_rounds):
        base = f"/rounds/{r}"
        if results and results[-1]["game_over"]:
            raise InputError([{"pointer": base, "detail": f"the game ended after round {r} (a team reached "
                                                          f"the target); no round follows it"}])
        if not isinstance(raw, dict):
            raise InputError([{"pointer": base, "detail": "must be an object with teams"}])
        _unknown_keys(raw, ROUND_FIELDS, base, "round")
        teams = _parse_teams(raw.get("teams"), base)
        if totals is not None:
            _carry(teams, totals, base)
        reader = Reader(variant, variants)
        result = _score_round(reader, players, teams, base)
        results.append(result)
        interpretations.update({i["parameter"]: i for i in result["interpretations"]})
        totals = {t["name"]: t["total"] for t in result["teams"]}
    last = results[-1]
    return {"variant": variant.id, "players": players, "target": last["target"], "rounds": results,
            "teams": last["teams"], "game_over": last["game_over"], "winner": last["winner"],
            "interpretations": sorted(interpretations.values(), key=lambda i: _ORDER.get(i["parameter"], len(_ORDER)))}


def _carry(teams: list[Team], totals: dict[str, int], base: str) -> None:
    names = [t.name for t in teams]
    if sorted(names) != sorted(totals):
        raise InputError([{"pointer": f"{base}/teams",
                           "detail": f"every round names the same teams ({', '.join(sorted(totals))}); "
                                     f"this one names {', '.join(map(str, names))}"}])
    for team in teams:
        team.score_before = totals[team.name]


# --- one round -----------------------------------------------------------------

def _score_round(reader: Reader, players: int, teams: list[Team], base: str) -> dict:
    team_size = max(1, players // _team_count(reader, players))
    _check_round(reader, players, teams, base)
    _check_tables(reader, teams, players, team_size)
    scored = _score_teams(reader, teams)
    target = reader.need("game.target", f"{base}/teams", "the end of the game cannot be judged")
    if players not in target:
        raise NotStatedError([{"pointer": "/players", "detail": f"The {reader.variant.id} text gives no target "
                                                                f"score for {players} players (game.target)."}],
                             ["game.target"])
    game_over, winner = _outcome(reader, {t["name"]: t["total"] for t in scored}, target[players])
    return {"variant": reader.variant.id, "target": target[players], "teams": scored,
            "game_over": game_over, "winner": winner, "interpretations": reader.interpretations()}


def _check_round(reader: Reader, players: int, teams: list[Team], base: str) -> None:
    """Facts about the round as a whole: team count, names, one going out, the deck's limits."""
    errors = []
    expected = _team_count(reader, players)
    if len(teams) != expected:
        errors.append({"pointer": f"{base}/teams", "detail": f"{players} players score as {expected} "
                                                             f"team{'s' if expected != 1 else ''}, "
                                                             f"not {len(teams)}"})
    first: dict[str, int] = {}
    for i, team in enumerate(teams):
        if team.name in first:
            errors.append({"pointer": f"{team.ptr}/name", "detail": f"team {first[team.name]} is also called "
                                                                    f"{team.name!r}; names must differ"})
        first.setdefault(team.name, i)
    out = [t for t in teams if t.went_out]
    errors += [{"pointer": f"{t.ptr}/went_out", "detail": f"only one team goes out in a round, and "
                                                          f"{out[0].name!r} already did"} for t in out[1:]]
    errors += _deck_errors(reader, teams)
    if errors:
        raise InputError(errors)


def _deck_errors(reader: Reader, teams: list[Team]) -> list[dict]:
    """No more copies of a card (or red threes) than deck.decks and deck.jokers allow."""
    _, decks = reader.maybe("deck.decks")
    _, jokers = reader.maybe("deck.jokers")
    errors, counts = [], Counter()
    for team in teams:
        for card, ptr in team.located_cards():
            counts[card] += 1
            limit = jokers if card == JOKER else decks
            if limit is not None and counts[card] == limit + 1:
                errors.append({"pointer": ptr, "detail": f"the {reader.variant.id} deck holds {limit} of {card}; "
                                                         f"this is one more"})
    if decks is not None:
        laid = 0
        for team in teams:
            laid += team.red_threes
            if laid > 2 * decks:
                errors.append({"pointer": f"{team.ptr}/red_threes", "detail": f"{laid} red threes in all, but the "
                                                                              f"deck holds {2 * decks}"})
                break
    return errors


# --- is the table legal? -------------------------------------------------------

def _check_tables(reader: Reader, teams: list[Team], players: int, team_size: int) -> None:
    """Every meld and hand must be possible under the variant's rules; the score means nothing otherwise."""
    errors: list[dict] = []
    needs: list[tuple[str, str, str]] = []
    for team in teams:
        _check_hand(reader, team, team_size, errors)
        if team.melds:
            _check_melds(reader, team, errors, needs)
        _check_canasta_band(reader, team, errors)
        if team.went_out and not errors and not needs:
            _check_canastas_to_go_out(reader, team, players, errors, needs)
    if errors:
        raise InputError(errors)
    if needs:
        raise reader.not_stated(needs)


def _check_canasta_band(reader: Reader, team: Team, errors: list) -> None:
    """A team whose score band opens only with a canasta cannot have melds without one (canastas stay)."""
    score = team.score_before
    if score is None or score < 0:
        return
    bands = reader.maybe("opening.bands")[1]
    if not bands or not band_for(bands, score)["canasta_required"]:
        return
    least = reader.maybe("canasta.min_cards")[1] or 7
    if team.melds is not None:
        melded, canastas = bool(team.melds), sum(1 for m in team.melds if len(m) >= least)
        where = "melds"
    else:
        melded = bool(team.counts.get("melded_points") or team.counts.get("natural_canastas")
                      or team.counts.get("mixed_canastas"))
        canastas = team.counts.get("natural_canastas", 0) + team.counts.get("mixed_canastas", 0)
        where = "melded_points" if team.counts.get("melded_points") else "natural_canastas"
    if melded and not canastas:
        errors.append({"pointer": f"{team.ptr}/{where}",
                       "detail": f"{team.name} starts the round on {score} points, where the opening must include "
                                 f"a canasta (opening.canasta_required), so its melds cannot lack one"})


def _check_hand(reader: Reader, team: Team, team_size: int, errors: list) -> None:
    """Red threes never stay in hand; a player alone who went out has no hand left at all."""
    for k, card in enumerate(team.hand or []):
        if is_red_three(card):
            ctx = reader.fresh()
            with ctx.rule("red_three.never_melded") as r:
                if ctx.param("red_three.laid_out"):
                    r.result(False, f"{card} is in {team.name}'s hand, but red threes are laid out at once; "
                                    f"count it in red_threes instead.")
            reader.absorb(ctx)
            _collect(ctx, f"{team.ptr}/hand/{k}", [], errors, [], "a red three in hand")
    left = bool(team.hand) or bool(team.counts.get("hand_points"))
    if team_size == 1 and team.went_out and left:
        field_name = "hand" if team.hand else "hand_points"
        errors.append({"pointer": f"{team.ptr}/{field_name}", "detail": f"{team.name} plays alone and went out, so "
                                                                        f"no card can be left in hand"})


def _check_melds(reader: Reader, team: Team, errors: list, needs: list) -> None:
    """Run the composition rules on each meld, then one meld per rank across them."""
    clean = True
    for j, meld in enumerate(team.melds):
        ctx = reader.fresh()
        check_meld(ctx, meld, f"Meld {j + 1} of {team.name} ({' '.join(meld)})", going_out=team.went_out)
        reader.absorb(ctx)
        clean &= _collect(ctx, f"{team.ptr}/melds/{j}", meld, errors, needs)
    if clean:
        _check_one_per_rank(reader, team, errors, needs)


def _check_one_per_rank(reader: Reader, team: Team, errors: list, needs: list) -> None:
    """Two melds of one rank are refused where the text says so, and unsettled where it is silent."""
    ctx = reader.fresh()
    first: dict[str, int] = {}
    for j, meld in enumerate(team.melds):
        meld_rank = natural_rank(ctx, meld)
        if meld_rank is None or meld_rank not in first:
            first.setdefault(meld_rank, j)
            continue
        with ctx.rule("meld.one_per_rank") as r:
            if ctx.param("meld.one_per_rank"):
                r.result(False, f"{team.name} has two melds of {meld_rank}s (melds {first[meld_rank] + 1} and "
                                f"{j + 1}); a team holds one meld per rank.")
        reader.absorb(ctx)
        _collect(ctx, f"{team.ptr}/melds/{j}", meld, errors, needs, f"a second meld of {meld_rank}s")
        ctx = reader.fresh()
    reader.absorb(ctx)


def _check_canastas_to_go_out(reader: Reader, team: Team, players: int, errors: list, needs: list) -> None:
    """A team that went out must have had the canastas the text demands for going out."""
    ctx = reader.fresh()
    with ctx.rule("go_out.canasta_required") as r:
        need = (ctx.param("go_out.canastas_required") or {}).get(players)
        if need:
            if team.melds is None:
                have = team.counts.get("natural_canastas", 0) + team.counts.get("mixed_canastas", 0)
            else:
                least = ctx.param("canasta.min_cards")
                have = sum(1 for m in team.melds if len(m) >= least)
            r.result(have >= need, f"{team.name} went out with {have} canasta{'s' if have != 1 else ''}; "
                                   f"a team needs {need} to go out.")
    reader.absorb(ctx)
    _collect(ctx, f"{team.ptr}/went_out", [], errors, needs, "going out with this table")


def _collect(ctx: RulingContext, ptr: str, cards: list[str], errors: list, needs: list,
             what: str = "this meld") -> bool:
    """Turn a check's failed reasons into 422 errors and its unsettled ones into needs; True if all passed."""
    clean = True
    for reason in ctx.reasons:
        if reason["passed"] is False:
            errors.append({"pointer": ptr, "detail": _rule_detail(reason)})
            clean = False
    for name in ctx.not_stated:
        at = next((k for k, c in enumerate(cards) if _wild_param(c) == name), None)
        needs.append((ptr if at is None else f"{ptr}/{at}", name, f"whether {what} is allowed cannot be judged"))
        clean = False
    return clean


def _rule_detail(reason: dict) -> str:
    """The failed check's explanation, its rule id and the words of the rule it rests on."""
    quotes = " / ".join(f"“{c['quote']}”" for c in reason["citations"])
    basis = f"rule {reason['rule']}" + (f": {quotes}" if quotes else "")
    for house in reason.get("house_rules", []):
        basis += f"; house rule {house['parameter']} = {json.dumps(house['value'])}"
    return f"{reason['explanation']} ({basis})"


def _wild_param(card: str) -> str | None:
    if card == JOKER:
        return "wild.jokers"
    return "wild.twos" if rank(card) == "2" else None


# --- the score lines -----------------------------------------------------------

@dataclass
class Line:
    """One score component; ``params`` are the parameters its points rest on (for its citations)."""

    item: str
    count: int | None
    points: int
    params: list[str]


@dataclass
class Table:
    """What a team has melded, from cards or from counts."""

    value: int
    cards: int | None
    value_params: list[str]
    natural: int
    mixed: int
    canasta_params: list[str]
    melded: bool


def _score_teams(reader: Reader, teams: list[Team]) -> list[dict]:
    """Score every team; gather every unstated parameter of the round into one error."""
    scored, errors, names = [], [], []
    for team in teams:
        try:
            lines = _team_lines(reader, team)
        except NotStatedError as e:
            errors += e.errors
            names += [n for n in e.parameters if n not in names]
            continue
        points = sum(line.points for line in lines)
        total = team.score_before + points
        scored.append({"name": team.name, "score_before": team.score_before,
                       "lines": [_line_dict(reader, line) for line in lines],
                       "round": points, "total": total, "opening_requirement": _opening(reader, total)})
    if errors:
        raise NotStatedError(errors, names)
    return scored


def _line_dict(reader: Reader, line: Line) -> dict:
    return {"item": line.item, "count": line.count, "points": line.points,
            "parameters": sorted(dict.fromkeys(line.params), key=lambda n: _ORDER.get(n, 0)),
            **reader.sources(line.params)}


def _team_lines(reader: Reader, team: Team) -> list[Line]:
    """Every component of the team's round, in the order a score sheet lists them."""
    table, hand = _table_and_hand(reader, team)
    lines = [Line("melded_cards", table.cards, table.value, table.value_params)]
    for kind in ("natural", "mixed"):
        n = getattr(table, kind)
        if n:
            name = f"score.{kind}_canasta"
            lines.append(Line(f"{kind}_canastas", n, n * reader.need(name, team.ptr), [name, *table.canasta_params]))
    lines += _red_three_lines(reader, team, table)
    lines += _going_out_lines(reader, team)
    lines.append(hand)
    if not table.natural and not table.mixed:
        lines += _no_canasta_lines(reader, team, lines)
    lines += _penalty_lines(reader, team)
    return lines


def _table_and_hand(reader: Reader, team: Team) -> tuple[Table, Line]:
    """Card values of the melds and of the hand, priced together so every unstated value is reported at once."""
    located = team.located_cards()
    priced = _price(reader, located)
    in_melds = sum(len(m) for m in team.melds or [])
    meld_prices, hand_prices = priced[:in_melds], priced[in_melds:]
    if team.melds is not None:
        table = _table_from_cards(reader, team, meld_prices)
    else:
        table = _table_from_counts(team)
    ptr = f"{team.ptr}/hand" if team.hand is not None else f"{team.ptr}/hand_points"
    negative = reader.need("score.hand_negative", ptr)
    if team.hand is not None:
        value, count, params = sum(v for v, _ in hand_prices), len(team.hand), [p for _, p in hand_prices if p]
    else:
        value, count, params = team.counts.get("hand_points", 0), None, []
    return table, Line("hand", count, -value if negative else value, ["score.hand_negative", *params])


def _price(reader: Reader, located: list[tuple[str, str]]) -> list[tuple[int, str | None]]:
    """(value, parameter) of each card; NotStatedError naming every card whose value the text leaves open."""
    out, needs = [], []
    for card, ptr in located:
        name = _value_param(card)
        if name is None:
            out.append((0, None))
            continue
        stated, value = reader.maybe(name)
        if not stated:
            needs.append((ptr, name, f"{card} cannot be counted"))
        out.append((value or 0, name))
    if needs:
        raise reader.not_stated(needs)
    return out


def _value_param(card: str) -> str | None:
    """The card_value parameter a card counts by (red threes are bonus cards, with no card value)."""
    if card == JOKER:
        return "card_value.joker"
    if is_black_three(card):
        return "card_value.black_three"
    if is_red_three(card):
        return None
    return f"card_value.{rank(card)}"


def _table_from_cards(reader: Reader, team: Team, prices: list[tuple[int, str | None]]) -> Table:
    """The melds' card values and canastas. Whether a canasta's own cards count on top of its bonus is
    ``score.canasta_cards_counted``, read only when there is a canasta."""
    least = reader.need("canasta.min_cards", f"{team.ptr}/melds")
    natural = mixed = 0
    value, start, value_params = 0, 0, [p for _, p in prices if p]
    for j, meld in enumerate(team.melds):
        meld_value = sum(v for v, _ in prices[start:start + len(meld)])
        start += len(meld)
        if len(meld) < least:
            value += meld_value
            continue
        try:
            _, wilds = split(reader.ctx, meld)
        except NotStated as e:
            raise reader.not_stated([(f"{team.ptr}/melds/{j}", e.name, "the canasta cannot be classed")]) from None
        if wilds:
            mixed += 1
        else:
            natural += 1
        if reader.need("score.canasta_cards_counted", f"{team.ptr}/melds/{j}"):
            value += meld_value
        if "score.canasta_cards_counted" not in value_params:
            value_params.append("score.canasta_cards_counted")
    return Table(value=value, cards=len(prices), value_params=value_params,
                 natural=natural, mixed=mixed, canasta_params=["canasta.min_cards"], melded=bool(team.melds))


def _table_from_counts(team: Team) -> Table:
    """Counts stand in for cards; a team "has melded" when they show any meld at all."""
    points = team.counts.get("melded_points", 0)
    natural, mixed = team.counts.get("natural_canastas", 0), team.counts.get("mixed_canastas", 0)
    return Table(value=points, cards=None, value_params=[], natural=natural, mixed=mixed, canasta_params=[],
                 melded=bool(points or natural or mixed))


def _red_three_lines(reader: Reader, team: Team, table: Table) -> list[Line]:
    """Red threes: plus for a team that has melded; minus without a meld when the variant says so.

    "All four" is every red three the deck holds (2 per deck), which is four
    with the two decks every text uses.
    """
    n = team.red_threes
    if not n:
        return []
    ptr = f"{team.ptr}/red_threes"
    params: list[str] = []
    negative = False
    if not table.melded:
        params.append("score.red_threes_negative_without_meld")
        negative = bool(reader.need(params[-1], ptr))
    if n == 2 * reader.need("deck.decks", ptr):
        name = "score.red_threes_all_four_negative" if negative else "score.red_threes_all_four"
        points = reader.need(name, ptr, "all the red threes of a team that has melded nothing cannot be counted"
                             if negative else "")
    else:
        name = "score.red_three"
        points = (-n if negative else n) * reader.need(name, ptr)
    return [Line("red_threes", n, points, [*params, name])]


def _going_out_lines(reader: Reader, team: Team) -> list[Line]:
    """The going-out bonus (shown even when it is 0, so the reading behind the 0 is cited)."""
    if not team.went_out:
        return []
    lines = [Line("going_out", 1, reader.need("score.going_out", f"{team.ptr}/went_out"), ["score.going_out"])]
    if team.concealed and reader.need("concealed.allowed", f"{team.ptr}/concealed"):
        extra = reader.need("score.concealed_extra", f"{team.ptr}/concealed")
        lines.append(Line("concealed_going_out", 1, extra, ["concealed.allowed", "score.concealed_extra"]))
    return lines


def _no_canasta_lines(reader: Reader, team: Team, lines: list[Line]) -> list[Line]:
    """A team without a canasta counts all its points as minus, when the variant says so.

    The lines before keep their ordinary signs; this line subtracts twice the
    positive ones, so the round becomes minus (table + red threes + hand).
    Read only for a team that has no canasta, since only then does it apply.
    """
    if not reader.need("score.no_canasta_all_negative", team.ptr):
        return []
    positive = sum(line.points for line in lines if line.points > 0)
    return [Line("no_canasta", 1, -2 * positive, ["score.no_canasta_all_negative"])]


def _penalty_lines(reader: Reader, team: Team) -> list[Line]:
    """One line per penalty kind, charged once per entry; a kind the text does not name is a 422."""
    lines = []
    for kind in PENALTY_KINDS:
        at = [i for i, k in enumerate(team.penalties) if k == kind]
        if at:
            name = _PENALTY + kind
            each = reader.need(name, f"{team.ptr}/penalties/{at[0]}", f"a {kind} penalty cannot be charged")
            lines.append(Line(f"penalty_{kind}", len(at), len(at) * each, [name]))
    return lines


# --- after the round: next opening, end of game ---------------------------------

def _opening(reader: Reader, total: int) -> dict:
    """The next round's opening requirement for a team on ``total``; undetermined when the text is silent."""
    name = "opening.negative" if total < 0 else "opening.bands"
    stated, value = reader.maybe(name)
    if not stated:
        return {"points": None, "canasta_required": False, "undetermined": True,
                "note": reader.not_stated_error(name, "", f"no opening requirement follows from a total of "
                                                          f"{total}")["detail"],
                **reader.sources([name])}
    if total < 0:
        return {"points": value, "canasta_required": False, **reader.sources([name])}
    band = band_for(value, total)
    return {"points": band["points"], "canasta_required": band["canasta_required"], **reader.sources([name])}


def _outcome(reader: Reader, totals: dict[str, int], target: int) -> tuple[bool, str | None]:
    """(game over?, winner) after a round.

    One team at or over the target wins. Several: game.several_over_target
    decides (highest_total: the highest wins); a tie at the top goes to
    game.tie (extra_round: the game goes on). Where the text is silent the
    game is over with no winner named, and the interpretation says why.
    """
    over = [n for n, t in totals.items() if t >= target]
    if len(over) <= 1:
        return bool(over), (over[0] if over else None)
    listed = ", ".join(f"{n} {totals[n]}" for n in over)
    stated, rule = reader.maybe("game.several_over_target")
    if not stated:
        _annotate(reader, "game.several_over_target", f"Here several teams reached {target} ({listed}); "
                                                      f"no winner is named.")
        return True, None
    top = max(totals[n] for n in over)
    leaders = [n for n in over if totals[n] == top]
    if rule == "highest_total" and len(leaders) == 1:
        return True, leaders[0]
    stated, tie = reader.maybe("game.tie")
    if not stated:
        _annotate(reader, "game.tie", f"Here {' and '.join(leaders)} tie at the top on {top}; no winner is named.")
        return True, None
    _annotate(reader, "game.tie", f"Here {' and '.join(leaders)} tie at the top on {top}; by the house rule "
                                  f"({tie}) the game goes on.")
    return False, None


def _annotate(reader: Reader, name: str, text: str) -> None:
    """Add what happened in this game to a recorded interpretation's note."""
    entry = reader.ctx.interpretations.get(name)
    if entry is not None:
        reader.ctx.interpretations[name] = {**entry, "note": f"{(entry['note'] or '').strip()} {text}".strip()}
