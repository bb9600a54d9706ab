"""Taps of the five common disputes (issue 42), per language, at 390 x 844 in Debian's Chromium: the flows of
tests/e2e/test_page_34_taps.py to the first answer, then the referee's one-tap questions answered as the family would
(drawn, not the first round, four players, two or more cards left, the stock has cards, nothing more in the pile, the
team's melds as the dispute has them) until the family's case is on a line of the answer -- or no question it can
answer is left ("NOT SETTLED"). Counts, not times: figures for the note, never a test.

    .venv/bin/python bench/dispute_taps.py [TREE] [en,sv,nb,da] [OUT.json]
"""
import json
import sys
import threading
from pathlib import Path

tree = sys.argv[1] if len(sys.argv) > 1 else str(Path(__file__).resolve().parents[1])
sys.path[:0] = [tree, f"{tree}/tests/e2e"]
from werkzeug.serving import make_server, WSGIRequestHandler
from web_api import create_app
from playwright.sync_api import sync_playwright, expect
from e2e_helpers import Taps, open_page, read_packs
import test_page_34_taps as T

class Q(WSGIRequestHandler):
    def log_request(self, *a, **k): pass
server = make_server("127.0.0.1", 0, create_app(), threaded=True, request_handler=Q)
threading.Thread(target=server.serve_forever, daemon=True).start()
base = f"http://127.0.0.1:{server.server_port}"
LOCALES = {"en": "en-GB", "sv": "sv-SE", "nb": "nb-NO", "da": "da-DK"}
COMMON = {"/situation/turn/drew": ["drawn", True, "stock"], "/situation/first_round": [False], "/situation/players": [4],
          "/situation/stock_count": ["has_cards"], "/situation/pile_unnamed/wild": [False]}
TEAM = {"frozen pile": {}, "opening at 6,200 (da-ludo)": {"/situation/team/melds": [False]},
        "going out without a canasta": {"/situation/team/melds": [True], "/situation/team/canastas": [0]},
        "twos by house rule (da-ludo)": {"/situation/team/melds": [True]},
        "what may I do? from an empty page": {}}
POINT = {"frozen pile": ("illegal", set()), "opening at 6,200 (da-ludo)": ("legal", set()),
         "going out without a canasta": ("illegal", {"opened", "canastas"}),
         "twos by house rule (da-ludo)": ("legal", {"opened", "rank"}), "what may I do? from an empty page": None}
langs = sys.argv[2].split(",") if len(sys.argv) > 2 else ["en", "sv", "nb", "da"]
out = {}
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"])
    packs = read_packs(b)
    for lang in langs:
        words = packs[lang]
        for name, (flow, budget) in T.DISPUTES.items():
            ctx = b.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True,
                                locale=LOCALES[lang], service_workers="block")
            page = ctx.new_page()
            seen = []
            page.on("response", lambda r: seen.append(r.json()) if r.request.method == "POST" and "/v1/adjudicate" in r.url and r.ok else None)
            open_page(page, base)
            tap = Taps(page)
            try:
                flow(page, tap, words)
                first = "settled"
            except AssertionError:
                first = "not settled"
            except Exception as e:
                first = f"error {type(e).__name__}"
            taps_first = tap.count
            answers = dict(COMMON, **TEAM[name])
            told = []
            settled = first == "settled"
            while not settled and POINT[name] and len(told) < 12:
                page.wait_for_timeout(300)
                ruling = seen[-1] if seen else {}
                conds = ruling.get("conditions") or []
                pick_ = None
                for c in conds:
                    ptr = c["pointer"]
                    want = answers.get(ptr) or ([False] if ptr.startswith("/situation/team/ranks/") else None)
                    if ptr == "/situation/player/hand_count":
                        want = [c["choices"][-1]["value"]]
                    if want is None:
                        continue
                    idx = next((i for i, ch in enumerate(c["choices"]) if ch["value"] in want), None)
                    if idx is not None:
                        pick_ = (ptr, idx, c["choices"][idx]["label"]); break
                if not pick_:
                    break
                ptr, idx, label = pick_
                box = page.locator(f'#ruling fieldset[data-pointer="{ptr}"]')
                if not box.count():
                    break
                n = len(seen)
                tap(box.get_by_role("button").nth(idx))
                for _ in range(300):
                    if len(seen) > n: break
                    page.wait_for_timeout(100)
                expect(page.locator("#ruling .verdict")).to_be_visible()
                told.append(f"{ptr.rsplit('/', 1)[-1]}={label}")
                verdict, point = POINT[name]
                settled = T.answered(page, verdict, point) and (name != "going out without a canasta"
                                                                 or any("canastas" in k for _, k in T.ways(page)))
            try:
                w = T.ways(page) if POINT[name] else []
            except AssertionError:
                w = []
            out.setdefault(lang, {})[name] = {"taps_to_first_answer": taps_first, "first_answer": first,
                                              "taps_to_settled": tap.count if settled else None, "told": told,
                                              "ways": [(v, sorted(k)) for v, k in w]}
            print(lang, name, "| first answer:", taps_first, first, "| settled after", tap.count if settled else "NOT SETTLED", told, [(v, sorted(k)) for v, k in w], flush=True)
            ctx.close()
    b.close()
server.shutdown()
if len(sys.argv) > 3:
    json.dump(out, open(sys.argv[3], "w"), ensure_ascii=False, indent=1)
