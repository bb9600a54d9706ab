"""The edge's JSON reader: a repeated member name is always found, however the body spells its strings."""

import json

import pytest

from web_api import jsonio


@pytest.mark.parametrize("body,pointer", [
    (b'{"a": 1, "a": 2}', "/a"),
    (b'{"a": "x:y", "a": 1}', "/a"),  # the dropped member's string holds a colon
    (b'{"a": 1, "a": "x:y:z"}', "/a"),  # the kept one's does
    (b'{"a": "\\u003a", "a": ":"}', "/a"),  # an escaped colon: the rewrite spells it out
    (b'{"a": 1, "a": "\\u003a"}', "/a"),
    (b'{"k": [{"b": {"c": 1, "c": 2}}]}', "/k/0/b/c"),
    (b'{"x:y": 1, "x:y": 2}', "/x:y"),
    (b'{"\\u0061": 1, "a": 2}', "/a"),  # the same name, spelled two ways
])
def test_a_repeated_name_is_found(body, pointer):
    for data in (body, body.decode()):
        with pytest.raises(jsonio.DuplicateKey) as caught:
            jsonio.loads(data)
        assert caught.value.pointer == pointer


@pytest.mark.parametrize("body", [
    b'{"a": 1, "b": 2}',
    b'{"a": "x:y", "b": "\\u003a", "c": ["::", {"d": ":"}]}',
    b'{"t": "12:30", "u": "\\\\u", "v": 1e5, "w": -0.0, "x": null}',
    b'[{"a": 1}, {"a": 1}]',  # the same name in two objects is no repeat
    b'"just: a string"',
])
def test_a_body_without_repeats_reads_as_the_standard_library_reads_it(body):
    for data in (body, body.decode()):
        assert jsonio.loads(data) == json.loads(data)
