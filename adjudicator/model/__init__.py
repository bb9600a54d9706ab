"""The model: cards, actions, the situation, message keys, findings, errors, rule ids, parameters.

Plain typed values every other wing speaks in; it imports no other wing.
"""
