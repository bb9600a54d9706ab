"""Tables of things made once, bounded by the bytes they hold.

The engine and its edge keep what they make again and again -- a message's words, a variant's citations for a
check, a part of a meld's ruling -- in tables that live as long as the process (or the variant object). A
:class:`Memo` is a ``dict`` that measures each entry when it is put in (:func:`size_of`: the key and the value,
followed through their containers and fields) and, when its bytes or entries would pass its bounds, drops its
oldest entries until it holds three quarters of them. However many distinct requests come, a table never holds
more than its bound; its hits are plain ``dict`` look-ups. What goes in must not grow afterwards, and is handed
to every later caller: it is immutable all the way down (a string, a tuple, a frozen dataclass, a read-only
mapping: :mod:`adjudicator.model.frozen`).
"""

from __future__ import annotations

import sys
import threading
import types
from typing import Any, Iterable

_MISSING = object()


# ----------------------------------------------------------------------------------------------
# Sizes


_SCALARS = frozenset({int, float, bool, type(None), str, bytes})
_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType, types.MethodType)


def size_of(*values: Any, shared: tuple = ()) -> int:
    """The bytes ``values`` hold, each object counted once: containers with their items, instances with their
    fields (``__dict__`` or ``__slots__``). Classes, modules and functions count as a pointer (they are
    shared and outlive any table), and so does an object of a ``shared`` type found inside the values (what
    another owner holds and counts: a variant's own citations in a table the variant keeps)."""
    seen: set[int] = set()
    top = {id(v) for v in values}
    total = 0
    stack = list(values)
    while stack:
        value = stack.pop()
        ident = id(value)
        if ident in seen:
            continue
        seen.add(ident)
        kind = type(value)
        if isinstance(value, _SHARED) or (shared and isinstance(value, shared) and ident not in top):
            total += 8
            continue
        total += sys.getsizeof(value)
        if kind in _SCALARS:
            continue
        if isinstance(value, dict):
            stack.extend(value.keys())
            stack.extend(value.values())
        elif isinstance(value, (list, tuple, set, frozenset)):
            stack.extend(value)
        else:
            fields = getattr(value, "__dict__", None)
            if fields is not None:
                stack.append(fields)
            for klass in kind.__mro__:
                for name in getattr(klass, "__slots__", ()):
                    if name != "__dict__" and name != "__weakref__":
                        try:  # the slot itself, past any property a subclass puts over it
                            stack.append(klass.__dict__[name].__get__(value, klass))
                        except AttributeError:  # a slot not set
                            pass
    return total


# ----------------------------------------------------------------------------------------------
# The table


def keep(table: Any, key: Any, value: Any, size: int) -> Any:
    """``table.put(key, value, size)``: for a table that compiled code reads as the ``dict`` it is (its look-ups
    are then the C dictionary's own) and fills with an entry measured by its caller."""
    return table.put(key, value, size)


class Memo(dict):
    """A ``dict`` bounded by the bytes of its entries (and by their number), each measured as it goes in.

    Reading is ``dict``'s own (``get``, ``[]``, ``in``); every way of putting an entry in goes through
    :meth:`put`, which drops the oldest entries first when the bounds would be passed (down to three
    quarters of them, so that a full table does not drop one entry per new one). An entry larger than a
    quarter of the bound is not kept at all. ``held`` is the bytes held now, ``dropped`` the entries
    dropped so far.
    """

    __slots__ = ("name", "max_bytes", "max_entries", "held", "dropped", "_sizes", "_lock")

    def __init__(self, name: str, max_bytes: int, max_entries: int | None = None):
        super().__init__()
        self.name = name
        self.max_bytes = max_bytes
        self.max_entries = max_entries
        self.held = 0
        self.dropped = 0
        self._sizes: dict = {}
        self._lock = threading.Lock()

    def put(self, key: Any, value: Any, size: int | None = None) -> Any:
        """Keep ``value`` under ``key`` (measured by :func:`size_of` unless ``size`` is given); returns it."""
        size = size_of(key, value) if size is None else size
        if size > self.max_bytes // 4:
            return value  # too large to keep: made again when asked again
        with self._lock:
            old = self._sizes.pop(key, None)
            if old is not None:
                self.held -= old
                dict.__delitem__(self, key)
            limit = self.max_entries
            if self.held + size > self.max_bytes or (limit is not None and dict.__len__(self) >= limit):
                self._drop_oldest(self.max_bytes * 3 // 4 - size,
                                  None if limit is None else max(0, limit * 3 // 4 - 1))
            dict.__setitem__(self, key, value)
            self._sizes[key] = size
            self.held += size
        return value

    def _drop_oldest(self, bytes_left: int, entries_left: int | None) -> None:
        victims = []
        held, count = self.held, dict.__len__(self)
        for key in dict.__iter__(self):
            if held <= bytes_left and (entries_left is None or count <= entries_left):
                break
            victims.append(key)
            held -= self._sizes[key]
            count -= 1
        for key in victims:
            dict.__delitem__(self, key)
            del self._sizes[key]
        self.held = held
        self.dropped += len(victims)

    def recent(self, key: Any, default: Any = None) -> Any:
        """``get``, and the entry found is dropped last: the table keeps what is used most recently longest."""
        value = dict.get(self, key, _MISSING)
        if value is _MISSING:
            return default
        with self._lock:
            if dict.__contains__(self, key):
                dict.__delitem__(self, key)
                dict.__setitem__(self, key, value)
        return value

    # every other way in goes through put
    def __setitem__(self, key: Any, value: Any) -> None:
        self.put(key, value)

    def setdefault(self, key: Any, default: Any = None) -> Any:
        hit = dict.get(self, key, _MISSING)
        return self.put(key, default) if hit is _MISSING else hit

    def update(self, *others: Any, **more: Any) -> None:
        for other in others:
            pairs: Iterable = other.items() if hasattr(other, "items") else other
            for key, value in pairs:
                self.put(key, value)
        for key, value in more.items():
            self.put(key, value)

    def __ior__(self, other: Any) -> "Memo":
        self.update(other)
        return self

    # and every way out keeps the count
    def __delitem__(self, key: Any) -> None:
        with self._lock:
            dict.__delitem__(self, key)
            self.held -= self._sizes.pop(key)

    def pop(self, key: Any, *default: Any) -> Any:
        with self._lock:
            if dict.__contains__(self, key):
                self.held -= self._sizes.pop(key)
            return dict.pop(self, key, *default)

    def popitem(self) -> tuple:
        with self._lock:
            key, value = dict.popitem(self)
            self.held -= self._sizes.pop(key)
            return key, value

    def clear(self) -> None:
        with self._lock:
            dict.clear(self)
            self._sizes.clear()
            self.held = 0

    def copy(self) -> dict:
        return dict(self)

    def __reduce__(self):
        return dict, (dict(self),)

    def __repr__(self) -> str:
        return f"<Memo {self.name}: {dict.__len__(self)} entries, {self.held} of {self.max_bytes} bytes>"
