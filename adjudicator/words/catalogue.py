"""Every message the engine can say, by key, in English: the source text of the translations.

A template is ``str.format`` text over the message's arguments, with two
additions the renderer handles: ``{x:pl}`` puts a rank in the plural, and
``[[ ... ]]`` marks a part that is left out when an argument inside it is empty.
A template given as a pair ``(singular, plural)`` is chosen by its ``count``
argument.
"""

from __future__ import annotations

from typing import Any

from ..model.messages import Items, Message, Word

MESSAGES: dict[str, str | tuple[str, str]] = {
    # --- what each rule checks ---------------------------------------------------------------
    "rule.turn.draw_first": 'A turn starts by drawing from the stock or taking the pile; melding and discarding come after.',
    "rule.draw.count": 'How many cards one draw from the stock takes.',
    "rule.deal.stock": 'The stock holds no more cards than the deal and the upcard leave.',
    "rule.stock.empty": 'What drawing from an empty stock means.',
    "rule.stock.empty.forced_take": 'With the stock empty, a player must take an unfrozen pile that fits a team meld.',
    "rule.first_round.no_pile": "Nobody takes the pile before the starting player's second turn.",
    "rule.first_round.no_opening": "Nobody opens before the starting player's second turn.",
    "rule.pile.empty": 'An empty pile has no top card and cannot be taken.',
    "rule.pile.top.wild": 'A pile with a wild card on top cannot be taken.',
    "rule.pile.top.black_three": 'A black three on top blocks the next player (or freezes the pile).',
    "rule.pile.top.red_three": 'A red three is never melded, so it cannot be used as the top card.',
    "rule.pile.before_opening": 'Whether a team that has not opened may take the pile.',
    "rule.pile.one_card_rule": 'A player holding one card may not take a pile of one card.',
    "rule.pile.frozen.natural_pair": "A frozen pile needs two natural cards of the top card's rank from the hand.",
    "rule.pile.frozen.add_to_meld": 'Whether a frozen pile may be taken just to add its top card to a meld.',
    "rule.pile.unfrozen.natural_and_wild": 'An unfrozen pile may be taken with one matching natural and one wild card.',
    "rule.pile.unfrozen.add_to_meld": "An unfrozen pile may be taken to add its top card to the team's meld of that rank.",
    "rule.pile.cards_same_turn": 'Whether cards taken with the pile may be melded in the same turn.',
    "rule.pile.taken_whole": 'Taking the pile takes all of it, and its top card is melded at once.',
    "rule.meld.same_rank": "A meld's natural cards share one rank.",
    "rule.meld.min_cards": 'A meld has at least the minimum number of cards.',
    "rule.meld.min_naturals": 'A meld holds at least the minimum number of natural cards.',
    "rule.meld.max_wilds": 'A meld holds no more wild cards than the cap.',
    "rule.meld.natural_majority": 'A meld holds more natural cards than wild cards.',
    "rule.meld.naturals_per_wild": 'A meld holds enough natural cards for each wild card.',
    "rule.meld.wild_only": 'Whether a meld may consist of wild cards only.',
    "rule.meld.one_per_rank": 'A team holds one meld per rank; more cards go onto it.',
    "rule.meld.add.target": "Cards added to a meld need the team's meld of that rank on the table.",
    "rule.red_three.never_melded": 'Red threes are laid out as bonus cards, never melded or discarded.',
    "rule.black_three.going_out_only": 'Black threes are melded only when going out.',
    "rule.black_three.meld": 'A black-three meld has the allowed size and no wild cards unless allowed.',
    "rule.opening.minimum": "A team's first melds reach the minimum card value for its score.",
    "rule.opening.canasta_required": 'In the highest score band the opening must include a canasta.',
    "rule.go_out.canasta_required": 'A team needs its canastas before a player may go out.',
    "rule.go_out.keep_card": 'Without the canastas to go out, a player must keep a card after discarding.',
    "rule.go_out.all_cards": 'Going out gets rid of every card: meld all, or all but one and discard it.',
    "rule.go_out.partner_answer": "The partner's answer to “may I go out?” binds where the rules say so.",
    "rule.table.possible": "The table can happen as the text is read; readings under which it cannot are set aside.",
    # --- a check that could not be decided ----------------------------------------------------
    "check.missing": "This needs {fact}, which is not given.",
    "check.not_stated": "The rules of {variant} do not say {parameter}; a house rule can settle it.",
    # --- the turn -----------------------------------------------------------------------------
    "turn.drawn": "You have drawn this turn.",
    "turn.draw_first": "Draw from the stock or take the pile first; melding and discarding come after.",
    "turn.starts_with_draw": "Your turn starts with this draw.",
    "turn.already_drew": "You already drew this turn (from the {source}); a turn has one draw.",
    "turn.already_drew_somewhere": "You already drew this turn; a turn has one draw.",
    "first_round.unrestricted": "The rules let everyone {what} in the first round.",
    "first_round.restricted": "Nobody may {what} before the starting player's second turn.",
    "first_round.over": "The first round is over, so you may {what}.",
    "stock.empty_round_ends": "The stock is empty: the round ends when a player must draw.",
    "stock.empty": "The stock is empty: there is no card to draw.",
    "pile.top_onto_opponents": "Only the opponents have a meld of {rank:pl}; the top card {top} cannot go onto it, "
                               "as cards go only onto your own team's melds.",
    "draw.count": ("A draw takes {count} card from the stock.", "A draw takes {count} cards from the stock."),
    "stock.forced_take_pile_empty": "The pile is empty too, so nothing must be taken.",
    "stock.forced_take_must": "The stock is empty and the top card of the open pile, {top}, fits your team's meld, "
                              "so you must take the pile instead of drawing.",
    "stock.forced_take_free": "The stock is empty and the pile is frozen or its top card fits no meld of your "
                              "team, so drawing ends the round.",
    # --- melds --------------------------------------------------------------------------------
    "subject.meld": "Meld {index} ({cards})",
    "subject.addition": "Addition {index} ({cards})",
    "subject.top": "The top card {top}",
    "subject.top_with": "The top card {top} with {cards}",
    "subject.grown": "{subject} (the meld of {rank:pl} after adding)",
    "subject.team_meld": "Meld {index} of {team} ({cards})",
    "subject.our_meld": "Your team's meld {index} ({cards})",
    "subject.their_meld": "The opponents' meld {index} ({cards})",
    "subject.second_meld": "a second meld of {rank:pl}",
    "subject.this_meld": "this meld",
    "subject.going_out_table": "going out with this table",
    "meld.red_three": "{subject} holds a red three ({card}); red threes are bonus cards and are never melded.",
    "meld.mixed_ranks": "{subject} mixes {ranks:pl}; a meld is cards of one rank.",
    "meld.one_rank": "{subject} is a meld of {rank:pl}.",
    "meld.min_cards": ("{subject} has one card; a meld needs at least {least:word}.",
                       "{subject} has {count:word} cards; a meld needs at least {least:word}."),
    "meld.wild_only": "{subject} is wild cards only, which is allowed here.",
    "meld.wild_only_refused": "{subject} is wild cards only, which is not a meld here.",
    "meld.min_naturals": ("{subject} has one natural card; at least {least:word} are needed.",
                          "{subject} has {count:word} natural cards; at least {least:word} are needed."),
    "meld.max_wilds": ("{subject} has one wild card; the most allowed is {cap:word}.",
                       "{subject} has {count:word} wild cards; the most allowed is {cap:word}."),
    "meld.natural_majority": "{subject} has {naturals} natural and {wilds} wild; natural cards must be the majority.",
    "meld.naturals_per_wild": "{subject} has {naturals} natural for {wilds} wild; {ratio:word} natural cards are "
                              "needed for each wild card.",
    "black_three.going_out": "{subject} holds black threes, which may be melded only when going out; this is a "
                             "go-out.",
    "black_three.not_going_out": "{subject} holds black threes, which may be melded only when going out.",
    "black_three.mixed": "{subject} mixes black threes with {rank:pl}.",
    "black_three.size": ("{subject} has {count} black three; a meld of black threes holds {sizes}.",
                         "{subject} has {count} black threes; a meld of black threes holds {sizes}."),
    "black_three.wilds": "{subject} holds wild cards; a meld of black threes holds {sizes} and no wild cards.",
    "black_three.ok": ("{subject} has {count} black three; a meld of black threes holds {sizes}.",
                       "{subject} has {count} black threes; a meld of black threes holds {sizes}."),
    "black_three.size_with_wilds": "{subject} has {count} cards, {threes} of them black threes; a meld of black "
                                   "threes and wild cards has at least {least} cards and at most {most} black threes.",
    "black_three.ok_with_wilds": ("{subject} has {count} black three and {wilds} wild; wild cards may join black "
                                  "threes.",
                                  "{subject} has {count} black threes and {wilds} wild; wild cards may join black "
                                  "threes."),
    "meld.add_opponents_meld": "{subject}: only the opponents have a meld of {rank:pl}, and cards go only onto "
                               "your own team's melds.",
    "meld.add_instead": "{subject}: your team already has a meld of {rank:pl}; add these cards to it instead.",
    "meld.second_allowed": "{subject}: your team already has a meld of {rank:pl}; a second meld of a rank is "
                           "allowed.",
    "meld.add_which": "{subject}: say which meld these cards go onto.",
    "meld.add_target": "{subject}: your team has a meld of {rank:pl} to add to.",
    "meld.add_naturals_said": "{subject}: natural {rank:pl} keep your team's meld of {rank:pl} a legal meld, "
                              "whatever it holds.",
    "meld.add_no_target": "{subject}: your team has no meld of {rank:pl} to add to.",
    # --- the opening --------------------------------------------------------------------------
    "opening.counts": "Your opening counts {points} points {how}; {requirement}.",
    "opening.pile_cards_excluded": "Your opening counts {points} points from your hand and the top card; the other "
                                   "cards of the pile ({extra} points) do not count; {requirement}.",
    "opening.counts_with_pile": "Your opening counts {points} points with the cards of the pile; {requirement}.",
    "opening.no_minimum": "No point minimum applies; {requirement}.",
    "opening.canasta_included": "{requirement:cap}; your opening includes one.",
    "opening.canasta_missing": "{requirement:cap}; your opening does not include one.",
    "opening.waived_concealed": "After drawing from the stock, going out concealed with a complete canasta need not "
                                "meet the opening minimum.",
    "requirement.negative": "a team below zero needs {points}",
    "requirement.band": "a team on {band} points needs {points}",
    "requirement.band_canasta": "a team on {band} points must open with a canasta",
    "band.range": "{low}–{high}",
    "band.open": "{low} or more",
    # --- the pile -----------------------------------------------------------------------------
    "frozen.joker": "a joker lies in the pile",
    "frozen.wild_card": "a wild card lies in the pile",
    "frozen.wild_two": "a wild two lies in the pile",
    "frozen.red_three_upcard": "a red three started the pile",
    "frozen.black_three": "a black three lies in the pile",
    "frozen.not_opened": "your team has not opened",
    "pile.empty": "The pile is empty; there is no top card to take.",
    "pile.top_red_three": "The top card {top} is a red three, which is never melded.",
    "pile.top_black_three_blocks": "A black three ({top}) on top blocks the pile for the next player.",
    "pile.top_black_three_freezes": "A black three ({top}) on top freezes the pile; it can be taken only when a "
                                    "natural card lies on top.",
    "pile.top_black_three_unmeldable": "A black three on top cannot be melded before going out.",
    "pile.top_wild_allowed": "The top card {top} is a wild card; it may be taken.",
    "pile.top_wild_refused": "The top card {top} is a wild card; the pile cannot be taken with a wild card on top.",
    "pile.one_card_blocked": "You hold one card and the pile has one card; you may not take it.",
    "pile.one_card_free": "The one-card rule does not apply: you hold more than one card.",
    "pile.before_opening_forbidden": "Your team has not opened, and a team may not take the pile before its first "
                                     "meld.",
    "pile.before_opening_allowed": "Your team has not opened; it may take the pile if this take meets the opening "
                                   "minimum.",
    "pile.frozen_add_allowed": "The pile is frozen ({why}), but its top card may still go onto your meld.",
    "pile.frozen_add_not_enough": "The pile is frozen ({why}): adding {top} to a meld is not enough; you need two "
                                  "natural {rank:pl} from your hand.",
    "pile.frozen_needs_pair": "The pile is frozen ({why}): you need two natural {rank:pl} from your hand with the "
                              "top card.",
    "pile.top_onto_meld": "The top card {top} goes onto your team's meld of {rank:pl}.",
    "pile.top_with_onto_meld": "The top card {top} goes with {cards} onto your team's meld of {rank:pl}.",
    "pile.no_meld_for_top": "Your team has no meld of {rank:pl} for the top card {top}; show two cards from your "
                            "hand that meld with it.",
    "pile.top_needs_hand_cards": "The top card must be melded with cards from your hand.",
    "pile.frozen_pair_shown": "The pile is frozen ({why}), so you need two natural {rank:pl} from your hand, and "
                              "you show them.",
    "pile.frozen_pair_short_wild": ("The pile is frozen ({why}), so you need two natural {rank:pl} from your hand; "
                                    "you show only one, and a wild card ({wilds}) does not count.",
                                    "The pile is frozen ({why}), so you need two natural {rank:pl} from your hand; "
                                    "you show none, and a wild card ({wilds}) does not count."),
    "pile.frozen_pair_short": ("The pile is frozen ({why}), so you need two natural {rank:pl} from your hand; you "
                               "show only one.",
                               "The pile is frozen ({why}), so you need two natural {rank:pl} from your hand; you "
                               "show none."),
    "pile.natural_pair": "You show a natural pair of {rank:pl} for the top card.",
    "pile.one_natural_not_wild": "You show one natural {rank} and {others}, which is not wild; the top card needs a "
                                 "natural pair, or a natural card and a wild card.",
    "pile.one_natural_alone": "You show one natural {rank}; the top card needs a natural pair, or a natural card "
                              "and a wild card.",
    "pile.natural_and_wild": "You show one natural {rank} and the wild card {wild}; that is enough for a pile that "
                             "is not frozen.",
    "pile.natural_and_wild_refused": "You show one natural {rank} and the wild card {wild}; a natural pair is "
                                     "needed.",
    "pile.no_natural": "You show no natural {rank} to meld with the top card {top}.",
    "pile.cards_same_turn": "You meld {cards} from the pile this turn; the pile's cards may be used at once.",
    "pile.cards_next_turn": "You meld {cards} from the pile this turn; only the top card may be used in the turn "
                            "the pile is taken.",
    # --- going out ----------------------------------------------------------------------------
    "go_out.no_canasta_needed": "The rules make no canasta a condition of going out.",
    "go_out.canasta_this_turn": "A canasta completed this turn counts for going out.",
    "go_out.canasta_before_turn": "The canasta must be complete before the turn you go out.",
    "go_out.canastas": ("Your team has one canasta; {need:word} needed to go out.",
                        "Your team has {count:word} canastas; {need:word} needed to go out."),
    "go_out.no_canasta": ("Your team has no canasta; you need one to go out.",
                          "Your team has no canasta; you need {count:word} to go out."),
    "go_out.canastas_at_least": ("Your team has at least one canasta; {need:word} needed to go out.",
                                 "Your team has at least {count:word} canastas; {need:word} needed to go out."),
    "go_out.keep_card": ("You would keep one card and could not discard without going out, but your team lacks "
                         "the canastas to go out: it has {have} and needs {need}.",
                         "You would keep {count:word} cards and could not discard without going out, but your team "
                         "lacks the canastas to go out: it has {have} and needs {need}."),
    "go_out.may_go_out": "Your team has its canastas, so it may go out.",
    "go_out.cards_left": ("{count} card would stay in your hand ({cards}); going out gets rid of every card.",
                          "{count} cards would stay in your hand ({cards}); going out gets rid of every card."),
    "go_out.by": "You go out by {how}, as the rules allow.",
    "go_out.by_refused": "You go out by {how}, which the rules do not allow.",
    "go_out.last_discard": "Discarding your last card goes out, as the rules allow.",
    "go_out.last_discard_refused": "Discarding your last card goes out; the rules do not allow that.",
    "go_out.partner_said_no": "You asked your partner whether you may go out, and the answer was no; the answer "
                              "binds, so you may not go out this turn.",
    "go_out.partner_said_no_last_card": "You asked your partner whether you may go out, and the answer was no; "
                                        "the answer binds, so you may not go out this turn, and this meld leaves "
                                        "you one card, which your discard would get rid of.",
    "go_out.partner_said_yes": "You asked your partner whether you may go out, and the answer was yes; the answer "
                               "binds, so you must go out this turn.",
    "go_out.partner_answer_free": "Your partner's answer does not bind you.",
    "concealed.adds_to_partner": "it adds to the partner's melds",
    "concealed.no_canasta": "it lays down no complete canasta",
    "concealed.ends_with_discard": "it ends with a discard",
    "discard.red_three": "{card} is a red three: it is laid out at once, never kept or discarded.",
    "discard.red_three_kept": "You hold {card}, a red three: it is laid out as soon as you get it, so you cannot "
                              "keep it while you discard.",
    # --- consequences -------------------------------------------------------------------------
    "consequence.round_ends": "The stock is empty, so the round ends here.",
    "consequence.draw": ("Draw {count} card from the stock.", "Draw {count} cards from the stock."),
    "consequence.draw_replace_red_threes": ("Draw {count} card from the stock; lay out a red three at once and draw "
                                            "a card for it.",
                                            "Draw {count} cards from the stock; lay out any red three at once and "
                                            "draw a card for it."),
    "consequence.last_card_red_three": "If this last card is a red three, lay it out; the round stops at once, "
                                       "without melding or discarding.",
    "consequence.canasta_becomes_mixed": "Your natural canasta of {rank:pl} becomes a mixed canasta.",
    "consequence.no_canasta_all_negative": "Your team has no canasta this round: all its points in the round, on "
                                           "the table and in hand, count as minus.",
    "consequence.take_rest": ("Take the other card of the pile into your hand.",
                              "Take the other {count:word} cards of the pile into your hand."),
    "consequence.pile_only_top": "The pile held only its top card.",
    "consequence.rest_next_turn": "Only the top card may be used this turn; the rest of the pile waits for your "
                                  "next turn.",
    "consequence.lay_out_red_threes": "Lay out the red threes that came with the pile.",
    "consequence.concealed_depends": "Whether this go-out earns the bonus for going out concealed depends on {fact}.",
    "consequence.not_concealed": "This is not a concealed go-out ({reasons}): no bonus for it.",
    "consequence.concealed": "You go out concealed: your team scores the extra {bonus} points for it.",
    "consequence.concealed_disputed": "Whether this go-out counts as concealed, for the extra {bonus} points, "
                                      "depends on how the text is read: it defines going out concealed as melding "
                                      "the whole hand in one go, and this go-out ends with a discard.",
    "consequence.wild_freezes": "The wild card {card} freezes the pile for everyone; lay it crosswise.",
    "consequence.black_three_freezes": "The black three freezes the pile until it is taken.",
    "consequence.black_three_blocks": "The black three blocks the pile for the next player.",
    # --- deciding across readings ---------------------------------------------------------------
    "reading.if": "if {points}",
    "reading.says": "{reading}: {says:clause}",
    "reading.where": "{readings:cap}.",
    "reading.whichever": "Whichever way the text is read: {readings}.",
    "reading.depends": "This depends on how the text is read: {readings}.",
    "reading.verdict": "{reading}: {verdict}",
    "reading.number": "the rules give {value} for {parameter}",
    "open_point.question": "Settle this at your table: {parameter}.",
    # --- summaries ----------------------------------------------------------------------------
    "summary.legal": "Allowed under {variant}: you may {action}.",
    "summary.illegal": "Not allowed under {variant}: {reasons}",
    "summary.undetermined": "Cannot say under {variant} whether you may {action}: {reasons}.",
    "summary.across": "{summary} This holds either way: {readings}.",
    "summary.depends": "Cannot say under {variant} whether you may {action}: it depends on {points} ({readings}).",
    "summary.lacks": "the referee needs to know {facts}",
    "summary.by_house_rule": "Your house rule settles it: {rules}.",
    "own_word": "The text calls the {word} “{own}”.",  # beside the quotes: the text's own word for a thing
    "summary.not_settled": "the rules do not say {parameters}",
    # --- a ruling on a fact the table did not give, ruled under each of its values (rules.conditions) ------
    "summary.if_legal": "Allowed under {variant} {condition}: you may {action}.",
    "summary.if_illegal": "Not allowed under {variant} {condition}: {reasons}",
    "summary.if_undetermined": "Under {variant}, {condition}, the referee cannot say yet: {reasons}.",
    "summary.otherwise_legal": "Otherwise allowed.",
    "summary.otherwise_illegal": "Otherwise not allowed: {reasons}",
    "summary.otherwise_undetermined": "Otherwise the referee cannot say yet: {reasons}.",
    "summary.then_legal": "{condition:cap}: allowed.",
    "summary.then_illegal": "{condition:cap}: not allowed. {reasons}",
    "summary.then_undetermined": "{condition:cap}: the referee cannot say yet ({reasons}).",
    "summary.across_facts": "{summary} This holds {facts}.",
    "summary.depends_on": "it depends on {facts}",
    "summary.reads_two_ways": "it depends on {points}",
    "fact.yes": "Yes",
    "fact.no": "No",
    "fact.stock.question": "Are there cards left in the stock?",
    "fact.stock.has_cards": "Yes",
    "fact.stock.empty": "No, it is empty",
    "fact.stock.if_has_cards": "while the stock has cards",
    "fact.stock.if_empty": "if the stock is empty",
    "fact.stock.either": "whether or not the stock has cards",
    "fact.drew.question": "Have you drawn this turn?",
    "fact.drew.not_yet": "Not yet",
    "fact.drew.drawn": "Yes",
    "fact.drew.if_not_yet": "before you draw",
    "fact.drew.if_drawn": "once you have drawn",
    "fact.drew.either": "whether or not you have drawn this turn",
    "fact.drew_where.question": "Did you draw from the stock, or take the discard pile?",
    "fact.drew_where.stock": "From the stock",
    "fact.drew_where.pile": "I took the discard pile",
    "fact.drew_where.if_stock": "if you drew from the stock",
    "fact.drew_where.if_pile": "if you took the discard pile",
    "fact.drew_where.either": "wherever you drew",
    "fact.opened.question": "Has your team melded this round?",
    "fact.opened.if_opened": "if your team has melded this round",
    "fact.opened.if_not": "if your team has not melded yet",
    "fact.opened.either": "whether or not your team has melded this round",
    "fact.canastas.question_one": "Does your team have a canasta?",
    "fact.canastas.question": "How many canastas does your team have? It needs {count:word} to go out.",
    "fact.canastas.none": "None",
    "fact.canastas.exactly": ("Exactly one", "Exactly {count:word}"),
    "fact.canastas.at_least": ("At least one", "At least {count:word}"),
    "fact.canastas.if_exactly": ("if your team has one canasta", "if your team has {count:word} canastas"),
    "fact.canastas.if_at_least": ("if your team has a canasta", "if your team has at least {count:word} canastas"),
    "fact.canastas.either": "however many canastas your team has",
    "fact.rank.question": "Does your team have a meld of {rank:pl}?",
    "fact.rank.if_has": "if your team has a meld of {rank:pl}",
    "fact.rank.if_not": "if your team has no meld of {rank:pl}",
    "fact.rank.either": "whether or not your team has a meld of {rank:pl}",
    "fact.pile.wild.question": "Does a wild card lie in the discard pile, among the cards not named?",
    "fact.pile.wild.if_yes": "if a wild card lies in the discard pile",
    "fact.pile.wild.if_no": "if no wild card lies in the discard pile",
    "fact.pile.wild.either": "whether or not a wild card lies in the discard pile",
    "fact.pile.black_three.question": "Does a black three lie in the discard pile, among the cards not named?",
    "fact.pile.black_three.if_yes": "if a black three lies in the discard pile",
    "fact.pile.black_three.if_no": "if no black three lies in the discard pile",
    "fact.pile.black_three.either": "whether or not a black three lies in the discard pile",
    "fact.pile.red_three_first.question": "Was the discard pile started by a red three?",
    "fact.pile.red_three_first.if_yes": "if a red three started the discard pile",
    "fact.pile.red_three_first.if_no": "if the discard pile did not start with a red three",
    "fact.pile.red_three_first.either": "whatever started the discard pile",
    "fact.players.question": "How many play?",
    "fact.players.count": ("{count} player", "{count} players"),
    "fact.players.if_count": ("with {count} player", "with {count} players"),
    "fact.players.either": "however many play",
    "fact.hand_size.question": "How many cards will you have left in your hand after this?",
    "fact.hand_size.left": ("One", "None"),
    "fact.hand_size.more": "Two or more",
    "fact.hand_size.if_left": ("if it leaves you one card", "if it leaves you no card"),
    "fact.hand_size.if_more": "if it leaves you two cards or more",
    "fact.hand_size.either": "however many cards you keep",
    "fact.first_round.question": "Is it still the first round (before the starting player's second turn)?",
    "fact.first_round.if_yes": "in the first round",
    "fact.first_round.if_not": "after the first round",
    "fact.first_round.either": "whether or not it is the first round",
    "action.draw": "draw from the stock",
    "action.take_pile": "take the discard pile",
    "action.meld": "lay down these melds",
    "action.go_out": "go out",
    "action.discard": "discard this card",
    # --- interpretations ------------------------------------------------------------------------
    "interpretation.interpreted": "{parameter}: read from the text as {value}.",
    "interpretation.not_stated": "{parameter}: the text does not say.",
    "interpretation.house_rule": "{parameter}: {value} by your house rule.",
    # --- scoring ------------------------------------------------------------------------------
    "line.melded_cards": "Cards on the table",
    "line.natural_canastas": "Natural canastas",
    "line.mixed_canastas": "Mixed canastas",
    "line.red_threes": "Red threes",
    "line.going_out": "Going out",
    "line.concealed_going_out": "Going out concealed",
    "line.hand": "Cards left in hand",
    "line.no_canasta": "No canasta: everything counts as minus",
    "line.penalty_hint": "Penalty: hint between partners",
    "line.penalty_unverifiable_count": "Penalty: count the opponents cannot check",
    "opening.next": "Next opening: {points} points.",
    "opening.next_canasta": "Next opening: must include a canasta.",
    "opening.next_unknown": "Next opening: the rules do not say.",
    "game.winner": "{team} wins the game.",
    "game.over_no_winner": "The game is over, and the rules name no winner.",
    "game.goes_on": ("The game goes on: {count} point to go to reach {target}.",
                     "The game goes on: {count} points to go to reach {target}."),
    "score.red_three_in_hand": "{card} is in the hand of {team}, but red threes are laid out at once; count it "
                               "among the red threes instead.",
    "score.two_melds_of_a_rank": "{team} has two melds of {rank:pl} (melds {first} and {second}); a team holds one "
                                 "meld of each rank.",
    "score.went_out_canastas": ("{team} went out with {count} canasta; a team needs {need} to go out.",
                                "{team} went out with {count} canastas; a team needs {need} to go out."),
    "score.cannot_judge": "whether {what} is allowed cannot be judged",
    "score.card_uncountable": "{card} cannot be counted",
    "score.canasta_unclassed": "the canasta cannot be called natural or mixed",
    "score.all_red_threes_unmelded": "all the red threes of a team that has melded nothing cannot be counted",
    "score.penalty_uncharged": "a penalty for {kind} cannot be charged",
    "score.end_unjudged": "the end of the game cannot be judged",
    "score.no_requirement": "no opening requirement follows from a total of {total}",
    "score.team_total": "{team} {total}",
    "game.several_over": "Here several teams reached {target} ({teams}); no winner is named.",
    "game.tie_unsettled": "Here {teams} tie at the top on {total}; no winner is named.",
    "game.tie_extra_round": "Here {teams} tie at the top on {total}; by your house rule the game goes on.",
    # --- comparisons --------------------------------------------------------------------------
    "compare.why": "{parts}",
    "compare.why_parameter": "{parameter}: {values}",
    "compare.variant_value": "{variant} {value} ({status})",
    "compare.why_same": "These rules are the same in every variant; the variants reach this check differently "
                        "because of other rules (see the other differences).",
    "compare.explanations": "{items}",
    "compare.headline_agree": ("The one variant says: {outcome}.", "All {count} variants agree: {outcome}."),
    "compare.headline_differ": "The variants differ: {groups}.",
    "compare.headline_group": "{variants}: {outcome}",
    "compare.outcome": "{verdict}",
    "compare.outcome_if": "{verdict} {condition}",
    "compare.outcome_parting": "{outcome} ({conditions}: {verdict})",  # where two outcomes read alike
    "compare.outcome_impossible": "this table cannot happen",
    "compare.why_condition": "{choices:cap}.",
    "compare.why_choice": "{condition}: {verdict}",
    "compare.table_can_happen": "Under {variant} this table can happen.",
    "compare.not_applicable": "Not checked under {variant}: the check does not apply there ({values}).",
    "compare.stopped_before": "Not checked under {variant}: the ruling stops before this check ([[the rules do not "
                              "say {not_stated}]][[; {missing} not given]]).",
    "compare.not_reached": "Not checked under {variant}: its ruling does not reach this check (see the other "
                           "differences).",
    # --- the request's shape ------------------------------------------------------------------
    "shape.not_object": "This must be an object.",
    "shape.unknown_field": "This field is unknown.",
    "shape.required": "This field is required.",
    "shape.null": "This must have a value.",
    "shape.not_list": "This must be a list.",
    "shape.not_string": "This must be a string.",
    "shape.not_integer": "This must be a whole number.",
    "shape.not_integral": "This must be a whole number, without a fraction.",
    "shape.not_bool": "This must be a yes-or-no value.",
    "shape.add_item": "An addition is a list of cards, or a rank with its cards.",
    "shape.too_long": "Longer than maximum length {maximum}.",
    "shape.too_short": "Shorter than minimum length {minimum}.",
    "shape.length_between": "The length must be from {minimum} to {maximum}.",
    "shape.between": "This must be from {minimum} to {maximum}.",
    "shape.at_least": "This must be at least {minimum}.",
    "shape.at_most": "This must be at most {maximum}.",
    "shape.other": "{text}",
    # --- refusals -----------------------------------------------------------------------------
    "error.unknown_variant": "There are no rules called {variant}; known: {known}.",
    "error.card_code": "“{code}” is not a card (a rank from A, K, Q, J, 10 down to 2 and a suit S, H, D or C, or "
                       "the letters J and K together for a joker).",
    "error.too_many_copies": ("The deck of {variant} holds only one copy of {card}, so this one is one too many.",
                              "The deck of {variant} holds only {count:word} copies of {card}, so this one is one "
                              "too many."),
    "error.too_many_jokers": ("The deck of {variant} holds only one joker, so this one is one too many.",
                              "The deck of {variant} holds only {count:word} jokers, so this one is one too many."),
    "error.no_jokers": "The deck of {variant} holds no jokers.",
    "error.too_many_red_threes": "{count} red threes in all, but the deck of {variant} holds {limit}.",
    "error.players_required": "Say how many play: {variant} scores {supported} players differently.",
    "error.players_unsupported": "{variant} has rules for {supported} players, not {players}.",
    "error.drew": "This must be empty (not drawn yet), the stock or the pile.",
    "error.partner_answer": "This must be yes or no (or empty, when the player did not ask).",
    "error.action_type": "This is not an action the rules know; one of {types}.",
    "error.discard_without_card": "A discard names its card.",
    "error.meld_without_melds": "A meld lays down at least one meld or addition.",
    "error.add_to_rank": "This must be a rank such as K or 10.",
    "error.not_in_hand": "{card} is not in the player's {where}.",
    "error.melded_without_melds": "The player cannot have melded while the team has no melds.",
    "error.opened_contradicts_melds": "This says whether the team has opened, and its melds say the opposite.",
    "error.canastas_unopened": "A team that has not opened has no canastas.",
    "error.canastas_below_at_least": "This says how many canastas the team has, and fewer than it says it has at least.",
    "error.hand_below_at_least": "This says how many cards the hand holds at least, and the hand holds fewer.",
    "error.hand_below_at_least": "This says how many cards the hand holds at least, and the hand holds fewer.",
    "error.has_drawn_contradicts": "This says whether the player has drawn this turn, and where the player drew says "
                                   "the opposite.",
    "error.stock_empty_contradicts": "This says whether the stock is empty, and the count of its cards says the "
                                     "opposite.",
    "error.team_rank": "This must be the rank of a meld, such as K or 10 (not a two or a three).",
    "error.rank_unopened": "A team that has not opened has no meld of {rank:pl}.",
    "error.rank_contradicts_melds": "This says whether the team has a meld of {rank:pl}, and its melds say the "
                                    "opposite.",
    # a fact of the situation (see FACTS): /situation/team/ranks/<rank>, the one fact named by its rank
    "fact.team_has_rank": "whether your team already has a meld of {rank:pl}",
    "error.red_three_in_meld": "{card} is a red three, which is never melded: it cannot lie in a meld.",
    "error.pile_cards_without_take": "Cards can come from the pile this turn only when the player took the pile.",
    "error.more_than_deck": "More than the {limit} cards of the deck of {variant}.",
    # --- tables that cannot happen (adjudicator.rules.possible) ---------------------------------------
    "table.stock_after_deal": "The stock cannot hold {count} cards: of the {deck} cards, {players} players are dealt "
                              "{each} each and one is turned up, which leaves at most {most}.",
    "table.stock_after_pile": "The stock cannot hold {count} cards: of the {deck} cards, {players} players are dealt "
                              "{each} each, and each of the {pile} cards in the pile was turned up from the stock or "
                              "discarded after a draw from it, which leaves at most {most}.",
    "table.stock_beside_table": "The stock cannot hold {count} cards while the table shows {shown} of the {deck} "
                                "cards.",
    "table.melds_in_first_round": "Nobody may open in the first round, so no melds can lie on the table yet.",
    "table.pile_taken_no_meld": "The pile was taken this turn, and taking it lays its top card in a meld of your "
                                "team at once, so your team has a meld on the table.",
    # --- readings under which a table cannot happen (adjudicator.rules.readings) ---------------
    "table.cannot_happen_under": "{reading:cap}, this table could not happen: {why}",
    "table.possible_under": "{readings} The ruling is made under the readings where the table can happen.",
    "table.possible_as_given": "{readings} The text does not state that limit, so the table is ruled as given.",
    "table.read_so": "Read so, the table cannot happen: {readings}.",
    "table.whose_team": "your team",
    "table.whose_opponents": "the opponents",
    "table.two_melds_of_a_rank": "Melds {first} and {second} of {whose} are both of {rank:pl}, and a team has only "
                                 "one meld of each rank.",
    "table.band_needs_canasta": "On {score} points the opening must include a canasta, and a canasta stays on the "
                                "table, so {whose} cannot have melds without one.",
    "table.partner_answer_alone": "With {players} players everyone plays alone, so there is no partner to ask.",
    "table.asked_after_meld": "The partner is asked right after the draw or the take of the pile, before any "
                              "further meld: a question asked after melding this turn has no answer that counts.",
    "table.asked_before_draw": "The partner is asked right after the draw or the take of the pile: a question "
                               "asked before drawing has no answer that counts.",
    "table.pile_left_after_take": "The pile was taken this turn, and taking it takes the whole pile, so none can be "
                                  "left.",
    "table.red_three_in_pile": "{card} cannot lie this high in the pile: a red three is laid out at once and never "
                               "discarded, so it lies in the pile only as a card turned up at the start.",
    "error.teams_and_rounds": "Give the teams of one round or the rounds of a game, not both.",
    "error.teams_or_rounds": "Give the teams of one round or the rounds of a game.",
    "error.empty_list": "This must not be empty.",
    "error.required": "This field is required.",
    "error.cards_and_counts": "Give the cards or {count}, not both.",
    "error.concealed_without_going_out": "A team goes out concealed only when it goes out.",
    "error.penalty_kind": "This is not a penalty the rules know; one of {kinds}.",
    "error.team_name": "Every team needs a name.",
    "error.team_name_twice": "Team {other} is also called {name}; names must differ.",
    "error.two_went_out": "Only one team goes out in a round, and {name} already did.",
    "error.teams_differ": "Every round names the same teams ({names}); this one names {given}.",
    "error.team_count": ("{players} players score as {count} team, not {given}.",
                         "{players} players score as {count} teams, not {given}."),
    "error.no_team_size": "{variant} gives no team size for {players} players.",
    "error.no_target": "The rules of {variant} give no target score for {players} players.",
    "error.round_after_game_over": "The game ended after round {round} (a team reached the target); no round "
                                   "follows it.",
    "error.alone_went_out_with_cards": "{team} plays alone and went out, so no card can be left in hand.",
    "error.rule_failed": "{explanation}[[ The rule: {quotes}]][[ House rule: {house_rules}.]]",
    "quote": "“{text}”",
    "house_rule.value": "{parameter}: {value}",
    "error.not_stated": "The rules of {variant} do not say {parameter}[[, so {why}]]. A house rule settles it, for "
                        "example: {example}.",
    "error.compare_variant": "A comparison takes a list of variants (or none, for all of them).",
    "error.variant_twice": "{variant} is listed twice.",
    "error.ruling_and_score": "Give a situation and an action (a ruling) or teams or rounds (a score), not both.",
    "error.ruling_or_score": "Give a situation and an action (to compare rulings) or teams or rounds (to compare "
                             "scores).",
    "error.house_rules.not_object": "House rules name each rule and its value.",
    "error.house_rules.unknown": "There is no rule called {name}; the variant's list of rules names every one.",
    "error.house_rules.value": "{parameter}: {reason} ({accepts}).",
    # --- parameter values (house rules, variant files) ----------------------------------------
    "value.not_integer": "this must be a whole number",
    "value.too_small": "this must be at least {minimum}",
    "value.too_large": "this must be at most {maximum}",
    "value.not_bool": "this must be yes or no",
    "value.not_choice": "this must be one of {choices}",
    "value.not_choice_list": "this must be a list drawn from {choices}",
    "value.not_count_list": "this must be a list of numbers from 1 to 12",
    "value.not_by_players": "this must give a number for each player count",
    "value.bad_player_count": "{given} is not a player count from 2 to 6",
    "value.team_size_split": "{players} players cannot sit in teams of {size}: it must make two teams or more, all "
                             "of that size",
    "value.bands_list": "this must be a list of score bands",
    "value.band": "band {band} is wrong: {problem}",
    "value.too_many_items": "a house rule may list at most {maximum} here",
    "type.bool": "yes or no",
    "type.int": "a whole number",
    "type.int_or_null": "a whole number, or none for no limit",
    "type.by_players": "a number for each player count",
    "type.list_int": "a list of numbers",
    "type.bands": "a list of score bands, lowest first, each with its minimum score and its points or canasta",
    "type.enum": "one of {choices}",
    "type.enum_list": "a list drawn from {choices}",
    # --- values in words --------------------------------------------------------------------------
    "value.yes": "yes",
    "value.no": "no",
    "value.none": "none",
    "value.no_limit": "no limit",
    "value.not_given": "not stated",
    "value.for_players": "{value} for {players} players",
    "value.band_points": "from {low}: {points}",
    "value.band_canasta": "from {low}: a canasta",
    # --- cards -----------------------------------------------------------------------------------
    "card.joker": "Joker",
    # the court cards' letters where a card is shown (Q♥): each language's own (D♥ for dam, dame)
    "card.rank.J": "J",
    "card.rank.Q": "Q",
    # --- options ---
    "options.group.draw": "Draw from the stock",
    "options.group.take_pile": "Take the discard pile",
    "options.group.meld": "Meld and add to melds",
    "options.group.go_out": "Go out",
    "options.group.discard": "Discard",
    "options.draw.stock": ("Draw {count} card from the stock.", "Draw {count} cards from the stock."),
    "options.draw.stock_unknown": "Draw from the stock.",
    "options.draw.empty_stock": "Draw from the stock, which is empty.",
    "options.take_pile.natural_pair": "Take the pile with a natural pair of {rank:pl} ({cards})[[ and lay {melds}]]"
                                      "[[, {points} points]].",
    "options.take_pile.natural_and_wild": "Take the pile with {rank:a} and {wild:a} ({cards})[[ and lay "
                                          "{melds}]][[, {points} points]].",
    "options.take_pile.onto_meld": "Take the pile and put its top card {top} onto your meld of {rank:pl}.",
    "options.meld.all_naturals": "Meld {cards}: all your natural {rank:pl}.",
    "options.meld.with_wilds": "Meld {cards}: your natural {rank:pl} with the wild cards they need.",
    "options.meld.smallest": "Meld {cards}: the smallest meld of {rank:pl} you can lay.",
    "options.add.naturals": "Add {cards} to your meld of {rank:pl}.",
    "options.add.wild": "Add the wild card {cards} to your meld of {rank:pl}.",
    "options.add.naturals_if": "Add {cards} to your team's meld of {rank:pl}, if it has one.",
    "options.add.wild_if": "Add the wild card {cards} to your team's meld of {rank:pl}, if it has one.",
    "options.take_pile.onto_meld_if": "Take the pile and put its top card {top} onto your team's meld of "
                                      "{rank:pl}, if it has one.",
    "options.opening.cheapest": ("Open with {melds}: {points} points with the fewest cards ({count} card).",
                                 "Open with {melds}: {points} points with the fewest cards ({count} cards)."),
    "options.opening.keeps_wilds": "Open with {melds}: {points} points, keeping the most wild cards.",
    "options.opening.with_rank": "Open with a meld of {rank:pl}: {melds}, {points} points.",
    "options.go_out.meld_all": "Go out by melding every card: {melds}.",
    "options.go_out.with_discard": "Go out: meld {melds} and discard {card}.",
    "options.go_out.discard_only": "Go out by discarding your last card, {card}.",
    "options.discard.card": "Discard {card}.",
    "options.move.lay": "Lay out: {parts}.",
    "replay.out_of_turn": "It is not player {seat}'s turn: player {expected} plays now.",
    "replay.not_held": "The player does not hold {cards}.",
    "replay.draw_without_cards": "The log does not say which cards this draw brought.",
    "replay.stock_short": "The draw brings {count} cards, but the stock holds only {stock}.",
    "replay.cards_not_drawn": "Only a draw from the stock brings cards; this move does not draw.",
    "replay.draw_count": "The draw brings {count} cards ({reds} of them red threes), but a player draws {wanted}, "
                         "and one more for each red three.",
    "replay.round_over": "{why} No move follows the end of the round.",
    "replay.end.went_out": "Player {seat} went out, which ended the round.",
    "replay.end.stock_ran_out": "The stock ran out: player {seat} had to draw from it, which ended the round.",
    "replay.end.last_red_three": "The last card of the stock was a red three, laid out by player {seat}: the round "
                                 "stopped there, with no meld or discard after it.",
    "replay.stopped.empty_stock": "The stock is empty, and the rules leave open what this draw means, so the "
                                  "replay cannot say whether the round goes on; it stops here until the table "
                                  "settles the point.",
    "replay.stopped.last_red_three": "The last card of the stock was a red three, and the rules do not say whether "
                                     "the round stops there, so the replay cannot say whether it goes on; it stops "
                                     "here until the table settles the point.",
    "replay.unanswered": "The partner has not yet answered whether this player may go out.",
    "replay.answer_without_question": "No player has just asked to go out, so there is no question to answer.",
    "replay.not_partner": "Player {seat} is not the partner of player {asker}, who asked.",
    "replay.asked_again": "The partner has already answered this turn, and that answer stands.",
    "replay.no_partner": "This player has no partner to ask.",
    "replay.red_threes_kept": "Under the rules of {variant} red threes stay in the hand; they are not laid out.",
    "replay.replacement_count": ("The stock brought one card for the red threes laid out, but each red three laid "
                                 "out is replaced by exactly one card.",
                                 "The stock brought {count:word} cards for the red threes laid out, but each red "
                                 "three laid out is replaced by exactly one card."),
    "replay.impossible": "This move leaves a table that cannot happen.",
    "replay.said.ask": "Player {seat} asks the partner: may I go out?",
    "replay.said.answer_yes": "Player {seat} answers: yes.",
    "replay.said.answer_no": "Player {seat} answers: no.",
    "replay.said.lay_out": ("Player {seat} lays out the red three {red_threes}[[ and draws {cards} in its place]].",
                            "Player {seat} lays out the red threes {red_threes}[[ and draws {cards} in their "
                            "place]]."),
    "error.replay_form": "Give either one round (its deal and moves) or a whole game (its rounds), not both.",
    "error.replay_member": "This kind of entry does not say this.",
    "error.replay_event": "This is not an event the log knows; one of {kinds}.",
    "error.replay_answer": "The partner answers yes or no.",
    "error.replay_red_threes_none": "Name the red threes laid out.",
    "error.replay_not_red_three": "Only red threes are laid out this way, and this card is not one.",
    "error.replay_round_not_over": "The moves of this round stop before it ends, yet another round follows it.",
    "error.replay_hands": "Give one list of cards per player: {players} lists.",
    "error.replay_scores": "Give one score per team: {teams} numbers.",
    "error.replay_seat": "A player is a seat number from 0 to one less than the {players} players.",
    "options.move.take": "Take the pile with {cards}[[, and lay out: {parts}]].",
    "options.move.part_meld": "meld {cards}",
    "options.move.part_add": "add {cards} to your meld of {rank:pl}",
    "options.move.part_add_if": "add {cards} to your team's meld of {rank:pl}, if it has one",
}

# Small numbers as words, for counts in running text ({count:word}); larger ones stay figures.
NUMBERS: tuple[str, ...] = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
                            "eleven", "twelve")

# Ranks by name: singular and plural ("a natural nine", "two natural nines").
RANKS: dict[str, tuple[str, str]] = {
    "A": ("ace", "aces"), "K": ("king", "kings"), "Q": ("queen", "queens"), "J": ("jack", "jacks"),
    "10": ("ten", "tens"), "9": ("nine", "nines"), "8": ("eight", "eights"), "7": ("seven", "sevens"),
    "6": ("six", "sixes"), "5": ("five", "fives"), "4": ("four", "fours"), "3": ("three", "threes"),
    "2": ("two", "twos"), "JK": ("joker", "jokers"),
}

# The facts of a situation, by their place in a request (the part after "/situation").
FACTS: dict[str, str] = {
    "/players": "how many play",
    "/first_round": "whether this is the first round",
    "/stock_count": "whether any cards are left in the stock",
    "/stock_empty": "whether the stock is empty",
    "/discard_pile": "the discard pile",
    "/team/score": "your team's score before this round",
    "/team/melds": "your team's melds on the table",
    "/team/red_threes": "your team's red threes",
    "/team/canastas": "how many canastas your team has",
    "/team/canastas_at_least": "how many canastas your team has",
    "/team/opened": "whether your team has melded this round",
    "/pile_unnamed/wild": "whether a wild card lies in the discard pile",
    "/pile_unnamed/black_three": "whether a black three lies in the discard pile",
    "/pile_unnamed/red_three_first": "whether a red three started the discard pile",
    "/player/hand_count": "how many cards you hold",
    "/player/hand_count_at_least": "how many cards you hold",
    "/turn/has_drawn": "whether you have drawn this turn",
    "/turn/partner_answer": "your partner's answer",
    "/turn/asked_after_melding": "whether you asked your partner after melding",
    "/opponents/score": "the opponents' score",
    "/opponents/melds": "the opponents' melds",
    "/player/hand": "your hand",
    "/player/has_melded": "whether you have melded before this turn",
    "/turn/drew": "whether you have drawn this turn",
    "/turn/cards_from_pile": "the cards you took with the pile",
}

# Closed-class words (Word arguments), by code.
WORDS: dict[str, str] = {
    "stock": "stock", "pile": "pile", "open": "open", "take_pile": "take the pile",
    "together": "together", "best_single_meld": "in its best single meld",
    "meld_all": "melding every card", "meld_all_but_one": "melding all but one card and discarding the last",
    "hand": "hand", "hand_or_pile": "hand or the pile",
    "melded_points": "the points on the table", "natural_canastas": "the number of natural canastas",
    "mixed_canastas": "the number of mixed canastas", "hand_points": "the points in hand",
    "legal": "allowed", "illegal": "not allowed", "undetermined": "cannot say",
    "stated": "stated in the text", "interpreted": "read from the text", "not_stated": "not in the text",
    "house_rule": "house rule", "hint": "a hint between partners", "unverifiable_count": "a count nobody can check",
    "band_members": "it gives more than a minimum score, an upper score, points and whether a canasta is needed",
    "band_bounds": "its scores must be whole numbers", "band_first_at_zero": "the first band must start at 0",
    "band_order": "each band must start above the one before", "band_max_below_min": "its top is below its bottom",
    "band_canasta_flag": "whether a canasta is needed must be yes or no",
    "band_points": "its points must be from 0 to 1000", "band_empty": "give points, or require a canasta",
    "and": "and", "or": "or",
    # choices of one-of and list parameters, and action types, in a list of what a value may be
    "frozen": "frozen", "allowed": "allowed", "forbidden": "forbidden",
    "fixed_pairs_opposite": "fixed pairs sitting opposite", "draw_two_highest_together": "the two highest draws together",
    "draw_highest_chooses_second_highest": "the highest draw chooses the second highest",
    "individual": "everyone alone", "highest_total": "the highest total", "extra_round": "another round",
    "opponents_win": "the opponents win", "joker": "joker", "two": "two", "red_three": "red three",
    "red_three_upcard": "red three as the upcard", "black_three": "black three",
    "draw": "draw", "meld": "meld", "go_out": "go out", "discard": "discard",
    # the events of a replayed log
    "lay_out": "red threes laid out", "ask": "a question to the partner", "answer": "the partner's answer",
}


def _flat() -> dict[str, str | tuple[str, str]]:
    """Every English text by its message key: the messages, then words for parameters, ranks, facts, words."""
    from .catalogue_params import CHOICES, PARAMS

    out: dict[str, str | tuple[str, str]] = dict(MESSAGES)
    for name, words in PARAMS.items():
        out[f"param.{name}"] = words["point"]
        out[f"param.{name}.about"] = words["about"]
        for key in ("yes", "no", "reading"):  # "reading": one value of a figure, as a clause
            if key in words:
                out[f"param.{name}.{key}"] = words[key]
        for choice, text in words.get("choices", {}).items():
            out[f"param.{name}.{choice}"] = text
    out.update({f"choice.{code}": text for code, text in CHOICES.items()})
    for rank, (one, many) in RANKS.items():
        out[f"rank.{rank}"] = one
        out[f"rank.{rank}.pl"] = many
        out[f"rank.{rank}.a"] = f"an {one}" if one[0] in "aeiou" else f"a {one}"  # one card of the rank, its article
    out.update({f"fact{path}": text for path, text in FACTS.items()})
    out.update({f"word.{code}": text for code, text in WORDS.items()})
    out.update({f"number.{n}": text for n, text in enumerate(NUMBERS)})
    return out


ENGLISH: dict[str, str | tuple[str, str]] = _flat()


def register(texts: dict[str, str | tuple[str, str]]) -> None:
    """Add another layer's English texts (the web layer's problem titles) to the one catalogue.

    The caller registers them itself, once it starts (the web app does, in ``create_app``); doing it again
    is harmless. A key that is already there with another text is refused: a key means one text.
    """
    clash = sorted(k for k in texts if k in ENGLISH and ENGLISH[k] != texts[k])
    if clash:
        raise ValueError(f"message keys defined twice with different texts: {clash}")
    ENGLISH.update(texts)


def plain_english(message: Message) -> str:
    """``message`` in plain English for the author of a variant file reading a start-up error (the
    service's answers render messages in the reader's language with :mod:`adjudicator.words.render`)."""
    def plain(arg: Any) -> str:
        if isinstance(arg, Items):
            return arg.joiner.join(plain(a) for a in arg.items)
        return str(arg.value) if isinstance(arg, Word) else str(arg)
    text = ENGLISH[message.key]
    assert isinstance(text, str), f"{message.key}: a start-up error's text has no plural forms"
    return text.format_map({k: plain(v) for k, v in message.args.items()})
