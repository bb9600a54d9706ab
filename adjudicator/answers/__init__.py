"""The library's edge: one answer for the service, the phone and the command line.

:func:`answer` takes a request body as the service's endpoints take it and gives back the status and the JSON
document the service would send (:mod:`.use_cases`): it parses, rules and serializes, and turns the engine's
errors into problem documents. The documents are made by :mod:`.serialize` from the engine's typed results,
in the reader's language; the problems' own words are :mod:`.phrases`.

It stands above every other wing and nothing of the engine imports it; the web service (``web_api``), the
phone's engine and the command line all answer through it, so they answer alike.
"""

from importlib import import_module

__all__ = ["KINDS", "Answer", "answer", "answer_json", "batch_item", "decode", "to_json"]

MODULES = ("use_cases", "serialize", "phrases", "limits")


def __getattr__(name: str):
    """The names of :mod:`.use_cases` and this package's modules, imported when first asked for (PEP 562): the
    service starts with its limits and words (``limits``, ``phrases``) and loads the engine at its first answer
    (``tests/test_startup.py``)."""
    if name in __all__:
        value = getattr(import_module(f"{__name__}.use_cases"), name)
    elif name in MODULES:
        value = import_module(f"{__name__}.{name}")
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value
