"""What the team must reach, as the option search plans for it: the opening minimum and the canastas.

The same figures the rulings check (:func:`adjudicator.rules.opening.requirement`,
``go_out.canastas_required``), read once per search so that the plans aim at
them; the rulings of the planned actions remain the judges. The opening
requirement is the very one the listing reports; where the situation or the
text does not give a figure, the search plans for none (or the mildest), so
that it still proposes something and the ruling says what is missing.
"""

from __future__ import annotations

from ..rules.opening import Requirement, team_requirement
from .hand import HandView, known, players_figure
from ..model.situation import Situation


def opening_requirement(view: HandView, situation: Situation) -> Requirement | None:
    """The team's opening requirement as the listing reports it (:func:`adjudicator.rules.opening.team_requirement`):
    None when it has opened or the table or the text does not give the figure; the search then plans no minimum
    and the ruling of each planned action says what is missing."""
    return team_requirement(situation, view.rules)


def canastas_to_go_out(view: HandView, situation: Situation) -> int:
    """Canastas the team needs before a player may go out (1 where the table does not say)."""
    need = players_figure(view.rules, situation, "go_out.canastas_required")
    return 1 if need is None else need


def cards_to_keep(view: HandView, situation: Situation, made_canasta: bool) -> int:
    """Cards a meld must leave in hand: two while the team lacks its canastas (one to discard, one to hold),
    none once it has them (``made_canasta``: this meld completes one)."""
    need = canastas_to_go_out(view, situation)
    have = view.canastas() + (1 if made_canasta and known(view.rules, "go_out.canasta_same_turn", True) else 0)
    return 0 if have >= need else 2
