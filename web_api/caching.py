"""Revalidation for the resources that only change when the deployment changes.

The 200 answers of the endpoints in :data:`REVALIDATED` -- ``GET /v1/variants``,
``/v1/variants/{id}``, ``/v1/variants/{id}/source``, ``/v1/matrix`` (JSON and CSV) and
``/openapi.yaml`` -- get

* ``ETag: W/"<hash>"``, where the hash is of the body exactly as the app sends it (before
  compression). Whatever the body comes to depend on (a ``lang`` query parameter, an
  ``Accept-Language`` negotiation, a new variant file), a different body has a different tag.
* ``Cache-Control: no-cache``: a browser or shared cache may keep the answer but must ask
  again before each use; the answer to ``If-None-Match`` with the current tag is a ``304 Not
  Modified`` without a body. Because every use is revalidated against the body this request
  would get, a cache can never serve a stale or wrong-language answer, whatever ``Vary`` says.
* ``Vary`` is only ever added to (``Accept-Encoding`` by :mod:`web_api.compression`); a
  ``Vary: Accept-Language`` (or anything else) that a view sets is kept, on the 200 and the 304.

The tag is weak (``W/``) because the same answer is sent plain, gzip or brotli-compressed:
the representations differ in bytes but not in meaning, and ``If-None-Match`` uses the weak
comparison, so a tag a client got with a gzip answer also revalidates the plain one.

The endpoints are named here rather than decorated in their modules, so the views stay as
they are; ``tests/test_http_caching.py`` checks that every name is a GET route of the app.
Errors are never revalidated: they stay ``no-store`` (:mod:`web_api.security`).
:func:`conditional` runs in :mod:`web_api.security`'s hook, after the security headers and before
compression.
"""

from __future__ import annotations

import hashlib

from flask import Response, request

from . import compression

REVALIDATE = "no-cache"
REVALIDATED = frozenset({
    "variants.list_variants",  # GET /v1/variants
    "variants.show_variant",  # GET /v1/variants/{id}
    "variants.variant_source",  # GET /v1/variants/{id}/source
    "compare.matrix",  # GET /v1/matrix (JSON and CSV)
    "meta.openapi_yaml",  # GET /openapi.yaml
})


def body_tag(data: bytes) -> str:
    """The opaque part of the ETag for a body: 128 bits of its SHA-256, in hex."""
    return hashlib.sha256(data).hexdigest()[:32]


def conditional(response: Response, environ: dict, mimetype: str, vary: list[str]) -> None:
    """Tag a revalidated 200 by its body and answer a matching ``If-None-Match`` with 304.

    Called by :mod:`web_api.security`'s hook, for GET and HEAD only, before compression.
    """
    if response.status_code != 200 or request.endpoint not in REVALIDATED or response.is_streamed:
        return
    data = response.get_data()
    tag = body_tag(data)
    compression.remember_digest(tag, data)  # so compression can reuse its work for this exact body
    response.set_etag(tag, weak=True)
    response.headers["Cache-Control"] = REVALIDATE
    if compression.varies(response, mimetype, len(data)):  # the 304 varies as the 200 would
        vary.append("Accept-Encoding")
    response.make_conditional(request)  # 304 when If-None-Match names the tag (weak comparison)
