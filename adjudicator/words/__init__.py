"""Words: message keys put into sentences, in English, Swedish, Norwegian Bokmål and Danish.

catalogue and catalogue_params (the English texts), clauses (a reading or a value
as a message), render (a message in a language, from the gettext catalogues in
locale/), extract (pybabel's extraction method). Findings carry keys; only this wing
(and the web layer, through it) makes sentences. It imports the model only.
"""
