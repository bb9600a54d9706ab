"""Where a text is disputed, the answer says so instead of stating the service's reading as fact."""

from __future__ import annotations

from ruling_cases import drawn

KINGS = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
CONCEALED_WITH_DISCARD = {
    "situation": drawn(team={"score": 1000, "melds": []}, player={"hand": KINGS + ["5C"], "has_melded": False}),
    "action": {"type": "go_out", "melds": [KINGS], "discard": "5C"}}


def _ruling(client, vid: str, house_rules=None, lang: str = "en") -> dict:
    resp = client.post(f"/v1/adjudicate?lang={lang}", json={"variant": vid, **CONCEALED_WITH_DISCARD,
                                                             "house_rules": house_rules})
    assert resp.status_code == 200, resp.get_data(as_text=True)
    return resp.get_json()


def test_a_concealed_go_out_ending_with_a_discard_is_not_stated_as_concealed_in_sv_gamerules(client):
    ruling = _ruling(client, "sv-gamerules")
    assert ruling["verdict"] == "legal"
    assert not any("You go out concealed" in c for c in ruling["consequences"]), ruling["consequences"]
    assert any("depends on how the text is read" in c for c in ruling["consequences"])
    shown = {i["parameter"]: i for i in ruling["interpretations"]}["concealed.discard_allowed"]
    assert shown["status"] == "interpreted" and "meldar hela sin hand i ett drag" in shown["citations"][0]["quote"]
    said = _ruling(client, "sv-gamerules", lang="sv")["consequences"]
    assert any("beror på hur texten läses" in c for c in said), said


def test_a_house_rule_settles_the_concealed_discard(client):
    yes = _ruling(client, "sv-gamerules", {"concealed.discard_allowed": True})
    assert any("You go out concealed" in c for c in yes["consequences"]), yes["consequences"]
    no = _ruling(client, "sv-gamerules", {"concealed.discard_allowed": False})
    assert any("ends with a discard" in c for c in no["consequences"]), no["consequences"]


def test_sv_classic_grants_the_bonus_to_a_concealed_go_out_with_a_discard(client):
    ruling = _ruling(client, "sv-classic")
    assert any("You go out concealed" in c for c in ruling["consequences"])


def test_borrowed_opening_figures_carry_their_status_and_note_in_options(client):
    situation = drawn(team={"score": 0, "melds": []})
    pagat = client.post("/v1/options", json={"variant": "no-pagat", "situation": situation}).get_json()
    need = pagat["opening_requirement"]
    assert need["points"] == 50 and need["status"] == "interpreted" and "Pagat" in need["note"]
    swedish = client.post("/v1/options?lang=sv", json={"variant": "no-pagat", "situation": situation}).get_json()
    assert swedish["opening_requirement"]["note"] != need["note"]  # in the reader's language
    classic = client.post("/v1/options", json={"variant": "sv-classic", "situation": situation}).get_json()
    assert classic["opening_requirement"]["status"] == "stated" and "note" not in classic["opening_requirement"]


def test_borrowed_opening_figures_carry_their_status_and_note_in_scores(client):
    body = {"variant": "no-pagat", "teams": [{"name": "Us", "melds": [KINGS], "went_out": True},
                                             {"name": "Them"}]}
    scored = client.post("/v1/score", json=body).get_json()
    need = scored["teams"][0]["opening_requirement"]
    assert need["status"] == "interpreted" and "Pagat" in need["note"]
    body.update(variant="sv-classic", players=4)
    need = client.post("/v1/score", json=body).get_json()["teams"][0]["opening_requirement"]
    assert need["status"] == "stated" and "note" not in need
