"""Compare one dispute, or one score, across several variants at once.

:func:`compare` takes what :func:`adjudicator.engine.adjudicate` takes (a
``situation`` and an ``action``) or what :func:`adjudicator.scoring.score`
takes (``teams``, or ``rounds`` for a whole game), with ``variants`` -- a list
of variant ids, default every loaded variant in load order -- instead of
``variant``, and optional ``house_rules``, which apply to every compared
variant (a house rule names a catalogue parameter, and every variant has every
parameter). It answers::

    {"kind": "ruling" | "score",
     "variants": [ids compared, in request order],
     "results": [{"variant": id, "ruling": <adjudicate's answer>}        # kind "ruling"
                 | {"variant": id, "score": <score's answer>}            # kind "score"
                 | {"variant": id, "problem": {type, title, status, detail, errors}}],
     "agree": bool,
     "groups": [{"verdict": v, "variants": [ids]}]                       # kind "ruling"
               | [{"totals": {team: total}, "variants": [ids]}],         # kind "score"
     "differences": [...]}                                               # see below

Each ``ruling``/``score`` entry is exactly what the single-variant call
returns for that variant (same payload, ``variant`` set to the id).

A variant that finds the input impossible (an :class:`InputError` -- five
jokers in a 108-card deck, a player count its document has no rules for, a
score that needs a parameter its text leaves open) gets a ``problem`` entry
(RFC 9457 members; ``type`` is the problem slug, e.g. ``impossible-input``,
for the HTTP layer to make absolute) instead of failing the comparison. When
*every* variant rejects the input the comparison still succeeds, with every
entry a problem, ``groups`` empty and ``agree`` true: "which variants accept
this?" is a fair question and "none" a fair answer, and each problem says why
its variant refuses. The exception is an error that does not depend on the
variant -- a malformed request, an unknown card code, an action that names
cards not in the hand, a bad house rule: every variant would say the same
thing, so it is raised as it is, just as the single-variant call would raise
it. (Recognised as: the request shape checks below fail, or every variant
raised the very same errors.)

``agree`` is true when every variant with a result gave the same verdict
(ruling) or the same round and total for every team (score); with one result
or none it is trivially true. ``groups`` lists the distinct outcomes in order
of first appearance.

``differences`` says why the variants part ways.

* Ruling: one entry per rule id whose reasons differ between variants (the
  rule is checked by some variants and not others, or its ``passed``
  differs)::

      {"rule": id, "checks": RULES text,
       "parameters": [names behind the check],
       "differing_parameters": [those whose values differ between the variants],
       "why": "meld.natural_majority: da-ludo true (stated); sv-classic false (interpreted)",
       "variants": [{"variant": id,
                     "passed": true | false | null | "not checked",
                     "outcome": "passed" | "failed" | "undetermined" | "not checked",
                     "explanation": str,
                     "parameters": [{"parameter", "value", "status"}],
                     "citations": [...],
                     ["house_rules": [{"parameter", "value"}]]}]}

  The parameters behind a check are the catalogue's parameters for the rule
  (:data:`adjudicator.rules.RULES`) and the ones the check actually read in
  any compared variant (found by re-running the ruling with a recording
  context; should that not reproduce the ruling, by the citations the reason
  carries), plus any house rule it rests on. A variant that did not check the
  rule shows the citations of those parameters, which say why it did not.

* Score: one entry per line item (per team, and per round of a game) whose
  points differ between variants or that some variants do not count::

      {"team": name, "item": item, ["round": i,]
       "parameters": [...], "differing_parameters": [...], "why": str,
       "variants": [{"variant": id, "counted": bool, "count": n | null,
                     "points": n | null, "citations": [...],
                     "parameters": [{"parameter", "value", "status"}],
                     ["house_rules": [...]]}]}

  The parameters are those the line names (its ``parameters``) in any
  compared variant; a variant without the line (``counted`` false, e.g. no
  ``no_canasta`` line where the text has no such rule) shows their values and
  citations. Lines are matched by team name and ``item``.

``why`` names, for every parameter behind the difference whose value differs
between the variants, each variant's value and status (``stated``,
``interpreted``, ``not_stated``, ``house_rule``); parameters whose values
agree are still listed per variant, with their status.
"""

from __future__ import annotations

import json
from typing import Any

from . import house_rules as house
from .errors import InputError, NotStatedError, UnknownVariant, pointer
from .rules import RULES
from .variants import cited, jsonable

RULING_KEYS = ("situation", "action")
SCORE_KEYS = ("teams", "rounds")


# ----------------------------------------------------------------------------------------------
# The comparison


def compare(payload: dict, variants: dict) -> dict:
    """Rule on (or score) ``payload`` under several variants and say where and why they differ."""
    if not isinstance(payload, dict):
        raise InputError([{"pointer": "", "detail": "the request must be a JSON object"}])
    ids = _variant_ids(payload, variants)
    kind = _kind(payload)
    # House rules are checked against the catalogue, which every variant shares: a bad one is the
    # request's fault, not a variant's, so it is raised here (pointer /house_rules/<name>).
    ruled = {vid: house.apply(variants[vid], payload.get("house_rules")) for vid in ids}
    single = {k: v for k, v in payload.items() if k != "variants"}
    run = _adjudicate if kind == "ruling" else _score
    results: list[dict] = []
    raised: list[InputError] = []
    traces: dict[str, dict] = {}
    for vid in ids:
        try:
            outcome = run({**single, "variant": vid}, variants)
            if kind == "ruling":
                outcome, traces[vid] = outcome
            results.append({"variant": vid, kind: outcome})
        except UnknownVariant:
            raise
        except InputError as e:
            raised.append(e)
            results.append({"variant": vid, "problem": problem_of(e)})
    if raised and len(raised) == len(ids):
        _raise_if_variant_independent(kind, payload, raised)
    answered = [r for r in results if kind in r]
    groups = _ruling_groups(answered) if kind == "ruling" else _score_groups(answered)
    differences = _ruling_differences(answered, ruled, traces) if kind == "ruling" else \
        _score_differences(answered, ruled)
    return {"kind": kind, "variants": ids, "results": results, "agree": len(groups) <= 1, "groups": groups,
            "differences": differences}


def _adjudicate(payload: dict, variants: dict) -> tuple[dict, dict]:
    from .engine import adjudicate_traced
    return adjudicate_traced(payload, variants)


def _score(payload: dict, variants: dict) -> dict:
    from .scoring import score  # imported lazily: rulings compare without the scoring module
    return score(payload, variants)


def problem_of(error: InputError) -> dict:
    """An :class:`InputError` as RFC 9457 members (``type`` is the slug)."""
    out = {"type": error.type, "title": error.title, "status": error.status, "detail": error.detail,
           "errors": [{"pointer": e["pointer"], "detail": e["detail"]} for e in error.errors]}
    if isinstance(error, NotStatedError):
        out["parameters"] = list(error.parameters)
    return out


def _variant_ids(payload: dict, variants: dict) -> list[str]:
    if "variant" in payload and "variants" not in payload:
        raise InputError([{"pointer": "/variant",
                           "detail": "a comparison takes \"variants\", a list of variant ids (or none for all)"}])
    raw = payload.get("variants")
    if raw is None:
        return list(variants)
    if not isinstance(raw, list) or not raw:
        raise InputError([{"pointer": "/variants", "detail": "must be a non-empty list of variant ids"}])
    ids: list[str] = []
    for i, vid in enumerate(raw):
        if not isinstance(vid, str) or vid not in variants:
            raise UnknownVariant(vid, list(variants), pointer=pointer("variants", i))
        if vid in ids:
            raise InputError([{"pointer": pointer("variants", i), "detail": f"{vid!r} is listed twice"}])
        ids.append(vid)
    return ids


def _kind(payload: dict) -> str:
    ruling = [k for k in RULING_KEYS if payload.get(k) is not None]
    scoring = [k for k in SCORE_KEYS if payload.get(k) is not None]
    if ruling and scoring:
        raise InputError([{"pointer": pointer(scoring[0]),
                           "detail": f"give {' and '.join(RULING_KEYS)} (a ruling) or teams or rounds (a score), "
                                     f"not both; this request has {', '.join(ruling + scoring)}"}])
    if ruling:
        return "ruling"
    if scoring:
        return "score"
    raise InputError([{"pointer": "", "detail": "give situation and action (to compare rulings) or teams or "
                                                "rounds (to compare scores)"}])


def _raise_if_variant_independent(kind: str, payload: dict, raised: list[InputError]) -> None:
    """Every variant refused: raise the refusal if it is the request's fault rather than the variants'."""
    if kind == "ruling":
        from .actions import parse_action
        parse_action(payload.get("action"))  # an unusable action is wrong under every variant
    first = raised[0]
    if isinstance(first, NotStatedError):
        return  # an open question of the texts, not a malformed request
    key = (type(first), first.status, first.type, [(e["pointer"], e["detail"]) for e in first.errors])
    if all((type(e), e.status, e.type, [(x["pointer"], x["detail"]) for x in e.errors]) == key for e in raised):
        raise first


# ----------------------------------------------------------------------------------------------
# Groups


def _ruling_groups(answered: list[dict]) -> list[dict]:
    groups: dict[str, list[str]] = {}
    for r in answered:
        groups.setdefault(r["ruling"]["verdict"], []).append(r["variant"])
    return [{"verdict": verdict, "variants": ids} for verdict, ids in groups.items()]


def _team_outcome(result: dict) -> tuple:
    return tuple((t.get("name"), t.get("round"), t.get("total")) for t in result.get("teams") or [])


def _score_groups(answered: list[dict]) -> list[dict]:
    groups: dict[tuple, dict] = {}
    for r in answered:
        key = _team_outcome(r["score"])
        if key not in groups:
            groups[key] = {"totals": {name: total for name, _, total in key}, "variants": []}
        groups[key]["variants"].append(r["variant"])
    return list(groups.values())


# ----------------------------------------------------------------------------------------------
# Parameters shown in differences


def param_value(variant, name: str) -> dict:
    entry = variant.entry(name)
    return {"parameter": name, "value": jsonable(entry.value),
            "status": "house_rule" if entry.house_rule else entry.status}


def _citations_of(variant, names: list[str]) -> list[dict]:
    return cited(variant, names)[0]


def _cited_parameters(variant, citations: list[dict]) -> list[str]:
    """Parameters every one of whose citations the list carries (a reason cites all of a parameter's words)."""
    spans = {(c.get("start"), c.get("end")) for c in citations}
    if not spans:
        return []
    return [name for name, entry in variant.params.items()
            if entry.citations and all((c.start, c.end) in spans for c in entry.citations)]


def _show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _why(names: list[str], ruled: dict, ids: list[str]) -> tuple[list[str], str]:
    """The parameters among ``names`` whose values differ, and a sentence naming them with their statuses."""
    differing, parts = [], []
    for name in names:
        shown = {vid: param_value(ruled[vid], name) for vid in ids}
        values = [s["value"] for s in shown.values()]
        if any(v != values[0] for v in values[1:]):
            differing.append(name)
            parts.append(f"{name}: " + "; ".join(f"{vid} {_show(s['value'])} ({s['status']})"
                                                 for vid, s in shown.items()))
    if parts:
        return differing, " | ".join(parts)
    return differing, ("These parameters are the same in every variant; the variants reach this check "
                       "differently because of other rules (see the other differences).")


# ----------------------------------------------------------------------------------------------
# Ruling differences


def _outcome(reasons: list[dict]) -> Any:
    if not reasons:
        return "not checked"
    passed = [r["passed"] for r in reasons]
    if False in passed:
        return False
    if None in passed:
        return None
    return True


_OUTCOME_WORD = {True: "passed", False: "failed", None: "undetermined", "not checked": "not checked"}


def _ruling_differences(answered: list[dict], ruled: dict, skipped: dict[str, dict]) -> list[dict]:
    if len(answered) < 2:
        return []
    ids = [r["variant"] for r in answered]
    rulings = {r["variant"]: r["ruling"] for r in answered}
    order: list[str] = []
    by_rule: dict[str, dict[str, list[dict]]] = {}
    for vid in ids:
        for reason in rulings[vid]["reasons"]:
            if reason["rule"] not in by_rule:
                order.append(reason["rule"])
                by_rule[reason["rule"]] = {v: [] for v in ids}
            by_rule[reason["rule"]][vid].append(reason)
    out = []
    for rule_id in order:
        per = by_rule[rule_id]
        if len({tuple(r["passed"] for r in per[vid]) for vid in ids}) == 1:
            continue
        names = list(RULES.get(rule_id, ("", ()))[1])
        for vid in ids:
            names += skipped[vid].get(rule_id, [])
            for reason in per[vid]:
                names += reason["parameters"]
                names += [h["parameter"] for h in reason.get("house_rules", [])]
                names += [n for n in rulings[vid]["not_stated"] if f"does not settle {n};" in reason["explanation"]]
        names = list(dict.fromkeys(names))
        differing, why = _why(names, ruled, ids)
        entries = []
        for vid in ids:
            reasons = per[vid]
            outcome = _outcome(reasons)
            if reasons:
                explanation = " ".join(dict.fromkeys(r["explanation"] for r in reasons))
                citations = _unique([c for r in reasons for c in r["citations"]])
            else:
                explanation = _not_checked(vid, rule_id, rulings[vid], skipped[vid], ruled[vid])
                citations = _citations_of(ruled[vid], names)
            entry = {"variant": vid, "passed": outcome, "outcome": _OUTCOME_WORD[outcome],
                     "explanation": explanation, "parameters": [param_value(ruled[vid], n) for n in names],
                     "citations": citations}
            houses = [h for r in reasons for h in r.get("house_rules", [])]
            if houses:
                entry["house_rules"] = houses
            entries.append(entry)
        out.append({"rule": rule_id, "checks": RULES.get(rule_id, ("",))[0], "parameters": names,
                    "differing_parameters": differing, "why": why, "variants": entries})
    return out


def _unique(citations: list[dict]) -> list[dict]:
    seen, out = set(), []
    for c in citations:
        key = (c.get("variant"), c.get("start"), c.get("end"))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _not_checked(vid: str, rule_id: str, ruling: dict, skipped: dict, variant) -> str:
    read = skipped.get(rule_id) or []
    if read:
        shown = ", ".join(f"{n} = {_show(jsonable(variant.value(n)))}" for n in read)
        return f"Not checked under {vid}: with {shown} the check does not apply here."
    stops = [f"the text does not settle {', '.join(ruling['not_stated'])}"] if ruling["not_stated"] else []
    if ruling["missing"]:
        stops.append(f"the situation lacks {', '.join(ruling['missing'])}")
    if stops:
        return f"Not checked under {vid}: the ruling stops before this check ({'; '.join(stops)})."
    return f"Not checked under {vid}: its ruling does not reach this check (see the other differences)."


# ----------------------------------------------------------------------------------------------
# Score differences

def _score_lines(result: dict) -> dict[tuple, dict]:
    """(round index or None, team name, item) -> line, over a round's or a game's teams."""
    lines: dict[tuple, dict] = {}

    def take(teams, round_index):
        for team in teams or []:
            for line in team.get("lines") or []:
                key = (round_index, team.get("name"), line.get("item"))
                if key in lines:  # the same item twice for a team: count it as one line
                    prev = lines[key]
                    lines[key] = {**prev, "count": _add(prev.get("count"), line.get("count")),
                                  "points": _add(prev.get("points"), line.get("points")),
                                  "citations": _unique(list(prev.get("citations") or []) +
                                                       list(line.get("citations") or []))}
                else:
                    lines[key] = line

    if isinstance(result.get("rounds"), list):
        for i, rnd in enumerate(result["rounds"]):
            take(rnd.get("teams") if isinstance(rnd, dict) else None, i)
    else:
        take(result.get("teams"), None)
    return lines


def _add(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a + b
    return a if b is None else b


def _score_differences(answered: list[dict], ruled: dict) -> list[dict]:
    if len(answered) < 2:
        return []
    ids = [r["variant"] for r in answered]
    lines = {r["variant"]: _score_lines(r["score"]) for r in answered}
    keys: list[tuple] = []
    for vid in ids:
        keys += [k for k in lines[vid] if k not in keys]
    out = []
    for key in keys:
        round_index, team, item = key
        points = {_show(lines[vid][key].get("points")) if key in lines[vid] else None for vid in ids}
        if len(points) == 1:
            continue
        names: list[str] = []
        for vid in ids:
            line = lines[vid].get(key)
            if line:
                given = line.get("parameters")
                names += given if isinstance(given, list) else \
                    _cited_parameters(ruled[vid], line.get("citations") or [])
                names += [h["parameter"] for h in line.get("house_rules") or [] if isinstance(h, dict)]
        names = [n for n in dict.fromkeys(names) if n in ruled[ids[0]].params]
        differing, why = _why(names, ruled, ids)
        entries = []
        for vid in ids:
            line = lines[vid].get(key)
            e = {"variant": vid, "counted": line is not None, "count": line.get("count") if line else None,
                 "points": line.get("points") if line else None,
                 "citations": list(line.get("citations") or []) if line else _citations_of(ruled[vid], names),
                 "parameters": [param_value(ruled[vid], n) for n in names]}
            if line and line.get("house_rules"):
                e["house_rules"] = line["house_rules"]
            entries.append(e)
        diff = {"team": team, "item": item}
        if round_index is not None:
            diff["round"] = round_index
        diff.update({"parameters": names, "differing_parameters": differing, "why": why, "variants": entries})
        out.append(diff)
    return out
