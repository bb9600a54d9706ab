"""A page of an options listing: how much of each group an answer shows, and works out.

A group can hold thousands of moves (a whole deck in hand), each with a ruling; an answer shows
``limit`` of each group from ``offset`` (``group``: one group only), with every group's ``count``
and ``complete``. The options of the page are the only ones made in full (:class:`~adjudicator.options.listing.Listing`
makes a move and its ruling when it is read), so a page costs what it shows: ``/v1/options`` and each
variant of a comparison of options page alike, and a comparison compares the moves of its page.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

GROUP_KINDS = ("draw", "take_pile", "meld", "go_out", "discard")
LIMIT, MAX_LIMIT = 20, 1000  # options per group in one answer: by default, at most
MAX_OFFSET = 10**6


@dataclass(frozen=True)
class Page:
    """``limit`` options of each group from ``offset`` (None: all of them), of every group or of ``group``."""

    limit: int | None = LIMIT
    offset: int = 0
    group: str | None = None

    def __post_init__(self):
        if self.limit is not None and self.limit < 0:
            raise ValueError("a page's limit is 0 or more")
        if self.offset < 0:
            raise ValueError("a page's offset is 0 or more")
        if self.group is not None and self.group not in GROUP_KINDS:
            raise ValueError(f"no group {self.group!r}")

    def shows(self, kind: str) -> bool:
        """Whether the answer shows the group of this kind."""
        return self.group is None or self.group == kind

    def groups(self, options) -> tuple:
        """The groups of an :class:`~adjudicator.options.listing.Options` the answer shows."""
        return tuple(g for g in options.groups if self.shows(g.kind))

    def of(self, group) -> Sequence:
        """The options of one group on this page (made as they are read)."""
        end = None if self.limit is None else self.offset + self.limit
        return group.options[self.offset:end]

    def each(self, group):
        """The options of one group on this page, one at a time, those not made yet not kept once read
        (:meth:`~adjudicator.options.listing.Listing.each`): for an answer written as it is made."""
        options = group.options
        end = None if self.limit is None else self.offset + self.limit
        if hasattr(options, "each"):
            return options.each(self.offset, end)
        return iter(options[self.offset:end])

    def size(self, group) -> int:
        """How many options of ``group`` the page holds, without making any."""
        left = max(0, group.count - self.offset)
        return left if self.limit is None else min(left, self.limit)


EVERY = Page(limit=None)  # every option of every group (the library's default: a caller with no page)
