"""Input, at the edge: request JSON in, typed requests (adjudicator.model.requests) out.

shape and shape_fields (the marshmallow schemas, strict), fastcheck (their compiled
fast path), parse (every input rule once: rulings, options, scores, comparisons),
house_rules (a table's own settlement of a parameter), payloads (JSON in, answer out,
in one call). The one wing that loads marshmallow; no other wing imports it.
"""
