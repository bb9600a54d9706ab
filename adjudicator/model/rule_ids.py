"""The stable rule ids a ruling can cite, and the parameters each rests on.

Clients and tests rely on these ids. The parameters listed are the ones whose
citations a finding carries when the check itself reads no other parameter.
What each rule checks, in words, is the message ``rule.<id>`` of
:mod:`adjudicator.words.catalogue`.
"""

from __future__ import annotations

RULES: dict[str, tuple[str, ...]] = {
    "turn.draw_first": ("turn.draw_first",),
    "draw.count": ("draw.cards",),
    "deal.stock": ("deal.cards",),
    "stock.empty": ("stock.empty_round_ends",),
    "stock.empty.forced_take": ("stock.empty_forced_take",),
    "first_round.no_pile": ("first_round.no_pile",),
    "first_round.no_opening": ("first_round.no_opening",),
    "pile.empty": ("turn.draw_first",),
    "pile.top.wild": ("pile.take_wild_top",),
    "pile.top.black_three": ("black_three.blocks_next_player",),
    "pile.top.red_three": ("red_three.laid_out",),
    "pile.before_opening": ("pile.before_opening",),
    "pile.one_card_rule": ("pile.one_card_rule",),
    "pile.frozen.natural_pair": ("pile.frozen_natural_pair",),
    "pile.frozen.add_to_meld": ("pile.frozen_add_to_meld_only",),
    "pile.unfrozen.natural_and_wild": ("pile.unfrozen_natural_and_wild",),
    "pile.unfrozen.add_to_meld": ("pile.unfrozen_add_to_meld",),
    "pile.cards_same_turn": ("pile.cards_usable_same_turn",),
    "pile.taken_whole": ("pile.taken_whole",),
    "meld.same_rank": ("meld.min_cards",),
    "meld.min_cards": ("meld.min_cards",),
    "meld.min_naturals": ("meld.min_naturals",),
    "meld.max_wilds": ("meld.max_wilds",),
    "meld.natural_majority": ("meld.natural_majority",),
    "meld.naturals_per_wild": ("meld.naturals_per_wild",),
    "meld.wild_only": ("meld.wild_only_allowed",),
    "meld.one_per_rank": ("meld.one_per_rank",),
    "meld.add.target": ("meld.one_per_rank",),
    "red_three.never_melded": ("red_three.laid_out",),
    "black_three.going_out_only": ("black_three.meld_only_going_out",),
    "black_three.meld": ("black_three.meld_sizes", "black_three.meld_wilds_allowed"),
    "opening.minimum": ("opening.bands", "opening.negative"),
    "opening.canasta_required": ("opening.bands",),
    "go_out.canasta_required": ("go_out.canastas_required",),
    "go_out.keep_card": ("go_out.canastas_required",),
    "go_out.all_cards": ("go_out.meld_all", "go_out.discard_last"),
    "go_out.partner_answer": ("go_out.ask_partner",),
    "table.possible": (),  # the readings under which the table itself cannot happen (rules.table_check)
}


# How much each rule is the question a table argues about, where a play passes it: a legal ruling leads with the
# passed check that rests on a house rule, else on a point decided across readings, else the one ranked highest here
# (the canasta an opening needs at 6,000, not "it is a meld of kings"). Unlisted: 0.
LEAD: dict[str, int] = {
    "opening.canasta_required": 9, "opening.minimum": 8, "go_out.canasta_required": 8, "go_out.partner_answer": 8,
    "pile.frozen.natural_pair": 8, "pile.frozen.add_to_meld": 8, "go_out.keep_card": 7, "stock.empty.forced_take": 7,
    "stock.empty": 7, "pile.one_card_rule": 7, "pile.before_opening": 7, "first_round.no_pile": 7,
    "first_round.no_opening": 7, "pile.unfrozen.natural_and_wild": 6, "pile.unfrozen.add_to_meld": 6,
    "meld.one_per_rank": 6, "pile.cards_same_turn": 6, "black_three.meld": 6, "black_three.going_out_only": 6,
    "red_three.never_melded": 6, "meld.max_wilds": 5, "meld.natural_majority": 5, "meld.naturals_per_wild": 5,
    "meld.wild_only": 5, "meld.min_naturals": 4, "meld.add.target": 4, "go_out.all_cards": 4, "pile.top.wild": 4,
    "pile.top.black_three": 4, "pile.top.red_three": 4, "draw.count": 3, "meld.same_rank": 2, "meld.min_cards": 2,
    "turn.draw_first": 1, "pile.empty": 1,
}
