"""A citation: the exact words of a source text a parameter (or a ruling) rests on.

A model type, so that findings and score lines can carry citations without
importing the loader that verifies them (:mod:`adjudicator.variants`).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Citation:
    """Exact words of a source text: ``quote == text[start:end]`` (code points), under heading ``section``.

    ``tags`` say which case the sentence decides, so that a ruling can quote the
    one that applies first and leave out those about another case:
    ``players:2`` (a two-player rule), ``band:6000`` (one band of the opening
    table), ``freezer:joker`` (one thing that freezes the pile), or a plain flag
    such as ``wild_in_pair`` (the sentence saying a wild card does not count
    toward a natural pair). A citation without tags holds in every case.
    """

    variant: str
    language: str
    section: str
    quote: str
    start: int
    end: int
    tags: frozenset = frozenset()

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(sorted(int(t[8:]) for t in self.tags if t.startswith("players:")))

    def fits(self, context: frozenset) -> bool:
        """Whether the sentence holds in ``context``: for every kind of tag the context names (``players:``,
        ``band:``), the sentence is untagged of that kind or names the context's value among its own (a
        ``players: [3, 4]`` rule fits a four-player table; a two-player rule does not)."""
        kinds: dict[str, bool] = {}
        for tag in self.tags:
            kind, sep, _ = tag.partition(":")
            if sep:
                kinds[kind] = kinds.get(kind, False) or tag in context
        return all(matched or not any(c.startswith(kind + ":") for c in context) for kind, matched in kinds.items())
