"""Deciding across readings: a ruling that hangs on a point the text leaves open, tried every way it can go.

When a ruling needs a parameter the document leaves open (``not_stated``), or
one it reads two ways (``interpreted`` with ``readings``), the ruling is made
again under each value the point can take: the readings the variant file names,
or else the parameter type's own choices (true/false, an enum's values). If
every reading gives the same verdict, that is the verdict -- "not allowed,
whichever way it is read whether twos are wild" -- and the ruling says so; only
when they differ is it ``undetermined``, listing what each reading gives.

Findings are matched across readings by rule (and their order within the rule).
One with the same outcome under every reading is kept as it is (its words
naming each reading where they differ), and so is one that passes wherever a
reading reaches it; one whose outcome depends on the reading is open, and says
what it is under each.
"""

from __future__ import annotations

from itertools import product
from typing import Callable

from ..model.findings import ILLEGAL, UNDETERMINED, Finding, Reading, Ruling, ruling
from ..model.findings import finding as made_finding
from .judge import cited_once
from ..words.clauses import reading_message
from ..model.messages import Items, Message, Param, msg
from ..model.parameters import BY_NAME, readings_of
from ..variants import Variant

MAX_POINTS = 3  # open points tried together: at most 2 x 2 x 2 rulings for three true/false points


def readings_for(rules: Variant, name: str) -> tuple:
    """The values an open point can take (empty: it is settled, or cannot be tried one by one)."""
    entry = rules.params[name]
    if entry.source != "document":
        return ()
    values = entry.readings or (readings_of(BY_NAME[name]) if entry.status == "not_stated" else ())
    return values if len(values) > 1 else ()  # a single choice is no choice: it would settle the point


def each_reading(rules: Variant, points: list[str]):
    """``(chosen values, rules read that way)`` for every combination of the points' readings."""
    for values in product(*(readings_for(rules, p) for p in points)):
        chosen = tuple(zip(points, values))
        yield chosen, rules.under_readings(chosen)


def _open_points(ruling: Ruling, rules: Variant, known: list[str]) -> list[str]:
    if not ruling.not_stated and not ruling.two_way:
        return []  # most rulings: nothing open, nothing read two ways
    return [n for n in dict.fromkeys((*ruling.not_stated, *ruling.two_way))
            if n not in known and readings_for(rules, n)]


def decide_across(run: Callable[[Variant], Ruling], rules: Variant) -> Ruling:
    """``run(rules)``; where it hangs on open points, ``run`` again under each reading of them."""
    first = run(rules)
    points = _open_points(first, rules, [])[:MAX_POINTS]
    if not points:
        return first
    while True:
        runs = []
        for chosen, read in each_reading(rules, points):
            # the document's own reading of a two-way text is the ruling already made
            as_written = all(rules.params[p].status != "not_stated" and rules.params[p].value == v for p, v in chosen)
            runs.append((chosen, first if as_written else run(read)))
        more: list[str] = []
        for _, ruling in runs:
            more += _open_points(ruling, rules, points + more)
        if not more or len(points) >= MAX_POINTS:
            break
        points += more[:MAX_POINTS - len(points)]
    return _merge(first, points, runs, rules)


def _merge(first: Ruling, points: list[str], runs: list[tuple[tuple, Ruling]], rules: Variant) -> Ruling:
    verdicts = {r.verdict for _, r in runs}
    verdict = verdicts.pop() if len(verdicts) == 1 else UNDETERMINED
    readings = tuple(Reading(values, r.verdict, tuple(f.message for f in r.deciding())) for values, r in runs)
    findings = _findings(points, runs, rules)
    if verdict == UNDETERMINED:  # what the text leaves open decides: its words come first
        about_points = cited_once(rules, tuple(points))  # the open points' own words
        findings = tuple(made_finding(f.rule, f.passed, f.message, f.parameters,
                                 tuple(dict.fromkeys(about_points + f.citations)), f.house_rules, f.open_on, f.missing)
                         if f.passed is None and f.open_on == tuple(points) else f for f in findings)
    interpretations = {i.parameter: i for i in first.interpretations}
    for _, r in runs:
        for i in r.interpretations:
            interpretations.setdefault(i.parameter, i)
    missing = list(first.missing)
    not_stated = list(first.not_stated)
    consequences: list[Message] = []
    for _, r in runs:
        missing += [m for m in r.missing if m not in missing]
        not_stated += [n for n in r.not_stated if n not in not_stated]
        consequences += [c for c in r.consequences if c not in consequences]
    return ruling(first.variant, first.action, verdict, findings, tuple(interpretations.values()), tuple(missing),
                  tuple(dict.fromkeys([*points, *not_stated])),
                  tuple(consequences) if verdict != ILLEGAL else (), first.skipped, first.two_way, first.variant_ref,
                  readings, tuple(points) if verdict != UNDETERMINED else (),
                  tuple((p, readings_for(rules, p)) for p in points))



def _reading_message(rules: Variant, values: tuple) -> Message:
    """One reading in words, made once per variant for each reading (a message is never changed once made;
    keyed by each value's repr, as :meth:`~adjudicator.variants.Variant.under_readings` is: ``True`` is not
    ``1``)."""
    key = ("reading words", tuple((name, repr(value)) for name, value in values))
    hit = rules.cite_cache.get(key)
    if hit is None:
        hit = rules.cite_cache[key] = reading_message(values)
    return hit


def _findings(points: list[str], runs: list[tuple[tuple, Ruling]], rules: Variant) -> tuple[Finding, ...]:
    """Findings matched by (rule, occurrence) across the readings, in order of first appearance."""
    order: list[tuple] = []
    per: dict[tuple, list] = {}
    subjects: dict = {}  # what a subject says (comparable) -> a number: keys of small ints hash cheaply
    by_object: dict[int, int | None] = {}  # a subject message's id -> its number (one meld's checks share it)
    for index, (_, ruling) in enumerate(runs):
        seen: dict[tuple, int] = {}
        for finding in ruling.findings:
            subject = finding.message.args.get("subject")
            number = by_object.get(id(subject), -1) if subject is not None else None
            if number == -1:
                number = by_object[id(subject)] = _subject_number(subject, subjects)
            about = (finding.rule, number)  # a meld's checks are matched meld by meld
            k = seen[about] = seen.get(about, -1) + 1
            key = (*about, k)
            if key not in per:
                order.append(key)
                per[key] = [None] * len(runs)
            per[key][index] = finding
    out = []
    point_words = Items(tuple(Param(p) for p in points), " & ")
    said: list[Message] = []

    def reading_words() -> list[Message]:  # each run's reading in words, made once, when a finding needs them
        if not said:
            said.extend(_reading_message(rules, values) for values, _ in runs)
        return said
    for key in order:
        found = per[key]
        present = [f for f in found if f is not None]
        base = present[0]
        if len(present) == len(runs) and all(f is base or f == base for f in present[1:]):
            # the same finding under every reading (most of them): kept as it is, less the points tried
            if not base.open_on:
                out.append(base)
                continue
            open_on = tuple(dict.fromkeys(o for o in base.open_on if o not in points))
            out.append(base if open_on == base.open_on else made_finding(
                base.rule, base.passed, base.message, base.parameters, base.citations, base.house_rules, open_on,
                base.missing))
            continue
        outcomes = {f.passed for f in present}
        citations = _union(present, "citations")
        parameters = _union(present, "parameters")
        house = _union(present, "house_rules")
        missing = _union(present, "missing")
        if len(outcomes) == 1 and (len(present) == len(runs) or outcomes == {True}):
            messages = [f.message for f in present]
            if len(present) == len(runs) and all(m == messages[0] for m in messages):
                message = messages[0]
            else:
                message = msg("reading.whichever", points=point_words, readings=_each(reading_words(), found))
            base = present[0]
            out.append(made_finding(base.rule, base.passed, message, parameters, citations, house,
                               tuple(dict.fromkeys(o for f in present for o in f.open_on if o not in points)),
                               missing))
        else:
            out.append(made_finding(key[0], None, msg("reading.depends", points=point_words, readings=_each(reading_words(), found)),
                               parameters, citations, house, tuple(points), missing))
    return tuple(out)


def _union(findings: list[Finding], field: str) -> tuple:
    """One field's items over the findings, each once, in order (most often the same tuple in every reading)."""
    first = getattr(findings[0], field)
    if all(getattr(f, field) == first for f in findings):
        return first
    return tuple(dict.fromkeys(item for f in findings for item in getattr(f, field)))


def _subject_number(subject, numbers: dict) -> int | None:
    """The number of what ``subject`` says among ``numbers`` (None: a subject that is no message)."""
    if not isinstance(subject, Message):
        return None
    return numbers.setdefault(_comparable(subject), len(numbers))


def _comparable(message: Message):
    """A message as a hashable value: its key and its arguments (card, cards, rank and number arguments)."""
    return (message.key, tuple((name, _comparable(arg) if isinstance(arg, Message) else arg)
                               for name, arg in message.args.items()))


def _each(readings: list[Message], found) -> Items:
    """What a finding says under each reading ("if twos are wild: ...; if not: ..."); ``readings`` are the
    runs' readings in words (made once for all the findings)."""
    parts = []
    for reading, finding in zip(readings, found):
        said = finding.message if finding is not None else msg("reading.not_checked")
        parts.append(msg("reading.says", reading=reading, says=said))
    return Items(tuple(parts))
