"""The rules: rule() and the checks it composes, each reading only the parameters it needs.

judge (reads parameters, records findings, cites the words), readings (rules once
per reading of an open point), table_check (a table that cannot happen), turn, pile,
melds, table, opening, going_out (the checks, one subject each), engine (rule()).
Imports the model, the words and the variant loader.
"""
