"""The stable rule ids a ruling can cite, what each checks, and which parameters it rests on.

Clients and tests rely on these ids. The parameters listed are the ones whose
citations a reason carries when the check itself reads no other parameter.
"""

from __future__ import annotations

RULES: dict[str, tuple[str, tuple[str, ...]]] = {
    "turn.draw_first": ("A turn starts by drawing from the stock or taking the pile; melding and discarding come after.",
                        ("turn.draw_first",)),
    "draw.count": ("How many cards one draw from the stock takes.", ("draw.cards",)),
    "stock.empty": ("What drawing from an empty stock means.", ("stock.empty_round_ends",)),
    "stock.empty.forced_take": ("With the stock empty, a player must take an unfrozen pile that fits a team meld.",
                                ("stock.empty_forced_take",)),
    "first_round.no_pile": ("Nobody takes the pile before the starting player's second turn.", ("first_round.no_pile",)),
    "first_round.no_opening": ("Nobody opens before the starting player's second turn.", ("first_round.no_opening",)),
    "pile.empty": ("An empty pile has no top card and cannot be taken.", ("turn.draw_first",)),
    "pile.top.wild": ("A pile with a wild card on top cannot be taken.", ("pile.take_wild_top",)),
    "pile.top.black_three": ("A black three on top blocks the next player (or freezes the pile).",
                             ("black_three.blocks_next_player",)),
    "pile.top.red_three": ("A red three is never melded, so it cannot be used as the top card.", ("red_three.laid_out",)),
    "pile.before_opening": ("Whether a team that has not opened may take the pile.", ("pile.before_opening",)),
    "pile.one_card_rule": ("A player holding one card may not take a pile of one card.", ("pile.one_card_rule",)),
    "pile.frozen.natural_pair": ("A frozen pile needs two natural cards of the top card's rank from the hand.",
                                 ("pile.frozen_natural_pair",)),
    "pile.frozen.add_to_meld": ("Whether a frozen pile may be taken just to add its top card to a meld.",
                                ("pile.frozen_add_to_meld_only",)),
    "pile.unfrozen.natural_and_wild": ("An unfrozen pile may be taken with one matching natural and one wild card.",
                                       ("pile.unfrozen_natural_and_wild",)),
    "pile.unfrozen.add_to_meld": ("An unfrozen pile may be taken to add its top card to the team's meld of that rank.",
                                  ("pile.unfrozen_add_to_meld",)),
    "pile.cards_same_turn": ("Whether cards taken with the pile may be melded in the same turn.",
                             ("pile.cards_usable_same_turn",)),
    "meld.same_rank": ("A meld's natural cards share one rank.", ("meld.min_cards",)),
    "meld.min_cards": ("A meld has at least the minimum number of cards.", ("meld.min_cards",)),
    "meld.min_naturals": ("A meld holds at least the minimum number of natural cards.", ("meld.min_naturals",)),
    "meld.max_wilds": ("A meld holds no more wild cards than the cap.", ("meld.max_wilds",)),
    "meld.natural_majority": ("A meld holds more natural cards than wild cards.", ("meld.natural_majority",)),
    "meld.naturals_per_wild": ("A meld holds enough natural cards for each wild card.", ("meld.naturals_per_wild",)),
    "meld.wild_only": ("Whether a meld may consist of wild cards only.", ("meld.wild_only_allowed",)),
    "meld.one_per_rank": ("A team holds one meld per rank; more cards go onto it.", ("meld.one_per_rank",)),
    "meld.add.target": ("Cards added to a meld need the team's meld of that rank on the table.", ("meld.one_per_rank",)),
    "red_three.never_melded": ("Red threes are laid out as bonus cards, never melded or discarded.",
                               ("red_three.laid_out",)),
    "black_three.going_out_only": ("Black threes are melded only when going out.",
                                   ("black_three.meld_only_going_out",)),
    "black_three.meld": ("A black-three meld has the allowed size and no wild cards unless allowed.",
                         ("black_three.meld_sizes", "black_three.meld_wilds_allowed")),
    "opening.minimum": ("A team's first melds reach the minimum card value for its score.",
                        ("opening.bands", "opening.negative")),
    "opening.canasta_required": ("In the highest score band the opening must include a canasta.", ("opening.bands",)),
    "go_out.canasta_required": ("A team needs its canastas before a player may go out.", ("go_out.canastas_required",)),
    "go_out.keep_card": ("Without the canastas to go out, a player must keep a card after discarding.",
                         ("go_out.canastas_required",)),
    "go_out.all_cards": ("Going out gets rid of every card: meld all, or all but one and discard it.",
                         ("go_out.meld_all", "go_out.discard_last")),
}


def describe() -> list[dict]:
    """The catalogue as a list, for documentation endpoints and the README."""
    return [{"rule": rid, "checks": text, "parameters": list(params)} for rid, (text, params) in RULES.items()]
