"""How large a request body every edge reads: the service and the command line take the same.

A body larger than this is refused unread (413 ``request-entity-too-large``): the service's default for
``MAX_CONTENT_LENGTH`` and ``BATCH_MAX_CONTENT_LENGTH`` (:mod:`web_api`, which an operator may change with
``CANASTA_MAX_CONTENT_LENGTH`` and ``CANASTA_BATCH_MAX_CONTENT_LENGTH``), and what the command line
(:mod:`adjudicator.cli`) reads at most of a file or of standard input.
"""

from __future__ import annotations

from typing import Final

# The largest legitimate body, a game of 200 rounds (the schema's cap) listing every card of the deck in each
# round, is about 155 KB of JSON as json.dumps writes it.
BODY_BYTES: Final = 256 * 1024
# A batch of up to 1,000 requests, each what the single endpoint takes.
BATCH_BODY_BYTES: Final = 4 * 1024 * 1024
