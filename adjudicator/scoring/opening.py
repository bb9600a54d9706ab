"""The next round's opening requirement on a score sheet."""

from __future__ import annotations

from ..model.enums import Status
from ..model.messages import msg
from ..rules.opening import requirement
from .reader import Reader
from .sheets import NextOpening


def next_opening(reader: Reader, total: int) -> NextOpening:
    """The next round's opening requirement for a team on ``total``; undetermined where the text is silent."""
    name = "opening.negative" if total < 0 else "opening.bands"
    stated, _ = reader.maybe(name)
    citations, house = reader.sources([name])
    if not stated:
        return NextOpening(None, False, citations, house,
                           reader.not_stated_issue(name, "", msg("score.no_requirement", total=total)).message,
                           status=Status.NOT_STATED)
    need = requirement(reader.judge, total)
    return NextOpening(need.points, need.canasta_required, citations, house, status=need.status, note=need.note,
                       notes=need.notes)
