"""The phone page in Debian's Chromium: bytes and times that depend on the machine, so not tests.

    .venv/bin/python bench/page_bench.py [--runs 5] [--only bytes,usable,ready,engine] [--app DIR]

Prints, for a 390 x 844 phone context against the real app on a loopback port:

* ``bytes``: first and repeat visit bytes as they leave the server (the size budget itself is a test,
  ``tests/e2e/test_weight.py``; here the figures are printed for BENCHMARKS.md);
* ``usable``: time to usable on slow 3G (WebPageTest's profile: 400 kbit/s down and up, 400 ms round
  trip, CDP ``Network.emulateNetworkConditions``; "usable" is the page's performance mark, the first
  screen drawn and answering taps), the median of ``--runs`` fresh profiles;
* ``ready``: time to "ready without signal" on the same slow 3G, from the navigation to the page
  saying the engine is kept (``#engine-status[data-state=ready]``), over ``--runs`` fresh profiles.
  Every byte crosses a slow link in front of the server (``bench/slow_link.py``: 400 kbit/s each
  way shared by all connections, 400 ms round trip): the engine's files are fetched by the service
  worker, a target of its own that Chromium's per-target throttling reached too late on a quiet
  machine (the engine went through at full speed). Also printed: what the status
  line said while the engine was being kept (the estimate the user reads);
* ``engine`` (when the runtime is installed, ``scripts/install-engine-runtime``): the engine's bytes
  as sent (compressed, as counted at the server), and the offline tap-to-answer time of the
  frozen-pile ruling under no-pagat, from the tap (the ``pointerdown`` event's time) to the
  answer on screen (a MutationObserver's time), both taken inside the page: **cold** (the first
  tap at once after an offline reload: the engine's worker starts afresh) and **warm** (the next
  taps), and **after "ready"** (another offline reload, the first tap once the status line says
  "Ready without signal": the page says so only once its engine has started and ruled once, issue
  #42), over ``--runs`` fresh profiles; and whether the busy state was on screen, in view, before
  the cold answer.

``--app DIR`` measures another checkout's service and page (e.g. a base commit's, with its engine
built: figures before and after from the same bench code; alternate the two in one session). The page is given its time to prepare the engine after keeping it (a page that
  prepares it says ``data-prepared="yes"`` on ``#engine-status``; one that does not is not waited for).

The machine's load average is printed before and after: times depend on it, ratios much less.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# --app DIR: the page and the service of another checkout (a base commit's, for figures before and after)
APP = Path(sys.argv[sys.argv.index("--app") + 1]).resolve() if "--app" in sys.argv[:-1] else ROOT
sys.path[:0] = [str(APP), str(ROOT), str(ROOT / "tests" / "e2e")]

SLOW_3G = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}
PARTS = ("bytes", "usable", "ready", "engine")


def serve():
    from test_weight import ByteCounter
    from werkzeug.serving import WSGIRequestHandler, make_server

    from web_api import create_app

    class Quiet(WSGIRequestHandler):
        def log_request(self, *args, **kwargs):
            pass

    counter = ByteCounter(create_app())
    server = make_server("127.0.0.1", 0, counter, threaded=True, request_handler=Quiet)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}", counter


def throttled_page(browser, base):
    from conftest import open_context

    context, page, _ = open_context(browser, base)
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.emulateNetworkConditions", SLOW_3G)
    return context, page


def usable_on_slow_3g(browser, base) -> float:
    from playwright.sync_api import expect

    context, page = throttled_page(browser, base)
    try:
        page.goto(base + "/", timeout=60_000)
        expect(page.locator("html.ready")).to_have_count(1, timeout=60_000)
        return page.evaluate("performance.getEntriesByName('usable')[0].startTime")
    finally:
        context.close()


def ready_on_slow_3g(browser, link, counter) -> dict:
    """From the navigation to "ready without signal", every byte (the page's and its service worker's)
    crossing a slow-3G link (bench/slow_link.py)."""
    from conftest import open_context

    context, page, _ = open_context(browser, link.base)
    said: list[str] = []
    try:
        counter.take()
        page.goto(link.base + "/", timeout=60_000)
        page.wait_for_selector("html.ready", timeout=60_000)
        usable = page.evaluate("performance.getEntriesByName('usable')[0].startTime")
        deadline = time.monotonic() + 600
        state = None
        while time.monotonic() < deadline:
            state, text = page.evaluate("""() => { const s = document.getElementById('engine-status');
                return s ? [s.dataset.state || '', s.textContent] : ['', '']; }""")
            if text and (not said or said[-1] != text) and state != "ready":
                said.append(text)
            if state in ("ready", "failed", "absent"):
                break
            page.wait_for_timeout(250)
        ready = page.evaluate("performance.now()")
        engine = sum(s for p, s, _ in counter.take() if p.startswith("/web/engine/"))
        return {"state": state, "ready_ms": ready, "usable_ms": usable, "engine_bytes": engine, "said": said}
    finally:
        context.close()


def visit_bytes(browser, base, counter) -> tuple[int, int]:
    from conftest import open_context
    from e2e_helpers import open_page
    from playwright.sync_api import expect
    from test_offline import wait_until_kept_offline

    context, page, _ = open_context(browser, base)
    try:
        counter.take()
        open_page(page, base)
        wait_until_kept_offline(page)
        if page.locator("meta[name=engine]").count():  # the engine, once, before the repeat visit is counted
            expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=180_000)
        page.wait_for_timeout(1000)
        first = sum(s for p, s, _ in counter.take() if not p.startswith("/web/engine/"))
        page.reload()
        expect(page.locator("html.ready")).to_have_count(1)
        page.wait_for_timeout(2000)
        return first, sum(s for _, s, _ in counter.take())
    finally:
        context.close()


# Inside the page: the tap's time (pointerdown on the button), the answer's (a MutationObserver), and
# whether the busy state was on screen before the answer: the button marked busy and a note in view.
WATCH_TAP = """(selector) => {
  const w = window.__tap = { down: null, answer: null, busySeen: false, noteInView: false };
  const button = document.querySelector(selector);
  button.addEventListener('pointerdown', (e) => { if (w.down === null) w.down = e.timeStamp; }, { capture: true, once: true });
  const inView = (el) => { const r = el.getBoundingClientRect();
    return r.height > 0 && r.bottom > 0 && r.top < innerHeight && r.left < innerWidth && r.right > 0; };
  const look = () => {
    if (w.answer !== null) return;
    if (document.querySelector('#ruling .on-phone')) { w.answer = performance.now(); obs.disconnect(); return; }
    if (button.getAttribute('aria-busy') === 'true') w.busySeen = true;
    const note = document.querySelector('[data-busy-note]');
    if (note && !note.hidden && inView(note)) w.noteInView = true;
  };
  const obs = new MutationObserver(look);
  obs.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
}"""


def engine_figures(browser, base, counter, runs: int) -> None:
    from conftest import open_context
    from e2e_helpers import open_page, read_packs
    from playwright.sync_api import expect
    from test_offline import wait_until_kept_offline

    from web_api.page import ENGINE_FILES, engine_dir

    if not all((engine_dir() / n).is_file() for n in ENGINE_FILES):
        print("offline engine: not installed (bash scripts/install-engine-runtime)")
        return
    ready_words = read_packs(browser)["en"]["engine.ready"]
    colds, afters, warms, sent, busy, says = [], [], [], 0, [], []
    for _ in range(runs):
        context, page, _ = open_context(browser, base)
        try:
            counter.take()
            open_page(page, base)
            page.locator("label[for=variant-no-pagat]").tap()
            page.locator('#field-top .kind[data-kind="9"]').tap()
            page.locator("#pile-wild").check()
            page.locator('#field-with .kind[data-kind="9"]').tap()
            page.locator('#field-with .kind[data-kind="JK"]').tap()
            wait_until_kept_offline(page)
            status = page.locator("#engine-status")
            expect(status).to_have_attribute("data-state", "ready", timeout=180_000)
            if status.get_attribute("data-awake") is not None:  # a page that prepares its engine: let it
                expect(status).to_have_attribute("data-prepared", "yes", timeout=180_000)
            sent = sum(s for p, s, _ in counter.take() if p.startswith("/web/engine/"))
            page.context.set_offline(True)
            # cold: the first tap at once after an offline reload; then warm taps
            page.reload()
            expect(page.locator("html.ready")).to_have_count(1)
            for i in range(4):
                w = offline_tap(page)
                (colds if i == 0 else warms).append(w["answer"] - w["down"])
                if i == 0:
                    busy.append(w["busySeen"] and w["noteInView"])
            # after "ready": reload, wait until the page says it is ready without signal, then the first tap
            page.reload()
            expect(page.locator("html.ready")).to_have_count(1)
            shown = page.evaluate("performance.now()")
            expect(status).to_have_text(ready_words, timeout=180_000)
            says.append(page.evaluate("performance.now()") - shown)
            w = offline_tap(page)
            afters.append(w["answer"] - w["down"])
        finally:
            context.close()
    print(f"offline engine: {sent / 1024 / 1024:.2f} MiB as sent (compressed), fetched once after the first screen")
    print(f"offline tap to answer (frozen pile, no-pagat), cold (first tap at once after an offline reload): "
          f"median {statistics.median(colds):.0f} ms, max {max(colds):.0f} ms (runs: {', '.join(f'{c:.0f}' for c in colds)})")
    print(f"offline tap to answer, warm: median {statistics.median(warms):.0f} ms, max {max(warms):.0f} ms "
          f"({len(warms)} taps)")
    print(f"offline tap to answer, the first after the page says it is ready without signal: median "
          f"{statistics.median(afters):.0f} ms, max {max(afters):.0f} ms (runs: {', '.join(f'{a:.0f}' for a in afters)}); "
          f"\"ready\" said {statistics.median(says):.0f} ms after the first screen (median)")
    print(f"busy state (button busy and a note in view) on screen before the cold answer: {sum(busy)} of {len(busy)} runs")


def offline_tap(page) -> dict:
    """Tap "Rule on it" (the facts kept on the phone) and wait for the phone's answer: the tap's record."""
    from playwright.sync_api import expect

    page.evaluate("document.getElementById('ruling').textContent = ''")
    page.evaluate(WATCH_TAP, "#rule-button")
    page.locator("#rule-button").tap()
    expect(page.locator("#ruling .on-phone")).to_be_visible(timeout=120_000)
    page.wait_for_function("() => window.__tap.answer !== null")
    return page.evaluate("window.__tap")


def load() -> str:
    return "load average " + " ".join(open("/proc/loadavg").read().split()[:3]) + f" on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--only", default=",".join(PARTS), help="comma-separated: " + ", ".join(PARTS))
    parser.add_argument("--app", default=str(ROOT), help="the checkout whose service and page are measured")
    args = parser.parse_args()
    only = set(args.only.split(","))
    from conftest import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    server, base, counter = serve()
    print(f"before: {load()}; the page of {APP}")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                if "bytes" in only:
                    first, repeat = visit_bytes(browser, base, counter)
                    print(f"first visit (before the engine): {first / 1024:.1f} KiB; repeat visit: {repeat / 1024:.1f} KiB")
                if "usable" in only:
                    usable = [usable_on_slow_3g(browser, base) for _ in range(args.runs)]
                    print(f"usable on slow 3G: median {statistics.median(usable):.0f} ms "
                          f"(runs: {', '.join(f'{u:.0f}' for u in usable)})")
                if "ready" in only:
                    from slow_link import SlowLink

                    link = SlowLink(("127.0.0.1", server.server_port), kbit=400, rtt_ms=400)
                    try:
                        ready = [ready_on_slow_3g(browser, link, counter) for _ in range(args.runs)]
                    finally:
                        link.close()
                    ended = [r for r in ready if r["state"] != "ready"]
                    for r in ended:
                        print(f"  a run ended {r['state']!r}: {r['said'][-1:]}")
                    ready = [r for r in ready if r["state"] == "ready"]
                    if not ready:
                        raise SystemExit("ready without signal: no run reached \"ready\" on slow 3G")
                    states = {r["state"] for r in ready}
                    times = [r["ready_ms"] / 1000 for r in ready]
                    after = [(r["ready_ms"] - r["usable_ms"]) / 1000 for r in ready]
                    print(f"ready without signal on slow 3G (every byte across a 400 kbit/s, 400 ms link; end state {states}): "
                          f"median {statistics.median(times):.1f} s, max {max(times):.1f} s from the navigation "
                          f"(runs: {', '.join(f'{t:.1f}' for t in times)}); "
                          f"median {statistics.median(after):.1f} s after the first screen; "
                          f"engine bytes fetched {statistics.median(r['engine_bytes'] for r in ready) / 1048576:.2f} MiB")
                    print(f"  the status line meanwhile: {ready[0]['said'][:1] + ready[0]['said'][-1:]}")
                if "engine" in only:
                    engine_figures(browser, base, counter, args.runs)
            finally:
                browser.close()
                print(f"after: {load()}")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
