"""``python -m adjudicator``: the command line (:mod:`adjudicator.cli`)."""

from .cli import run

run()
