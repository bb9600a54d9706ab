"""A ruling you can send, a game that travels (issue #46): links and QR codes between two phones.

Two browser contexts are two phones at 390 x 844. A question sent from one and opened on the other is
ruled there -- by the service on a phone online, by the engine kept on a phone without signal -- with the
same verdict, explanation and deciding quote; the QR code the page draws decodes (zxing-cpp, from PyPI)
to the very link; a game handed over continues with the same totals, next opening requirement and house
rules; the disputes of a game stay with it through a reload without signal; a link that cannot be read
changes nothing on the phone. The page's encoder (web/link.js, the browser's CompressionStream) and the
library's (adjudicator/link.py, zlib) read each other's links.
"""

from __future__ import annotations

import json
import struct
import zlib

import pytest
from e2e_helpers import ENGINE_WAIT, Taps, open_page, pick, shown_number
from playwright.sync_api import expect
import test_engine_offline as engine_offline
from test_engine_offline import wait_until_engine_kept
from test_offline import wait_until_kept_offline

from conftest import SCREENSHOTS

from adjudicator import link as library
from adjudicator import load_all
from web_api.page import ENGINE_FILES, engine_dir

LANGS = [("sv", "sv-SE"), ("nb", "nb-NO"), ("da", "da-DK"), ("en", "en-GB")]


@pytest.fixture
def engine_installed():
    missing = [n for n in ENGINE_FILES if not (engine_dir() / n).is_file()]
    if missing:
        pytest.fail(f"the offline engine is not installed ({', '.join(missing)} missing): "
                    "run `bash scripts/install-engine-runtime .venv/bin/python`", pytrace=False)


# ---- reading what the page draws ----------------------------------------------------------------

def png_gray(png: bytes) -> tuple[int, int, bytes]:
    """A PNG screenshot (8-bit RGB or RGBA, not interlaced) as grey pixels: (width, height, bytes)."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    at, idat, width = 8, b"", 0
    while at < len(png):
        size, kind = struct.unpack(">I4s", png[at:at + 8])
        chunk = png[at + 8:at + 8 + size]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
            assert depth == 8 and colour in (2, 6) and not interlace, (depth, colour, interlace)
            step = 3 if colour == 2 else 4
        elif kind == b"IDAT":
            idat += chunk
        at += size + 12
    raw = zlib.decompress(idat)
    stride = width * step
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - step] if i >= step else 0
            b = previous[i]
            c = previous[i - step] if i >= step else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line[x] * 3 // 10 + line[x + 1] * 6 // 10 + line[x + 2] // 10 for x in range(0, stride, step)))
        previous = line
    return width, height, b"".join(rows)


def qr_text(page) -> str:
    """The text of the QR code on screen, read by zxing-cpp from a screenshot of the phone's screen."""
    import zxingcpp

    expect(page.locator("#send-qr .qr")).to_be_in_viewport(ratio=1)
    shot = page.screenshot()
    width, height, grey = png_gray(shot)
    found = zxingcpp.read_barcodes(memoryview(grey).cast("B", (height, width)), formats=zxingcpp.BarcodeFormat.QRCode)
    if len(found) != 1:
        (SCREENSHOTS / "qr-unread.png").write_bytes(shot)
    assert len(found) == 1, f"no QR code was read from the page (artifacts/screenshots/qr-unread.png)"
    return found[0].text


QR_DRAWN: dict[str, tuple] = {}  # link -> the QR code's (version, modules), as the page drew it


def open_send(page, button: str) -> str:
    """Tap a Send, wait for its QR code, and return the link; the QR code is checked to decode to it."""
    page.locator(button).tap()
    expect(page.locator("#send-qr .qr")).to_be_visible()
    sent = page.locator("#send-link").input_value()
    assert qr_text(page) == sent, "the QR code does not decode to the link"
    drawn = page.locator("#send-qr .qr")
    QR_DRAWN[sent] = (drawn.get_attribute("data-version"), drawn.get_attribute("data-modules"))
    page.locator("#send-close").tap()
    expect(page.locator("#send-sheet")).to_have_count(0)
    return sent


# ---- the question of the tests ------------------------------------------------------------------

def frozen_pile(page, tap, words):
    """sv-classic: a nine on a pile a joker froze; a nine and a joker shown from the hand."""
    engine_offline.frozen_pile(page, tap, words, "sv-classic")


def shown(page) -> dict:
    verdict = page.locator("#ruling .verdict")
    expect(verdict).to_be_visible(timeout=ENGINE_WAIT)
    return {"verdict": verdict.get_attribute("data-verdict"), "word": verdict.locator(".verdict-word").inner_text(),
            "explanation": page.locator("#ruling .why .why-text").first.inner_text(),
            "quote": page.locator("#ruling .why blockquote").first.inner_text()}


def storage(page) -> dict:
    """What a link could change on the phone: the game, the question's facts, the rules and language chosen
    (not what the page keeps in the background meanwhile: the engine's version, the words it learned)."""
    return page.evaluate("""() => Object.fromEntries(['cr.game', 'cr.game.result', 'cr.settle', 'cr.variant', 'cr.lang']
        .map((k) => [k, localStorage.getItem(k)]))""")


@pytest.mark.parametrize("lang,locale", LANGS)
def test_a_ruling_sent_is_ruled_alike_on_a_phone_online_and_on_one_without_signal(
        phone_at, live_server, ui_packs, lang, locale, screenshots, engine_installed):
    words = ui_packs[lang]
    # The phone that asks, then sends.
    page = phone_at(locale=locale)
    open_page(page, live_server)
    frozen_pile(page, Taps(page), words)
    page.locator("#rule-button").tap()
    asked = shown(page)
    assert asked["verdict"] == "illegal"
    expect(page.locator("#send-ruling")).to_have_text(words["send.button"])
    sent = open_send(page, "#send-ruling")
    assert sent.startswith(f"{live_server}/#cr1.") and len(sent) - len(live_server) < 450
    document = library.decode(sent)
    assert document["lang"] == lang and document["variant"] == "sv-classic" and document["ask"] == "ruling"
    assert document["rules"] == {"sv-classic": library.rules_version(load_all()["sv-classic"])}
    assert "verdict" not in json.dumps(document), "the link carries the question, not the answer"

    # A phone online that never saw the page: the service rules it, in the sender's language.
    page2 = phone_at(locale="en-GB" if lang != "en" else "sv-SE")
    page2.goto(sent)
    expect(page2.locator("#received")).to_contain_text(words["received.title"])
    assert shown(page2) == asked
    expect(page2.locator("#ruling .on-phone")).to_have_count(0)
    expect(page2.locator("#received .rules-differ")).to_have_count(0)  # the same rules here
    # The form holds the very question (the sent facts, nothing more): asked again, the same request.
    assert page2.locator("#variant-sv-classic").is_checked() and page2.locator("#question-take_pile").is_checked()
    assert page2.evaluate("() => location.hash") == "#settle"  # a reload does not open the link again
    page2.screenshot(path=screenshots / f"l1-received-online-{lang}.png")

    # A phone that keeps the engine, without signal: its own engine rules it.
    page3 = phone_at(locale=locale)
    open_page(page3, live_server)
    wait_until_engine_kept(page3)
    page3.context.set_offline(True)
    tab = page3.context.new_page()  # a link tapped in a chat opens a tab of its own
    tab.goto(sent)
    expect(tab.locator("#ruling .on-phone")).to_have_text(words["ruling.onPhone"], timeout=180_000)
    assert shown(tab) == asked, "the phone's engine ruled the question sent otherwise"
    tab.screenshot(path=screenshots / f"l2-received-offline-{lang}.png")


def test_without_signal_or_engine_the_page_says_so_and_rules_once_it_can(phone, ui_packs, monkeypatch, tmp_path):
    words = ui_packs["en"]
    document = library.question(COMMON["opening at 6,200, da-ludo"], lang="en", variants=load_all())
    monkeypatch.setenv("CANASTA_ENGINE_DIR", str(tmp_path))  # a server without the offline engine
    page, base = phone
    open_page(page, base)
    wait_until_kept_offline(page)  # the worker holds the page and its rule data, not only controls it
    page.context.set_offline(True)
    tab = page.context.new_page()
    tab.goto(base + "/#" + library.encode(document))
    expect(tab.locator("#received .waiting")).to_have_text(words["received.waiting"])
    expect(tab.locator("#ruling .offline")).to_be_visible()
    assert tab.locator("#question-open").is_checked()  # the question is filled in, waiting
    page.context.set_offline(False)
    tab.evaluate("window.dispatchEvent(new Event('online'))")
    expect(tab.locator("#ruling .verdict")).to_be_visible(timeout=60_000)
    expect(tab.locator("#received .waiting")).to_have_count(0)


def test_a_phone_that_seems_online_says_the_question_waits_once_the_service_is_not_there(phone, ui_packs, monkeypatch,
                                                                                          tmp_path):
    """A captive portal or a dead mobile connection: navigator.onLine stays true, so the link is read as online and
    the note is not due then; the service found gone when the question is asked, the note says it waits."""
    words = ui_packs["en"]
    document = library.question(COMMON["opening at 6,200, da-ludo"], lang="en", variants=load_all())
    monkeypatch.setenv("CANASTA_ENGINE_DIR", str(tmp_path))  # a server without the offline engine
    page, base = phone
    open_page(page, base)
    wait_until_kept_offline(page)
    gone = ["**/healthz", "**/v1/adjudicate*"]  # nothing answers; the page and its rule data come from the worker
    for url in gone:
        page.context.route(url, lambda route: route.abort("internetdisconnected"))
    tab = page.context.new_page()
    tab.goto(base + "/#" + library.encode(document))
    expect(tab.locator("#ruling .offline")).to_be_visible()
    assert tab.evaluate("navigator.onLine")
    expect(tab.locator("#received .waiting")).to_have_text(words["received.waiting"])
    assert tab.locator("#question-open").is_checked()  # the question is filled in, waiting
    for url in gone:
        page.context.unroute(url)
    tab.evaluate("window.dispatchEvent(new Event('online'))")
    expect(tab.locator("#ruling .verdict")).to_be_visible()
    expect(tab.locator("#received .waiting")).to_have_count(0)


# ---- the five common disputes, and "what may I do?" -------------------------------------------------

def situation(**kw):
    out = {"first_round": False, "players": 4}
    out.update(kw)
    return out


COMMON = {
    "frozen pile, sv-classic": {"variant": "sv-classic", "situation": situation(
        discard_pile=["9H"], pile_unnamed={"wild": True, "black_three": False, "red_three_first": False},
        team={"score": 1200, "opened": True}, turn={"drew": None, "cards_from_pile": []}),
        "action": {"type": "take_pile", "with": ["9S", "JK"]}},
    "opening at 6,200, da-ludo": {"variant": "da-ludo", "situation": situation(
        team={"score": 6200, "melds": []}, player={"hand_count": 9}, turn={"drew": "stock", "cards_from_pile": []}),
        "action": {"type": "meld", "melds": [["AH", "AS", "AD"], ["KH", "KS", "KD", "2C"]]}},
    "going out without a canasta, sv-classic": {"variant": "sv-classic", "situation": situation(
        team={"score": 2400, "opened": True, "canastas": 0}, player={"hand": ["7H", "7S", "7D", "4C"], "has_melded": True},
        turn={"drew": "stock", "cards_from_pile": []}), "action": {"type": "go_out", "melds": [["7H", "7S", "7D"]], "discard": "4C"}},
    "twos by house rule, da-ludo": {"variant": "da-ludo", "situation": situation(
        team={"score": 1500, "opened": True, "ranks": {"8": False}, "canastas": 0}, player={"hand_count": 6}, turn={"drew": "stock", "cards_from_pile": []}),
        "action": {"type": "meld", "melds": [["8H", "8S", "2D"]]}, "house_rules": {"wild.twos": True}},
    "what may I do?, sv-classic": {"variant": "sv-classic", "situation": situation(
        discard_pile=["QH"], pile_unnamed={"wild": False, "black_three": False, "red_three_first": False},
        team={"score": 800, "melds": [["QS", "QD", "QC"]]},
        player={"hand": ["QH", "5S", "5D", "JK", "8C", "8D", "3S", "KH", "KS", "9D", "4H"]}, turn={"drew": None})},
}


def test_the_common_disputes_fit_a_link_of_a_few_hundred_characters_and_a_qr_code_read_at_arms_length(phone, ui_packs):
    """The page writes each (web/share.js, CompressionStream), the library reads it; its QR code (as the page draws it)
    is small. The sizes go in the note: characters of the link and the QR code's version and modules."""
    page, base = phone
    open_page(page, base)
    sizes = {}
    for name, body in COMMON.items():
        document = library.question(body, lang="sv", variants=load_all())
        said = page.evaluate("""async ([d, qrPath]) => {
            const writer = await import('/web/share.js');
            const { encode } = await import(qrPath);
            const url = `${location.origin}/#${await writer.encode(d)}`;
            const qr = encode(url, { ecc: 'M', border: 0 });
            return { url, version: qr.version, modules: qr.size };
        }""", [document, page.evaluate("() => document.querySelector('meta[name=\"module:qr\"]').content")])
        assert library.decode(said["url"]) == document
        sizes[name] = (len(said["url"]) - len(base), said["version"], said["modules"])
        assert len(said["url"]) - len(base) < 600 and said["version"] <= 20, (name, said)
    print("\nLINK SIZES (fragment characters, QR version, modules):\n" + "\n".join(f"  {k}: {v}" for k, v in sizes.items()))


def test_the_page_and_the_library_read_each_others_links_and_refuse_the_same_damage(phone):
    page, base = phone
    open_page(page, base)
    documents = [library.question(body, lang="da", variants=load_all()) for body in COMMON.values()]
    documents.append(dict(library.question(COMMON["frozen pile, sv-classic"], variants=load_all()),
                          situation={"first_round": False, "team": {"score": 0, "melds": []}, "note": "Åsa · Ødegård · ß"}))
    by_page = page.evaluate("async (ds) => { const writer = await import('/web/share.js'); return Promise.all(ds.map(writer.encode)); }", documents)
    assert [library.decode(x) for x in by_page] == documents
    by_library = [library.encode(d) for d in documents]
    assert page.evaluate("async (xs) => { const { links } = await import('/web/link.js'); return Promise.all(xs.map(links.decode)); }",
                         by_library) == documents
    good = by_library[0]
    damaged = [good[:len(good) // 2], good[:-3], "cr1.", "cr1.$$$", "cr2." + good[4:], "cr1" + good[3:-1] + "!", "cr0.AAAA",
               "cr1." + "A" * 9000]
    codes = page.evaluate("""async (xs) => { const { links } = await import('/web/link.js');
        return Promise.all(xs.map((x) => links.decode(x).then(() => 'read', (e) => e.code))); }""", damaged)
    for text, code in zip(damaged, codes):
        with pytest.raises(library.LinkError) as caught:
            library.decode(text)
        assert caught.value.code == code, text


@pytest.mark.parametrize("lang,locale", LANGS)
def test_a_link_that_cannot_be_read_changes_nothing_and_says_why(phone_at, live_server, ui_packs, lang, locale):
    page = phone_at(locale=locale)
    words = ui_packs[lang]
    open_page(page, live_server)
    frozen_pile(page, Taps(page), words)
    page.locator("#rule-button").tap()
    shown(page)
    page.locator("#tab-score").tap()
    page.locator("label[for=score-variant-da-ludo]").tap()
    page.locator("#start-game").tap()
    before = storage(page)
    good = library.encode(library.question(COMMON["frozen pile, sv-classic"], variants=load_all()))
    other_variant = library.encode(dict(library.question(COMMON["frozen pile, sv-classic"]), variant="xx-unknown"))
    for fragment, code in [(good[:len(good) // 2], "truncated"), ("cr1.Zm9vYmFy", "malformed"), ("cr2." + good[4:], "future-version"),
                           (other_variant, "unknown-variant")]:
        tab = page.context.new_page()
        tab.goto(f"{live_server}/#{fragment}")
        expect(tab.locator("#link-problem")).to_contain_text(words[f"link.bad.{code}"])
        expect(tab.locator("#link-problem")).to_contain_text(words["link.bad.nothing"])
        assert storage(tab) == before, f"a link that could not be read ({code}) changed the phone"
        tab.close()


@pytest.mark.parametrize("lang,locale", LANGS)
def test_a_question_asked_under_other_rules_says_the_answer_may_differ(phone_at, live_server, ui_packs, lang, locale):
    """The sender's rules of sv-classic were another version (another deploy, an older phone): said plainly, in
    words, with the variant's name; the question is ruled all the same."""
    page = phone_at(locale=locale)
    document = library.question(COMMON["frozen pile, sv-classic"], lang=lang, variants=load_all())
    document["rules"] = {"sv-classic": "00000000"}
    page.goto(f"{live_server}/#{library.encode(document)}")
    note = page.locator("#received .rules-differ")
    expect(note).to_have_count(1)
    name = page.locator("#variant-choices label[for=variant-sv-classic] .choice-title").inner_text()
    assert note.inner_text() == ui_packs[lang]["received.rules"].replace("x", name, 1)
    shown(page)


# ---- a game that travels ----------------------------------------------------------------------------

def ten_rounds(names=("", "")):
    """A ten-round game of da-ludo as the score pad keeps it (counts, a penalty, a house rule)."""
    rounds = []
    for r in range(10):
        teams = []
        for i in range(2):
            out = (r + i) % 2 == 0
            teams.append({"mode": "counts", "natural": 1 if out else 0, "mixed": r % 2, "red3": (r + i) % 3 == 0 and 1 or 0,
                          "melded": str(150 + 35 * r + 20 * i), "hand": "" if out else str(15 + 5 * r),
                          "melds": [[]], "handCards": [], "penalties": {"hint": 1} if not out and r == 3 else {}})
        rounds.append({"teams": teams, "wentOut": r % 2, "concealed": False})
    return {"v": 2, "variant": "da-ludo", "players": 4, "teams": [{"name": names[0]}, {"name": names[1]}],
            "seats": ["Anna", "Bo", "", ""], "firstDealer": 1, "rounds": rounds, "houseRules": {"opening.negative": 50},
            "result": None, "checked": 0, "editing": None, "problem": None,
            "draft": {"teams": [{"mode": "counts", "natural": 0, "mixed": 0, "red3": 0, "melded": "", "hand": "", "melds": [[]],
                                 "handCards": [], "penalties": {}} for _ in range(2)], "wentOut": -1, "concealed": False}}


def pad(page, timeout=ENGINE_WAIT) -> dict:
    """What the score pad shows of the game, once scored: totals, next opening requirements, house rules, next dealer."""
    expect(page.locator("#score-table tr.pending")).to_have_count(0, timeout=timeout)
    return {"totals": [shown_number(page.locator(f"#total-{i}").inner_text()) for i in range(2)],
            "opening": [page.locator(f"#opening-{i}").inner_text() for i in range(2)],
            "house": page.locator("#game-house-rules").inner_text(),
            "dealer": page.locator("#next-dealer").inner_text(),
            "rounds": page.locator("#score-table tr.round-row").count()}


def with_game(page, base, game):
    page.goto(base + "/")
    page.evaluate("(g) => localStorage.setItem('cr.game', JSON.stringify(g))", game)
    page.goto(base + "/#score")
    page.reload()  # the page reads the game kept on the phone as it starts
    expect(page.locator("html.ready")).to_have_count(1)


@pytest.mark.parametrize("lang,locale", LANGS)
def test_a_game_handed_over_continues_with_the_same_totals_openings_and_house_rules(
        phone_at, live_server, ui_packs, lang, locale, screenshots, engine_installed):
    words = ui_packs[lang]
    page = phone_at(locale=locale)
    with_game(page, live_server, ten_rounds())
    here = pad(page)
    expect(page.locator("#game-send")).to_have_text(words["game.send"])
    sent = open_send(page, "#game-send")
    document = library.decode(sent)
    assert document["kind"] == "game" and len(document["game"]["rounds"]) == 10 and document["lang"] == lang
    print(f"\nTEN-ROUND GAME LINK: {len(sent) - len(live_server)} characters; QR (version, modules): {QR_DRAWN[sent]}")

    # Online, a phone with no game: offered, continued, scored by the service.
    page2 = phone_at(locale=locale)
    page2.goto(sent)
    expect(page2.locator("#game-offer")).to_contain_text(words["offer.title"])
    page2.locator("#offer-continue").tap()
    assert pad(page2) == here
    page2.screenshot(path=screenshots / f"l3-game-continued-{lang}.png")

    # A phone with a game in progress, without signal, its engine kept: asked first, never replaced unasked.
    page3 = phone_at(locale=locale)
    open_page(page3, live_server, "#score")
    page3.locator("label[for=score-variant-sv-classic]").tap()
    page3.locator("#start-game").tap()
    wait_until_engine_kept(page3)
    page3.context.set_offline(True)
    tab = page3.context.new_page()
    tab.goto(sent)
    expect(tab.locator("#game-offer")).to_contain_text(words["offer.title"])
    expect(tab.locator("#offer-replace")).to_have_text(words["offer.replaceYes"])
    tab.locator("#offer-keep").tap()
    assert json.loads(storage(tab)["cr.game"])["variant"] == "sv-classic"  # kept: nothing replaced unasked
    tab.goto(sent)
    tab.locator("#offer-replace").tap()
    assert pad(tab, timeout=180_000) == here, "the phone's engine scored the game handed over otherwise"


def test_a_game_saved_as_a_file_opens_again(phone_at, live_server, tmp_path):
    page = phone_at()
    with_game(page, live_server, ten_rounds(("Vi", "De")))
    here = pad(page)
    with page.expect_download() as download:
        page.locator("#game-export").tap()
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    document = json.loads(saved.read_text(encoding="utf-8"))
    assert library.check(document) == document and document["game"]["teams"] == ["Vi", "De"]
    other = phone_at()
    open_page(other, live_server, "#score")
    other.locator("#game-file").set_input_files(str(saved))
    other.locator("#offer-continue").tap()
    assert pad(other) == here


# ---- the disputes of a game ---------------------------------------------------------------------------

@pytest.mark.parametrize("lang,locale", LANGS)
def test_the_disputes_stay_with_the_game_through_a_reload_without_signal(phone_at, live_server, ui_packs, lang, locale, monkeypatch, tmp_path):
    monkeypatch.setenv("CANASTA_ENGINE_DIR", str(tmp_path))  # the list is the phone's own: no engine needed to show it
    page = phone_at(locale=locale)
    words = ui_packs[lang]
    open_page(page, live_server, "#score")
    page.locator("label[for=score-variant-sv-classic]").tap()
    page.locator("#start-game").tap()
    page.locator("#tab-settle").tap()
    tap = Taps(page)
    frozen_pile(page, tap, words)
    tap(page.locator("#rule-button"))
    first = shown(page)
    tap(page.locator("label[for=question-discard]"))
    pick(tap, page.locator("#field-card"), "4")
    tap(page.locator("#rule-button"))
    # nothing said of the draw (#42): an answer with a line per way, kept as a dispute all the same
    expect(page.locator("#ruling .verdict")).to_be_visible(timeout=ENGINE_WAIT)
    page.locator("#tab-score").tap()
    items = page.locator("#disputes li.dispute")
    expect(items).to_have_count(2)
    expect(page.locator("#disputes")).to_contain_text(words["q.discard"])
    assert words["q.discard"] in items.nth(0).inner_text()  # newest first
    assert first["quote"] in items.nth(1).inner_text()  # the deciding sentence kept with it

    wait_until_kept_offline(page)
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    expect(page.locator("#disputes li.dispute")).to_have_count(2)
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")

    # Opened again: ruled again (a request to the service), the same answer.
    with page.expect_request(lambda r: r.url.split("?")[0].endswith("/v1/adjudicate")):
        page.locator("#dispute-open-0").tap()  # the frozen pile, the first kept
    expect(page.locator("#received")).to_contain_text(words["received.kept"])
    assert shown(page) == first
    page.locator("#tab-score").tap()
    expect(page.locator("#disputes li.dispute")).to_have_count(2)  # the same question again is not a new dispute

    page.locator("#new-game").tap()
    page.locator("#newgame-yes").tap()
    expect(page.locator("#disputes")).to_have_count(0)
    assert "disputes" not in (storage(page).get("cr.game") or "")


def test_send_loads_its_code_when_asked_and_works_without_signal_afterwards(phone, ui_packs):
    """The send sheet and the QR encoder are not part of a first visit; once loaded by a Send, the worker keeps
    them, and a dispute of the game is sent, QR code and all, without signal."""
    page, base = phone
    loaded = []
    page.on("request", lambda r: loaded.append(r.url))
    open_page(page, base, "#score")
    wait_until_kept_offline(page)
    page.locator("label[for=score-variant-sv-classic]").tap()
    page.locator("#start-game").tap()
    page.locator("#tab-settle").tap()
    frozen_pile(page, Taps(page), ui_packs["en"])
    page.locator("#rule-button").tap()
    shown(page)
    assert not [u for u in loaded if "/web/share." in u or "/vendor/" in u], "the send sheet was loaded before a Send"
    online = open_send(page, "#send-ruling")
    assert [u for u in loaded if "/web/share." in u] and [u for u in loaded if "/vendor/uqr/" in u]
    page.context.set_offline(True)
    page.reload()
    expect(page.locator("html.ready")).to_have_count(1)
    page.locator("#tab-score").tap()
    assert library.decode(open_send(page, "#dispute-send-0")) == library.decode(online)  # the question sent before
