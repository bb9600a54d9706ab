"""The rule matrix: every row is one table dispute ruled under all four variants.

Columns: a name, the situation, the action, the deciding rule id, and the
expected verdict per variant in the order sv-classic, no-pagat, da-ludo,
sv-gamerules (L legal, I illegal, U undetermined, 422 impossible input). The
sentence each verdict rests on is pinned in ``tests/ruling_quotes.py``.
"""

from ruling_cases import CANASTA_K, UNOPENED, base, drawn

H = {"hand": ["AH", "AD", "AS", "5C", "7D", "8C", "JK", "2C", "9H", "9S"]}
C = {"score": 1000, "melds": CANASTA_K + [["9H", "9S", "9D"]]}
JK_PILE = ["6C", "JK", "8D", "9D"]
KINGS = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
UNFROZEN_IN_DA = {"*": "pile.frozen.natural_pair", "da-ludo": "pile.unfrozen.natural_and_wild"}

ROWS = [
    # --- taking the pile --------------------------------------------------------------------------
    ("take with a natural pair", base(), {"type": "take_pile", "with": ["9H", "9S"]},
     "pile.unfrozen.natural_and_wild", "L L L L"),
    ("take unfrozen with natural + joker", base(), {"type": "take_pile", "with": ["9H", "JK"]},
     "pile.unfrozen.natural_and_wild", "L L L L"),
    ("take pile frozen by a joker with nine + joker", base(discard_pile=JK_PILE),
     {"type": "take_pile", "with": ["9H", "JK"]}, "pile.frozen.natural_pair", "I I I I"),
    ("take pile frozen by a joker with two nines", base(discard_pile=JK_PILE),
     {"type": "take_pile", "with": ["9H", "9S"]}, "pile.frozen.natural_pair", "L L L L"),
    ("a two in the pile freezes it (in da-ludo only if twos are wild)", base(discard_pile=["6C", "2C", "8D", "9D"]),
     {"type": "take_pile", "with": ["9H", "JK"]}, "pile.frozen.natural_pair", "I I U I"),
    ("a red three upcard freezes the pile", base(discard_pile=["3H", "8D", "9D"]),
     {"type": "take_pile", "with": ["9H", "JK"]}, UNFROZEN_IN_DA, "I I L I"),
    ("a black three below freezes only sv-gamerules", base(discard_pile=["3C", "8D", "9D"]),
     {"type": "take_pile", "with": ["9H", "JK"]},
     {"*": "pile.unfrozen.natural_and_wild", "sv-gamerules": "pile.frozen.natural_pair"}, "L L L I"),
    ("black three on top", base(discard_pile=["8D", "9D", "3C"], player={"hand": ["3S", "3S", "5C"]}),
     {"type": "take_pile", "with": ["3S", "3S"]}, "pile.top.black_three", "I I I I"),
    ("joker on top", base(discard_pile=["8D", "9D", "JK"]), {"type": "take_pile", "with": ["9H", "9S"]},
     "pile.top.wild", "I I I I"),
    ("two on top", base(discard_pile=["8D", "9D", "2H"]), {"type": "take_pile", "with": ["9H", "9S"]},
     "pile.top.wild", "I I I I"),
    ("top card onto the team's meld", base(discard_pile=["8D", "9D", "KC"]), {"type": "take_pile", "with": []},
     "pile.unfrozen.add_to_meld", "L L L L"),
    ("frozen pile only to add to a meld", base(discard_pile=["JK", "9D", "KC"]), {"type": "take_pile", "with": []},
     "pile.frozen.add_to_meld", "I I I I"),
    ("top card onto a meld the team lacks", base(), {"type": "take_pile", "with": []},
     "pile.unfrozen.add_to_meld", "I I I I"),
    ("unopened team, pair of nines, too few points", base(**UNOPENED), {"type": "take_pile", "with": ["9H", "9S"]},
     "opening.minimum", "I I I I"),
    ("unopened team, nine + joker", base(**UNOPENED), {"type": "take_pile", "with": ["9H", "JK"]},
     {"*": "pile.frozen.natural_pair", "da-ludo": "pile.unfrozen.natural_and_wild",
      "sv-gamerules": "pile.before_opening"}, "I I L U"),
    ("unopened team, pair plus aces laid with it",
     base(**UNOPENED, player={"hand": ["9H", "9S", "AH", "AD", "AS", "5C"]}),
     {"type": "take_pile", "with": ["9H", "9S"], "melds": [["AH", "AD", "AS"]]},
     {"*": "opening.minimum", "sv-gamerules": "pile.before_opening"}, "L L L U"),
    ("unopened team: pile cards toward the opening",
     base(team={"score": 1500, "melds": []}, discard_pile=["AC", "AC", "9D"],
          player={"hand": ["9H", "9S", "AH", "5C", "6C"]}),
     {"type": "take_pile", "with": ["9H", "9S"], "melds": [["AC", "AC", "AH"]]}, "opening.minimum", "U I I I"),
    ("take the pile in the first round", base(first_round=True), {"type": "take_pile", "with": ["9H", "9S"]},
     "first_round.no_pile", "L L 422 L"),  # da-ludo: nobody has opened in its first round, so no melds lie there
    ("take the pile in the first round, nobody has opened",
     base(first_round=True, **UNOPENED, opponents={"score": 1200, "melds": []},
          player={"hand": ["9H", "9S", "AH", "AD", "AS", "5C"]}),
     {"type": "take_pile", "with": ["9H", "9S"], "melds": [["AH", "AD", "AS"]]},
     {"*": "first_round.no_pile", "sv-gamerules": "pile.before_opening"}, "L L I U"),
    ("take the pile after drawing", base(turn={"drew": "stock"}), {"type": "take_pile", "with": ["9H", "9S"]},
     "turn.draw_first", "I I I I"),
    ("take an empty pile", base(discard_pile=[]), {"type": "take_pile", "with": ["9H", "9S"]},
     "pile.empty", "I I I I"),
    ("one card in hand, one card in the pile",  # the team has a canasta: the last card may go out
     base(discard_pile=["KC"], player={"hand": ["KD"]},
          team={"score": 1000, "melds": [["KH", "KS", "KD"], ["8H", "8S", "8D", "8C", "8H", "8S", "8D"]],
                "red_threes": 0}),
     {"type": "take_pile", "with": []}, {"*": "pile.unfrozen.add_to_meld", "sv-gamerules": "pile.one_card_rule"},
     "L L L I"),
    ("a take that leaves one card, without a canasta",  # its discard would go out: as a meld that leaves one
     base(discard_pile=["KC"], player={"hand": ["KD"]}),
     {"type": "take_pile", "with": []}, {"*": "go_out.keep_card", "da-ludo": "pile.unfrozen.add_to_meld"},
     "I I L I"),
    ("meld pile cards in the same turn",
     base(discard_pile=["7C", "7S", "9D"], player={"hand": ["9H", "9S", "7D", "5C", "6C", "8H", "4D"]}),
     {"type": "take_pile", "with": ["9H", "9S"], "melds": [["7C", "7S", "7D"]]}, "pile.cards_same_turn", "L L I L"),
    ("meld cards taken with the pile later that turn",
     base(turn={"drew": "pile", "cards_from_pile": ["7C", "7S"]}, discard_pile=[],
          player={"hand": ["7C", "7S", "7D", "5C", "6C"]}),
     {"type": "meld", "melds": [["7C", "7S", "7D"]]}, "pile.cards_same_turn", "L L I L"),
    ("unopened team, pile where the rule forbids it (house rule)", base(**UNOPENED),
     {"type": "take_pile", "with": ["9H", "JK"]}, "pile.before_opening", "I I I I"),
    ("open with pile cards after taking the pile",  # only the top card may count (found by replaying OpenSpiel)
     base(team={"score": 0, "melds": [], "red_threes": 0}, discard_pile=["AH", "AS", "AD", "9H"],
          player={"hand": ["9S", "9D", "5C", "6C"]}),
     {"type": "take_pile", "with": ["9S", "9D"], "melds": [["AH", "AS", "AD"]]},
     {"*": "opening.minimum", "da-ludo": "pile.cards_same_turn"}, "U I I I"),
    ("meld after taking the pile, the team still without a meld",  # the take lays the top card in a meld
     base(team={"score": 0, "melds": [], "red_threes": 0}, discard_pile=[],
          turn={"drew": "pile", "cards_from_pile": ["AH", "AS", "AD", "9H"]},
          player={"hand": ["AH", "AS", "AD", "9H", "5C", "6C"]}),
     {"type": "meld", "melds": [["AH", "AS", "AD"]]}, None,
     "422 422 422 422"),  # sv-gamerules too: a take that melds the top card takes the whole pile (#43 item 1)
    # --- melds ------------------------------------------------------------------------------------
    ("two naturals and a joker", drawn(player=H), {"type": "meld", "melds": [["9H", "9S", "JK"]]},
     "meld.min_naturals", "L L L L"),
    ("two naturals and two wilds", drawn(player=H), {"type": "meld", "melds": [["9H", "9S", "JK", "2C"]]},
     {"*": "meld.max_wilds", "da-ludo": "meld.same_rank", "sv-gamerules": "meld.naturals_per_wild"}, "L L I I"),
    ("a two as the wild card", drawn(player=H), {"type": "meld", "melds": [["AH", "AD", "2C"]]},
     "meld.same_rank", "L L U L"),
    ("one natural and two wilds", drawn(player=H), {"type": "meld", "melds": [["9H", "JK", "2C"]]},
     {"*": "meld.min_naturals", "da-ludo": "meld.same_rank"}, "I I I I"),
    ("three jokers alone", drawn(player={"hand": ["JK", "JK", "JK", "5C", "6C"]}),
     {"type": "meld", "melds": [["JK", "JK", "JK"]]}, "meld.wild_only", "I I I I"),
    ("two cards", drawn(player=H), {"type": "meld", "melds": [["9H", "9S"]]}, "meld.min_cards", "I I I I"),
    ("mixed ranks", drawn(player=H), {"type": "meld", "melds": [["9H", "9S", "8C"]]}, "meld.same_rank", "I I I I"),
    ("a second meld of kings", drawn(player={"hand": ["KC", "KC", "KH", "5C", "6C"]}),
     {"type": "meld", "melds": [["KC", "KC", "KH"]]}, "meld.one_per_rank", "I I U U"),
    ("a second meld of kings, the team's kings said without their cards (team.ranks)",
     drawn(player={"hand": ["KC", "KC", "KH", "5C", "6C"]}, team={"melds": None, "ranks": {"K": True}}),
     {"type": "meld", "melds": [["KC", "KC", "KH"]]}, "meld.one_per_rank", "I I U U"),
    ("add a king to the kings", drawn(player={"hand": ["KC", "5C", "6C"]}), {"type": "meld", "add": [["KC"]]},
     "meld.add.target", "L L L L"),
    ("a fourth wild onto a meld",
     drawn(player={"hand": ["JK", "5C", "6C"]},
           team={"score": 1000, "melds": [["KH", "KS", "KD", "KC", "KH", "KS", "JK", "JK", "JK"]]}),
     {"type": "meld", "add": [{"to": "K", "cards": ["JK"]}]}, {"*": "meld.max_wilds", "da-ludo": "meld.natural_majority"},
     "I I L I"),
    ("two wilds onto a meld, as many as its naturals",
     drawn(player={"hand": ["JK", "JK", "5C", "6C"]}, team={"score": 1000, "melds": [["KH", "KS", "KD", "KC", "JK", "JK"]]}),
     {"type": "meld", "add": [{"to": "K", "cards": ["JK", "JK"]}]},
     {"*": "meld.max_wilds", "da-ludo": "meld.natural_majority"}, "I I I I"),
    ("a joker onto a natural canasta", drawn(player={"hand": ["JK", "5C", "6C"]}, team={"score": 1000, "melds": CANASTA_K}),
     {"type": "meld", "add": [{"to": "K", "cards": ["JK"]}]}, "meld.min_naturals", "L L L L"),
    ("meld red threes", drawn(player={"hand": ["3H", "3D", "3H", "5C", "6C"]}),
     {"type": "meld", "melds": [["3H", "3D", "3H"]]}, "red_three.never_melded", "I I U I"),
    # da-ludo: laid out at once, never melded; not laid out (later red threes: the sheet is silent), nothing
    # forbids a meld of three red threes (#43 item 2)
    ("meld black threes mid-round", drawn(player={"hand": ["3C", "3S", "3C", "5C", "6C"]}),
     {"type": "meld", "melds": [["3C", "3S", "3C"]]}, "black_three.going_out_only", "I I I I"),
    ("meld before drawing", base(player=H), {"type": "meld", "melds": [["AH", "AD", "AS"]]},
     "turn.draw_first", "I I I I"),
    ("add to a meld the team lacks", drawn(player=H), {"type": "meld", "add": [["AH", "AD"]]},
     "meld.add.target", "I I I I"),
    ("add to the opponents' meld", drawn(player={"hand": ["QC", "QC", "5C"]}),
     {"type": "meld", "add": [{"to": "Q", "cards": ["QC"]}]}, "meld.add.target", "I I I I"),
    ("top card onto the opponents' meld", base(discard_pile=["8D", "9D", "QC"]), {"type": "take_pile", "with": []},
     "pile.unfrozen.add_to_meld", "I I I I"),
    # --- the opening ------------------------------------------------------------------------------
    ("open with three aces at 1000", drawn(player=H, **UNOPENED), {"type": "meld", "melds": [["AH", "AD", "AS"]]},
     "opening.minimum", "L L I L"),
    ("open with three aces at 1500", drawn(player=H, team={"score": 1500, "melds": []}),
     {"type": "meld", "melds": [["AH", "AD", "AS"]]}, "opening.minimum", "I I I I"),
    ("two melds together at 1500", drawn(player=H, team={"score": 1500, "melds": []}),
     {"type": "meld", "melds": [["AH", "AD", "AS"], ["9H", "9S", "JK"]]}, "opening.minimum", "L L L L"),
    ("two melds worth 130 at 3000", drawn(player=H, team={"score": 3000, "melds": []}),
     {"type": "meld", "melds": [["AH", "AD", "AS"], ["9H", "9S", "JK"]]}, "opening.minimum", "L L I L"),
    ("open below zero with three aces", drawn(player=H, team={"score": -100, "melds": []}),
     {"type": "meld", "melds": [["AH", "AD", "AS"]]}, "opening.minimum", "L L U L"),
    ("130 points at 6000 without a canasta", drawn(player=H, team={"score": 6000, "melds": []}),
     {"type": "meld", "melds": [["AH", "AD", "AS"], ["9H", "9S", "JK"]]},
     {"*": "opening.minimum", "da-ludo": "opening.canasta_required"}, "L L I L"),
    ("a bare canasta of kings at 6500",
     drawn(player={"hand": KINGS + ["5C", "6D"]}, team={"score": 6500, "melds": []}),
     {"type": "meld", "melds": [KINGS]}, "opening.minimum", "I I L I"),
    ("open in the first round", drawn(first_round=True, **UNOPENED, opponents={"score": 1200, "melds": []}, player=H),
     {"type": "meld", "melds": [["AH", "AD", "AS"], ["9H", "9S", "JK"]]}, "first_round.no_opening", "L L I L"),
    ("opening without the team's score", drawn(player=H, team={"score": None, "melds": []}),
     {"type": "meld", "melds": [["AH", "AD", "AS"]]}, "opening.minimum", "U U U U"),
    # --- going out --------------------------------------------------------------------------------
    ("go out melding all, with a canasta", drawn(team=C, player={"hand": ["AH", "AD", "AS"]}),
     {"type": "go_out", "melds": [["AH", "AD", "AS"]]}, "go_out.canasta_required", "L L L L"),
    ("go out with a discard, with a canasta", drawn(team=C, player={"hand": ["AH", "AD", "AS", "5C"]}),
     {"type": "go_out", "melds": [["AH", "AD", "AS"]], "discard": "5C"}, "go_out.canasta_required", "L L L L"),
    ("go out without a canasta", drawn(player={"hand": ["AH", "AD", "AS", "5C"]}),
     {"type": "go_out", "melds": [["AH", "AD", "AS"]], "discard": "5C"}, "go_out.canasta_required", "I I L I"),
    ("go out leaving a card", drawn(team=C, player={"hand": ["AH", "AD", "AS", "5C", "6C"]}),
     {"type": "go_out", "melds": [["AH", "AD", "AS"]], "discard": "5C"}, "go_out.all_cards", "I I I I"),
    ("go out on a canasta completed this turn",
     drawn(team={"score": 1000, "melds": [["KH", "KS", "KD", "KC", "KH"]]}, player={"hand": ["KC", "KS", "5C"]}),
     {"type": "go_out", "add": [["KC", "KS"]], "discard": "5C"}, "go_out.canasta_required", "L L L L"),
    ("go out melding three black threes", drawn(team=C, player={"hand": ["3C", "3S", "3C", "5C"]}),
     {"type": "go_out", "melds": [["3C", "3S", "3C"]], "discard": "5C"}, "black_three.meld", "L L L L"),
    ("go out with black threes and a joker", drawn(team=C, player={"hand": ["3C", "3S", "3C", "JK"]}),
     {"type": "go_out", "melds": [["3C", "3S", "3C", "JK"]]}, "black_three.meld", "I I I U"),
    ("two players: one canasta is not enough", drawn(players=2, team=C, player={"hand": ["AH", "AD", "AS"]}),
     {"type": "go_out", "melds": [["AH", "AD", "AS"]]}, "go_out.canasta_required", "I 422 422 422"),
    ("three players: one canasta suffices", drawn(players=3, team=C, player={"hand": ["AH", "AD", "AS"]}),
     {"type": "go_out", "melds": [["AH", "AD", "AS"]]}, "go_out.canasta_required", "L 422 422 422"),
    ("player count unknown for the canasta rule", drawn(players=None, team=C, player={"hand": ["AH", "AD", "AS"]}),
     {"type": "go_out", "melds": [["AH", "AD", "AS"]]}, "go_out.canasta_required", "U L L L"),
    ("concealed go-out at 1000",
     drawn(**UNOPENED, player={"hand": KINGS + ["5C"], "has_melded": False}),
     {"type": "go_out", "melds": [KINGS], "discard": "5C"}, "opening.minimum", "L L L L"),
    ("concealed go-out at 3000 with a bare canasta",
     drawn(team={"score": 3000, "melds": []}, player={"hand": KINGS + ["5C"], "has_melded": False}),
     {"type": "go_out", "melds": [KINGS], "discard": "5C"}, "opening.minimum", "I L U I"),
    ("discard the last card without a canasta", drawn(player={"hand": ["5C"]}), {"type": "discard", "card": "5C"},
     "go_out.canasta_required", "I I L I"),
    ("discard the last card with a canasta", drawn(team=C, player={"hand": ["5C"]}),
     {"type": "discard", "card": "5C"}, "go_out.canasta_required", "L L L L"),
    ("meld down to one card without a canasta", drawn(player={"hand": ["AH", "AD", "AS", "5C"]}),
     {"type": "meld", "melds": [["AH", "AD", "AS"]]}, "go_out.keep_card", "I I L I"),
    ("meld down to one card with a canasta", drawn(team=C, player={"hand": ["AH", "AD", "AS", "5C"]}),
     {"type": "meld", "melds": [["AH", "AD", "AS"]]}, "go_out.keep_card", "L L L L"),
    ("go out after the partner said no",
     base(turn={"drew": "stock", "cards_from_pile": [], "partner_answer": "no"}, team=C,
          player={"hand": ["AH", "AD", "AS"]}),
     {"type": "go_out", "melds": [["AH", "AD", "AS"]]}, "go_out.partner_answer", "I I U U"),
    ("discard after the partner said yes",
     base(turn={"drew": "stock", "cards_from_pile": [], "partner_answer": "yes"}, team=C,
          player={"hand": ["AH", "AD", "AS", "5C"]}),
     {"type": "discard", "card": "5C"}, "go_out.partner_answer", "I I U U"),
    # --- discards and draws -----------------------------------------------------------------------
    ("an ordinary discard", drawn(), {"type": "discard", "card": "5C"}, "turn.draw_first", "L L L L"),
    ("discard before drawing", base(), {"type": "discard", "card": "5C"}, "turn.draw_first", "I I I I"),
    ("discard a red three", drawn(player={"hand": ["3H", "5C", "6C"]}), {"type": "discard", "card": "3H"},
     "red_three.never_melded", "I I U I"),  # da-ludo lays them out in the first round; of later ones it is silent
    ("discard while keeping a red three", drawn(player={"hand": ["3H", "5C", "6C"]}), {"type": "discard", "card": "5C"},
     "red_three.never_melded", "I I U I"),
    ("draw from the stock", base(), {"type": "draw"}, "draw.count", "L L L L"),
    ("two players draw two", base(players=2), {"type": "draw"}, "draw.count", "L 422 422 422"),
    ("draw from an empty stock", base(stock_count=0), {"type": "draw"}, "stock.empty", "L L U U"),
    ("empty stock, top card fits a meld", base(stock_count=0, discard_pile=["5C", "KC"]), {"type": "draw"},
     {"*": "stock.empty", "no-pagat": "stock.empty.forced_take", "sv-classic": "stock.empty.forced_take"},
     "U I U U"),  # sv-classic: "utan att kunna fortsätta" read two ways (#43 item 2)
    ("draw twice", drawn(), {"type": "draw"}, "turn.draw_first", "I I I I"),
    ("draw without the stock count", base(stock_count=None), {"type": "draw"}, "stock.empty", "L L U U"),
    # --- impossible situations --------------------------------------------------------------------
    ("five jokers", base(player={"hand": ["JK"] * 5}), {"type": "draw"}, None, "422 422 L 422"),
    ("three copies of a card", base(player={"hand": ["KH", "KH", "5C"]}), {"type": "draw"}, None, "422 422 422 422"),
    ("an unknown card code", base(player={"hand": ["ZZ"]}), {"type": "draw"}, None, "422 422 422 422"),
    ("five red threes", base(team={"red_threes": 3}, opponents={"red_threes": 2}), {"type": "draw"}, None,
     "422 422 422 422"),
]

# House rules that some rows are ruled under (row name -> house rules).
HOUSE_RULES = {
    "unopened team, pile where the rule forbids it (house rule)": {"pile.before_opening": "forbidden"},
}

ROWS += [
    ("take unfrozen with a nine and a plain card", base(), {"type": "take_pile", "with": ["9H", "5C"]},
     "pile.unfrozen.natural_and_wild", "I I I I"),
    ("take unfrozen with a nine and a two", base(player={"hand": ["9H", "2C", "5C", "6D", "8H"]}),
     {"type": "take_pile", "with": ["9H", "2C"]}, "pile.unfrozen.natural_and_wild", "L L U L"),
]

ROWS += [
    ("add a lone two without naming the meld", drawn(player={"hand": ["2S", "5C", "6C"]}),  # the team's only meld
     {"type": "meld", "add": [["2S"]]}, "meld.add.target", "L L U L"),
    ("add a lone two to one of two melds without naming it",
     drawn(team={"score": 1000, "melds": [["KH", "KS", "KD"], ["QH", "QS", "QD"]], "red_threes": 0},
           player={"hand": ["2S", "5C", "6C"]}),
     {"type": "meld", "add": [["2S"]]}, "meld.add.target", "I I I I"),
]

ROWS += [
    ("concealed go-out at 3000, has_melded not given",
     drawn(team={"score": 3000, "melds": []}, player={"hand": KINGS + ["5C"], "has_melded": None}),
     {"type": "go_out", "melds": [KINGS], "discard": "5C"}, "opening.minimum", "I L U I"),
    ("has melded although the team has no melds", drawn(**UNOPENED, player={"hand": H["hand"], "has_melded": True}),
     {"type": "discard", "card": "5C"}, None, "422 422 422 422"),
]


# Issue 43: every reading one a table could play; no refusal on a value the text does not state.
KINGS_THREE_WILD = ["KH", "KS", "KD", "KH", "KS", "KD", "JK", "JK", "2C"]
ROWS += [
    # item 1: sv-gamerules' line 25 governs every take, and a permission to leave cards lets the player take all
    ("a small hand takes the pile with a natural pair", base(player={"hand": ["9H", "9S", "5C"]},
                                                         discard_pile=["6C", "5H", "9D"]),
     {"type": "take_pile", "with": ["9H", "9S"]}, "pile.unfrozen.natural_and_wild", "L L L L"),
    ("a pile still lying after it was taken this turn",
     base(turn={"drew": "pile", "cards_from_pile": ["9D"]}, discard_pile=["5C"],
          team={"score": 1000, "melds": [["KH", "KS", "KD"], ["9D", "9H", "9S"]], "red_threes": 0},
          player={"hand": ["5C", "7D", "AH"]}),
     {"type": "discard", "card": "7D"}, None, "422 422 422 422"),
    ("a house rule lets a take leave cards: a small hand may still take the whole pile",
     base(player={"hand": ["9H", "9S", "5C"]}, discard_pile=["6C", "5H", "9D"]),
     {"type": "take_pile", "with": ["9H", "9S"]}, "pile.unfrozen.natural_and_wild", "L L L L"),
    # item 2: refusals "either way" that rested on interpreted values
    ("a wild two in the pile, twos wild by house rule", base(discard_pile=["6C", "2C", "8D", "9D"]),
     {"type": "take_pile", "with": ["9H", "JK"]}, "pile.frozen.natural_pair", "I I U I"),
    ("go out with two black threes and a joker", drawn(team=C, player={"hand": ["3C", "3S", "JK"]}),
     {"type": "go_out", "melds": [["3C", "3S", "JK"]]}, "black_three.meld", "I I I U"),
    ("a meld of red threes lies on the table",
     base(team={"score": 1000, "melds": [["KH", "KS", "KD"], ["3H", "3D", "3H"]], "red_threes": 0}),
     {"type": "draw"}, {"*": None, "da-ludo": "table.possible"}, "422 422 L 422"),
    # item 3: the partner asked in time
    ("go out after a no asked after melding",
     base(turn={"drew": "stock", "cards_from_pile": [], "partner_answer": "no", "asked_after_melding": True},
          team=C, player={"hand": ["AH", "AD", "AS"]}),
     {"type": "go_out", "melds": [["AH", "AD", "AS"]]}, "go_out.partner_answer", "I 422 U U"),
    ("a partner's answer before the draw",
     base(turn={"drew": None, "cards_from_pile": [], "partner_answer": "no"}),
     {"type": "draw"}, "draw.count", "L 422 L L"),
    # item 4: a house rule that makes the table impossible
    ("a house rule seats four players in teams of three", base(), {"type": "draw"}, None, "422 422 422 422"),
    # item 6: where a team may hold a second meld of a rank, the take's cards may lie as a meld of their own
    ("take with a natural and a wild onto a meld holding three wild cards",
     base(discard_pile=["6C", "8D", "KC"], player={"hand": ["KC", "JK", "5C", "7D"]},
          team={"score": 1000, "melds": [KINGS_THREE_WILD], "red_threes": 0}),
     {"type": "take_pile", "with": ["KC", "JK"]},
     {"*": "meld.max_wilds", "da-ludo": "pile.unfrozen.natural_and_wild"}, "I I L U"),
]
HOUSE_RULES.update({
    "a house rule lets a take leave cards: a small hand may still take the whole pile": {"pile.taken_whole": False},
    "a wild two in the pile, twos wild by house rule": {"wild.twos": True},
    "a house rule seats four players in teams of three": {"players.team_size": {"4": 3}},
})


def payloads(variant_ids) -> list[dict]:
    """Every row of the matrix as a ``/v1/adjudicate`` body under each variant, with the row's house rules."""
    out = []
    for name, situation, action, _rule, _codes in ROWS:
        for vid in variant_ids:
            body = {"variant": vid, "situation": situation, "action": action}
            if HOUSE_RULES.get(name):
                body["house_rules"] = HOUSE_RULES[name]
            out.append(body)
    return out


# The score matrix (issue 43, item 5): a round scored under each variant, across the readings of what its text
# leaves open. Per variant, in the order of ORDER in tests/test_ruling_matrix.py: 422 (refused: a stated rule,
# or every reading, rules the round out), an int (the first team's round, nothing read two ways), ("across",
# points, round) (decided across those points: every reading that lets the round happen gives that round), or
# ("as given", round) (only the service's reading of a point with no other reading rules it out: scored, and
# said so).
K7 = ["KH", "KS", "KD", "KC", "KH", "KS", "KD"]
SCORE_ROWS = [
    ("two melds of kings in one team", 4,
     [{"name": "A", "melds": [["KH", "KS", "KD"], ["KH", "KS", "KD"]]}, {"name": "B"}],
     (422, 422, ("across", ["meld.one_per_rank"], -60), ("across", ["meld.one_per_rank"], 60))),
    ("went out with two black threes and a joker", 4,
     [{"name": "A", "melds": [K7, ["3C", "3S", "JK"]], "went_out": True}, {"name": "B"}],
     (422, 422, 422, ("across", ["black_three.meld_wilds_allowed"], 730))),  # da-ludo: no value for a black three
    ("a canasta of kings with a two", 4,
     [{"name": "A", "melds": [["KH", "KS", "KD", "KC", "KH", "KS", "2C"]]}, {"name": "B"}],
     (380, 380, ("across", ["wild.twos"], 300), 380)),
    ("a red three kept in hand", 4,
     [{"name": "A", "melds": [K7], "hand": ["3H"]}, {"name": "B"}],
     (422, 422, ("across", ["red_three.laid_out"], 400), 422)),
    ("three players: went out without a canasta", 3,
     [{"name": "A", "melds": [["KH", "KS", "KD"]], "went_out": True}, {"name": "B"}, {"name": "C"}],
     (("as given", 130), 422, 422, 422)),
]
