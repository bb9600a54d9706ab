"""What the engine says, as data: a message key with typed arguments.

The engine never writes a sentence. Every finding, consequence and refusal
carries a :class:`Message`: a key from :mod:`adjudicator.words.catalogue` and the
arguments that fill it. Words are made at the edge, in the reader's language,
by :mod:`adjudicator.words.render`; programs read the key and the arguments.

Arguments are plain values (numbers, booleans, strings that are codes) or one
of the small types below, which say what a value *is* so that the renderer can
name it the way people do (a card, a rank, a rule parameter, a missing fact).
Each has a ``code`` property: the value a program sees in JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, fields, is_dataclass
from typing import Any

from .frozen import FrozenDict, FrozenList, immutable

_set = object.__setattr__


class _Said:
    """The slot of what a message is said as (:func:`said_of`), beside its fields: filled the first time its words
    are looked up, from its key and arguments alone (read-only, so it cannot go stale)."""

    __slots__ = ("_said",)


@dataclass(frozen=True, slots=True, init=False)
class Message(_Said):
    """A message key and its arguments.

    ``args`` is read-only all the way down (a :class:`~adjudicator.model.frozen.FrozenDict` of immutable values,
    made by the constructor): one message may stand in many rulings (a reading said in words, a variant's value),
    so a caller that changed it would change the next ruling."""

    key: str
    args: dict

    def __init__(self, key: str, args: dict | None = None):
        _set(self, "key", key)
        if not args:
            _set(self, "args", _NONE)
        elif _CONTAINERS.isdisjoint(map(type, args.values())):  # no list, mapping, set or tuple among them
            _set(self, "args", FrozenDict(args))
        else:  # each made read-only within
            _set(self, "args", FrozenDict({name: immutable(value) for name, value in args.items()}))

    def code(self) -> dict:
        return {"key": self.key, "args": {name: code_of(v) for name, v in self.args.items()}}


_NONE: dict = FrozenDict()
_CONTAINERS = frozenset((dict, list, set, tuple))
_SCALARS = frozenset((str, int, bool, float, type(None)))


def msg(key: str, **args: Any) -> Message:
    return Message(key, args)


@dataclass(frozen=True, slots=True)
class Cards:
    """Card codes shown to a player (``("9H", "JK")``)."""

    codes: tuple

    @property
    def code(self) -> list:
        return list(self.codes)


@dataclass(frozen=True, slots=True)
class Card:
    """One card code."""

    value: str

    @property
    def code(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Rank:
    """A rank (``"K"``, ``"10"``); the renderer names it, singular or plural."""

    value: str

    @property
    def code(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Param:
    """A rule parameter, named for people as the point it settles (``wild.twos``: whether twos are wild)."""

    name: str

    @property
    def code(self) -> str:
        return self.name


@dataclass(frozen=True, slots=True)
class ParamValue:
    """A parameter's value, to be put in words (a by-players table, a band list, true/false)."""

    name: str
    value: Any

    @property
    def code(self) -> Any:
        return jsonable(self.value)


@dataclass(frozen=True, slots=True)
class Fact:
    """A fact of the situation, named by its JSON pointer (``/situation/team/score``)."""

    pointer: str

    @property
    def code(self) -> str:
        return self.pointer


@dataclass(frozen=True, slots=True)
class VariantRef:
    """A variant, named for people by its name in the reader's language."""

    id: str
    names: tuple = ()  # ((language, name), ...); "" is the name in its file, for any language
    language: str = ""  # the language its text is written in
    own_words: tuple = ()  # ((a word of the service's, the text's own word for that thing), ...), in that language

    @property
    def code(self) -> str:
        return self.id

    def name(self, lang: str) -> str:
        names = dict(self.names)
        return names.get(lang) or names.get("en") or names.get("") or self.id


@dataclass(frozen=True, slots=True)
class Word:
    """A closed-class word the renderer translates (``"stock"``, ``"open"``, ``"together"``)."""

    value: str

    @property
    def code(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Items:
    """A list of messages or values read as one phrase ("a joker lies in the pile; a red three started it")."""

    items: tuple
    joiner: str = "; "

    @property
    def code(self) -> list:
        return [code_of(i) for i in self.items]


def code_of(value: Any) -> Any:
    """The machine form of an argument."""
    if isinstance(value, Message):
        return value.code()
    code = getattr(value, "code", None)
    if code is not None and not callable(code):
        return code
    if isinstance(value, (list, tuple)):
        return [code_of(v) for v in value]
    return jsonable(value)


def jsonable(value: Any) -> Any:
    """A value as JSON has it: mapping keys become strings (``{2: 5000}`` -> ``{"2": 5000}``), a record (a
    dataclass: an opening requirement) its fields by name, in order."""
    if type(value) in _SCALARS:
        return value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: jsonable(getattr(value, f.name)) for f in fields(value)}
    return value


# ----------------------------------------------------------------------------------------------
# What a message is said as: the key of its words (adjudicator/words/render.py)


def said_of(message: Message) -> tuple:
    """What ``message`` is said as: its key and each argument by :func:`said_as` (a nested message by its own,
    made once). Made the first time it is asked and kept in the message's slot: a message is read-only all the
    way down, so what it is said as never changes (``tests/test_words_cache.py`` holds it equal to one made
    afresh, for every message the rulings of the table say)."""
    try:
        return message._said
    except AttributeError:
        pass
    args = message.args
    if _PLAIN.issuperset(map(type, args.values())):  # strings, whole numbers, None: each said as itself
        made = ("message", message.key, *args.items())
    else:
        made = ("message", message.key, *[(name, said_as(arg)) for name, arg in args.items()])
    _set(message, "_said", made)
    return made


_PLAIN = frozenset((str, int, type(None)))  # arguments said as themselves (``True`` is not: it is said "yes")


def said_as(value: Any) -> Any:
    """A hashable value standing for a message argument: equal only when it is said the same way.

    ``True``, ``1`` and ``1.0`` (equal in Python, said "yes", "1" and "1.0"), a list and a tuple are kept
    apart. Strings, whole numbers and None stand for themselves; a message by :func:`said_of`; a card, rank,
    word, parameter, fact or variant as its kind and fields, a tuple Python hashes and compares in C (the
    dataclass itself would run its generated ``__hash__`` and ``__eq__`` as Python at every look-up). Any other
    value stands for itself. Each kind's key is made by its entry in :data:`_SAID_AS`: one look-up by type, each
    kind tagged by a word of its own (a tuple of a tag and fields never equals a string or a number)."""
    kind = type(value)
    if kind is str or kind is int or value is None:
        return value
    freeze = _SAID_AS.get(kind)
    return value if freeze is None else freeze(value)


def _items_said(i: Items) -> tuple:
    return ("items", i.joiner, *[said_as(v) for v in i.items])


def _list_said(value: Any) -> tuple:
    return ("list", *[said_as(v) for v in value])


def _tuple_said(value: Any) -> tuple:
    return ("tuple", *[said_as(v) for v in value])


def _dict_said(value: dict) -> tuple:
    return ("dict", *[(k, said_as(v)) for k, v in value.items()])


_SAID_AS: dict = {
    Message: said_of, Items: _items_said,
    Rank: lambda v: ("rank", v.value), Card: lambda v: ("card", v.value), Word: lambda v: ("word", v.value),
    Param: lambda v: ("param", v.name), Cards: lambda v: ("cards", v.codes), Fact: lambda v: ("fact", v.pointer),
    VariantRef: lambda v: ("variant", v.id, v.names),
    ParamValue: lambda v: ("value", v.name, repr(v.value)),  # a parameter's value is data: its repr says it
    tuple: _tuple_said, list: _list_said, dict: _dict_said, FrozenList: _list_said, FrozenDict: _dict_said,
    bool: lambda v: ("bool", v), float: lambda v: ("float", v),
}
