"""The phone page in Debian's Chromium: bytes and times that depend on the machine, so not tests.

    .venv/bin/python bench/page_bench.py [--runs 3]

Prints, for a 390 x 844 phone context against the real app on a loopback port:

* first and repeat visit bytes as they leave the server (the size budget itself is a test,
  ``tests/e2e/test_weight.py``; here the figures are printed for BENCHMARKS.md);
* time to usable on slow 3G (WebPageTest's profile: 400 kbit/s down and up, 400 ms round trip,
  CDP ``Network.emulateNetworkConditions``; "usable" is the page's performance mark, the first
  screen drawn and answering taps), the median of ``--runs`` fresh profiles;
"""

from __future__ import annotations

import argparse
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
        first = sum(s for _, s, _ in counter.take())
        page.reload()
        expect(page.locator("html.ready")).to_have_count(1)
        page.wait_for_timeout(2000)
        return first, sum(s for _, s, _ in counter.take())
    finally:
        context.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    from conftest import CHROMIUM, CHROMIUM_ARGS
    from playwright.sync_api import sync_playwright

    server, base, counter = serve()
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                first, repeat = visit_bytes(browser, base, counter)
                print(f"first visit (before the engine): {first / 1024:.1f} KiB; repeat visit: {repeat / 1024:.1f} KiB")
                usable = [usable_on_slow_3g(browser, base) for _ in range(args.runs)]
                print(f"usable on slow 3G: median {statistics.median(usable):.0f} ms "
                      f"(runs: {', '.join(f'{u:.0f}' for u in usable)})")
            finally:
                browser.close()
    finally:
        server.shutdown()


if __name__ == "__main__":
    main()
