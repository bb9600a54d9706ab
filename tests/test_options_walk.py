"""The complete walk (:func:`adjudicator.options.every.layouts`) cut at a limit gives the first layouts of the
whole walk, in its order -- a group stopped at its bound lists a prefix of what it would list, and passing over
places that can take nothing changes neither which layouts are found nor their order."""

from __future__ import annotations

import pytest

from adjudicator.input.parse import options_request
from adjudicator.options.every import Hand, Readings, layouts
from adjudicator.options.listing import search_readings

from test_options_complete import IDS, VARIANTS
from test_options_parts import _tables


def _key(layout) -> tuple:
    chosen, rest = layout
    return tuple(sorted((i, tuple(sorted(c.items()))) for i, c in chosen.items())), \
        None if rest is None else tuple(sorted(rest.items()))


@pytest.mark.parametrize("vid", IDS)
def test_a_walk_cut_at_its_limit_is_the_first_part_of_the_whole_walk(vid):
    for situation in _tables(vid)[:4]:
        request = options_request({"variant": vid, "situation": situation}, VARIANTS)
        sit, rules = request.situation, request.rules
        readings = Readings([variant for _, variant in search_readings(sit, rules, True)])
        _, found, whole = layouts(Hand(sit), sit.team.melds, readings)
        assert whole and len(found) > 3
        every = [_key(layout) for layout in found]
        assert len(set(every)) == len(every)  # no layout twice
        for limit in (1, 2, len(found) // 2, len(found) - 1):
            _, cut, done = layouts(Hand(sit), sit.team.melds, readings, limit=limit)
            assert [_key(layout) for layout in cut] == every[:limit]
            assert done is False
