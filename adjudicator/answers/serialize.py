"""JSON from the engine's typed results: the one place answers become JSON documents.

Every function takes a typed result and the reader's language and returns a
JSON-ready ``dict``; words come from :mod:`adjudicator.words.render`. Citations are
the same objects again and again, so their dicts are built once per process.

What is the same from one answer to the next is made once and handed out again (never changed
after it is made): a message's words and machine form (:func:`said`, by the message's value),
an interpretation a variant keeps (:func:`interpretation`), a ruling's summary (by what it says).

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
from adjudicator.model.findings import Finding, HouseRuleUsed, Interpretation, Ruling
from adjudicator.compare.matrix import MatrixRow
from adjudicator.model.messages import (Card, Cards, Fact, Items, Message, Param, ParamValue, Rank, VariantRef, Word,
                                        code_of, jsonable)
from adjudicator.model.parameters import PARAMETERS
from adjudicator.words.clauses import statement
from adjudicator.words.render import render, requirement_message, summary, words
from adjudicator.model.rule_ids import RULES
from adjudicator.options.paging import EVERY, Page
from adjudicator.scoring import GameSheet, NextOpening, RoundSheet, ScoreLine, TeamScore
from adjudicator.variants import Citation, Entry, Variant, translated


PROBLEM_BASE = "https://canasta-referee.example/problems/"  # every problem's ``type`` is a URI under it


def problem_type(slug: str) -> str:
    """The problem ``type`` URI for a slug such as ``"validation-failed"``."""
    return PROBLEM_BASE + slug


MAX_ERRORS = 50  # a problem lists at most this many faults; ``error_count`` then says how many there were
DETAIL_ERRORS = 3  # how many problems the one-paragraph ``detail`` spells out

_CITATIONS: Final[dict[int, tuple]] = {}  # id(citation) -> (citation, its JSON, its reference)
_CITATION_LISTS: Final[dict[int, tuple]] = {}  # id(tuple of citations) -> (the tuple, its JSON list)
_CITATION_LISTS_MAX: Final = 4096
_REFERENCED: Final[ContextVar[dict | None]] = ContextVar("referenced_citations", default=None)


def citation(c: Citation) -> dict:
    """The citation as JSON; inside :func:`citation_table`, a ``{"ref": ...}`` into the table instead."""
    hit = _CITATIONS.get(id(c))
    if hit is None or hit[0] is not c:  # the cache holds ``c`` itself, so its id is never reused
        full = {"variant": c.variant, "language": c.language, "section": c.section,
                "quote": c.quote, "start": c.start, "end": c.end}
        hit = _CITATIONS[id(c)] = (c, full, {"ref": f"{c.variant}:{c.start}-{c.end}"})
    table = _REFERENCED.get()
    if table is None:
        return hit[1]
    table[hit[2]["ref"]] = hit[1]
    return hit[2]


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
    """The citations as JSON. The engine shares one tuple per set of citations between rulings, so the
    list made for a tuple is kept and handed out again (it is never changed after it is made)."""
    if _REFERENCED.get() is not None:
        return [citation(c) for c in cs]
    hit = _CITATION_LISTS.get(id(cs))
    if hit is not None and hit[0] is cs:
        return hit[1]
    out = [citation(c) for c in cs]
    if len(_CITATION_LISTS) >= _CITATION_LISTS_MAX:  # the tuples of one-off rulings (readings merged) come and go
        _CITATION_LISTS.clear()
    _CITATION_LISTS[id(cs)] = (cs, out)
    return out


# ----------------------------------------------------------------------------------------------
# Words made once: a message's words and code, by its value

_MESSAGES: Final[dict[tuple, dict]] = {}  # message's value -> {None: its machine form, language: its words}
_MESSAGES_MAX: Final = 16384  # distinct messages are few (rules x cases x cards); a flood of new ones only clears it
_SAID_MAX: Final = _MESSAGES_MAX  # the other tables of things made once


def _frozen(value):
    """A hashable value standing for a message argument: equal only when it is said the same way.

    ``True``, ``1`` and ``1.0`` (equal in Python, said "yes", "1" and "1.0"), a list and a tuple are kept
    apart. Strings, whole numbers and None stand for themselves; a card, rank, word, parameter, fact or
    variant stands as its kind and fields, a tuple Python hashes and compares in C (the dataclass itself
    would run its generated ``__hash__`` and ``__eq__`` as Python at every look-up). Any other value
    stands for itself. Each kind's key is made by its entry in :data:`_FREEZE`: one look-up by type.
    """
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    freeze = _FREEZE.get(kind)
    return value if freeze is None else freeze(value)


def _message_key(m: Message) -> tuple:
    out = [Message, m.key]
    for name, arg in m.args.items():
        out.append(name)
        kind = type(arg)
        if kind is str or kind is int or arg is None:
            out.append(arg)
        else:
            freeze = _FREEZE.get(kind)
            out.append(arg if freeze is None else freeze(arg))
    return tuple(out)


def _items_key(i: Items) -> tuple:
    return (Items, i.joiner, *[_frozen(v) for v in i.items])


def _sequence_key(value) -> tuple:
    return (type(value), *[_frozen(v) for v in value])


def _dict_key(value: dict) -> tuple:
    return (dict, *[(k, _frozen(v)) for k, v in value.items()])


_FREEZE: Final[dict] = {
    Message: _message_key, Items: _items_key,
    Rank: lambda v: (Rank, v.value), Card: lambda v: (Card, v.value), Word: lambda v: (Word, v.value),
    Param: lambda v: (Param, v.name), Cards: lambda v: (Cards, v.codes), Fact: lambda v: (Fact, v.pointer),
    VariantRef: lambda v: (VariantRef, v.id, v.names),
    ParamValue: lambda v: (ParamValue, v.name, _frozen(v.value)),
    tuple: _sequence_key, list: _sequence_key, dict: _dict_key,
    bool: lambda v: (bool, v), float: lambda v: (float, v),
}


def _made(message: Message) -> dict | None:
    """What is made of the message's value so far (its words by language, its machine form under
    ``None``), found by one look-up of its key: a key is a nest of tuples, hashed anew at each look-up.
    None when an argument cannot be part of a key."""
    key = _frozen(message)
    try:
        made = _MESSAGES.get(key)
    except TypeError:  # an argument that is not hashable
        return None
    if made is None:
        made = _remember(_MESSAGES, key, {})
    return made


def _remember(table: dict, key, value):
    if len(table) >= _SAID_MAX:
        table.clear()
    table[key] = value
    return value


def said(message: Message, lang: str) -> str:
    """``render(message, lang)``, made once for each message value and language."""
    made = _made(message)
    if made is None:
        return render(message, lang)
    hit = made.get(lang)
    if hit is None:
        hit = made[lang] = render(message, lang)
    return hit


_CODE_OF = {Card: lambda v: v.value, Rank: lambda v: v.value, Param: lambda v: v.name, Fact: lambda v: v.pointer,
            Word: lambda v: v.value, VariantRef: lambda v: v.id, Cards: lambda v: list(v.codes)}


def code(value):
    """:func:`adjudicator.messages.code_of` (the machine form of a message or argument), by type at once."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is Message:
        return {"key": value.key, "args": {name: code(arg) for name, arg in value.args.items()}}
    made = _CODE_OF.get(kind)
    return made(value) if made is not None else code_of(value)


def said_and_code(message: Message, lang: str | None) -> tuple[str | None, dict]:
    """The message's words and its machine form, made once per value; without a language, the form alone."""
    if not lang:
        return None, code(message)  # made directly: cheaper than the key it would be found by
    made = _made(message)
    if made is None:
        return render(message, lang), message.code()
    code_ = made.get(None)
    if code_ is None:
        code_ = made[None] = code(message)
    words_ = made.get(lang)
    if words_ is None:
        words_ = made[lang] = render(message, lang)
    return words_, code_


def house_rule(h: HouseRuleUsed) -> dict:
    return {"parameter": h.parameter, "value": jsonable(h.value)}


# ----------------------------------------------------------------------------------------------
# Rulings


def finding(f: Finding, lang: str, words: bool = True) -> dict:
    explanation, code = said_and_code(f.message, lang if words else None)
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


_INTERPRETATIONS: Final[dict[tuple, tuple]] = {}  # (id, language) -> (the interpretation, its JSON)


def interpretation(i: Interpretation, lang: str, words: bool = True) -> dict:
    """``note`` is the variant author's note (in the reader's language where the variant file gives it);
    ``summary`` says what was applied, in the reader's language. Without words, neither.

    A variant keeps one interpretation per parameter (:meth:`adjudicator.judge.Judge._interpret`), so its
    JSON is made once per language and shared; one with an occasion (this game's) is made each time.
    """
    if i.occasion is None and _REFERENCED.get() is None:
        key = (id(i), lang if words else None)
        hit = _INTERPRETATIONS.get(key)
        if hit is not None and hit[0] is i:
            return hit[1]
        return _remember(_INTERPRETATIONS, key, (i, _interpretation(i, lang, words)))[1]
    return _interpretation(i, lang, words)


def _interpretation(i: Interpretation, lang: str, words: bool) -> dict:
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


_PLAIN_WORDS: Final[dict[tuple, str]] = {}  # (key, language) -> the words of a text that takes no arguments


def words_for(key: str, lang: str, **args) -> str:
    """A catalogue text by key, filled (:func:`adjudicator.render.words`), made once per value; a text without
    arguments (a score line's label, a rule's name) found by its key alone."""
    if args:
        return said(Message(key, args), lang)
    hit = _PLAIN_WORDS.get((key, lang))
    return hit if hit is not None else _remember(_PLAIN_WORDS, (key, lang), said(Message(key, {}), lang))


_SUMMARIES: Final[dict[tuple, str]] = {}


def ruling_summary(r: Ruling, lang: str) -> str:
    """:func:`adjudicator.render.summary`, made once for each thing a summary can say.

    It reads the variant, the action, the verdict, the failing findings' messages, what is missing
    or not stated, and the readings with what each came to; rulings alike in all of that share it.
    """
    try:
        key = (r.variant, r.variant_ref, r.action, r.verdict, lang, r.missing, r.not_stated, r.across,
               tuple(_frozen(f.message) for f in r.findings if f.passed is False),
               tuple((reading.values, reading.verdict, _frozen(reading.messages)) for reading in r.readings))
        hit = _SUMMARIES.get(key)
    except TypeError:  # an argument that cannot be a key: made each time
        return summary(r, lang)
    return hit if hit is not None else _remember(_SUMMARIES, key, summary(r, lang))


def ruling(r: Ruling, lang: str, words: bool = True) -> dict:
    """A ruling as JSON; ``words=False`` leaves out every sentence (the keys, rule ids and citations stay)."""
    out: dict[str, Any] = {"variant": r.variant, "verdict": r.verdict}
    if words:
        out["summary"] = ruling_summary(r, lang)
    out["reasons"] = [finding(f, lang, words) for f in r.findings]
    out["interpretations"] = [interpretation(i, lang, words) for i in r.interpretations]
    out["missing"] = list(r.missing)
    out["not_stated"] = list(r.not_stated)
    if words:
        out["consequences"] = [said(m, lang) for m in r.consequences]
    else:
        out["consequence_messages"] = [said_and_code(m, None)[1] for m in r.consequences]
    # one-off per ruling: made directly, not kept among the shared citation lists (it would only crowd them)
    out["deciding"] = [citation(c) for c in dict.fromkeys(f.citations[0] for f in r.deciding() if f.citations)]
    if r.readings:
        out["readings"] = [
            {"values": {p: jsonable(v) for p, v in reading.values}, "verdict": reading.verdict,
             **({"explanations": [said(m, lang) for m in reading.messages]} if words else {})}
            for reading in r.readings]
        out["decided_across"] = list(r.across)
    points = open_points(r, lang, words)
    if points:
        out["open_points"] = points
    return out


def open_points(r: Ruling, lang: str, words: bool = True) -> list[dict]:
    """The points of the text a table could settle to decide this ruling: the question, and each answer
    with the verdict it gives (where the ruling was tried that way)."""
    if r.verdict != "undetermined":
        return []
    out = []
    for name, values in r.open_points:
        verdicts = {dict(reading.values).get(name): reading.verdict for reading in r.readings
                    if len(reading.values) == 1}
        point = {"parameter": name}
        if words:
            point["question"] = words_for("open_point.question", lang, parameter=Param(name))
        point["choices"] = [{"value": jsonable(v),
                             **({"label": said(statement(name, v), lang)} if words else {}),
                             **({"verdict": verdicts[v]} if v in verdicts else {})} for v in values]
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


_OPENINGS: Final[dict[tuple, tuple]] = {}  # (id(opening), language) -> (the opening, its JSON)


def next_opening(o: NextOpening, lang: str) -> dict:
    """A team's next opening requirement. The engine keeps one per variant and band
    (:mod:`adjudicator.scoring.opening`), so its JSON is made once per language and shared; an undetermined
    one (its note names this team's total) is made each time."""
    if o.undetermined or _REFERENCED.get() is not None:
        return _next_opening(o, lang)
    key = (id(o), lang)
    hit = _OPENINGS.get(key)
    if hit is not None and hit[0] is o:
        return hit[1]
    return _remember(_OPENINGS, key, (o, _next_opening(o, lang)))[1]


def _next_opening(o: NextOpening, lang: str) -> dict:
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
    if o.status != "stated" and not o.undetermined:
        out["note"] = translated(o.note, o.notes, lang)
    return _add_sources(out, o.citations, o.house_rules)


def _standing(need, lang: str) -> dict:
    """An opening figure's status, and the variant's note where the text does not state it outright."""
    if need.status == "stated":
        return {"status": "stated"}
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
    return {"variant": s.variant, "target": s.target, "teams": [team_score(t, lang) for t in s.teams],
            "game_over": s.game_over, "winner": s.winner, "outcome": outcome(s, lang),
            "interpretations": [interpretation(i, lang) for i in s.interpretations]}


def score(s: RoundSheet | GameSheet, lang: str) -> dict:
    if isinstance(s, RoundSheet):
        return round_sheet(s, lang)
    return {"variant": s.variant, "players": s.players, "target": s.target,
            "rounds": [round_sheet(r, lang) for r in s.rounds], "teams": [team_score(t, lang) for t in s.teams],
            "game_over": s.game_over, "winner": s.winner, "outcome": outcome(s, lang),
            "interpretations": [interpretation(i, lang) for i in s.interpretations]}


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


_SHOWN_LISTS: Final[dict[int, tuple]] = {}  # id(tuple of shown parameters) -> (the tuple, its JSON list)
_KEPT_SAID: Final[dict[tuple, tuple]] = {}  # (id(message), language) -> (the message, its words)


def shown_list(ps: tuple) -> list[dict]:
    """The parameters a difference shows, as JSON. The comparison keeps one tuple per variant and set of
    names (:func:`adjudicator.compare.comparison.shown_all`), so the list made for a tuple is handed out
    again (never changed after it is made), like :func:`citations`."""
    hit = _SHOWN_LISTS.get(id(ps))
    if hit is not None and hit[0] is ps:
        return hit[1]
    out = [_shown(p) for p in ps]
    if len(_SHOWN_LISTS) >= _CITATION_LISTS_MAX:
        _SHOWN_LISTS.clear()
    _SHOWN_LISTS[id(ps)] = (ps, out)
    return out


def said_kept(message: Message, lang: str) -> str:
    """:func:`said` for a message the engine keeps and hands out again (a difference's ``why``), found by the
    message itself before its value is worked out (the message is kept here too, so its id is never reused)."""
    hit = _KEPT_SAID.get((id(message), lang))
    if hit is not None and hit[0] is message:
        return hit[1]
    return _remember(_KEPT_SAID, (id(message), lang), (message, said(message, lang)))[1]


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
            "differing_parameters": list(d.differing), "why": said_kept(d.why, lang), "variants": entries}


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
                "why": said_kept(d.why, lang), "variants": entries})
    return out


def _result(r: VariantResult, lang: str, problem_type, words: bool = True, page: Page = EVERY) -> dict:
    if r.ruling is not None:
        return {"variant": r.variant, "ruling": ruling(r.ruling, lang, words)}
    if r.options is not None:  # the comparison's page of them, as /v1/options pages one variant's
        return {"variant": r.variant, "options": options(r.options, lang, page.limit, page.offset, page.group)}
    if r.score is not None:
        return {"variant": r.variant, "score": score(r.score, lang)}
    assert r.problem is not None, "a variant's result is a ruling, options, a score or a problem"
    return {"variant": r.variant, "problem": item_problem(r.problem, lang, problem_type)}


def comparison(c: Comparison, lang: str, problem_type=lambda slug: slug, words: bool = True) -> dict:
    """Any comparison as JSON: of rulings, of scores, or of options (:func:`options_comparison`).

    ``words=False``: the variants' rulings without their words (the differences keep theirs)."""
    if c.kind == "options":
        return options_comparison(c, lang, problem_type)
    groups = [{"verdict": g.verdict, "variants": list(g.variants)} if g.verdict is not None else
              {"totals": dict(g.totals or {}), "variants": list(g.variants)} for g in c.groups]
    diff = rule_difference if c.kind == "ruling" else score_difference
    return {"kind": c.kind, "variants": list(c.variants),
            "results": [_result(r, lang, problem_type, words) for r in c.results],
            "agree": c.agree, "groups": groups, "differences": [diff(d, lang) for d in c.differences]}


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


def option(o, lang: str) -> dict:
    """One option: its stable key, what it is in words, the action to send to ``/v1/adjudicate``, its ruling."""
    out = {"key": o.key, "kind": o.kind, "way": o.way, "verdict": o.verdict,
           "description": render(o.message, lang), "message": o.message.code(), "action": o.body,
           "cards": list(o.cards)}
    if o.rank is not None:
        out["rank"] = o.rank
    if o.points is not None:
        out["points"] = o.points
    if o.kind == "go_out":
        out["concealed"] = o.concealed
    out["ruling"] = ruling(o.ruling, lang)
    return out


def option_group(g, lang: str, limit: int | None = None, offset: int = 0) -> dict:
    """A group with its ``count`` of options and the page ``offset``/``limit`` of them (all by default)."""
    page = g.options[offset:None if limit is None else offset + limit]
    out = {"kind": g.kind, "phase": g.phase, "heading": render(g.message, lang), "drew": g.drew,
           "assumed": g.assumed, "possible": g.possible, "count": g.count, "complete": g.complete,
           "offset": offset, "options": [option(o, lang) for o in page]}
    if g.blocked is not None:
        out["blocked"] = ruling(g.blocked, lang)
    if g.missing:
        out["missing"] = list(g.missing)
    return out


def options(o, lang: str, limit: int | None = None, offset: int = 0, only: str | None = None) -> dict:
    need = o.requirement
    return {"variant": o.variant, "phase": o.phase,
            "opening_requirement": None if need is None else {
                "points": need.points, "canasta_required": need.canasta_required,
                "text": render(requirement_message(need), lang), **_standing(need, lang)},
            "groups": [option_group(g, lang, limit, offset) for g in o.groups if only in (None, g.kind)]}


def option_difference(d, lang: str) -> dict:
    return {"key": d.key, "kind": d.kind, "variants": [
        {"variant": e.variant, "listed": e.listed, "verdict": e.verdict, "action": e.action,
         "ruling": None if e.ruling is None else ruling(e.ruling, lang)} for e in d.variants]}


def options_comparison(c: Comparison, lang: str, problem_type=lambda slug: slug) -> dict:
    """A comparison of the options open in one situation under several variants."""
    return {"kind": c.kind, "variants": list(c.variants),
            "results": [_result(r, lang, problem_type, page=c.page) for r in c.results],
            "agree": c.agree,
            "groups": [{"options": list(g.options or ()), "variants": list(g.variants)} for g in c.groups],
            "differences": [option_difference(d, lang) for d in c.differences]}

