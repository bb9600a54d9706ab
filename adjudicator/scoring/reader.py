"""How scoring reads a variant's parameters: through a :class:`~adjudicator.rules.judge.Judge`, strictly.

The judge records the interpretations. On top, a figure the text does not
state is an error here (a score cannot be "undetermined"): a
:class:`~adjudicator.model.errors.RuleNotStated` that points at the input needing it
and shows the house rule that would settle it, with an example value taken
from another variant that does state it.
"""

from __future__ import annotations

from typing import Any

from ..model.errors import Issue, RuleNotStated, issue
from ..rules.judge import Judge, NotStated
from ..model.messages import Message, Param, ParamValue, msg
from ..model.parameters import BY_NAME, PARAMETERS
from ..variants import Variant

ORDER = {p.name: i for i, p in enumerate(PARAMETERS)}


def catalogue_order(names) -> list[str]:
    return sorted(dict.fromkeys(names), key=lambda n: ORDER.get(n, len(ORDER)))


def ordered(names) -> tuple[str, ...]:
    """:func:`catalogue_order` as a tuple."""
    return tuple(catalogue_order(names))


class Reader:
    """One variant's parameters as scoring reads them, and the interpretations they add up to."""

    def __init__(self, rules: Variant, variants: dict[str, Variant], players: int | None = None):
        self.rules = rules
        self.variants = variants
        self.players = players  # sentences about other player counts are not quoted
        self.judge = Judge(rules, players)

    def need(self, name: str, at: str, why: Message | None = None) -> Any:
        """The parameter's value, or :class:`RuleNotStated` pointing at ``at``."""
        try:
            return self.judge.param(name)
        except NotStated:
            raise self.not_stated([(at, name, why)]) from None

    def maybe(self, name: str) -> tuple[bool, Any]:
        """(stated?, value) without raising; the interpretation is recorded either way."""
        try:
            return True, self.judge.param(name)
        except NotStated:
            return False, None

    def fresh(self) -> Judge:
        """A separate judge for one legality check, so its findings stay apart; it keeps only what a score
        shows of them (faults and open points), not the findings of checks that passed, and with each finding
        the parameters it rests on that the text does not state outright (its ``grounds``)."""
        judge = Judge(self.rules, self.players)
        judge.passed_kept = False
        judge.grounds = []
        return judge

    def absorb(self, judge: Judge) -> None:
        """A legality check's interpretations, and the points it read that the text reads two ways."""
        for name, interpretation in judge.interpretations.items():
            self.judge.interpretations.setdefault(name, interpretation)
        two_way = self.judge.two_way
        for name in judge.two_way:
            if name not in two_way:
                two_way.append(name)

    def not_stated_issue(self, name: str, at: str, why: Message | None = None) -> Issue:
        return issue(at, "error.not_stated", variant=self.rules.ref, parameter=Param(name), why=why,
                     example=msg("house_rule.value", parameter=Param(name), value=ParamValue(name, self.example(name))))

    def not_stated(self, needs: list[tuple[str, str, Message | None]]) -> RuleNotStated:
        """One error for many (pointer, parameter, why) needs."""
        return RuleNotStated([self.not_stated_issue(name, at, why) for at, name, why in needs],
                             [name for _, name, _ in needs])

    def example(self, name: str) -> Any:
        """A plausible house-rule value: what another variant's text says, else a value of the right type."""
        for status in ("stated", "interpreted"):
            for other in self.variants.values():
                entry = other.params.get(name)
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

    def sources(self, names) -> tuple[tuple, tuple]:
        """The citations (and house rules) behind a line or a figure, in catalogue order."""
        return self.judge.citations(ordered(names))  # worked out once per variant

    def interpretations(self) -> tuple:
        return tuple(sorted(self.judge.interpretations.values(), key=lambda i: ORDER.get(i.parameter, len(ORDER))))
