"""Compare: variants side by side.

comparison (a ruling, a score or the options under several variants, from typed
requests, and why they differ), options (the options' differences), matrix (every
parameter of every variant).
"""
