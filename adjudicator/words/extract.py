"""Babel extraction method: every English text of a catalogue, with its message key as the context.

The texts live in dictionaries, not in calls, so ``pybabel extract`` is pointed at
this method by ``babel.cfg``: for the engine's catalogue
(:mod:`adjudicator.words.catalogue`, with :mod:`adjudicator.words.catalogue_params`) and
for each other dictionary of texts that ``babel.cfg`` names with a ``texts`` option
(the web layer's problem texts, ``adjudicator.answers.phrases:PHRASES``). The engine imports no
caller: the dictionary is looked up by the name the configuration gives. It yields each
text as ``pgettext(key, text)`` (or ``npgettext`` for a pair of plural forms).
``scripts/translations`` runs the whole extract / update / compile round.
"""

from __future__ import annotations

from importlib import import_module
from typing import Iterator

from . import catalogue


def extract(fileobj, keywords, comment_tags, options) -> Iterator[tuple]:
    """Yield ``(lineno, funcname, messages, comments)`` for each text, in key order: the dictionary that the
    ``texts`` option names (``module:NAME``), else the engine's own catalogue."""
    if options.get("texts"):
        module, _, name = options["texts"].partition(":")
        texts = getattr(import_module(module), name)
    else:
        texts = catalogue.ENGLISH
    for number, (key, english) in enumerate(sorted(texts.items()), start=1):
        if isinstance(english, tuple):
            yield number, "npgettext", (key, english[0], english[1]), []
        else:
            yield number, "pgettext", (key, english), []
