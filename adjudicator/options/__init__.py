"""Options: every legal move of a situation (legal_moves), grouped, each ruled by rule().
"""
