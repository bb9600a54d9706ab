"""The bookkeeping of one ruling: reasons, interpretations, missing facts.

Each check runs inside :meth:`RulingContext.rule`. Parameters read inside it
become its citations (and, when not ``stated``, interpretations); a missing
fact or an unstated parameter makes that check undetermined instead of
failing the whole ruling. The verdict follows from the checks: any failure
is ``illegal``; otherwise any unknown is ``undetermined``; otherwise ``legal``.
"""

from __future__ import annotations

from typing import Any

from .cards import JOKER, RANKS, is_black_three, is_red_three, rank
from .rules import RULES
from .situation import MissingFact
from .variants import cited


# rank (or "JK") -> the parameter holding its card value
_VALUE_PARAM = {r: f"card_value.{r}" for r in RANKS} | {JOKER: "card_value.joker"}


class NotStated(Exception):
    """The variant's document does not state a parameter the check needs."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class _Rule:
    """One check of a ruling, and the ``with`` block that runs it (one object: it is made on every check).

    Parameters read inside the block become its citations; a missing fact or
    an unstated parameter raised inside makes it undetermined.
    """

    __slots__ = ("ctx", "id", "params", "passed", "explanation", "decided", "outer")

    def __init__(self, ctx: "RulingContext", rule_id: str):
        self.ctx, self.id, self.outer = ctx, rule_id, None
        self.params: list[str] = []
        self.passed: bool | None = None
        self.explanation = ""
        self.decided = False

    def result(self, passed: bool | None, explanation: str) -> None:
        self.passed, self.explanation, self.decided = passed, explanation, True

    def __enter__(self) -> "_Rule":
        self.outer, self.ctx._current = self.ctx._current, self
        return self

    def __exit__(self, kind, error, tb) -> bool:
        ctx = self.ctx
        ctx._current = self.outer
        if error is not None:
            if isinstance(error, MissingFact):
                if error.pointer not in ctx.missing:
                    ctx.missing.append(error.pointer)
                self.result(None, f"Needs {error.pointer}, which the situation does not give.")
            elif isinstance(error, NotStated):
                if error.name not in ctx.not_stated:
                    ctx.not_stated.append(error.name)
                self.result(None, f"The {ctx.variant.id} text does not settle {error.name}; "
                                  f"a house rule can (see interpretations).")
            else:
                return False
        if self.decided:
            ctx._record(self)
        elif self.params:
            ctx.skipped.setdefault(self.id, self.params)
        return True


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
        # rule id -> parameters read by checks that found they did not apply (for comparisons)
        self.skipped: dict[str, list[str]] = {}
        self._failed = self._open = 0  # counts of failed and undetermined reasons, for the verdict

    # --- parameters --------------------------------------------------------
    def param(self, name: str) -> Any:
        """Read a parameter, recording it for citation; raise :class:`NotStated` when unstated."""
        entry = self.variant.params[name]
        current = self._current
        if current is not None and name not in current.params:
            current.params.append(name)
        if entry.status != "stated" or entry.house_rule:
            self._interpret(entry)
            if entry.status == "not_stated" and not entry.house_rule:
                raise NotStated(name)
        return entry.value

    def _interpret(self, entry) -> None:
        if entry.name in self.interpretations:
            return
        key = ("interpretation", entry.name)
        cached = self.variant.cite_cache.get(key)
        if cached is None:
            cached = self.variant.cite_cache[key] = {
                "rule": entry.name, "parameter": entry.name,
                "status": "house_rule" if entry.house_rule else entry.status,
                "value": entry.value, "note": entry.note,
                "citations": [] if entry.house_rule else [c.as_dict() for c in entry.citations],
            }
        self.interpretations[entry.name] = cached

    def wild(self, card: str) -> bool:
        """Whether ``card`` is wild in this variant (may raise NotStated for twos)."""
        if card == "JK":
            return bool(self.param("wild.jokers"))
        if card[:-1] == "2":
            return bool(self.param("wild.twos"))
        return False

    def value_of(self, card: str) -> int:
        """A card's point value in this variant (a red three, a bonus card, has none)."""
        if is_red_three(card):
            return 0
        if is_black_three(card):
            return self.param("card_value.black_three")
        return self.param(_VALUE_PARAM[rank(card)])

    # --- checks ----------------------------------------------------------
    def rule(self, rule_id: str) -> _Rule:
        """Run one check; record pass, fail, or undetermined with its citations.

        Use as ``with ctx.rule("pile.frozen.natural_pair") as r: ... r.result(ok, why)``.
        A missing fact or an unstated parameter inside the block makes the check
        undetermined; a block that records no result does not appear at all.
        """
        assert rule_id in RULES, rule_id
        return _Rule(self, rule_id)

    def _record(self, rule: _Rule) -> None:
        names = tuple(rule.params) or RULES[rule.id][1]
        citations, house = self._citations(names)
        if not rule.params:
            for name in names:
                entry = self.variant.entry(name)
                if entry.house_rule or entry.status != "stated":
                    self._interpret(entry)
        # Citation dicts are shared between rulings of one variant: treat responses as read-only.
        reason = {"rule": rule.id, "passed": rule.passed, "explanation": rule.explanation,
                  "parameters": list(names), "citations": citations}
        if house:
            reason["house_rules"] = list(house)
        self.reasons.append(reason)
        if rule.passed is not True:
            if rule.passed is False:
                self._failed += 1
            else:
                self._open += 1

    def _citations(self, names: tuple[str, ...]) -> tuple[list[dict], list[dict]]:
        """:func:`adjudicator.variants.cited`, cached per variant (rulings ask for the same sets again and again)."""
        cache = self.variant.cite_cache
        hit = cache.get(names)
        if hit is None:
            hit = cache[names] = cited(self.variant, names)
        return hit

    # --- result ------------------------------------------------------------
    def verdict(self) -> str:
        if self._failed:
            return "illegal"
        if self._open or not self.reasons:
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
