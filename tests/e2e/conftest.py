"""End-to-end fixtures: the real app on a local port, and Debian's Chromium driven by Playwright.

The app runs in a thread (werkzeug ``make_server`` on 127.0.0.1, port chosen by
the OS) for the whole session. Chromium is ``/usr/bin/chromium`` from Debian
(``scripts/install-browser`` installs it); Playwright's own browser download is
never used. When the browser or Playwright is missing the tests *fail* and say
how to fix it: they never skip.

Every page arrives with the app's own strict Content-Security-Policy (the one
production sends), and each test fails on a CSP violation, a script error, a
console error, a request to any other host, or a request body the request
schemas refuse (tests/e2e/request_shapes.py). Contexts are fresh profiles with the
page's service worker allowed and the HTTP cache on, as on a phone: requests are
watched, not intercepted (interception would bypass the worker and the cache).
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from request_shapes import WORKER_BODIES

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
PHONE = {"width": 390, "height": 844}
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]
INSTALL_HINT = ("run `bash scripts/install-browser` (installs Debian's chromium with apt-get; needs root), "
                "then `.venv/bin/pip install -r requirements-dev.txt axe-playwright-python==0.1.8`")
# Deliberate test conditions, not defects: a page told it is offline logs failed loads.
EXPECTED_CONSOLE = re.compile(r"net::ERR_INTERNET_DISCONNECTED|net::ERR_FAILED|Failed to fetch|status of 4\d\d")
# How long an assertion on the page (``expect``) or an action (a tap, a navigation) waits for the page to get there:
# a bound on a hang, never a speed. Playwright's own defaults (5 s for ``expect``, 30 s for actions) are a race with
# the app's answers on a loaded 2-core machine, where the server runs in this same process; a passing wait ends as
# soon as the page is there, so only a failing test waits this long.
PAGE_WAIT = 60_000


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing, so the end-to-end tests cannot run: {INSTALL_HINT}", pytrace=False)
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        pytest.fail(f"the playwright package is not installed: {INSTALL_HINT}", pytrace=False)
    expect.set_options(timeout=PAGE_WAIT)
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture(scope="session")
def ui_packs(browser) -> dict:
    """The page's strings per language (web/i18n/*.js), read by running them in Chromium."""
    from e2e_helpers import read_packs

    return read_packs(browser)


@pytest.fixture(scope="session")
def screenshots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS


class PageWatch:
    """What a page did that a test should fail on."""

    def __init__(self):
        self.errors: list[str] = []
        self.foreign: list[str] = []
        self.sent: list[str] = []  # the paths of the request bodies the page sent (to the service or its engine)
        self.refused: list[str] = []  # what the request schemas say of those bodies

    def body(self, path: str, text: str | None) -> None:
        from request_shapes import KINDS, refusals

        if path in KINDS:
            self.sent.append(path)
            self.refused += refusals(path, text)

    def check(self):
        assert not self.foreign, f"the page tried to reach other hosts: {self.foreign}"
        assert not self.errors, "the page reported errors:\n" + "\n".join(self.errors)
        assert not self.refused, "the page sent requests the schemas refuse:\n" + "\n".join(self.refused)


def open_context(browser, live_server, viewport=PHONE, locale="en-GB", color_scheme="light", service_workers="allow"):
    """A fresh phone-sized context (empty storage, no service worker yet); the app serves the strict CSP."""
    watch = PageWatch()
    context = browser.new_context(viewport=viewport, device_scale_factor=1, is_mobile=True, has_touch=True,
                                  locale=locale, color_scheme=color_scheme, service_workers=service_workers,
                                  reduced_motion="reduce")
    origin = urlsplit(live_server).netloc

    def seen(request):
        host = urlsplit(request.url).netloc
        if request.url.startswith(("http:", "https:")) and host != origin:
            watch.foreign.append(request.url)
        elif request.method == "POST":
            watch.body(urlsplit(request.url).path, request.post_data)

    context.set_default_timeout(PAGE_WAIT)  # every page of the context, the tabs a test opens too
    context.on("request", seen)
    # the bodies handed to the engine on the phone, too (tests/e2e/request_shapes.py)
    context.expose_function("__canastaSent", watch.body)
    context.add_init_script(WORKER_BODIES)
    page = context.new_page()
    page.on("pageerror", lambda e: watch.errors.append(f"script error: {e}"))

    def console(message):
        where = (message.location or {}).get("url", "")
        if "Content Security Policy" in message.text:
            watch.errors.append(f"CSP violation: {message.text}")
        elif message.type == "error" and not EXPECTED_CONSOLE.search(message.text):
            watch.errors.append(f"console error: {message.text} ({where})")

    page.on("console", console)
    return context, page, watch


@pytest.fixture
def phone_at(browser, live_server):
    """A factory: phone_at(width, height, locale=..., color_scheme=...) gives a page on a touch screen.

    At the end of the test every page opened this way must have had no script
    error, console error, CSP violation or request to another host.
    """
    opened = []

    def make(width: int = PHONE["width"], height: int = PHONE["height"], **kwargs):
        context, page, watch = open_context(browser, live_server, {"width": width, "height": height}, **kwargs)
        opened.append((context, watch))
        return page

    try:
        yield make
        for _, watch in opened:
            watch.check()
    finally:
        for context, _ in opened:
            context.close()


@pytest.fixture
def phone(phone_at, live_server):
    """(page, base URL) on a 390 x 844 touch screen, English."""
    return phone_at(), live_server
