"""The bookkeeping of one ruling: reasons, interpretations, missing facts.

Each check runs inside :meth:`RulingContext.rule`. Parameters read inside it
become its citations (and, when not ``stated``, interpretations); a missing
fact or an unstated parameter makes that check undetermined instead of
failing the whole ruling. The verdict follows from the checks: any failure
is ``illegal``; otherwise any unknown is ``undetermined``; otherwise ``legal``.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import Any, Iterator

from .rules import RULES
from .situation import MissingFact


class NotStated(Exception):
    """The variant's document does not state a parameter the check needs."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class _Rule:
    def __init__(self, rule_id: str):
        self.id = rule_id
        self.params: list[str] = []
        self.passed: bool | None = None
        self.explanation = ""
        self.decided = False

    def result(self, passed: bool, explanation: str) -> None:
        self.passed, self.explanation, self.decided = passed, explanation, True


class RulingContext:
    """Collects the outcome of every check of one ruling under one variant."""

    def __init__(self, variant):
        self.variant = variant
        self.reasons: list[dict] = []
        self.interpretations: dict[str, dict] = {}
        self.not_stated: list[str] = []
        self.missing: list[str] = []
        self.consequences: list[str] = []
        self._current: _Rule | None = None

    # --- parameters --------------------------------------------------------
    def param(self, name: str) -> Any:
        """Read a parameter, recording it for citation; raise :class:`NotStated` when unstated."""
        entry = self.variant.entry(name)
        if self._current is not None and name not in self._current.params:
            self._current.params.append(name)
        if entry.house_rule or entry.status != "stated":
            self._interpret(entry)
        if entry.status == "not_stated" and not entry.house_rule:
            raise NotStated(name)
        return entry.value

    def _interpret(self, entry) -> None:
        if entry.name in self.interpretations:
            return
        self.interpretations[entry.name] = {
            "rule": entry.name, "parameter": entry.name,
            "status": "house_rule" if entry.house_rule else entry.status,
            "value": entry.value, "note": entry.note,
            "citations": [] if entry.house_rule else [c.as_dict() for c in entry.citations],
        }

    def wild(self, card: str) -> bool:
        """Whether ``card`` is wild in this variant (may raise NotStated for twos)."""
        if card == "JK":
            return bool(self.param("wild.jokers"))
        if card[:-1] == "2":
            return bool(self.param("wild.twos"))
        return False

    def value_of(self, card: str) -> int:
        from .cards import is_black_three, is_red_three
        if card == "JK":
            return self.param("card_value.joker")
        if is_black_three(card):
            return self.param("card_value.black_three")
        if is_red_three(card):
            return 0
        return self.param(f"card_value.{card[:-1]}")

    # --- checks ----------------------------------------------------------
    @contextmanager
    def rule(self, rule_id: str) -> Iterator[_Rule]:
        """Run one check; record pass, fail, or undetermined with its citations."""
        assert rule_id in RULES, rule_id
        outer, self._current = self._current, _Rule(rule_id)
        current = self._current
        try:
            yield current
        except MissingFact as e:
            if e.pointer not in self.missing:
                self.missing.append(e.pointer)
            current.result(None, f"Needs {e.pointer}, which the situation does not give.")
        except NotStated as e:
            if e.name not in self.not_stated:
                self.not_stated.append(e.name)
            current.result(None, f"The {self.variant.id} text does not settle {e.name}; "
                                 f"a house rule can (see interpretations).")
        finally:
            self._current = outer
        if current.decided:
            self._record(current)

    def skip(self) -> None:
        """Used inside a rule block when the check does not apply after all."""

    def _record(self, rule: _Rule) -> None:
        names = rule.params or list(RULES[rule.id][1])
        citations, house = [], []
        for name in names:
            entry = self.variant.entry(name)
            if entry.house_rule:
                house.append({"parameter": name, "value": entry.value})
            else:
                citations += [c.as_dict() for c in entry.citations]
            if not rule.params and (entry.house_rule or entry.status != "stated"):
                self._interpret(entry)
        seen, unique = set(), []
        for c in citations:
            key = (c["start"], c["end"])
            if key not in seen:
                seen.add(key)
                unique.append(c)
        reason = {"rule": rule.id, "passed": rule.passed, "explanation": rule.explanation, "citations": unique}
        if house:
            reason["house_rules"] = house
        self.reasons.append(reason)

    # --- result ------------------------------------------------------------
    def verdict(self) -> str:
        if any(r["passed"] is False for r in self.reasons):
            return "illegal"
        if any(r["passed"] is None for r in self.reasons) or not self.reasons:
            return "undetermined"
        return "legal"

    def result(self, action_label: str) -> dict:
        verdict = self.verdict()
        return {
            "variant": self.variant.id,
            "verdict": verdict,
            "summary": self._summary(verdict, action_label),
            "reasons": self.reasons,
            "interpretations": list(self.interpretations.values()),
            "missing": self.missing,
            "not_stated": self.not_stated,
            "consequences": self.consequences if verdict != "illegal" else [],
        }

    def _summary(self, verdict: str, action_label: str) -> str:
        if verdict == "legal":
            return f"Legal under {self.variant.id}: you may {action_label}."
        if verdict == "illegal":
            failed = [r["explanation"] for r in self.reasons if r["passed"] is False]
            return f"Not allowed under {self.variant.id}: " + " ".join(failed)
        parts = []
        if self.missing:
            parts.append("the situation lacks " + ", ".join(self.missing))
        if self.not_stated:
            parts.append("the rule text does not settle " + ", ".join(self.not_stated))
        return f"Cannot say under {self.variant.id} whether you may {action_label}: " + "; ".join(parts) + "."
