"""Short variant names: data in the variant files (all four languages), served beside the full name."""

from __future__ import annotations

import pytest

from adjudicator.variants import load_all

LANGS = ("sv", "nb", "da", "en")
VARIANTS = load_all()

@pytest.mark.parametrize("vid", sorted(VARIANTS))
def test_every_variant_has_a_short_name_in_each_language(vid):
    v = VARIANTS[vid]
    for lang in LANGS:
        short = v.short_names.get(lang)
        assert short, f"{vid}: no short name in {lang}"
        assert len(short) <= 24, (vid, lang, short)  # one line on a tile at 390 px


@pytest.mark.parametrize("lang", LANGS)
def test_the_service_gives_the_short_name_in_the_readers_language(client, lang):
    listed = {v["id"]: v for v in client.get(f"/v1/variants?lang={lang}").get_json()["variants"]}
    for vid, v in VARIANTS.items():
        assert listed[vid]["short_name"] == v.short_names[lang]
        assert listed[vid]["name"] == v.names.get(lang, v.name)
    detail = client.get(f"/v1/variants/sv-gamerules?lang={lang}").get_json()
    assert detail["short_name"] == VARIANTS["sv-gamerules"].short_names[lang]
