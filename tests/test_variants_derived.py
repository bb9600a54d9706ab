"""A variant's derived values are worked out when it is made, and a copy with other entries is made afresh.

Issue 33: ``Variant.with_entries`` once copied the variant and cleared a hand-written list of cached
properties, so a cached property added later kept the loaded variant's value under a house rule
(``deck.decks: 3``). Now every derived value is a field that :meth:`Variant.__post_init__` fills, a copy
is made by the constructor, and a value worked out later (a cached property) is refused here.
"""

from __future__ import annotations

import dataclasses
import functools

import pytest

from adjudicator.input.house_rules import apply
from adjudicator.variants import Variant, load_all

VARIANTS = load_all()
HOUSE_RULES = [{"deck.decks": 3}, {"deck.jokers": 6, "deck.decks": 1}, {"wild.twos": True},
               {"meld.min_cards": 2, "pile.frozen_natural_pair": False}]


def derived_names() -> list[str]:
    """Every value a variant works out from its fields: the fields it fills itself and its properties."""
    fields = [f.name for f in dataclasses.fields(Variant) if not f.init and f.name != "_worked_out"]
    lazy = [name for name, value in vars(Variant).items()
            if isinstance(value, (property, functools.cached_property))]
    return fields + lazy


def made_afresh(variant: Variant) -> Variant:
    """The variant built by its constructor from its own given fields."""
    return Variant(**{f.name: getattr(variant, f.name) for f in dataclasses.fields(Variant) if f.init})


def test_a_variant_works_out_nothing_later():
    """A derived value is a field filled when the variant is made; a cached property would be worked out on
    first use, from whatever the object then holds."""
    lazy = sorted(name for klass in Variant.__mro__ for name, value in vars(klass).items()
                  if isinstance(value, functools.cached_property))
    assert not lazy, (f"{lazy}: work a derived value out in Variant.__post_init__ (a field with init=False), "
                      "so that each copy (house rules, readings) has its own")
    assert {"deck_size", "red_threes_in_deck", "ref", "point_values"} <= set(derived_names())


@pytest.mark.parametrize("house", HOUSE_RULES, ids=lambda h: ",".join(h))
@pytest.mark.parametrize("vid", list(VARIANTS))
def test_a_house_rule_copy_derives_every_value_from_its_own_entries(vid, house):
    loaded = VARIANTS[vid]
    for name in derived_names():  # worked out on the loaded variant first: nothing of it may carry over
        getattr(loaded, name)
    copy = apply(loaded, house)
    fresh = made_afresh(copy)
    for name in derived_names():
        assert getattr(copy, name) == getattr(fresh, name), name
    # its own table (kept across requests with the same house rules: adjudicator/input/house_rules.py), never the
    # loaded variant's; and a copy made afresh starts empty
    assert copy._worked_out is not loaded._worked_out and not fresh._worked_out


def test_three_decks_are_counted_as_three():
    copy = apply(VARIANTS["sv-classic"], {"deck.decks": 3})
    assert copy.deck_size == 3 * 52 + copy.value("deck.jokers") and copy.red_threes_in_deck == 6
    assert copy.params["deck.decks"].source == "house_rule"  # a house rule is not the document's words
    assert VARIANTS["sv-classic"].deck_size == 108


def test_a_reading_copy_derives_every_value_from_its_own_entries():
    loaded = VARIANTS["da-ludo"]
    copy = loaded.under_readings((("wild.twos", True),))
    assert copy is loaded.under_readings((("wild.twos", True),))  # kept
    fresh = made_afresh(copy)
    for name in derived_names():
        assert getattr(copy, name) == getattr(fresh, name), name
    assert copy.params["wild.twos"].settled and "wild.twos" not in copy.point_values


def test_a_variant_cannot_be_changed_after_it_is_made():
    with pytest.raises(dataclasses.FrozenInstanceError):
        VARIANTS["sv-classic"].params = {}
