"""Compare: a ruling, a score or the options under several variants, and the parameter matrix.
"""
