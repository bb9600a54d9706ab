"""A comparison's request read once where the variants cannot change the reading.

:func:`adjudicator.input.parse.compare_request` parses the whole request again under each
variant, since what one variant finds impossible another may not. Only part of it depends on
the variant: the action never does, and a situation only through its player count (which
counts the variant has rules for, with the house rules applied). So here the action is read
once, and the situation once per player count it comes to; everything else, and every refusal
with its pointer and words, is what :mod:`adjudicator.input.parse` gives.
"""

from __future__ import annotations

from typing import Any

from ..model.errors import AdjudicatorError, MalformedRequest, UnknownVariant, issue, pointer
from ..model.requests import CompareRequest, OptionsRequest, RulingRequest
from ..model.situation import Situation
from ..variants import Variant
from . import house_rules, shape
from .parse import _compare_kind, action, players, rules, score_of, situation, variant


def compare_request(payload: Any, variants: dict[str, Variant]) -> CompareRequest:
    """:func:`adjudicator.input.parse.compare_request`, the same answer and the same refusals, read once per
    distinct reading rather than once per variant."""
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
        return RulingRequest(ruled, sit, act) if kind == "ruling" else OptionsRequest(ruled, sit)

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
            asked.append(e)
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
