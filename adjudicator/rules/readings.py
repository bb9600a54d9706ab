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

The table itself may be one that some readings rule out (a red three above the
bottom of the pile, where the text leaves open whether a red three is ever
discarded): :mod:`adjudicator.rules.table_check` hands those over as a
:class:`TableDoubt`. The ruling is then decided under the readings where the
table can happen only -- if they agree, that is the verdict -- and it says which
readings make the table impossible (``Ruling.cannot_happen``, and a passed
finding ``table.possible`` in words, first among its findings).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from itertools import product
from typing import Callable

from ..model.findings import ILLEGAL, UNDETERMINED, CannotHappen, Finding, Reading, Ruling
from .judge import cited
from ..words.clauses import reading_message
from ..model.messages import Items, Message, Param, msg
from ..variants import Variant

MAX_POINTS = 3  # open points tried together: at most 2 x 2 x 2 rulings for three true/false points


@dataclass(frozen=True)
class TableDoubt:
    """The readings of the text under which a table cannot happen (:func:`adjudicator.rules.table_check.assess`).

    ``points`` are the parameters tried reading by reading (empty where only the service's interpretation of
    a limit rules the table out: the table is then ruled as given); ``cannot`` says, for each reading that
    rules it out, what fails; ``excluded`` are the readings (:func:`reading_key`) a ruling is not decided
    under."""

    points: tuple[str, ...]
    cannot: tuple[CannotHappen, ...]
    excluded: frozenset

    def excludes(self, chosen: tuple) -> bool:
        """Whether a reading of (at least) the doubt's points is one the table cannot happen under."""
        if not self.excluded:
            return False
        values = dict(chosen)
        return reading_key(tuple((p, values[p]) for p in self.points if p in values)) in self.excluded


def reading_key(chosen: tuple) -> tuple:
    """A reading as a key: each value by its repr (``True`` is not ``1``; a list is a value too)."""
    return tuple((name, repr(value)) for name, value in chosen)


def readings_for(rules: Variant, name: str) -> tuple:
    """The values an open point can take (empty: it is settled, or cannot be tried one by one): made with the
    variant (:attr:`~adjudicator.variants.Variant.point_values`)."""
    return rules.point_values.get(name, ())


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


def decide_across(run: Callable[[Variant], Ruling], rules: Variant, table: TableDoubt | None = None) -> Ruling:
    """``run(rules)``; where it hangs on open points, ``run`` again under each reading of them. Where some
    readings rule the table out (``table``), they are tried too, and the ruling is decided under the others."""
    first = run(rules)
    if table is not None:
        return _with_table(run, rules, first, table)
    return _across(run, rules, first)


def _across(run: Callable[[Variant], Ruling], rules: Variant, first: Ruling) -> Ruling:
    """:func:`decide_across` once ``first`` (the ruling under the rules as they stand) is made."""
    if not first.not_stated and not first.two_way:
        return first  # most rulings: nothing open, nothing read two ways
    points = _open_points(first, rules, [])[:MAX_POINTS]
    if not points:
        return first
    runs = _runs(run, rules, first, points)
    return _merge(first, points, runs, rules)


def _with_table(run: Callable[[Variant], Ruling], rules: Variant, first: Ruling, table: TableDoubt) -> Ruling:
    """The ruling decided under the readings where the table can happen: the table's points first, then the
    ruling's own open points, every combination tried, those the table cannot happen under left out."""
    if not table.points:  # only the service's interpretation rules the table out: ruled as given, and said so
        return _told(_across(run, rules, first), rules, table)
    points = list(table.points)
    points += [p for p in _open_points(first, rules, points)][:max(0, MAX_POINTS - len(points))]
    kept = _runs(run, rules, first, points, table)
    if len(kept) == 1:  # one reading allows the table: the ruling under it is the ruling
        return _told(kept[0][1], rules, table)
    return _told(_merge(first, points, kept, rules), rules, table)


def _runs(run: Callable[[Variant], Ruling], rules: Variant, first: Ruling, points: list[str],
          table: TableDoubt | None = None) -> list[tuple[tuple, Ruling]]:
    """The ruling under each reading of ``points`` (those the table cannot happen under left out), the points
    growing by the open points those rulings meet, up to :data:`MAX_POINTS`."""
    while True:
        runs: list[tuple[tuple, Ruling]] = []
        for chosen, read in each_reading(rules, points):
            if table is not None and table.excludes(chosen):
                continue
            # the document's own reading of a two-way text is the ruling already made
            runs.append((chosen, first if _as_written(rules, chosen) else run(read)))
        more: list[str] = []
        for _, ruling in runs:
            if ruling.not_stated or ruling.two_way:
                more += _open_points(ruling, rules, points + more)
        if not more or len(points) >= MAX_POINTS:
            return runs
        points += more[:MAX_POINTS - len(points)]


def _as_written(rules: Variant, chosen: tuple) -> bool:
    """Whether a reading is the document's own (each point read two ways, with the value the file gives it)."""
    return all(rules.params[p].status != "not_stated" and rules.params[p].value == v for p, v in chosen)


def _told(ruled: Ruling, rules: Variant, table: TableDoubt) -> Ruling:
    """``ruled`` with the readings the table cannot happen under, and a finding saying so first."""
    parts = []
    names: list[str] = []
    for cannot in table.cannot:
        said: list[Message] = []
        for _, failed in cannot.failures:
            if failed.message not in said:  # messages compare by value (they do not hash)
                said.append(failed.message)
        why = Items(tuple(said), " ")
        parts.append(msg("table.cannot_happen_under", reading=reading_message(cannot.values), why=why))
        names += [p for p, _ in cannot.values]
    key = "table.possible_under" if table.points else "table.possible_as_given"
    params = tuple(dict.fromkeys(names))
    told = Finding("table.possible", True, msg(key, readings=Items(tuple(parts), " ")), params,
                   cited(rules, params)[0])
    return _changed(ruled, findings=(told, *ruled.findings), cannot_happen=table.cannot)


def _merge(first: Ruling, points: list[str], runs: list[tuple[tuple, Ruling]], rules: Variant) -> Ruling:
    """The runs' rulings as one: each reading in words, the findings matched across them."""
    verdict = runs[0][1].verdict
    for _, r in runs:
        if r.verdict != verdict:
            verdict = UNDETERMINED  # the readings disagree
            break
    readings = tuple(Reading(values, r.verdict, tuple(f.message for f in r.deciding())) for values, r in runs)
    findings = _findings(points, runs, None, Items(tuple(Param(p) for p in points), " & "))
    if verdict == UNDETERMINED:  # what the text leaves open decides: its words come first
        about_points = cited(rules, tuple(points))[0]  # the open points' own words
        findings = tuple(replace(f, citations=tuple(dict.fromkeys(about_points + f.citations)))
                         if f.passed is None and f.open_on == tuple(points) else f for f in findings)
    interpretations = {i.parameter: i for i in first.interpretations}
    missing = list(first.missing)
    not_stated = list(first.not_stated)
    consequences: list[Message] = []
    for _, r in runs:
        if r is not first:  # the first run's own are in already
            for i in r.interpretations:
                interpretations.setdefault(i.parameter, i)
            missing += [m for m in r.missing if m not in missing]
            not_stated += [n for n in r.not_stated if n not in not_stated]
        consequences += [c for c in r.consequences if c not in consequences]
    return _changed(first, verdict=verdict, findings=findings, interpretations=tuple(interpretations.values()),
                   missing=tuple(missing), not_stated=tuple(dict.fromkeys([*points, *not_stated])),
                   consequences=tuple(consequences) if verdict != ILLEGAL else (), readings=readings,
                   across=tuple(points) if verdict != UNDETERMINED else (),
                   open_points=tuple((p, readings_for(rules, p)) for p in points))


def _changed(ruling: Ruling, **changes) -> Ruling:
    """``ruling`` with some fields changed (:func:`dataclasses.replace`, without its look at the fields)."""
    return Ruling(**{**ruling.__dict__, **changes})


def merge_alike(first: Ruling, runs: list[tuple[tuple, Ruling]], said: list[Message], point_words: Items) -> Ruling:
    """Rulings that give the same verdict as one (a fact the table lacks, every value of which gives it:
    :mod:`adjudicator.rules.conditions`): ``said`` is each run's value in words, ``point_words`` what they are
    values of ("whether or not the stock has cards"); the findings are matched across them as readings' are."""
    rulings = [r for _, r in runs]
    findings = _findings([], runs, said, point_words)
    interpretations: dict = {}
    missing: list[str] = []
    not_stated: list[str] = []
    across: list[str] = []
    consequences: list[Message] = []
    for r in rulings:
        for i in r.interpretations:
            interpretations.setdefault(i.parameter, i)
        missing += [m for m in r.missing if m not in missing]
        not_stated += [n for n in r.not_stated if n not in not_stated]
        across += [a for a in r.across if a not in across]
        consequences += [c for c in r.consequences if c not in consequences]
    verdict = rulings[0].verdict
    if verdict == ILLEGAL:  # refused under every value, perhaps by a different check under each: a check that
        # fails under some value is a reason the play fails (its words say under which), so the refusal names them
        failing = {f.rule for r in rulings for f in r.findings if f.passed is False}
        findings = tuple(replace(f, passed=False) if f.passed is None and f.rule in failing else f
                         for f in findings)
    return _changed(first, verdict=verdict, findings=findings, interpretations=tuple(interpretations.values()),
                   missing=tuple(missing), not_stated=tuple(not_stated), across=tuple(across),
                   consequences=tuple(consequences) if verdict != ILLEGAL else (), readings=(), open_points=(),
                   cannot_happen=rulings[0].cannot_happen)


def _findings(points: list[str], runs: list[tuple[tuple, Ruling]], said: list[Message] | None,
              point_words: Items) -> tuple[Finding, ...]:
    """Findings matched by (rule, occurrence) across the runs, in order of first appearance: across the readings
    of ``points`` (each run's reading in words made from its values), or across values of a fact (``said``:
    each run's value in words)."""
    order: list[tuple] = []
    per: dict[tuple, list] = {}
    subjects: dict = {}  # what a subject says (comparable) -> a number: keys of small ints hash cheaply
    by_object: dict[int, int | None] = {}  # a subject message's id -> its number (one meld's checks share it)
    count = len(runs)
    for index in range(count):
        seen: dict[tuple, int] = {}
        for finding in runs[index][1].findings:
            subject = finding.message.args.get("subject")
            number = by_object.get(id(subject), -1) if subject is not None else None
            if number == -1:
                number = by_object[id(subject)] = _subject_number(subject, subjects)
            about = (finding.rule, number)  # a meld's checks are matched meld by meld
            k = seen[about] = seen.get(about, -1) + 1
            key = (finding.rule, number, k)
            found = per.get(key)
            if found is None:
                order.append(key)
                found = per[key] = [None] * count
            found[index] = finding
    out: list[Finding] = []
    for key in order:
        found = per[key]
        present: list[Finding] = []
        same = True  # every present finding equal to the first present
        for f in found:
            if f is not None:
                if present and same and f != present[0]:
                    same = False
                present.append(f)
        base = present[0]
        if same and len(present) == count:
            # the same finding under every reading (most of them): kept as it is, less the points tried
            if not base.open_on:
                out.append(base)
                continue
            open_on = _without(base.open_on, points)
            out.append(base if open_on == base.open_on else replace(base, open_on=open_on))
            continue
        outcomes = {f.passed for f in present}
        citations = _union([f.citations for f in present])
        parameters = _union([f.parameters for f in present])
        house = _union([f.house_rules for f in present])
        missing = _union([f.missing for f in present])
        if len(outcomes) == 1 and (len(present) == count or outcomes == {True}):
            if len(present) == count and all(f.message == base.message for f in present):
                message = base.message
            elif len(present) < count or said is not None:  # met under some only: said where it holds
                message = msg("reading.where", readings=_each(said, found, runs, points))
            else:
                message = msg("reading.whichever", points=point_words, readings=_each(said, found, runs, points))
            opened: list[str] = []
            for f in present:
                opened += f.open_on
            out.append(Finding(base.rule, base.passed, message, parameters, citations, house,
                               _without(tuple(opened), points), missing))
        elif said is not None:  # across a fact's values, each value's finding where it is met
            out.append(Finding(key[0], None, msg("reading.where", readings=_each(said, found, runs, points)),
                               parameters, citations, house, (), missing))
        else:
            out.append(Finding(key[0], None, msg("reading.depends", points=point_words,
                                                 readings=_each(said, found, runs, points)),
                               parameters, citations, house, tuple(points), missing))
    return tuple(out)


def _without(names: tuple, points: list[str]) -> tuple:
    """``names`` less the points tried, each once, in order."""
    kept: dict[str, None] = {}
    for name in names:
        if name not in points:
            kept[name] = None
    return tuple(kept)


def _union(fields: list[tuple]) -> tuple:
    """One field's items over the findings, each once, in order (most often the same tuple in every reading)."""
    first = fields[0]
    for field in fields:
        if field != first:
            items: dict = {}
            for each in fields:
                for item in each:
                    items[item] = None
            return tuple(items)
    return first


def _subject_number(subject, numbers: dict) -> int | None:
    """The number of what ``subject`` says among ``numbers`` (None: a subject that is no message)."""
    if not isinstance(subject, Message):
        return None
    return numbers.setdefault(subject, len(numbers))


def _each(said: list[Message] | None, found, runs: list[tuple[tuple, Ruling]], points: list[str]) -> Items:
    """What a finding says under each reading where it is met ("if twos are wild: ...; if not: ..."), in short:
    a point that changes nothing this finding says is left out of its readings' words, and a reading under which
    the check was never reached is not named. ``said``: each run's value in words, given (a fact's values), or
    made here from each run's reading."""
    values = [chosen for chosen, _ in runs]
    if said is None:
        relevant = [p for p in points if _matters(p, values, found)]
        said = [reading_message(tuple((p, v) for p, v in chosen if p in relevant)) for chosen in values]
    parts: list[Message] = []
    for words, finding in zip(said, found):
        if finding is None:
            continue
        part = msg("reading.says", reading=words, says=finding.message)
        if part not in parts:
            parts.append(part)
    return Items(tuple(parts))


def _matters(point: str, values: list[tuple], found) -> bool:
    """Whether a finding says something else (or is met or not) for another value of ``point``, the other points
    as they are."""
    seen: dict = {}
    for chosen, finding in zip(values, found):
        rest = tuple((p, repr(v)) for p, v in chosen if p != point)
        said = None if finding is None else (finding.passed, finding.message)
        if seen.setdefault(rest, said) != said:
            return True
    return False
