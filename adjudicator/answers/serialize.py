"""JSON from the engine's typed results: the one place answers become JSON documents.

Every function takes a typed result and the reader's language and returns a
JSON-ready ``dict``, made afresh (the caller's own) but for one read-only part shared by every answer: a
message's machine form, made once with its words by :mod:`adjudicator.words.render`, which keeps what it has said
of each message.

A ruling can be asked for without its words (``words=False``: ``?words=none`` or ``Prefer:
return=minimal`` at the edge): keys, rule ids, verdicts, parameters and citations only, for
programs that show their own texts or none. The default answer keeps every word.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Final, Iterator
from contextvars import ContextVar

from adjudicator.compare.comparison import Comparison, RuleDifference, ScoreDifference, VariantResult
from adjudicator.model.errors import (AdjudicatorError, ImpossibleInput, MalformedRequest, RuleNotStated,
                                UnknownVariant)
from adjudicator.model.findings import Choice, Condition, Finding, HouseRuleUsed, Interpretation, Ruling
from adjudicator.model.enums import ActionType, Status, Verdict
from adjudicator.compare.matrix import MatrixRow
from adjudicator.model.messages import Param, ParamValue, Word, jsonable, msg
from adjudicator.model.parameters import PARAMETERS
from adjudicator.words.clauses import reading_message, statement
from adjudicator.words.render import (render, requirement_message, ruling_summary, ruling_words, said,
                                      said_and_code, summary, words, words_for)
from adjudicator.model.rule_ids import RULES
from adjudicator.options.paging import EVERY, Page
from adjudicator.scoring import GameSheet, NextOpening, RoundSheet, ScoreLine, ScoreReading, TeamScore
from adjudicator.variants import Citation, Entry, Variant, translated

from .phrases import PROBLEM_BASE, problem_type  # noqa: F401 -- their old home (the web layer reads them from
# phrases, which loads no engine at start-up)


MAX_ERRORS = 50  # a problem lists at most this many faults; ``error_count`` then says how many there were
DETAIL_ERRORS = 3  # how many problems the one-paragraph ``detail`` spells out

_REFERENCED: Final[ContextVar[dict | None]] = ContextVar("referenced_citations", default=None)


def citation(c: Citation) -> dict:
    """The citation as JSON; inside :func:`citation_table`, a ``{"ref": ...}`` into the table."""
    full = {"variant": c.variant, "language": c.language, "section": c.section, "quote": c.quote, "start": c.start,
            "end": c.end}
    table = _REFERENCED.get()
    if table is None:
        return full
    ref = f"{c.variant}:{c.start}-{c.end}"
    table[ref] = full
    return {"ref": ref}


@contextmanager
def citation_table() -> Iterator[dict[str, dict]]:
    """Within it, :func:`citation` gives references and collects each citation once in the yielded dict.

    For the comparisons, whose variants' rulings quote the same sentences many times over.
    """
    table: dict[str, dict] = {}
    token = _REFERENCED.set(table)
    try:
        yield table
    finally:
        _REFERENCED.reset(token)


def citations(cs: tuple) -> list[dict]:
    """The citations as JSON."""
    return [citation(c) for c in cs]


def house_rule(h: HouseRuleUsed) -> dict:
    return {"parameter": h.parameter, "value": jsonable(h.value)}


# ----------------------------------------------------------------------------------------------
# Rulings


def finding(f: Finding, lang: str, words: bool = True) -> dict:
    explanation, code = said_and_code(f.message, lang if words else None)
    return _finding(f, explanation, code, words)


def _finding(f: Finding, explanation: str | None, code: dict, words: bool) -> dict:
    out: dict[str, Any]
    if words:
        out = {"rule": f.rule, "passed": f.passed, "explanation": explanation, "parameters": list(f.parameters),
               "citations": citations(f.citations), "message": code}
    else:
        out = {"rule": f.rule, "passed": f.passed, "parameters": list(f.parameters),
               "citations": citations(f.citations), "message": code}
    if f.house_rules:
        out["house_rules"] = [house_rule(h) for h in f.house_rules]
    if f.open_on:
        out["open_on"] = list(f.open_on)
    return out


def interpretation(i: Interpretation, lang: str, words: bool = True) -> dict:
    """``note`` is the variant author's note (in the reader's language where the variant file gives it);
    ``summary`` says what was applied, in the reader's language. Without words, neither."""
    if not words:
        return {"rule": i.parameter, "parameter": i.parameter, "status": i.status, "value": jsonable(i.value),
                "citations": citations(i.citations)}
    note = translated(i.note, i.notes, lang)
    said_ = words_for(f"interpretation.{i.status}", lang, parameter=Param(i.parameter),
                      value=ParamValue(i.parameter, i.value))
    if i.occasion is not None:
        occasion = said(i.occasion, lang)
        note = f"{(note or '').strip()} {occasion}".strip()
        said_ += " " + occasion
    return {"rule": i.parameter, "parameter": i.parameter, "status": i.status, "value": jsonable(i.value),
            "note": note, "summary": said_, "citations": citations(i.citations)}


def own_words(r: Ruling, lang: str, words: bool = True) -> list[dict]:
    """The text's own words in the ruling's quotes, where the service says another (sv-classic's "slängstapeln"
    for the service's "kasthögen"): beside the quotes, so the reader sees they name the same thing."""
    ref = r.variant_ref
    pairs = getattr(ref, "own_words", ()) if ref is not None else ()
    if not pairs:
        return []
    quotes = [c.quote.lower() for f in r.findings for c in f.citations]
    quotes += [c.quote.lower() for i in r.interpretations for c in i.citations]
    out = []
    for code, own in pairs:
        if any(own.lower() in quote for quote in quotes):
            item = {"word": code, "text_word": own}
            if words:
                item["note"] = said(msg("own_word", word=Word(code), own=own), lang)
            out.append(item)
    return out


def _deciding_first(r: Ruling, reasons: list, deciding_findings: tuple) -> list:
    """The reasons, those the verdict rests on first (``deciding_findings``, :meth:`Ruling.deciding`: a legal
    ruling's check that was in doubt, an illegal one's failures, an undetermined one's open points), after the
    table's own check."""
    deciding = {id(f) for f in deciding_findings}
    if not deciding:
        return reasons
    ahead = [i for i, f in enumerate(r.findings) if f.rule == "table.possible"]
    ahead += [i for i, f in enumerate(r.findings) if id(f) in deciding and i not in ahead]
    return [reasons[i] for i in ahead] + [x for i, x in enumerate(reasons) if i not in ahead]


def ruling(r: Ruling, lang: str, words: bool = True) -> dict:
    """A ruling as JSON; ``words=False`` leaves out every sentence (the keys, rule ids and citations stay)."""
    out: dict[str, Any] = {"variant": r.variant, "verdict": r.verdict}
    if words:  # everything the ruling says, asked of the words in one call (each made once, kept there)
        summary_, said_findings, consequences = ruling_words(r, lang)
        out["summary"] = summary_
        out["reasons"] = [_finding(f, said_[0], said_[1], True) for f, said_ in zip(r.findings, said_findings)]
    else:
        out["reasons"] = [finding(f, lang, False) for f in r.findings]
    deciding = r.deciding()  # asked once: the reasons' order and the deciding citations both read it
    out["reasons"] = _deciding_first(r, out["reasons"], deciding)
    own = own_words(r, lang, words)
    if own:
        out["own_words"] = own
    out["interpretations"] = [interpretation(i, lang, words) for i in r.interpretations]
    out["missing"] = list(r.missing)
    out["not_stated"] = list(r.not_stated)
    if words:
        out["consequences"] = consequences
    else:
        out["consequence_messages"] = [said_and_code(m, None)[1] for m in r.consequences]
    # one-off per ruling: made directly, not kept among the shared citation lists (it would only crowd them)
    out["deciding"] = [citation(c) for c in dict.fromkeys(f.citations[0] for f in deciding if f.citations)]
    if r.readings:
        out["readings"] = [
            {"values": {p: jsonable(v) for p, v in reading.values}, "verdict": reading.verdict,
             **({"explanations": [said(m, lang) for m in reading.messages]} if words else {})}
            for reading in r.readings]
        out["decided_across"] = list(r.across)
    points = open_points(r, lang, words)
    if points:
        out["open_points"] = points
    if r.cannot_happen:
        out["cannot_happen"] = [cannot_happen(c, lang, words) for c in r.cannot_happen]
    if r.conditions:
        out["conditions"] = [condition(c, lang, words) for c in r.conditions]
    if r.facts_across:
        out["decided_across_facts"] = [pointer for pointer, _ in r.facts_across]
    return out


def condition(c: Condition, lang: str, words: bool = True) -> dict:
    """A fact the ruling lacks: its pointer and kind, the question, and each value's choice -- the verdict
    ``/v1/adjudicate`` gives with it, what decides that, and the merge patch onto the request that gives it."""
    out: dict[str, Any] = {"pointer": c.pointer, "kind": c.kind}
    if words:
        out["question"] = said(c.question, lang)
    out["choices"] = [choice(ch, lang, words) for ch in c.choices]
    return out


def choice(ch: Choice, lang: str, words: bool = True) -> dict:
    out: dict[str, Any] = {"value": ch.value}
    if words:
        out["label"] = said(ch.label, lang)
        out["condition"] = said(ch.condition, lang)
    out["verdict"] = ch.verdict
    if words:
        out["explanations"] = [said(m, lang) for m in dict.fromkeys(f.message for f in ch.ruling.deciding())]
    out["patch"] = {"situation": situation_patch(ch.patch)}
    if ch.ruling.conditions:
        out["conditions"] = [condition(c, lang, words) for c in ch.ruling.conditions]
    return out


def situation_patch(pairs: tuple) -> dict:
    """``(path, value)`` pairs as the nested objects of a JSON Merge Patch."""
    out: dict = {}
    for path, value in pairs:
        at = out
        for name in path[:-1]:
            at = at.setdefault(name, {})
        at[path[-1]] = value
    return out


def cannot_happen(c, lang: str, words: bool = True) -> dict:
    """A reading under which the table itself cannot happen: its values, and each check of the table that
    fails read so, with the field it points at."""
    return {"values": {p: jsonable(v) for p, v in c.values},
            "reasons": [{"pointer": at, **finding(f, lang, words)} for at, f in c.failures]}


def open_points(r: Ruling, lang: str, words: bool = True) -> list[dict]:
    """The points of the text a table could settle to decide this ruling: the question, and each answer
    with the verdict it gives (where the ruling was tried that way)."""
    if r.verdict != Verdict.UNDETERMINED:
        return []
    out = []
    for name, values in r.open_points:
        # keyed by each value's repr: a reading may be a list (what freezes the pile), and True is not 1
        verdicts = {repr(dict(reading.values).get(name)): reading.verdict for reading in r.readings
                    if len(reading.values) == 1}
        ruled_out = [repr(dict(c.values).get(name)) for c in r.cannot_happen if len(c.values) == 1]
        point = {"parameter": name}
        if words:
            point["question"] = words_for("open_point.question", lang, parameter=Param(name))
        point["choices"] = [{"value": jsonable(v),
                             **({"label": said(statement(name, v), lang)} if words else {}),
                             **({"verdict": verdicts[repr(v)]} if repr(v) in verdicts else {}),
                             **({"cannot_happen": True} if repr(v) in ruled_out else {})} for v in values]
        out.append(point)
    return out


def rule_list(lang: str) -> dict:
    return {"rules": [{"rule": rid, "checks": words(f"rule.{rid}", lang), "parameters": list(params)}
                      for rid, params in RULES.items()]}


# ----------------------------------------------------------------------------------------------
# Scores


def _add_sources(out: dict, cs, houses) -> dict:
    """``out`` with the citations and, where the table settled a point, the house rules it used."""
    out["citations"] = citations(cs)
    if houses:
        out["house_rules"] = [house_rule(h) for h in houses]
        if len(houses) == 1:
            out["house_rule"] = house_rule(houses[0])
    return out


def score_line(line: ScoreLine, lang: str) -> dict:
    return _add_sources({"item": line.item, "label": words_for(f"line.{line.item}", lang), "count": line.count,
                         "points": line.points, "parameters": list(line.parameters)}, line.citations, line.house_rules)


def next_opening(o: NextOpening, lang: str) -> dict:
    """A team's next opening requirement."""
    out: dict = {"points": o.points, "canasta_required": o.canasta_required}
    if o.undetermined:
        assert o.open_point is not None, "an undetermined opening says which point is open"
        out["undetermined"] = True
        out["note"] = said(o.open_point, lang)
        out["text"] = words_for("opening.next_unknown", lang)
    elif o.canasta_required:
        out["text"] = words_for("opening.next_canasta", lang)
    else:
        out["text"] = words_for("opening.next", lang, points=o.points)
    out["status"] = o.status
    if o.status != Status.STATED and not o.undetermined:
        out["note"] = translated(o.note, o.notes, lang)
    return _add_sources(out, o.citations, o.house_rules)


def _standing(need, lang: str) -> dict:
    """An opening figure's status, and the variant's note where the text does not state it outright."""
    if need.status == Status.STATED:
        return {"status": Status.STATED}
    return {"status": need.status, "note": translated(need.note, need.notes, lang)}


def team_score(t: TeamScore, lang: str) -> dict:
    return {"name": t.name, "score_before": t.score_before, "lines": [score_line(line, lang) for line in t.lines],
            "round": t.round, "total": t.total, "opening_requirement": next_opening(t.opening, lang)}


def outcome(sheet: RoundSheet | GameSheet, lang: str) -> str:
    """Who won, or that nobody is named, or how far the leader still has to go."""
    if sheet.winner is not None:
        return words_for("game.winner", lang, team=sheet.winner)
    if sheet.game_over:
        return words_for("game.over_no_winner", lang)
    best = max(t.total for t in sheet.teams)
    return words_for("game.goes_on", lang, count=max(0, sheet.target - best), target=sheet.target)


def round_sheet(s: RoundSheet, lang: str) -> dict:
    return _across({"variant": s.variant, "target": s.target, "teams": [team_score(t, lang) for t in s.teams],
                    "game_over": s.game_over, "winner": s.winner, "outcome": outcome(s, lang),
                    "interpretations": [interpretation(i, lang) for i in s.interpretations]}, s, lang)


def score(s: RoundSheet | GameSheet, lang: str) -> dict:
    if isinstance(s, RoundSheet):
        return round_sheet(s, lang)
    return _across({"variant": s.variant, "players": s.players, "target": s.target,
                    "rounds": [round_sheet(r, lang) for r in s.rounds], "teams": [team_score(t, lang) for t in s.teams],
                    "game_over": s.game_over, "winner": s.winner, "outcome": outcome(s, lang),
                    "interpretations": [interpretation(i, lang) for i in s.interpretations]}, s, lang)


def _across(out: dict, s: RoundSheet | GameSheet, lang: str) -> dict:
    """What a score made across the readings of its text adds (:mod:`adjudicator.scoring.across`): the points
    every reading agrees on, or each reading's totals where they differ (and the reading the lines show), and
    the readings under which the round cannot happen."""
    across = s.across
    if across.points:
        out["decided_across"] = list(across.points)
    if across.readings:
        out["undetermined"] = True
        out["shown_reading"] = {p: jsonable(v) for p, v in across.shown}
        out["readings"] = [{"values": {p: jsonable(v) for p, v in r.values},
                            "reading": said(reading_message(r.values), lang),
                            "teams": [{"name": name, "round": points, "total": total}
                                      for name, points, total in r.teams],
                            "game_over": r.game_over, "winner": r.winner,
                            "outcome": _reading_outcome(r, lang)} for r in across.readings]
    if across.cannot_happen:
        out["cannot_happen"] = [cannot_happen(c, lang) for c in across.cannot_happen]
    return out


def _reading_outcome(r: ScoreReading, lang: str) -> str:
    """Who won under one reading, or that nobody is named, or how far the leader still has to go."""
    if r.winner is not None:
        return words_for("game.winner", lang, team=r.winner)
    if r.game_over:
        return words_for("game.over_no_winner", lang)
    best = max(total for _, _, total in r.teams)
    return words_for("game.goes_on", lang, count=max(0, r.target - best), target=r.target)


# ----------------------------------------------------------------------------------------------
# Problems from engine errors

PROBLEMS: dict[type, tuple[int, str]] = {  # class -> (status, type slug); the title is ``title.<slug>``
    MalformedRequest: (422, "validation-failed"),
    ImpossibleInput: (422, "impossible-input"),
    UnknownVariant: (404, "unknown-variant"),
    RuleNotStated: (422, "rule-not-stated"),
}


def _field_error(issue, lang: str) -> dict:
    """One fault: where, in words, and the rule id when a rule's check failed (for programs)."""
    out = {"pointer": issue.pointer, "detail": render(issue.message, lang)}
    rule = issue.message.args.get("rule")
    if isinstance(rule, str):
        out["rule"] = rule
        # the parameters the refusal rests on: only ones the variant states or a house rule settles
        out["parameters"] = list(issue.message.args.get("parameters") or ())
    return out


def problem_members(error: AdjudicatorError, lang: str) -> dict:
    """The RFC 9457 members of an engine error (``type`` is the slug; the web layer makes it a URI)."""
    status, slug = next(PROBLEMS[c] for c in type(error).__mro__ if c in PROBLEMS)  # CardError: ImpossibleInput
    title = words(f"title.{slug}", lang)
    issues = error.issues
    errors = [_field_error(i, lang) for i in issues[:MAX_ERRORS]]
    # words for a person: the first few problems' sentences; where each is, is in ``errors``
    said = list(dict.fromkeys(e["detail"] for e in errors[:DETAIL_ERRORS]))  # a sentence once, however often
    detail = " ".join(said)
    if error.count > DETAIL_ERRORS:
        detail += " " + words("detail.more_errors", lang, count=error.count - DETAIL_ERRORS)
    out: dict = {"type": slug, "title": title, "status": status, "detail": detail, "errors": errors}
    if error.count > len(errors):
        out["error_count"] = error.count
    if isinstance(error, RuleNotStated):
        out["parameters"] = list(error.parameters)
    if isinstance(error, UnknownVariant):
        out["known"] = list(error.known)
    return out



def item_problem(error: AdjudicatorError, lang: str, problem_type=lambda slug: slug) -> dict:
    """The problem of one item of a batch or one variant of a comparison: the answer around it says
    the rest (``known`` belongs to a whole answer's 404, not to an item)."""
    members = problem_members(error, lang)
    members["type"] = problem_type(members["type"])
    members.pop("known", None)
    return members

# ----------------------------------------------------------------------------------------------
# Comparisons


def _shown(p) -> dict:
    return {"parameter": p.parameter, "value": jsonable(p.value), "status": p.status}


_OUTCOME_WORD = {True: "passed", False: "failed", None: "undetermined", "not checked": "not checked"}


def shown_list(ps: tuple) -> list[dict]:
    """The parameters a difference shows, as JSON."""
    return [_shown(p) for p in ps]


def rule_difference(d: RuleDifference, lang: str) -> dict:
    entries = []
    for e in d.variants:
        entry = {"variant": e.variant, "passed": e.outcome, "outcome": _OUTCOME_WORD[e.outcome],
                 "explanation": said(e.explanation, lang), "parameters": shown_list(e.parameters),
                 "citations": citations(e.citations)}
        if e.house_rules:
            entry["house_rules"] = [house_rule(h) for h in e.house_rules]
        entries.append(entry)
    return {"rule": d.rule, "checks": words_for(f"rule.{d.rule}", lang), "parameters": list(d.parameters),
            "differing_parameters": list(d.differing), "why": said(d.why, lang), "variants": entries}


def score_difference(d: ScoreDifference, lang: str) -> dict:
    entries = []
    for e in d.variants:
        entry = {"variant": e.variant, "counted": e.counted, "count": e.count, "points": e.points,
                 "citations": citations(e.citations), "parameters": shown_list(e.parameters)}
        if e.house_rules:
            entry["house_rules"] = [house_rule(h) for h in e.house_rules]
        entries.append(entry)
    out: dict = {"team": d.team, "item": d.item}
    if d.round is not None:
        out["round"] = d.round
    out.update({"parameters": list(d.parameters), "differing_parameters": list(d.differing),
                "why": said(d.why, lang), "variants": entries})
    return out


def _result(r: VariantResult, lang: str, problem_type, words: bool = True, page: Page = EVERY) -> dict:
    if r.ruling is not None:
        return {"variant": r.variant, "ruling": ruling(r.ruling, lang, words)}
    if r.options is not None:  # the comparison's page of them, as /v1/options pages one variant's
        return {"variant": r.variant, "options": options(r.options, lang, page.limit, page.offset, page.group, words)}
    if r.score is not None:
        return {"variant": r.variant, "score": score(r.score, lang)}
    assert r.problem is not None, "a variant's result is a ruling, options, a score or a problem"
    return {"variant": r.variant, "problem": item_problem(r.problem, lang, problem_type)}


def comparison(c: Comparison, lang: str, problem_type=lambda slug: slug, words: bool = True) -> dict:
    """Any comparison as JSON: of rulings, of scores, or of options (:func:`options_comparison`).

    ``words=False``: the variants' rulings without their words (the differences keep theirs)."""
    if c.kind == "options":
        return options_comparison(c, lang, problem_type, words)
    groups = [_group(g, lang) if g.verdict is not None else
              {"totals": dict(g.totals or {}), "variants": list(g.variants)} for g in c.groups]
    results = [_result(r, lang, problem_type, words) for r in c.results]
    why = dict(c.why)
    for result in results:
        if result["variant"] in why and "ruling" in result:  # a refusal says why itself
            result["why"] = said(why[result["variant"]], lang)
    out: dict[str, Any] = {"kind": c.kind, "variants": list(c.variants)}
    if c.headline is not None:
        out["headline"] = said(c.headline, lang)
    out.update({"results": results, "agree": c.agree, "groups": groups,
                "differences": [rule_difference(d, lang) if isinstance(d, RuleDifference) else score_difference(d, lang)
                                for d in c.differences]})
    return out


def _group(g, lang: str) -> dict:
    """Variants that agree on a ruling: the verdict and, where it hangs on facts the table lacks, what each value
    gives (the facts' pointers, each choice's value and verdict)."""
    out: dict[str, Any] = {"verdict": g.verdict, "variants": list(g.variants)}
    if g.conditions:
        out["conditions"] = [_condition_key(c) for c in g.conditions]
        out["outcome"] = said(g.outcome, lang) if g.outcome is not None else None
    return out


def _condition_key(key: tuple) -> dict:
    pointer, choices = key
    return {"pointer": pointer, "choices": [{"value": value, "verdict": verdict,
                                             **({"conditions": [_condition_key(c) for c in nested]} if nested else {})}
                                            for value, verdict, nested in choices]}


# ----------------------------------------------------------------------------------------------
# Variants and the matrix


def entry(e: Entry, lang: str) -> dict:
    return {"name": e.name, "value": jsonable(e.value), "status": e.shown_status, "note": e.note_in(lang),
            "citations": citations(e.citations)}


def variant_summary(v: Variant, lang: str) -> dict:
    name = v.names.get(lang, v.name)
    return {"id": v.id, "name": name, "short_name": v.short_names.get(lang, name), "language": v.language, "source_file": v.seed_file,
            "description": v.description_in(lang), "players_supported": v.players_supported,
            "target_score": {str(k): t for k, t in sorted((v.value("game.target") or {}).items())}}


def parameter_entry(v: Variant, param, lang: str) -> dict:
    out = entry(v.entry(param.name), lang)
    out.update({"type": param.type, "description": words(f"param.{param.name}.about", lang),
                "question": words(f"param.{param.name}", lang), "overridable": True,
                "accepts": render(param.accepts(), lang)})
    return out


def variant_detail(v: Variant, lang: str) -> dict:
    out = variant_summary(v, lang)
    out["parameters"] = [parameter_entry(v, p, lang) for p in PARAMETERS]
    return out


def matrix(ids: list[str], rows: tuple[MatrixRow, ...], lang: str) -> dict:
    return {"variants": ids, "rows": [
        {"parameter": row.param.name, "description": words(f"param.{row.param.name}.about", lang),
         "type": row.param.type,
         "accepts": render(row.param.accepts(), lang), "differs": row.differs,
         "values": {vid: {k: v for k, v in entry(e, lang).items() if k != "name"} for vid, e in row.entries.items()}}
        for row in rows]}


# ----------------------------------------------------------------------------------------------
# Options: what may I do? (/v1/options, and /v1/compare of a situation alone)


def option(o, lang: str, words: bool = True) -> dict:
    """One option: its stable key, what it is in words, the action to send to ``/v1/adjudicate``, its ruling
    (``words=False``: without its sentences, as :func:`ruling` gives it)."""
    out = {"key": o.key, "kind": o.kind, "way": o.way, "verdict": o.verdict,
           "description": render(o.message, lang), "message": o.message.code(), "action": o.body,
           "cards": list(o.cards)}
    if o.rank is not None:
        out["rank"] = o.rank
    if o.points is not None:
        out["points"] = o.points
    if o.kind == ActionType.GO_OUT:
        out["concealed"] = o.concealed
    condition_ = o.condition
    if condition_ is not None:
        out["condition"] = said(condition_, lang)
    out["ruling"] = ruling(o.ruling, lang, words)
    return out


def option_group(g, lang: str, limit: int | None = None, offset: int = 0, words: bool = True) -> dict:
    """A group with its ``count`` of options and the page ``offset``/``limit`` of them (all by default)."""
    page = g.options[offset:None if limit is None else offset + limit]
    out = {"kind": g.kind, "phase": g.phase, "heading": render(g.message, lang), "drew": g.drew,
           "assumed": g.assumed, "possible": g.possible, "count": g.count, "complete": g.complete,
           "offset": offset, "options": [option(o, lang, words) for o in page]}
    if g.blocked is not None:
        out["blocked"] = ruling(g.blocked, lang, words)
    if g.missing:
        out["missing"] = list(g.missing)
    return out


def options(o, lang: str, limit: int | None = None, offset: int = 0, only: str | None = None,
            words: bool = True) -> dict:
    need = o.requirement
    return {"variant": o.variant, "phase": o.phase,
            "opening_requirement": None if need is None else {
                "points": need.points, "canasta_required": need.canasta_required,
                "text": render(requirement_message(need), lang), **_standing(need, lang)},
            "groups": [option_group(g, lang, limit, offset, words) for g in o.groups if only in (None, g.kind)]}


def option_difference(d, lang: str) -> dict:
    return {"key": d.key, "kind": d.kind, "variants": [
        {"variant": e.variant, "listed": e.listed, "verdict": e.verdict, "action": e.action,
         "ruling": None if e.ruling is None else ruling(e.ruling, lang)} for e in d.variants]}


def options_comparison(c: Comparison, lang: str, problem_type=lambda slug: slug, words: bool = True) -> dict:
    """A comparison of the options open in one situation under several variants."""
    return {"kind": c.kind, "variants": list(c.variants),
            "results": [_result(r, lang, problem_type, words, c.page) for r in c.results],
            "agree": c.agree,
            "groups": [{"options": list(g.options or ()), "variants": list(g.variants)} for g in c.groups],
            "differences": [options_difference(d, lang) for d in c.differences]}


def options_difference(d, lang: str) -> dict:
    """A difference of a comparison of options: an option's, or whether the table can happen (a rule's)."""
    return rule_difference(d, lang) if isinstance(d, RuleDifference) else option_difference(d, lang)



# ----------------------------------------------------------------------------------------------
# Replays


def replay(r: Any, lang: str) -> dict:
    """A replay as JSON: a round's (:class:`~adjudicator.replay.Replay`) or a whole game's
    (:class:`~adjudicator.replay.GameReplay`). Both keep ``first_illegal`` at the top (null when none; in a
    game with its round), so a caller can tell at once whether the log holds an illegal move."""
    if hasattr(r, "rounds_given"):
        return replay_game(r, lang)
    return replay_round(r, lang)


def replay_round(r: Any, lang: str) -> dict:
    """A round's replay: entries in short, the first illegal move in full, where it stopped undetermined, the
    table, why the round ended, and the score."""
    table = r.table
    return {
        "variant": r.variant,
        "moves_ruled": len(r.entries),
        "entries": [_replay_entry(e, lang) for e in r.entries],
        "first_illegal": None if r.first_illegal is None else _replay_fault(r.first_illegal, lang),
        "undetermined": None if r.undetermined is None else _replay_stop(r.undetermined, lang),
        "table": {"to_play": table.seat, "drew": table.drew, "stock_count": table.stock_count,
                  "discard_pile": list(table.pile), "hands": [list(h) for h in table.hands],
                  "teams": [{"melds": [list(m) for m in table.melds[t]], "red_threes": table.red_threes[t],
                             "opened": bool(table.melds[t])} for t in range(r.teams)],
                  "has_melded": [bool(m) or (s == table.seat and table.laid) for s, m in enumerate(table.melded)],
                  "went_out": table.went_out, "partner_answer": table.partner_answer},
        "ended": r.ended,
        "end": None if r.end is None else {"reason": r.end.reason, "player": r.end.player,
                                           "text": render(r.end.message(), lang)},
        "score_request": r.score_request,
        "score": None if r.score is None else score(r.score, lang),
        "score_problem": None if r.score_error is None else problem_members(r.score_error, lang),
    }


def replay_game(g: Any, lang: str) -> dict:
    """A game's replay: each round replayed (up to where the replay stopped), the first illegal move with its
    round, where it stopped undetermined, and the game scored as ``/v1/score`` scores its rounds."""
    first, stop = g.first_illegal, g.undetermined
    return {
        "variant": g.variant,
        "players": g.players,
        "rounds_given": g.rounds_given,
        "rounds_replayed": len(g.rounds),
        "rounds": [replay_round(r, lang) for r in g.rounds],
        "first_illegal": None if first is None else {"round": g.first_illegal_round, **_replay_fault(first, lang)},
        "undetermined": None if stop is None else {"round": g.undetermined_round, **_replay_stop(stop, lang)},
        "game_over": g.game_over,
        "score_request": g.score_request,
        "score": None if g.score is None else score(g.score, lang),
        "score_problem": None if g.score_error is None else problem_members(g.score_error, lang),
    }


def _replay_fault(e: Any, lang: str) -> dict:
    return {"index": e.index, "player": e.player, "pointer": e.pointer,
            "reason": None if e.reason is None else {**e.reason.code(), "text": render(e.reason, lang)},
            "ruling": None if e.ruling is None else ruling(e.ruling, lang)}


def _replay_stop(s: Any, lang: str) -> dict:
    """Where the replay stopped undetermined: why, the move's ruling, and each open point with its question."""
    if s.ruling is not None and s.ruling.verdict == Verdict.UNDETERMINED:
        points = open_points(s.ruling, lang)
    else:
        points = [{"parameter": name, "question": words_for("open_point.question", lang, parameter=Param(name)),
                   "choices": [{"value": jsonable(v), "label": said(statement(name, v), lang)} for v in values]}
                  for name, values in s.open_points]
    return {"index": s.index, "player": s.player, "pointer": s.pointer,
            "reason": {**s.reason.code(), "text": render(s.reason, lang)},
            "ruling": None if s.ruling is None else ruling(s.ruling, lang), "open_points": points}


def _replay_entry(e: Any, lang: str) -> dict:
    out: dict[str, Any] = {"index": e.index, "player": e.player, "verdict": e.verdict,
                           "rules": [] if e.ruling is None else list(dict.fromkeys(
                               f.rule for f in _deciding_first(e.ruling, list(e.ruling.findings),
                                                               e.ruling.deciding())))}
    if e.event is not None:
        out["event"] = e.event
    if e.reason is not None and e.ruling is None:
        out["summary"] = render(e.reason, lang)
    elif e.ruling is not None:
        out["summary"] = ruling_summary(e.ruling, lang)
    else:
        out["summary"] = render(e.said, lang) if e.said is not None else ""
    if e.reason is not None and e.ruling is not None:
        out["reason"] = render(e.reason, lang)
    if e.together:
        out["together"] = list(e.together)
    return out
