"""The README's "Use as a library" example runs as written: documentation that cannot go stale."""

from __future__ import annotations

import re
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"


def test_the_library_example_runs_and_its_assertions_hold(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks, "the README shows the library in a python block"
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})
    assert "Kasthögen är frusen" in capsys.readouterr().out
