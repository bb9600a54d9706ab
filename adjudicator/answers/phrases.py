"""The web layer's own words: the titles and details of its problems, in English.

They join the engine's catalogue when the app starts (:func:`register_phrases`, called by
``create_app``), so :func:`adjudicator.words.render.words` renders them in the request's
language; ``babel.cfg`` names :data:`PHRASES` for the gettext round, which translates them
with everything else.
A problem's ``title`` is ``title.<type slug>``.
"""

from __future__ import annotations

from adjudicator.words.catalogue import register

PROBLEM_BASE = "https://canasta-referee.example/problems/"  # every problem's ``type`` is a URI under it


def problem_type(slug: str) -> str:
    """The problem ``type`` URI for a slug such as ``"validation-failed"``."""
    return PROBLEM_BASE + slug


PHRASES: dict[str, str | tuple[str, str]] = {
    # titles, by problem type
    "title.validation-failed": "The request does not fit the form",
    "title.impossible-input": "This cannot happen under these rules",
    "title.unknown-variant": "Unknown rules",
    "title.rule-not-stated": "The rules do not say",
    "title.not-found": "Not found",
    "title.method-not-allowed": "Method not allowed",
    "title.unsupported-media-type": "Unsupported media type",
    "title.malformed-json": "Malformed JSON",
    "title.body-not-an-object": "The body is not a JSON object",
    "title.malformed-request": "Malformed request",
    "title.request-timeout": "The request took too long",
    "title.request-entity-too-large": "The request is too large",
    "title.invalid-query-parameter": "Invalid query parameter",
    "title.cors-origin-not-allowed": "Origin not allowed",
    "title.internal-error": "Internal server error",
    # details
    "detail.not_found": "There is nothing at {path}.",
    "detail.method_not_allowed": "{method} is not allowed on {path}; allowed: {allowed}.",
    "detail.too_large": "The request body is larger than the {limit} bytes this service accepts.",
    "detail.too_large_unknown": "The request body is larger than this service accepts.",
    "detail.media_type": "The request body must be JSON (application/json), not {got}.",
    "detail.no_media_type": "The request body must be JSON (application/json), and says no type.",
    "detail.empty_body": "The request body is empty; send a JSON object.",
    "detail.not_json": "The request body is not valid UTF-8 JSON: {reason}",
    "detail.too_deep": "The request body is nested too deeply.",
    "detail.not_an_object": "The request body must be a JSON object, not {kind}.",
    "detail.surrogate": "A string holds half of a UTF-16 surrogate pair, which is not a character.",
    "detail.not_utf8": "The request body is not UTF-8 text: the byte at offset {offset} (counting from 0) is not "
                       "part of a valid character.",
    "detail.body_late": "The request body did not arrive in time; send it at once, with the headers.",
    "detail.body_unreadable": "The request body could not be read: {reason}",
    "detail.not_a_file": "This is a folder, a pipe or a device, not a file: give a file that holds the body, or - "
                         "to read it from standard input.",
    "detail.chunked_broken": "its chunked framing is malformed, or the connection closed before the last chunk",
    "detail.connection_closed": "the connection closed before the body was complete",
    "detail.query_repeated": "{name} is given {count} times; give it once.",
    "detail.query_choice": "{name} must be one of {allowed}, not {given}.",
    "detail.query_number": "{name} must be a whole number from {low} to {high}, not {given}.",
    "detail.origin": "This origin may not call the service from a browser.",
    "detail.more_errors": ("And 1 more problem.", "And {count} more problems."),
    "detail.internal": "The server failed to handle this request; the error has been logged.",
    "kind.array": "an array", "kind.string": "a string", "kind.boolean": "a boolean", "kind.null": "an empty value",
    "kind.number": "a number",
    # budgets (issue 24)
    "title.batch-over-budget": "The batch is more work than one request may be",
    "title.batch-deadline": "Not worked out in time",
    "detail.batch_budget": "The requests of this batch are more work than one batch may hold; send them in "
                           "batches of at most {items} requests like these.",
    "detail.batch_deadline": "This request was not worked out: the batch used up its {seconds} seconds. "
                             "Send it again in another batch.",
    "detail.duplicate_key": "An object names the same member twice; name each member once.",
    # budgets of single requests (issue 36)
    "title.over-budget": "This request is more work than one request may be",
    "detail.budget_limit": "Listing this many moves of each group is more work than one request may be; ask for at "
                           "most {limit} at a time, and page through the rest.",
    "detail.budget_group": "Listing every group of moves of this hand at once is more work than one request may be; "
                           "ask for one group at a time.",
    "detail.budget_variants": "Comparing this under every rule variant named is more work than one request may be; "
                              "compare at most {variants} at a time.",
    "detail.budget_moves": "Replaying this many moves is more work than one request may be; send at most the first "
                           "{moves} moves of the round.",
    "detail.budget_request": "This request is more work than one request may be; send a smaller one.",
    # a crowd of long requests (issue 45)
    "title.busy": "The service is busy",
    "detail.busy": "The service is working on as many long requests as it takes at once; nothing of this one was "
                   "worked out. Send it again in {seconds} seconds.",
}


def register_phrases() -> None:
    """Add :data:`PHRASES` to the engine's catalogue (again: no change)."""
    register(PHRASES)
