"""The model: the typed values every other wing speaks in. It imports no other wing.

cards (codes, parsed and normalised once), actions, situation (and MissingFact),
enums (Verdict, ActionType, Status), messages (keys with typed arguments),
findings (Finding, Ruling), errors (the AdjudicatorError family), citations,
rule_ids (the stable rule ids), parameters (what every variant must state),
requirement (an opening requirement), requests (the typed requests the parser
hands the engine).
"""
