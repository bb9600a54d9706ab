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

from .frozen import FrozenDict, immutable

_set = object.__setattr__


@dataclass(frozen=True, slots=True, init=False)
class Message:
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
