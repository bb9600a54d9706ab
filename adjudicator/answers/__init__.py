"""The library's edge: one answer for the service, the phone and the command line.

:func:`answer` takes a request body as the service's endpoints take it and gives back the status and the JSON
document the service would send (:mod:`.use_cases`): it parses, rules and serializes, and turns the engine's
errors into problem documents. The documents are made by :mod:`.serialize` from the engine's typed results,
in the reader's language; the problems' own words are :mod:`.phrases`.

It stands above every other wing and nothing of the engine imports it; the web service (``web_api``), the
phone's engine and the command line all answer through it, so they answer alike.
"""

from .use_cases import KINDS, Answer, answer, answer_json, batch_item, decode, to_json

__all__ = ["KINDS", "Answer", "answer", "answer_json", "batch_item", "decode", "to_json"]
