"""An opening requirement: what a team must meld to open, as a value.

A model type: the rules work it out (:func:`adjudicator.rules.opening.requirement`), the
listing and the score sheets report it, and the words wing puts it in a sentence.
"""

from __future__ import annotations

from dataclasses import dataclass

from .enums import Status


@dataclass(frozen=True, slots=True)
class Requirement:
    """What a team on ``score`` must meld to open: ``points`` (None: no point minimum) and perhaps a canasta.

    ``band_min``/``band_max`` are the band's bounds as the text gives them (``band_max`` None: no upper
    bound); a score below zero has its own figure (``negative``). ``status`` is the figure's standing in
    the text (``stated``, ``interpreted`` ...) and ``note`` (with ``notes``, by language) says why where it is
    not stated outright: a figure the text promises but does not give is shown with both wherever it is shown.
    """

    points: int | None
    canasta_required: bool
    score: int
    band_min: int | None = None
    band_max: int | None = None
    negative: bool = False
    status: Status = Status.STATED
    note: str | None = None
    notes: tuple[tuple[str, str], ...] = ()
