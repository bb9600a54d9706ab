"""The options of one situation under several variants: which moves one allows and another does not.

Options are matched by their stable ``key`` (``take_pile:natural_and_wild``,
``meld:9``, ``discard:3C`` ...). A key one variant lists and another does not
is not yet a difference -- the other may list the same move under another key,
or cover it by a cheaper opening -- so the move itself is ruled under every
variant: the listing variant's own action, ruled where it is not listed. A
difference is a key whose move gets another verdict somewhere; each entry
carries that variant's ruling, whose failing findings say why it is refused
there.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ..rules.engine import rule_checked
from ..rules.table_check import table_doubt
from ..model.findings import Ruling
from ..options.listing import Option, OptionGroup, Options
from ..options.paging import EVERY, Page
from ..model.requests import OptionsRequest


@dataclass(frozen=True)
class OptionDifferenceEntry:
    """One variant's side of a difference: whether it lists the move, and its ruling of it."""

    variant: str
    listed: bool
    verdict: str | None
    action: dict | None  # the action ruled, as /v1/adjudicate takes it
    ruling: Ruling | None


@dataclass(frozen=True)
class OptionDifference:
    key: str
    kind: str
    variants: tuple[OptionDifferenceEntry, ...]


def compare_options(answered: list[tuple[str, OptionsRequest, Options]], page: Page = EVERY):
    """(groups, differences): groups as (``key=verdict`` signature, variant ids) of variants that rule every
    listed move alike, and the differences, one per move -- the moves of ``page`` of each variant's listing
    (a move another variant lists on its page and this one does not is ruled here: ``listed`` False)."""
    listed = {vid: {o.key: (o, g) for g in page.groups(options) for o in page.of(g)} for vid, _, options in answered}
    order = list(dict.fromkeys(key for vid, _, _ in answered for key in listed[vid]))
    verdicts: dict[str, dict[str, str | None]] = {vid: {} for vid, _, _ in answered}
    differences = []
    for key in order:
        source = next(listed[vid][key] for vid, _, _ in answered if key in listed[vid])
        entries = [_entry(vid, request, listed[vid].get(key), source) for vid, request, _ in answered]
        for e in entries:
            verdicts[e.variant][key] = e.verdict
        if len({e.verdict for e in entries}) > 1:
            differences.append(OptionDifference(key, source[0].kind, tuple(entries)))
    groups: dict[tuple[str, ...], list[str]] = {}
    for vid, _, _ in answered:
        signature = tuple(f"{k}={v}" for k, v in verdicts[vid].items() if v in ("legal", "undetermined"))
        groups.setdefault(signature, []).append(vid)
    return list(groups.items()), tuple(differences)


def _entry(vid: str, request: OptionsRequest, own: tuple[Option, OptionGroup] | None,
           source: tuple[Option, OptionGroup]) -> OptionDifferenceEntry:
    if own is not None:
        option = own[0]
        return OptionDifferenceEntry(vid, True, option.verdict, option.body, option.ruling)
    option, group = source
    listed = replace(request.situation, drew=group.drew)  # the table as the listing ruled it
    ruling = rule_checked(listed, option.action, request.rules, table_doubt(request.rules, listed))
    return OptionDifferenceEntry(vid, False, ruling.verdict, option.body, ruling)
