"""Words from messages: the one place where a message key and its arguments become a sentence.

:func:`render` takes a :class:`~adjudicator.model.messages.Message` and a language
(``en``, ``sv``, ``nb``, ``da``), finds the template for its key -- the English
text of :mod:`adjudicator.words.catalogue`, translated through the gettext catalogues
in ``adjudicator/words/locale`` (managed with Babel: ``scripts/translations``) -- and
fills it with the arguments, each put in words the way people say it: cards
with their suit symbols, ranks by name, rule parameters as the point they
settle, missing facts as what they are, numbers in the language's format,
plurals by count. Codes never reach the words; they stay in the message.

Templates are ``str.format`` text with two additions: ``{x:pl}`` puts a rank
in the plural (``{x:a}``: one, with its article: "a seven", "an ace"), ``{x:cap}``
capitalises and ``{x:word}`` says a small count in words, and ``[[ ... ]]``
marks a part left out when an argument inside it is empty.
"""

from __future__ import annotations

import gettext
import re
import string
from functools import lru_cache
from pathlib import Path
from typing import Any, Final

from babel.numbers import format_decimal

from .catalogue import ENGLISH
from .catalogue_params import PARAMS
from ..model.findings import ILLEGAL, LEGAL, Ruling
from ..memo import Memo
from ..model.frozen import FrozenDict, FrozenList, frozen
from ..model.messages import (Card, Cards, Fact, Items, Message, Param, ParamValue, Rank, VariantRef, Word, code_of,
                              msg)
from ..model.requirement import Requirement
from ..model.parameters import BY_NAME
from .clauses import reading_message, statement

LANGUAGES = ("en", "sv", "nb", "da")
DEFAULT_LANGUAGE = "en"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
SUITS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
COURT_LETTERS = ("J", "Q")  # court cards whose letter differs by language (the king's K does not)
_OPTIONAL = re.compile(r"\[\[(.*?)\]\]", re.S)
_NUMBER_WORDS = 13  # 0..12 are said in words where a template asks for {x:word}


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of a language (English is the source text itself)."""
    if lang == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)


def text(key: str, lang: str, count: int | None = None) -> str:
    """The template of ``key`` in ``lang`` (a pair of forms is chosen by ``count``), looked up once."""
    english = ENGLISH[key]
    found = (key, lang, count if isinstance(english, tuple) else None)
    hit = _TEXTS.get(found)
    if hit is None:
        tr = translations(lang)
        if isinstance(english, tuple):
            hit = tr.npgettext(key, english[0], english[1], 1 if count is None else count)
        else:
            hit = tr.pgettext(key, english)
        _TEXTS[found] = hit
    return hit


def render(message: Message, lang: str = DEFAULT_LANGUAGE) -> str:
    """The message in words, in ``lang``."""
    count = message.args.get("count")
    return _formatter(lang).fill(text(message.key, lang, count if isinstance(count, int) else None), message.args)


def words(key: str, lang: str = DEFAULT_LANGUAGE, **args: Any) -> str:
    """A catalogue text by key, filled: ``words("line.hand", "sv")``."""
    return render(Message(key, args), lang)


def number(value: int, lang: str) -> str:
    """An integer in the language's format (5,000 / 5 000 / 5.000), worked out once."""
    found = (value, lang)
    hit = _NUMBERS.get(found)
    if hit is None:
        hit = _NUMBERS[found] = format_decimal(value, locale=lang)
    return hit


# the templates and the numbers said so far, bounded by bytes (a template ~0.3 KB; a number ~0.2 KB)
_TEXTS: Final[dict] = Memo("words.texts", 2 * 1024 * 1024)
_NUMBERS: Final[dict] = Memo("words.numbers", 512 * 1024)


# ----------------------------------------------------------------------------------------------
# Sentences about a whole ruling


def summary(ruling: Ruling, lang: str = DEFAULT_LANGUAGE) -> str:
    """One sentence for the verdict: what is allowed, what failed, or what is missing to decide.

    A ruling decided across the readings of an open point says so; one the
    readings leave apart names what each gives.
    """
    variant = _variant_ref(ruling)
    if ruling.conditions:  # a fact the table lacks decides: the condition first
        return _conditional(ruling, variant, lang)
    if ruling.facts_across:  # every value of a fact the table lacks gives this verdict: said so
        plain = _readings_summary(ruling, variant, lang)
        return said(msg("summary.across_facts", summary=plain, facts=Items(tuple(
            either for _, either in ruling.facts_across), " & ")), lang)
    return _readings_summary(ruling, variant, lang)


def _readings_summary(ruling: Ruling, variant, lang: str) -> str:
    """The summary of a ruling as its readings leave it (every fact it needs given, or missing)."""
    if ruling.readings:
        points = Items(tuple(Param(p) for p, _ in ruling.readings[0].values), " & ")
        each = Items(tuple(msg("reading.verdict", reading=reading_message(r.values), verdict=Word(r.verdict))
                           for r in ruling.readings))
        if ruling.across:
            return said(msg("summary.across", summary=_plain(ruling, variant, lang), readings=each), lang)
        if not ruling.missing:
            return said(msg("summary.depends", variant=variant, action=msg(f"action.{ruling.action}"),
                              points=points, readings=each), lang)
    return _plain(ruling, variant, lang)


def _variant_ref(ruling: Ruling) -> Any:
    return ruling.variant_ref if ruling.variant_ref is not None else ruling.variant


def _plain(ruling: Ruling, variant, lang: str) -> str:
    action = msg(f"action.{ruling.action}")
    if ruling.verdict == LEGAL:
        allowed = said(msg("summary.legal", variant=variant, action=action), lang)
        lead = ruling.lead()  # the check that was in doubt, said first after the verdict
        if lead is None:
            return allowed
        out = f"{allowed} {sentence(said(lead.message, lang))}"
        if lead.house_rules:  # the table's own rule settled it: said so
            out += " " + said(msg("summary.by_house_rule", rules=Items(tuple(
                statement(h.parameter, h.value) for h in lead.house_rules), " & ")), lang)
        return out
    if ruling.verdict == ILLEGAL:
        failed = [f.message for f in ruling.findings if f.passed is False]
        if not failed:  # decided across readings: what fails under each
            failed = [m for r in ruling.readings for m in r.messages]
        reasons = " ".join(dict.fromkeys(sentence(said(m, lang)) for m in failed))
        return said(msg("summary.illegal", variant=variant, reasons=reasons), lang)
    parts = []
    if ruling.missing:
        parts.append(msg("summary.lacks", facts=Items(tuple(Fact(p) for p in ruling.missing), ", ")))
    if ruling.not_stated:
        parts.append(msg("summary.not_settled", parameters=Items(tuple(Param(n) for n in ruling.not_stated), ", ")))
    return said(msg("summary.undetermined", variant=variant, action=action, reasons=Items(tuple(parts))), lang)


def _conditional(ruling: Ruling, variant, lang: str) -> str:
    """"Allowed under X while the stock has cards: you may draw from the stock. Otherwise ..." -- the condition
    first: the value of the first fact (the one the checks met first) that allows the action -- through the
    values of the facts it still hangs on, where that is what allows it ("before you draw, while the stock has
    cards") -- else one that refuses it; then what each other value gives, in short."""
    path = _lead(ruling)
    lead = path[-1][1]
    conditions = Items(tuple(choice.condition for _, choice in path), ", ")
    parts = [said(msg(f"summary.if_{lead.verdict.value}", variant=variant, condition=conditions,
                      action=msg(f"action.{ruling.action}"), reasons=_why(lead.ruling, lang)), lang)]
    others = [(tuple(ch.condition for _, ch in path[:level]), other)
              for level, (condition, chosen) in enumerate(path) for other in condition.choices if other is not chosen]
    for before, choice in others:
        key = f"summary.otherwise_{choice.verdict.value}" if len(others) == 1 else f"summary.then_{choice.verdict.value}"
        parts.append(said(msg(key, condition=Items((*before, choice.condition), ", "),
                              reasons=_why(choice.ruling, lang)), lang))
    return " ".join(sentence(p) for p in parts if p)


def _lead(ruling: Ruling) -> list:
    """The values the summary leads with: ``[(condition, choice), ...]``, down the facts a choice still hangs
    on, to a value that allows the action where one does (else one that refuses it, else the first)."""
    condition = ruling.conditions[0]
    ranked = sorted(condition.choices, key=lambda c: 0 if c.verdict == LEGAL else 1 if _allows(c.ruling) else
                    2 if c.verdict == ILLEGAL else 3)
    chosen = ranked[0]
    if chosen.verdict != LEGAL and _allows(chosen.ruling):
        return [(condition, chosen), *_lead(chosen.ruling)]
    return [(condition, chosen)]


def _allows(ruling: Ruling) -> bool:
    """Whether some values of the facts a ruling hangs on allow the action."""
    return any(c.verdict == LEGAL or _allows(c.ruling) for condition in ruling.conditions for c in condition.choices)


def _why(ruling: Ruling, lang: str) -> str:
    """What decides a ruling made under one value of a fact, short: what fails; or what it still hangs on (the
    facts it still lacks, the points of the text it turns on)."""
    if ruling.verdict == ILLEGAL:
        failed = [f.message for f in ruling.findings if f.passed is False] or \
            [m for r in ruling.readings for m in r.messages]
        return " ".join(dict.fromkeys(sentence(said(m, lang)) for m in failed))
    if ruling.verdict == LEGAL:
        return ""
    return "; ".join(said(m, lang) for m in open_parts(ruling))


def open_parts(ruling: Ruling) -> list[Message]:
    """What an undetermined ruling hangs on, each in a short clause: the facts a choice can give ("it depends
    on whether the stock has cards"), the other facts it lacks, the points of the text it turns on."""
    parts: list[Message] = []
    asked = tuple(c.pointer for c in ruling.conditions)
    if asked:
        parts.append(msg("summary.depends_on", facts=Items(tuple(Fact(_asked_as(c)) for c in ruling.conditions), " & ")))
    lacking = tuple(p for p in ruling.missing if p not in asked)
    if lacking:
        parts.append(msg("summary.lacks", facts=Items(tuple(Fact(p) for p in lacking), ", ")))
    if ruling.readings and not ruling.across:
        parts.append(msg("summary.reads_two_ways", points=Items(tuple(Param(p) for p, _ in ruling.open_points), " & ")))
    elif ruling.not_stated:
        parts.append(msg("summary.not_settled", parameters=Items(tuple(Param(n) for n in ruling.not_stated), ", ")))
    return parts


def _asked_as(condition) -> str:
    """The fact a condition asks, as its words name it: "has your team melded?" is asked at the team's melds
    (the pointer a check needing them meets), and said as whether the team has melded, not as its melds."""
    if condition.kind == "opened":
        return condition.pointer.rpartition("/")[0] + "/opened"
    return condition.pointer


def sentence(clause: str) -> str:
    """A clause closed as a sentence, so that the next one never runs on from it ("... you show one. This
    holds either way ..."): a full stop unless it already ends with one (or another closing mark)."""
    end = clause.rstrip()
    if not end or end[-1] in ".!?:…" or end.endswith((".”", ".»", ".\"", ".)")):
        return end
    return end + "."


def requirement_message(need: Requirement) -> Message:
    """An opening requirement as a phrase ("a team on 1,500–2,995 points needs 90")."""
    if need.negative:
        return msg("requirement.negative", points=need.points)
    band = msg("band.range", low=need.band_min, high=need.band_max) if need.band_max is not None else \
        msg("band.open", low=need.band_min)
    if need.canasta_required:
        return msg("requirement.band_canasta", band=band)
    return msg("requirement.band", band=band, points=need.points)


# ----------------------------------------------------------------------------------------------
# Arguments in words


@lru_cache(maxsize=None)
def _compiled(template: str) -> tuple:
    """A template split once into parts: ``(literal, field, spec)`` and optional groups of them.

    ``{name:spec}`` is a field (``spec`` picks a form: ``pl``, ``cap``, ``clause``); ``[[ ... ]]``
    is left out when any of its fields says nothing. Every message is rendered through this,
    thousands of times a second, so the parsing is done once per template.
    """
    parts: list = []
    cursor = 0
    for match in _OPTIONAL.finditer(template):
        parts += _fields(template[cursor:match.start()])
        group = tuple(_fields(match.group(1)))
        parts.append((group, tuple(name for _, name, _ in group if name)))
        cursor = match.end()
    parts += _fields(template[cursor:])
    return tuple(parts)


def _fields(template: str) -> list[tuple[str, str | None, str]]:
    return [(literal, name or None, spec or "") for literal, name, spec, _ in _PARSER.parse(template)]


_PARSER = string.Formatter()


@lru_cache(maxsize=None)
def _formatter(lang: str) -> "_Formatter":
    return _Formatter(lang)


class _Formatter:
    """Fills templates with message arguments in words: each argument's type says how it is said."""

    __slots__ = ("lang",)

    def __init__(self, lang: str):
        self.lang = lang

    def fill(self, template: str, args: dict) -> str:
        out: list[str] = []
        for part in _compiled(template):
            if len(part) == 2:  # an optional group: only when every field in it says something
                group, names = part
                said = {name: self.words(args.get(name), "") for name in names}
                if not all(said.values()):
                    continue
                for literal, name, spec in group:
                    out.append(literal)
                    if name is not None:
                        out.append(said[name] if not spec else self.words(args[name], spec))
                continue
            literal, name, spec = part
            out.append(literal)
            if name is not None:
                out.append(self.words(args[name], spec))
        return "".join(out)

    def words(self, value: Any, spec: str) -> str:
        said = self._words(value, spec)
        if spec == "cap" and said:
            return said[0].upper() + said[1:]
        if spec == "clause":  # a sentence used inside another: no full stop of its own
            return said[:-1] if said.endswith(".") else said
        if spec == "word" and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < _NUMBER_WORDS:
            return text(f"number.{value}", self.lang)  # a small count in running text: "two", not "2"
        return said

    def _words(self, value: Any, spec: str) -> str:
        say = _SAY.get(type(value))
        if say is not None:  # the exact type, looked up once: the common case
            return say(self, value, spec)
        for kind, say in _SAY.items():  # a subclass of a known type
            if isinstance(value, kind):
                return say(self, value, spec)
        return str(value)

    def _items(self, value: Items, spec: str) -> str:
        each = "" if spec == "cap" else spec  # a list capitalised is its first word capitalised (by words())
        said = [t for t in (self.words(i, each) for i in value.items) if t]
        if value.joiner in (" & ", " | ") and len(said) > 1:  # as people say it: "twos and queens", "3 or 4"
            word = text("word.and" if value.joiner == " & " else "word.or", self.lang)
            return ", ".join(said[:-1]) + " " + word + " " + said[-1]
        return value.joiner.join(said)

    def _tuple(self, value: tuple, spec: str) -> str:
        lang = self.lang
        items = tuple(number(v, lang) if isinstance(v, int) else v for v in value)
        return self.words(Items(items, " | " if all(isinstance(v, int) for v in value) else " & "), spec)


def _word(value: Word, lang: str) -> str:
    key = f"word.{value.value}"
    return text(key, lang) if key in ENGLISH else value.value


# How each type of argument is said (exact types first; bool before int, as a bool is an int)
_SAY: dict[type, Any] = {
    type(None): lambda f, v, spec: "",
    Message: lambda f, v, spec: render(v, f.lang),
    Requirement: lambda f, v, spec: render(requirement_message(v), f.lang),
    Items: _Formatter._items,
    Cards: lambda f, v, spec: " ".join(card(c, f.lang) for c in v.codes),
    Card: lambda f, v, spec: card(v.value, f.lang),
    Rank: lambda f, v, spec: text(f"rank.{v.value}.{spec}" if spec in ("pl", "a") else f"rank.{v.value}", f.lang),
    Param: lambda f, v, spec: text(f"param.{v.name}", f.lang),
    ParamValue: lambda f, v, spec: value_words(v.name, v.value, f.lang),
    Fact: lambda f, v, spec: fact(v.pointer, f.lang),
    Word: lambda f, v, spec: _word(v, f.lang),
    VariantRef: lambda f, v, spec: v.name(f.lang),
    bool: lambda f, v, spec: text("value.yes" if v else "value.no", f.lang),
    int: lambda f, v, spec: number(v, f.lang),
    tuple: _Formatter._tuple,
}


def card(code: str, lang: str) -> str:
    """A card for people: 9♥, 10♠, Joker."""
    if code == "JK":
        return text("card.joker", lang)
    rank = code[:-1]
    if rank in COURT_LETTERS:  # the letter a player of this language reads on the card: Kn, D, B
        rank = text(f"card.rank.{rank}", lang)
    return rank + SUITS.get(code[-1], code[-1])


def fact(pointer: str, lang: str) -> str:
    """A fact of the situation by what it is ("your team's score before this round")."""
    path = pointer[pointer.find("/", 1):] if pointer.startswith("/situation") else pointer
    head, _, rank = path.rpartition("/")
    if head == "/team/ranks" and f"rank.{rank}" in ENGLISH:  # "whether your team already has a meld of nines"
        return _formatter(lang).fill(text("fact.team_has_rank", lang), {"rank": Rank(rank)})
    key = f"fact{path}"
    return text(key, lang) if key in ENGLISH else path.strip("/").replace("/", " ")


def value_words(name: str, value: Any, lang: str) -> str:
    """A parameter's value in words: yes/no, a number, a number per player count, the opening bands."""
    if value is None:  # a limit that is not there, or a figure the text does not give
        param = BY_NAME.get(name)
        return text("value.no_limit" if param is not None and param.type == "int_or_null" else "value.not_given", lang)
    if isinstance(value, bool):
        return text("value.yes" if value else "value.no", lang)
    if isinstance(value, int):
        return number(value, lang)
    if isinstance(value, str):
        choices = PARAMS.get(name, {}).get("choices", {})
        return text(f"param.{name}.{value}", lang) if value in choices else \
            (text(f"choice.{value}", lang) if f"choice.{value}" in ENGLISH else value)
    if isinstance(value, dict):
        return ", ".join(render(msg("value.for_players", value=v, players=int(k)), lang)
                         for k, v in sorted(value.items(), key=lambda kv: int(kv[0])))
    if isinstance(value, (list, tuple)):
        if not value:
            return text("value.none", lang)
        if all(isinstance(v, dict) for v in value):  # opening bands
            return "; ".join(render(msg("value.band_canasta", low=b["min"]) if b.get("canasta_required") and
                                    b.get("points") is None else
                                    msg("value.band_points", low=b["min"], points=b["points"]), lang) for b in value)
        return ", ".join(value_words(name, v, lang) for v in value)
    return str(value)


# ----------------------------------------------------------------------------------------------
# Words made once: a message's words and machine form, by its value and language
#
# Answers say the same few thousand messages again and again, so what is said of a message is kept,
# here where the words are made: the serializer asks once per message and gets both its words and its
# machine form (:func:`said_and_code`), and never climbs back. The tables are bounded by the bytes they
# hold (:class:`~adjudicator.memo.Memo`), and what they hand out is read-only (a machine form is a
# :class:`~adjudicator.memo.FrozenDict`): an answer that changed it would change the next answer.

# Bounds, in bytes as adjudicator.memo.size_of counts them: the ruling table's rows under four variants in four
# languages, with and without words, and their comparisons and options, fill about 7 MB.
WORDS_BYTES: Final = 16 * 1024 * 1024  # a message's words and form: ~4 KB counted each, some 4,000 messages
_SAID: Final[dict] = Memo("words.said", WORDS_BYTES)  # (language, the message's value) -> (words, form)
TABLES: Final = (_TEXTS, _NUMBERS, _SAID)  # every table of words made once, for their bounds' tests


def frozen_key(value: Any) -> Any:
    """A hashable value standing for a message argument: equal only when it is said the same way.

    ``True``, ``1`` and ``1.0`` (equal in Python, said "yes", "1" and "1.0"), a list and a tuple are kept
    apart. Strings, whole numbers and None stand for themselves; a card, rank, word, parameter, fact or
    variant stands as its kind and fields, a tuple Python hashes and compares in C (the dataclass itself
    would run its generated ``__hash__`` and ``__eq__`` as Python at every look-up). Any other value
    stands for itself. Each kind's key is made by its entry in :data:`_FREEZE`: one look-up by type.
    """
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    freeze = _FREEZE.get(kind)
    return value if freeze is None else freeze(value)


def _arguments_key(out: list, m: Message) -> tuple:
    for name, arg in m.args.items():
        out.append(name)
        kind = type(arg)
        if kind is str or kind is int or arg is None:
            out.append(arg)
        else:
            freeze = _FREEZE.get(kind)
            out.append(arg if freeze is None else freeze(arg))
    return tuple(out)


def _message_key(m: Message) -> tuple:
    return _arguments_key([Message, m.key], m)


def _items_key(i: Items) -> tuple:
    return (Items, i.joiner, *[frozen_key(v) for v in i.items])


def _sequence_key(value: Any) -> tuple:
    return (type(value), *[frozen_key(v) for v in value])


def _dict_key(value: dict) -> tuple:
    return (dict, *[(k, frozen_key(v)) for k, v in value.items()])


_FREEZE: Final[dict] = {
    Message: _message_key, Items: _items_key,
    Rank: lambda v: (Rank, v.value), Card: lambda v: (Card, v.value), Word: lambda v: (Word, v.value),
    Param: lambda v: (Param, v.name), Cards: lambda v: (Cards, v.codes), Fact: lambda v: (Fact, v.pointer),
    VariantRef: lambda v: (VariantRef, v.id, v.names),
    ParamValue: lambda v: (ParamValue, v.name, repr(v.value)),  # a parameter's value is data: its repr says it
    tuple: _sequence_key, list: _sequence_key, dict: _dict_key, FrozenList: _sequence_key, FrozenDict: _dict_key,
    bool: lambda v: (bool, v), float: lambda v: (float, v),
}

_CODE_OF: Final[dict] = {Card: lambda v: v.value, Rank: lambda v: v.value, Param: lambda v: v.name,
                         Fact: lambda v: v.pointer, Word: lambda v: v.value, VariantRef: lambda v: v.id,
                         Cards: lambda v: list(v.codes)}


def code(value: Any) -> Any:
    """:func:`adjudicator.model.messages.code_of` (the machine form of a message or argument), by type at once."""
    kind = type(value)
    if kind is str or kind is int or kind is bool or value is None:
        return value
    if kind is Message:
        return {"key": value.key, "args": {name: code(arg) for name, arg in value.args.items()}}
    made = _CODE_OF.get(kind)
    return made(value) if made is not None else code_of(value)


def _said_pair(message: Message, lang: str) -> tuple:
    """``(words, read-only machine form)`` of the message in ``lang``, made once per value and language."""
    key = _arguments_key([lang, message.key], message)
    try:
        hit = _SAID.get(key)
    except TypeError:  # an argument that is not hashable: made each time
        return render(message, lang), frozen(code(message))
    if hit is None:
        hit = _SAID[key] = (render(message, lang), frozen(code(message)))
    return hit


def said(message: Message, lang: str) -> str:
    """``render(message, lang)``, made once for each message value and language."""
    return _said_pair(message, lang)[0]


def said_and_code(message: Message, lang: str | None) -> tuple[str | None, dict]:
    """The message's words and its machine form (read-only), made once per value and language; without a
    language, the form alone, made afresh (cheaper than the key it would be found by)."""
    if not lang:
        return None, code(message)
    return _said_pair(message, lang)


def words_for(key: str, lang: str, **args: Any) -> str:
    """A catalogue text by key, filled (:func:`words`), made once per value."""
    return said(Message(key, args), lang)


def ruling_words(r: Ruling, lang: str) -> tuple[str, list[tuple], list[str]]:
    """Everything a ruling says in ``lang``, asked for in one call: its summary (:func:`ruling_summary`), each
    finding's words and read-only machine form, and each consequence's words -- each made once per value."""
    return (ruling_summary(r, lang), [_said_pair(f.message, lang) for f in r.findings],
            [_said_pair(m, lang)[0] for m in r.consequences])


def ruling_summary(r: Ruling, lang: str) -> str:
    """:func:`summary` (a ruling's summary is made of messages, each said once per value: :func:`said`)."""
    return summary(r, lang)
