"""Compare one dispute, or one score, across several variants at once.

:func:`compare` takes a :class:`~adjudicator.model.requests.CompareRequest` (the typed request of a
ruling, a score or the options under each of a list of variants) and returns a :class:`Comparison`:

* ``results``: per variant, exactly the single-variant answer (a
  :class:`~adjudicator.model.findings.Ruling` or a score sheet), or the error that
  variant raises for this input (five jokers in a 108-card deck, a player count
  its document has no rules for, a score figure its text leaves open). When every
  variant raises the very same error, it is the request's fault, not the variants',
  and it is raised as the single-variant call would raise it.
* ``groups``: the variants that agree (same verdict; same round and total per team),
  in order of first appearance; ``agree`` when there is at most one group and no
  variant finds the table impossible while another answers.
* ``differences``: why they part ways. For a ruling, one entry per rule whose
  findings differ (checked by some variants and not others, or with another
  outcome); for a score, one per line item (per team, and per round of a game)
  whose points differ or that some variants do not count. Each names the
  parameters behind it -- those its findings or lines read in any variant, the
  catalogue's parameters for the rule, the points a text left open -- with each
  variant's value, status and citations, and which of them differ. Where a
  variant finds the table impossible and another answers, that comes first: a
  ``table.possible`` difference naming what rules the table out there (the
  stated parameters its refusal rests on) and what the others say of it.

Everything is read from the typed findings and lines themselves: the parameters
a check read, the points that left it open, the parameters a check read before
finding it did not apply (``Ruling.skipped``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from ..rules.engine import rule
from ..model.errors import AdjudicatorError, ImpossibleInput, RuleNotStated
from ..model.enums import Verdict
from ..model.findings import LEGAL, UNDETERMINED, Finding, HouseRuleUsed, Ruling
from ..rules.judge import cited
from ..model.messages import Fact, Items, Message, Param, ParamValue, Word, msg
from ..options.listing import Options, legal_moves
from ..options.paging import EVERY, Page
from .options import compare_options
from ..model.requests import CompareRequest, OptionsRequest, RulingRequest
from ..words.clauses import statement
from ..model.rule_ids import RULES
from ..scoring import GameSheet, RoundSheet, ScoreLine, score
from ..model.citations import Citation
from ..variants import Variant

NOT_CHECKED = "not checked"


@dataclass(frozen=True, slots=True)
class ParameterShown:
    """One parameter's value and status in one variant, as a difference shows it."""

    parameter: str
    value: Any
    status: str


@dataclass(frozen=True)
class VariantResult:
    """One variant's answer: a ruling or a score, or the error it raises for this input."""

    variant: str
    ruling: Ruling | None = None
    score: RoundSheet | GameSheet | None = None
    problem: AdjudicatorError | None = None
    options: Options | None = None  # a situation alone: the options open in it


@dataclass(frozen=True)
class Group:
    """Variants that agree: on a ``verdict`` (rulings), or on every team's ``totals`` (scores)."""

    variants: tuple[str, ...]
    verdict: str | None = None
    totals: dict | None = None
    options: tuple[str, ...] | None = None  # options: the moves all of them allow, as key=verdict
    # rulings: the facts the verdict hangs on, each with the verdict of each value (the same in every variant of
    # the group), and how the group's outcome is said ("allowed while the stock has cards")
    conditions: tuple = ()
    outcome: Message | None = None


@dataclass(frozen=True)
class RuleDifferenceEntry:
    variant: str
    outcome: Any  # True, False, None (undetermined) or NOT_CHECKED
    explanation: Message
    parameters: tuple[ParameterShown, ...]
    citations: tuple[Citation, ...]
    house_rules: tuple[HouseRuleUsed, ...] = ()


@dataclass(frozen=True)
class RuleDifference:
    rule: str
    parameters: tuple[str, ...]
    differing: tuple[str, ...]
    why: Message
    variants: tuple[RuleDifferenceEntry, ...]


@dataclass(frozen=True)
class ScoreDifferenceEntry:
    variant: str
    counted: bool
    count: int | None
    points: int | None
    parameters: tuple[ParameterShown, ...]
    citations: tuple[Citation, ...]
    house_rules: tuple[HouseRuleUsed, ...] = ()


@dataclass(frozen=True)
class ScoreDifference:
    team: str
    item: str
    round: int | None
    parameters: tuple[str, ...]
    differing: tuple[str, ...]
    why: Message
    variants: tuple[ScoreDifferenceEntry, ...]


@dataclass(frozen=True)
class Comparison:
    kind: str  # "ruling", "score" or "options"
    variants: tuple[str, ...]
    results: tuple[VariantResult, ...]
    agree: bool
    groups: tuple[Group, ...]
    differences: tuple
    page: Page = EVERY  # options: the page of each variant's listing shown and compared
    # rulings: the comparison in a line (whether the variants agree, and on what), and for each variant that parts
    # from another, why, in a line (what it says of the first rule the variants differ on)
    headline: Message | None = None
    why: tuple[tuple[str, Message], ...] = ()


# ----------------------------------------------------------------------------------------------
# The comparison


def compare(request: CompareRequest, variants: dict[str, Variant], page: Page = EVERY,
            admit: Callable[[list[tuple[str, Options]]], None] | None = None) -> Comparison:
    """Rule on (or score) the request under each of its variants and say where and why they differ (for the
    options of a situation: over the moves of ``page`` of each variant's listing).

    ``admit``, for the options: called with each answered variant's listing once the walks have found how long
    its groups are, before any option of a page is made or compared; it may raise to stop there (a caller's
    budget, :mod:`adjudicator.cost`)."""
    results: list[VariantResult] = []
    raised: list[AdjudicatorError] = []
    asked: dict[str, OptionsRequest] = {}  # options: each variant's parsed situation
    ruled = {}  # each variant with the house rules applied, as its request was parsed
    for vid, asked_here in zip(request.variants, request.asked):
        try:
            if isinstance(asked_here, AdjudicatorError):
                raise asked_here  # this variant found the input impossible as it was parsed
            ruled[vid] = asked_here.rules
            # each variant's request is of the comparison's kind (the parser makes it so)
            if isinstance(asked_here, OptionsRequest):
                asked[vid] = asked_here
                results.append(VariantResult(vid, options=legal_moves(asked_here.situation, asked_here.rules,
                                                                      page.group)))
            elif isinstance(asked_here, RulingRequest):
                results.append(VariantResult(vid, ruling=rule(asked_here.situation, asked_here.action,
                                                              asked_here.rules)))
            else:
                results.append(VariantResult(vid, score=score(asked_here, variants)))
        except AdjudicatorError as e:
            e.with_traceback(None)  # kept as a value: a traceback's frames would hold this list in a cycle
            raised.append(e)
            results.append(VariantResult(vid, problem=e))
    if raised and len(raised) == len(request.variants) and not isinstance(raised[0], RuleNotStated) \
            and all(e.same_as(raised[0]) for e in raised):
        raise raised[0]  # every variant says the same: the request's own fault
    answered = [r for r in results if r.problem is None]
    if request.kind == "options":
        if admit is not None:
            admit([(r.variant, r.options) for r in answered if r.options is not None])
        found, differences = compare_options([(r.variant, asked[r.variant], r.options) for r in answered
                                              if r.options is not None], page)  # every answered variant's page
        groups = tuple(Group(tuple(ids), options=keys) for keys, ids in found)
    elif request.kind == "ruling":
        groups = _ruling_groups(answered)
        differences = _ruling_differences(answered, ruled)
    else:
        groups = _score_groups(answered)
        differences = _score_differences(answered, ruled)
    refused = [r for r in results if isinstance(r.problem, ImpossibleInput)]
    if refused and answered:  # a table one variant rules out and another answers: they differ, and first there
        others = tuple(d for d in differences if getattr(d, "rule", None) != "table.possible")  # said in the first
        differences = (_table_difference(results, ruled, variants), *others)
    agree = len(groups) <= 1 and not (refused and answered)
    if request.kind == "ruling":
        return Comparison(request.kind, request.variants, tuple(results), agree, groups, differences, page,
                          _headline(groups, agree, refused, ruled, variants), _whys(answered, differences, agree))
    return Comparison(request.kind, request.variants, tuple(results), agree, groups, differences, page)


def _table_difference(results: list[VariantResult], ruled: dict[str, Variant],
                      variants: dict[str, Variant]) -> RuleDifference:
    """Whether the table can happen, variant by variant: the refusals (with the stated parameters each rests
    on) and the answers (with the readings under which, there, it could not happen)."""
    taking = [r for r in results if r.problem is None or isinstance(r.problem, ImpossibleInput)]
    ids = [r.variant for r in taking]
    rules_of = {vid: ruled.get(vid) or variants[vid] for vid in ids}
    read: list[str] = []
    told: dict[str, Finding] = {}
    for r in taking:
        if r.problem is not None:
            for issue in r.problem.issues:
                read += issue.message.args.get("parameters") or ()
        elif r.ruling is not None:
            said = next((f for f in r.ruling.findings if f.rule == "table.possible"), None)
            if said is not None:
                told[r.variant] = said
                read += said.parameters
    names = tuple(dict.fromkeys(read))
    differing, why = _why(names, rules_of, ids)
    entries = []
    for r in taking:
        rules = rules_of[r.variant]
        if r.problem is not None:
            issues = r.problem.issues
            entries.append(RuleDifferenceEntry(
                r.variant, False, msg("compare.explanations", items=Items(tuple(i.message for i in issues), " ")),
                shown_all(rules, names), cited(rules, tuple(dict.fromkeys(
                    n for i in issues for n in (i.message.args.get("parameters") or ()))))[0]))
        elif r.variant in told:
            said = told[r.variant]
            entries.append(RuleDifferenceEntry(r.variant, True, said.message, shown_all(rules, names),
                                               said.citations))
        else:
            entries.append(RuleDifferenceEntry(r.variant, True, msg("compare.table_can_happen", variant=rules.ref),
                                               shown_all(rules, names), ()))
    return RuleDifference("table.possible", names, differing, why, tuple(entries))


def _ruling_of(result: VariantResult) -> Ruling:
    """The ruling of a variant that answered a ruling comparison."""
    assert result.ruling is not None, "a variant that answers a ruling comparison answers with a ruling"
    return result.ruling


def _ruling_groups(answered: list[VariantResult]) -> tuple[Group, ...]:
    """The variants that agree: on the verdict, and -- where it hangs on facts the table lacks -- on what each
    value of each fact gives (two "undetermined" that hang on different things do not agree)."""
    groups: dict[tuple, list[str]] = {}
    first: dict[tuple, Ruling] = {}
    for r in answered:
        ruling = _ruling_of(r)
        key = (ruling.verdict, _conditions_key(ruling.conditions))
        groups.setdefault(key, []).append(r.variant)
        first.setdefault(key, ruling)
    said = {key: _outcome_words(ruling) for key, ruling in first.items()}
    out = []
    for key, ids in groups.items():
        outcome = said[key]
        for other, words in said.items():  # another group whose outcome reads alike: say where they part
            parting = _parting(first[key], first[other]) if other != key and words == outcome else None
            if parting is not None:
                outcome = msg("compare.outcome_parting", outcome=outcome, conditions=Items(parting[0], ", "),
                              verdict=Word(parting[1]))
                break
        out.append(Group(tuple(ids), verdict=key[0], conditions=key[1], outcome=outcome))
    return tuple(out)


def _parting(ruling: Ruling, other: Ruling) -> tuple[tuple[Message, ...], Verdict] | None:
    """The first values of the facts (down the conditions) under which ``ruling`` says another thing than
    ``other`` -- its conditions, in words, and the verdict there -- preferring one where it decides, said with the
    fewest conditions. None: they part nowhere in their conditions."""
    found: list[tuple[tuple[Message, ...], Verdict]] = []

    def walk(a: Ruling, b: Ruling | None, path: tuple[Message, ...]) -> None:
        for condition in a.conditions[:1]:  # the line a reader follows: each ruling's first fact
            theirs = None if b is None else next((c for c in b.conditions if c.pointer == condition.pointer), None)
            for choice in condition.choices:
                match = None if theirs is None else next((c for c in theirs.choices if c.value == choice.value), None)
                here = (*path, choice.condition)
                if match is not None and match.verdict == choice.verdict:
                    walk(choice.ruling, match.ruling, here)
                    continue
                found.append((here, choice.verdict))
                if choice.verdict == UNDETERMINED:
                    walk(choice.ruling, None, here)  # undetermined there: where below it decides

    walk(ruling, other, ())
    decided = [f for f in found if f[1] != UNDETERMINED]
    return min(decided or found, key=lambda f: len(f[0])) if found else None


def _conditions_key(conditions: tuple) -> tuple:
    """What a ruling's conditions say, comparable across variants: each fact and each value's verdict, down the
    facts a value still hangs on."""
    return tuple((c.pointer, tuple((ch.value, ch.verdict, _conditions_key(ch.ruling.conditions)) for ch in c.choices))
                 for c in conditions)


def _outcome_words(ruling: Ruling) -> Message:
    """A group's outcome in a few words: "allowed", or "allowed while the stock has cards" where it hangs on a fact
    (the value that allows it, else the first value's verdict)."""
    if not ruling.conditions:
        return msg("compare.outcome", verdict=Word(ruling.verdict))
    condition = ruling.conditions[0]
    lead = next((c for c in condition.choices if c.verdict == Verdict.LEGAL), condition.choices[0])
    return msg("compare.outcome_if", verdict=Word(lead.verdict), condition=lead.condition)


def _headline(groups: tuple[Group, ...], agree: bool, refused: list[VariantResult], ruled: dict[str, Variant],
              variants: dict[str, Variant]) -> Message:
    """The comparison in a line: "All 4 agree: allowed.", or each group's variants and outcome."""
    def named(ids) -> Items:
        return Items(tuple((ruled.get(vid) or variants[vid]).ref for vid in ids), " & ")
    if agree and groups:
        group = groups[0]
        return msg("compare.headline_agree", count=len(group.variants), outcome=group.outcome)
    parts = [msg("compare.headline_group", variants=named(g.variants), outcome=g.outcome) for g in groups]
    if refused:
        parts.append(msg("compare.headline_group", variants=named([r.variant for r in refused]),
                         outcome=msg("compare.outcome_impossible")))
    return msg("compare.headline_differ", groups=Items(tuple(parts)))


def _whys(answered: list[VariantResult], differences: tuple, agree: bool) -> tuple[tuple[str, Message], ...]:
    """For each variant, why it parts from the others, in a line: what each value of the fact its ruling hangs
    on gives, where it hangs on one; else what it says of the first rule the variants differ on (the differences
    come deciding first). None where they all agree."""
    if agree:
        return ()
    out: dict[str, Message] = {}
    for r in answered:
        if r.ruling is not None and r.ruling.conditions:
            out[r.variant] = msg("compare.why_condition", choices=Items(tuple(
                msg("compare.why_choice", condition=c.condition, verdict=Word(c.verdict))
                for c in r.ruling.conditions[0].choices)))
    for difference in differences:
        if not isinstance(difference, RuleDifference):
            continue
        for entry in difference.variants:
            out.setdefault(entry.variant, entry.explanation)
    return tuple(out.items())


def _team_outcome(sheet) -> tuple:
    """Each team's round and total, and -- where they depend on how the text is read -- each reading's: a score
    that is one reading's of several never agrees with a score the text decides."""
    return tuple((t.name, t.round, t.total) for t in sheet.teams), repr(sheet.across.readings)


def _score_groups(answered: list[VariantResult]) -> tuple[Group, ...]:
    groups: dict[tuple, list[str]] = {}
    for r in answered:
        groups.setdefault(_team_outcome(r.score), []).append(r.variant)
    return tuple(Group(tuple(ids), totals={name: total for name, _, total in key[0]})
                 for key, ids in groups.items())


# ----------------------------------------------------------------------------------------------
# Parameters shown in differences


def shown(rules: Variant, name: str) -> ParameterShown:
    entry = rules.entry(name)
    return ParameterShown(name, entry.value, entry.shown_status)


def shown_all(rules: Variant, names: tuple[str, ...]) -> tuple[ParameterShown, ...]:
    """:func:`shown` for each name."""
    return tuple(shown(rules, n) for n in names)


def _why(names: tuple[str, ...], ruled: dict[str, Variant], ids: list[str]) -> tuple[tuple[str, ...], Message]:
    """The parameters among ``names`` whose values differ, and a message naming each variant's value."""
    differing, parts = [], []
    for name in names:
        values = {vid: shown(ruled[vid], name) for vid in ids}
        first = next(iter(values.values())).value
        if any(v.value != first for v in values.values()):
            differing.append(name)
            parts.append(msg("compare.why_parameter", parameter=Param(name), values=Items(tuple(
                msg("compare.variant_value", variant=ruled[vid].ref, value=ParamValue(name, v.value), status=Word(v.status))
                for vid, v in values.items()))))
    if parts:
        return tuple(differing), msg("compare.why", parts=Items(tuple(parts), " | "))
    return (), msg("compare.why_same")


# ----------------------------------------------------------------------------------------------
# Ruling differences


def _outcome(findings: list[Finding]) -> Any:
    if not findings:
        return NOT_CHECKED
    passed = [f.passed for f in findings]
    if False in passed:
        return False
    if None in passed:
        return None
    return True


def _ruling_differences(answered: list[VariantResult], ruled: dict[str, Variant]) -> tuple[RuleDifference, ...]:
    if len(answered) < 2:
        return ()
    ids = [r.variant for r in answered]
    rulings = {r.variant: _ruling_of(r) for r in answered}
    by_rule: dict[str, dict[str, list[Finding]]] = {}
    for vid in ids:
        for finding in rulings[vid].findings:
            by_rule.setdefault(finding.rule, {v: [] for v in ids})[vid].append(finding)
    out = []
    for rule_id, per in by_rule.items():
        if len({tuple(f.passed for f in per[vid]) for vid in ids}) == 1:
            continue
        read = list(RULES[rule_id])
        for vid in ids:
            read += rulings[vid].skipped.get(rule_id, ())
            for finding in per[vid]:
                read += finding.parameters
                read += [h.parameter for h in finding.house_rules]
                read += finding.open_on
        names = tuple(dict.fromkeys(read))
        differing, why = _why(names, ruled, ids)
        entries = []
        for vid in ids:
            findings = per[vid]
            if findings:
                explanation = msg("compare.explanations", items=Items(tuple(_unique([f.message for f in findings])),
                                                                      " "))
                citations = _unique_citations([c for f in findings for c in f.citations])
            else:
                explanation = _not_checked(vid, rule_id, rulings[vid], ruled[vid])
                citations = cited(ruled[vid], names)[0]
            entries.append(RuleDifferenceEntry(vid, _outcome(findings), explanation,
                                               shown_all(ruled[vid], names), citations,
                                               tuple(h for f in findings for h in f.house_rules)))
        out.append(RuleDifference(rule_id, tuple(names), differing, why, tuple(entries)))
    # the deciding differences first: a rule whose own parameters differ and that fails somewhere, then the
    # others whose parameters differ; last the rules that are the same everywhere (reached by other routes)
    out.sort(key=lambda d: (not d.differing, all(e.outcome is not False for e in d.variants)))
    return tuple(out)


def _unique(items: list) -> list:
    out: list = []
    for item in items:
        if item not in out:
            out.append(item)
    return out


def _unique_citations(citations) -> tuple[Citation, ...]:
    seen, out = set(), []
    for c in citations:
        if (c.variant, c.start, c.end) not in seen:
            seen.add((c.variant, c.start, c.end))
            out.append(c)
    return tuple(out)


def _not_checked(vid: str, rule_id: str, ruling: Ruling, rules: Variant) -> Message:
    read = ruling.skipped.get(rule_id) or ()
    if read:
        return msg("compare.not_applicable", variant=rules.ref,
                   values=Items(tuple(statement(n, rules.value(n)) for n in read), "; "))
    if ruling.not_stated or ruling.missing:
        return msg("compare.stopped_before", variant=rules.ref,
                   not_stated=Items(tuple(Param(n) for n in ruling.not_stated), ", "),
                   missing=Items(tuple(Fact(p) for p in ruling.missing), ", "))
    return msg("compare.not_reached", variant=rules.ref)


# ----------------------------------------------------------------------------------------------
# Score differences


def _score_lines(sheet) -> dict[tuple, ScoreLine]:
    """(round index or None, team name, item) -> line, over a round's or a game's teams."""
    lines: dict[tuple, ScoreLine] = {}
    rounds = [(i, r) for i, r in enumerate(sheet.rounds)] if isinstance(sheet, GameSheet) else [(None, sheet)]
    for index, rnd in rounds:
        for team in rnd.teams:
            for line in team.lines:
                lines[(index, team.name, line.item)] = line
    return lines


def _score_differences(answered: list[VariantResult], ruled: dict[str, Variant]) -> tuple[ScoreDifference, ...]:
    if len(answered) < 2:
        return ()
    ids = [r.variant for r in answered]
    lines = {r.variant: _score_lines(r.score) for r in answered}
    keys: list[tuple] = []
    for vid in ids:
        keys += [k for k in lines[vid] if k not in keys]
    out = []
    for key in keys:
        round_index, team, item = key
        points = {lines[vid][key].points if key in lines[vid] else None for vid in ids}
        if len(points) == 1:
            continue
        read: list[str] = []
        for vid in ids:
            line = lines[vid].get(key)
            if line:
                read += line.parameters
                read += [h.parameter for h in line.house_rules]
        names = tuple(dict.fromkeys(read))
        differing, why = _why(names, ruled, ids)
        entries = []
        for vid in ids:
            line = lines[vid].get(key)
            entries.append(ScoreDifferenceEntry(
                vid, line is not None, line.count if line else None, line.points if line else None,
                shown_all(ruled[vid], names),
                line.citations if line else cited(ruled[vid], names)[0], line.house_rules if line else ()))
        out.append(ScoreDifference(team, item, round_index, names, differing, why, tuple(entries)))
    return tuple(out)

