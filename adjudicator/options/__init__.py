"""Options: every legal move of a situation (legal_moves()), grouped, each ruled by the rules wing.

listing (legal_moves, the groups), hand (the hand by rank), needs (the figures a plan
aims at: the same opening requirement the listing reports), opening, melds, pile,
going_out, turn (the candidates of each kind), slots, body (an action as JSON).
"""
