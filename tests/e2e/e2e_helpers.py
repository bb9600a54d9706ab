"""Helpers shared by the browser tests: counted taps, the card picker, the API, the page's words."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path

from playwright.sync_api import expect

WEB = Path(__file__).resolve().parents[2] / "web"
# How long a test waits for the phone's engine (its boot, its first answer, its files kept): a bound on a hang, not
# a speed. On a loaded 2-core machine the engine's first offline answer took up to ~100 s (60 s failed at load 13).
ENGINE_WAIT = 180_000


def api(base: str, method: str, path: str, body: dict | None = None) -> dict:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method,
                                 headers={"Content-Type": "application/json"} if data else {})
    with urllib.request.urlopen(req, timeout=60) as resp:
        return json.loads(resp.read())


def ways(conditions: list) -> list[tuple[str, str]]:
    """The ruling's ways, as the page lines them up: (verdict, the conditions in words)."""
    out = []
    for choice in conditions[0]["choices"]:
        if choice.get("conditions"):
            out += [(v, f"{choice['condition']}, {said}") for v, said in ways(choice["conditions"])]
        else:
            out.append((choice["verdict"], choice["condition"]))
    return out


def shown_number(text: str) -> int:
    """A number as the page shows it (any thousands separator, a real minus sign) as an int."""
    cleaned = text.replace("\u2212", "-")
    cleaned = re.sub(r"[^0-9+-]", "", cleaned)
    return int(cleaned)


class Taps:
    """Taps on the touch screen, counted."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def __call__(self, locator):
        locator.tap()
        self.count += 1


def pick(tap, field, kind: str, count: int | None = None):
    """The picker: one tap on a kind (A..4, 2, R3, B3, JK); `count` taps "×n" for n of that kind."""
    tap(field.locator(f'.kind[data-kind="{kind}"]'))
    if count and count > 1:
        tap(field.locator(".count", has_text=re.compile(rf"^×{count}$")))


def open_page(page, base, hash_=""):
    page.goto(f"{base}/{hash_}")
    expect(page.locator("html.ready")).to_have_count(1)


PACKS_SCRIPT = """() => {
  const sample = { n: 3, of: 9, from: 2, to: 4, one: 'x', many: 'x', kind: 'x', kinds: 'x', cards: 'x', card: 'x',
    name: 'x', team: 'x', label: 'x', what: 'x', value: 'x', points: 5, max: 9, total: 9, target: 9, round: 1,
    status: 400, verdict: 'x', language: 'x', q: 'x', a: 'x', all: true };
  const out = {};
  for (const [l, p] of Object.entries(window.packs)) {
    out[l] = {};
    for (const [k, v] of Object.entries(p)) out[l][k] = typeof v === 'function' ? v(sample) : v;
  }
  return out;
}"""


def read_packs(browser) -> dict[str, dict[str, str]]:
    """The page's strings per language, from the modules web/i18n/*.js run in a blank page (functions
    called with sample values). Each pack is the module's default export; here it is run as a script."""
    context = browser.new_context()
    try:
        page = context.new_page()
        page.evaluate("window.packs = {}")
        for lang in ("en", "sv", "nb", "da"):
            text = (WEB / "i18n" / f"{lang}.js").read_text(encoding="utf-8")
            page.add_script_tag(content="{" + text.replace("export default ", f"window.packs.{lang} = ", 1) + "}")
        return page.evaluate(PACKS_SCRIPT)
    finally:
        context.close()


def english_ui_strings(p: dict, lang: str) -> list[str]:
    """English strings of the page that must not show in `lang`: whole phrases, not words both languages share."""
    en, other = p["en"], p[lang]
    out = []
    for key, text in en.items():
        phrase = re.sub(r"\bx\b|\d+", " ", text).strip(" .:…,()?!–-")
        if len(phrase) < 4 or other.get(key) == text or phrase in ("Joker", "Canasta"):
            continue
        out.append(text)
    return out


def english_fragments(p: dict, lang: str) -> list[str]:
    """The fixed parts (between placeholders) of the English strings, at least two words long."""
    frags = set()
    for text in english_ui_strings(p, lang):
        for part in re.split(r"\bx\b|\d+|[()“”:·]", text):
            part = part.strip(" .,…?!–-")
            if len(part.split()) >= 2 or (len(part) >= 6 and " " not in part and part[0].isupper()):
                frags.add(part)
    return sorted(frags, key=len, reverse=True)


# Common English words: a text in Swedish, Norwegian or Danish holds none of them as a word.
ENGLISH_WORDS = ("the", "you", "your", "is", "not", "with", "pile", "meld", "melds", "allowed", "must", "cards",
                 "team", "round", "points", "which", "does", "when", "there")


def english_words_in(text: str) -> list[str]:
    return sorted({w for w in re.findall(r"[A-Za-z]+", text) if w.lower() in ENGLISH_WORDS})


SLOW_3G = {"offline": False, "latency": 400, "downloadThroughput": 400_000 / 8, "uploadThroughput": 400_000 / 8}


class WorkerThrottle:
    """Slow 3G for a context's service workers, from a browser-level CDP session.

    Playwright gives no CDP session for a service worker, so the worker's target is attached in the
    non-flat mode and spoken to through ``Target.sendMessageToTarget``. Playwright sets its own
    network conditions on a worker when it starts following it, so the throttle is sent again while
    the page is watched (:meth:`reapply`).
    """

    def __init__(self, browser, conditions: dict):
        self.session = browser.new_browser_cdp_session()
        self.conditions = conditions
        self.sessions: dict[str, str] = {}  # worker target id -> CDP session id
        self.session.on("Target.targetCreated", self._created)
        self.session.send("Target.setDiscoverTargets", {"discover": True})

    def _created(self, event) -> None:
        info = event["targetInfo"]
        if info["type"] != "service_worker":
            return
        try:
            sid = self.session.send("Target.attachToTarget", {"targetId": info["targetId"], "flatten": False})["sessionId"]
            self._send(sid, "Network.enable", {})
            self._send(sid, "Network.emulateNetworkConditions", self.conditions)
        except Exception:  # a worker of a context closed meanwhile
            return
        self.sessions[info["targetId"]] = sid

    def _send(self, sid: str, method: str, params: dict) -> None:
        message = json.dumps({"id": len(method), "method": method, "params": params})
        self.session.send("Target.sendMessageToTarget", {"sessionId": sid, "message": message})

    def reapply(self) -> None:
        """Send the throttle again to every worker seen (Playwright sets its own conditions on a worker
        it starts following, after the worker's target appears), and attach a worker whose creation was
        missed: called while the page is followed."""
        for info in self.session.send("Target.getTargets")["targetInfos"]:
            if info["type"] == "service_worker" and info["targetId"] not in self.sessions:
                self._created({"targetInfo": info})
        for sid in list(self.sessions.values()):
            try:
                self._send(sid, "Network.emulateNetworkConditions", self.conditions)
            except Exception:  # the worker is gone
                pass

    def close(self) -> None:
        self.session.send("Target.setDiscoverTargets", {"discover": False})
        self.session.detach()


# The referee's routine questions (#42), answered as a family in mid-game would: drawn, two or more cards left,
# not the first round, cards left in the stock, four at the table. Each: the pointer, and which of its buttons.
ROUTINE = {"/situation/turn/drew": 1, "/situation/player/hand_count": -1, "/situation/first_round": 0,
           "/situation/stock_count": 0, "/situation/players": 0}


def tell(page, answers: dict | None = None, rounds: int = 8) -> list[str]:
    """Tap the answers to the referee's one-tap questions under the answer on screen, one at a time (each asks
    again), while one of `answers` (pointer -> button index; the routine ones by default) is asked. Returns the
    pointers told, in order."""
    wanted = dict(ROUTINE, **(answers or {}))
    told = []
    for _ in range(rounds):
        expect(page.locator("#ruling .verdict")).to_be_visible(timeout=ENGINE_WAIT)
        asked = [p for p in page.locator("#ruling fieldset[data-pointer]").evaluate_all(
            "(all) => all.map((f) => f.dataset.pointer)") if p in wanted]
        if not asked:
            return told
        box = page.locator(f'#ruling fieldset[data-pointer="{asked[0]}"]')
        buttons = box.get_by_role("button")
        (buttons.last if wanted[asked[0]] < 0 else buttons.nth(wanted[asked[0]])).tap()
        expect(box).to_have_count(0, timeout=ENGINE_WAIT)
        told.append(asked[0])
    return told
