"""Errors the engine raises for input it cannot rule on.

The engine speaks in JSON pointers so that the HTTP layer can turn any of
these into an RFC 9457 problem without knowing the rules.
"""

from __future__ import annotations


class InputError(Exception):
    """Bad or impossible input. ``errors`` is a list of ``{pointer, detail}``."""

    status = 422
    title = "Unprocessable situation"
    type = "impossible-input"

    def __init__(self, errors: list[dict], detail: str | None = None):
        self.errors = errors
        self.detail = detail or "; ".join(f"{e['pointer'] or '/'}: {e['detail']}" for e in errors)
        super().__init__(self.detail)


class UnknownVariant(InputError):
    """A variant id that names no loaded variant; the message lists the known ids."""

    status = 404
    title = "Unknown variant"
    type = "unknown-variant"

    def __init__(self, variant_id: object, known: list[str], pointer: str = "/variant"):
        self.known = known
        super().__init__([{"pointer": pointer, "detail": f"unknown variant {variant_id!r}; known: {', '.join(known)}"}])


class NotStatedError(InputError):
    """Scoring needs a parameter the document does not state; a house rule can settle it."""

    title = "The rule text does not settle this"
    type = "rule-not-stated"

    def __init__(self, errors: list[dict], parameters: list[str]):
        self.parameters = parameters
        super().__init__(errors)


def pointer(*parts: object) -> str:
    """Build a JSON pointer from path parts, escaping ``~`` and ``/``."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)
