"""Babel extraction method: every English text of the catalogue, with its message key as the context.

The texts live in dictionaries (:mod:`adjudicator.words.catalogue`, :mod:`adjudicator.words.catalogue_params`,
and the web layer's problem texts in :mod:`web_api.phrases`), so ``pybabel extract`` is pointed at
this method by ``babel.cfg``; it yields each text as ``pgettext(key, text)`` (or ``npgettext`` for a
pair of plural forms). ``scripts/translations`` runs the whole extract / update / compile round.
"""

from __future__ import annotations

from typing import Iterator


def extract(fileobj, keywords, comment_tags, options) -> Iterator[tuple]:
    """Yield ``(lineno, funcname, messages, comments)`` for each catalogue text, in key order."""
    from . import catalogue
    try:  # the web layer's texts join the same catalogue when it is installed beside the engine
        import web_api.phrases  # noqa: F401
    except ImportError:
        pass
    for number, (key, english) in enumerate(sorted(catalogue.ENGLISH.items()), start=1):
        if isinstance(english, tuple):
            yield number, "npgettext", (key, english[0], english[1]), []
        else:
            yield number, "pgettext", (key, english), []
