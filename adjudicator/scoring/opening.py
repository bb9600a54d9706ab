"""The next round's opening requirement on a score sheet, made once per variant and band.

A team's requirement depends on its total only through the band the total falls in (or on the
figure below zero), so the whole :class:`~adjudicator.scoring.sheets.NextOpening` -- figure, status,
note and citations -- is worked out once per variant object (its ``cite_cache``), band and player
count, and handed out again: every round's sheet asks it once per team, and the legality check once
more for the score a team started from.
"""

from __future__ import annotations

from ..model.enums import Status
from ..model.messages import msg
from ..model.parameters import band_for
from ..rules.opening import requirement
from .reader import Reader
from .sheets import NextOpening

_KEY = "score.next_opening"


def next_opening(reader: Reader, total: int) -> NextOpening:
    """The next round's opening requirement for a team on ``total``; undetermined where the text is silent."""
    name = "opening.negative" if total < 0 else "opening.bands"
    stated, value = reader.maybe(name)
    if not stated:
        citations, house = reader.sources([name])
        return NextOpening(None, False, citations, house,
                           reader.not_stated_issue(name, "", msg("score.no_requirement", total=total)).message,
                           status=Status.NOT_STATED)
    band: int | None = None if total < 0 else band_for(value, total)["min"]
    key = (_KEY, name, band, reader.players)
    cache = reader.rules.cite_cache
    hit: NextOpening | None = cache.get(key)
    if hit is None:
        citations, house = reader.sources([name])
        need = requirement(reader.judge, total)
        hit = cache[key] = NextOpening(need.points, need.canasta_required, citations, house, status=need.status,
                                       note=need.note, notes=need.notes)
    return hit
