"""The phone page in Debian's Chromium: bytes and times that depend on the machine, so not tests.

    .venv/bin/python bench/page_bench.py [--runs 3]

Prints, for a 390 x 844 phone context against the real app on a loopback port:

* first and repeat visit bytes as they leave the server (the size budget itself is a test,
  ``tests/e2e/test_weight.py``; here the figures are printed for BENCHMARKS.md);
* time to usable on slow 3G (WebPageTest's profile: 400 kbit/s down and up, 400 ms round trip,
  CDP ``Network.emulateNetworkConditions``; "usable" is the page's performance mark, the first
  screen drawn and answering taps), the median of ``--runs`` fresh profiles;
* when the engine runtime is installed (``scripts/install-engine-runtime``): its bytes as sent
  (compressed), and the offline tap-to-answer time of the frozen-pile ruling under no-pagat:
  cold (the first tap after an offline reload: the engine boots in its worker, loads and checks
  the four variants, then rules) and warm (the next taps), from the tap to the verdict on screen.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "e2e")]

SLOW_3G = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}


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


def usable_on_slow_3g(browser, base) -> float:
    from conftest import open_context
    from playwright.sync_api import expect

    context, page, _ = open_context(browser, base)
    try:
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", SLOW_3G)
        page.goto(base + "/", timeout=60_000)
        expect(page.locator("html.ready")).to_have_count(1, timeout=60_000)
        return page.evaluate("performance.getEntriesByName('usable')[0].startTime")
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
        page.wait_for_timeout(1000)
        first = sum(s for p, s, _ in counter.take() if not p.startswith("/web/engine/"))
        page.reload()
        expect(page.locator("html.ready")).to_have_count(1)
        page.wait_for_timeout(2000)
        return first, sum(s for _, s, _ in counter.take())
    finally:
        context.close()


def engine_figures(browser, base, counter, runs: int) -> None:
    from conftest import open_context
    from e2e_helpers import open_page
    from playwright.sync_api import expect
    from test_offline import wait_until_kept_offline

    from web_api.page import ENGINE_FILES, engine_dir

    if not all((engine_dir() / n).is_file() for n in ENGINE_FILES):
        print("offline engine: not installed (bash scripts/install-engine-runtime)")
        return
    colds, warms, sent = [], [], 0
    for _ in range(runs):
        context, page, _ = open_context(browser, base)
        try:
            counter.take()
            open_page(page, base)
            page.locator("label[for=variant-no-pagat]").tap()
            page.locator('#field-top .kind[data-kind="9"]').tap()
            page.locator(".facts input[type=checkbox]").first.check()
            page.locator('#field-with .kind[data-kind="9"]').tap()
            page.locator('#field-with .kind[data-kind="JK"]').tap()
            wait_until_kept_offline(page)
            expect(page.locator("#engine-status")).to_have_attribute("data-state", "ready", timeout=120_000)
            sent = sum(s for p, s, _ in counter.take() if p.startswith("/web/engine/"))
            page.context.set_offline(True)
            page.reload()
            expect(page.locator("html.ready")).to_have_count(1)
            for i in range(4):
                page.evaluate("document.getElementById('ruling').textContent = ''")
                start = page.evaluate("performance.now()")
                page.locator("#rule-button").click()
                expect(page.locator("#ruling .on-phone")).to_be_visible(timeout=120_000)
                took = page.evaluate("performance.now()") - start
                (colds if i == 0 else warms).append(took)
        finally:
            context.close()
    print(f"offline engine: {sent / 1024 / 1024:.2f} MiB as sent (compressed), fetched once after the first screen")
    print(f"offline tap to answer (frozen pile, no-pagat): cold median {statistics.median(colds):.0f} ms "
          f"(runs: {', '.join(f'{c:.0f}' for c in colds)}); warm median {statistics.median(warms):.0f} ms "
          f"(max {max(warms):.0f} ms)")


def load() -> str:
    return "load average " + " ".join(open("/proc/loadavg").read().split()[:3]) + f" on {os.cpu_count()} cores"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from conftest import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    server, base, counter = serve()
    print(f"before: {load()}")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                first, repeat = visit_bytes(browser, base, counter)
                print(f"first visit (before the engine): {first / 1024:.1f} KiB; repeat visit: {repeat / 1024:.1f} KiB")
                usable = [usable_on_slow_3g(browser, base) for _ in range(args.runs)]
                print(f"usable on slow 3G: median {statistics.median(usable):.0f} ms "
                      f"(runs: {', '.join(f'{u:.0f}' for u in usable)})")
                engine_figures(browser, base, counter, args.runs)
            finally:
                browser.close()
                print(f"after: {load()}")
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
