"""Read-only mappings and lists: what the engine hands out cannot be changed by whoever receives it.

A ruling's messages, a variant's values in an interpretation, a citation's JSON made once: the same object may
reach many answers, so an edit by one receiver would reach the next. :class:`FrozenDict` and
:class:`FrozenList` are a ``dict`` and a ``list`` to every reader and encoder (equality, ``repr``, JSON, orjson,
``isinstance``) and refuse every change with a ``TypeError``; a copy (``dict(d)``, ``copy.copy``,
``copy.deepcopy``) is the receiver's own, mutable. Being read-only they hash, by their contents, so they may stand
in a key. :func:`immutable` makes a value of the engine's so, all the
way down; :func:`frozen` makes a JSON document so.
"""

from __future__ import annotations

import copy
from typing import Any


def _refuse(self, *args: Any, **kwargs: Any) -> Any:
    raise TypeError(f"this {type(self).__name__} is shared by every answer that uses it and cannot be changed; "
                    f"change a copy of it ({'dict' if isinstance(self, dict) else 'list'}(...))")


class FrozenDict(dict):
    """A ``dict`` that refuses to change."""

    __slots__ = ()
    __setitem__ = __delitem__ = clear = pop = popitem = setdefault = update = __ior__ = _refuse

    def __hash__(self) -> int:  # read-only, so a value: it may stand in a key (its values hashable too)
        return hash(frozenset(self.items()))

    def __copy__(self) -> dict:
        return dict(self)

    def __deepcopy__(self, memo: dict) -> dict:
        return {copy.deepcopy(k, memo): copy.deepcopy(v, memo) for k, v in self.items()}

    def __reduce__(self):
        return dict, (dict(self),)


class FrozenList(list):
    """A ``list`` that refuses to change."""

    __slots__ = ()
    __setitem__ = __delitem__ = __iadd__ = __imul__ = append = extend = insert = pop = remove = clear = sort = \
        reverse = _refuse

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __copy__(self) -> list:
        return list(self)

    def __deepcopy__(self, memo: dict) -> list:
        return [copy.deepcopy(v, memo) for v in self]

    def __reduce__(self):
        return list, (list(self),)


def frozen(value: Any) -> Any:
    """JSON-ready ``value`` with every object and array in it read-only (strings, numbers, None as they are)."""
    kind = type(value)
    if kind is dict:
        return FrozenDict({k: frozen(v) for k, v in value.items()})
    if kind is list or kind is tuple:
        return FrozenList([frozen(v) for v in value])
    return value


_MUTABLE = (dict, list, set)


def immutable(value: Any) -> Any:
    """``value`` with every mapping, list and set in it read-only, all the way down: a ``dict`` becomes a
    :class:`FrozenDict`, a ``list`` a :class:`FrozenList`, a ``set`` a ``frozenset``; a tuple stays a tuple (of
    such values); anything else (a string, a number, a frozen dataclass) is kept as it is. Equal to ``value``,
    and said and encoded the same."""
    kind = type(value)
    if kind is dict or kind is FrozenDict:
        if kind is FrozenDict and not any(isinstance(v, _MUTABLE) and type(v) not in _READ_ONLY
                                          for v in value.values()):
            return value
        return FrozenDict({k: immutable(v) for k, v in value.items()})
    if kind is list or kind is FrozenList:
        if kind is FrozenList and not any(isinstance(v, _MUTABLE) and type(v) not in _READ_ONLY for v in value):
            return value
        return FrozenList([immutable(v) for v in value])
    if kind is set:
        return frozenset(value)
    if kind is tuple and any(isinstance(v, _MUTABLE) or type(v) is tuple for v in value):
        return tuple(immutable(v) for v in value)
    return value


_READ_ONLY = (FrozenDict, FrozenList)
