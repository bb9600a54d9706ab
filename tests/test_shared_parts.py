"""What the answers' caches hand out cannot be changed by the receiver (issue 33, break 3).

The serializer and the words kept the JSON of what they make again and again -- a citation, a list of
citations, an interpretation, an opening figure, a message's machine form -- and handed the same object to
every answer. A caller that edited one answer's citation once changed the next answer's. Now a shared part is
read-only (``adjudicator.model.frozen.FrozenDict`` / ``FrozenList``), so the edit is refused where it is made;
since issue 44 only a message's machine form is still made once (with its words), a citation's JSON is each
answer's own, as is everything else in a document. These tests try every change on every object and array of
an answer of each kind, then ask again: the second answer is the first as it was made.
"""

from __future__ import annotations

import copy
import json

import pytest

from adjudicator.answers import answer
from adjudicator.variants import load_all
from test_answers import CASES, FROZEN_PILE, IDS

VARIANTS = load_all()
EDITED = "edited by a caller"


def edit_everything(document) -> tuple[int, int]:
    """Try to change every object and array in ``document`` (each member, an added member, each item, an added
    item); returns how many changes were made and how many were refused."""
    made = refused = 0
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            stack.extend(node.values())
            edits = [lambda k=k: node.__setitem__(k, EDITED) for k in list(node)] + [lambda: node.update(x=1)]
        elif isinstance(node, list):
            stack.extend(node)
            edits = [lambda i=i: node.__setitem__(i, EDITED) for i in range(len(node))] + [lambda: node.append(1)]
        else:
            continue
        for edit in edits:
            try:
                edit()
                made += 1
            except TypeError:
                refused += 1
    return made, refused


@pytest.mark.parametrize("lang", ["en", "da"])
@pytest.mark.parametrize("path,kind,body,query,options", CASES, ids=IDS)
def test_an_answer_edited_by_its_caller_leaves_the_next_answer_as_it_was(path, kind, body, query, options, lang):
    first = answer(kind, copy.deepcopy(body), lang, variants=VARIANTS, **options).document
    pristine = copy.deepcopy(first)
    assert json.dumps(pristine) == json.dumps(first)
    edit_everything(first)
    again = answer(kind, copy.deepcopy(body), lang, variants=VARIANTS, **options).document
    assert again == pristine


def test_a_callers_edit_of_a_citation_is_its_own_and_changes_nothing():
    """The review's own edit: one answer's deciding citation changed by its caller (a citation's JSON is made for
    each answer: the caller's own); a message's machine form is made once and refuses."""
    ruling = answer("adjudicate", FROZEN_PILE, "en", variants=VARIANTS).document
    cited = next(r for r in ruling["reasons"] if r["citations"])["citations"]
    quote = cited[0]["quote"]
    cited[0]["quote"] = "anything"
    cited.append({"quote": "anything"})
    with pytest.raises(TypeError, match="shared by every answer"):
        ruling["reasons"][0]["message"]["args"]["x"] = 1
    again = answer("adjudicate", FROZEN_PILE, "en", variants=VARIANTS).document
    assert next(r for r in again["reasons"] if r["citations"])["citations"][0]["quote"] == quote


def test_the_shared_parts_are_shared_and_a_copy_is_the_callers_own():
    """A message's machine form is made once (with its words) and a caller who needs to change one changes a copy."""
    one = answer("adjudicate", FROZEN_PILE, "en", variants=VARIANTS).document
    two = answer("adjudicate", FROZEN_PILE, "en", variants=VARIANTS).document
    assert one["reasons"][1]["message"] is two["reasons"][1]["message"]  # the same object, handed out twice
    assert one["reasons"] is not two["reasons"]  # the answer's own parts are its own
    mine = copy.deepcopy(one)
    mine["reasons"][1]["message"]["key"] = EDITED
    shallow = dict(one["reasons"][1]["message"])
    shallow["key"] = EDITED
    assert two == answer("adjudicate", FROZEN_PILE, "en", variants=VARIANTS).document


def test_most_of_an_answer_is_its_callers_and_the_shared_parts_refuse():
    """The test above means something: an answer has parts of both kinds."""
    made, refused = edit_everything(answer("adjudicate", FROZEN_PILE, "en", variants=VARIANTS).document)
    assert made > 20 and refused > 5
