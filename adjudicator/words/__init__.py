"""Words: the English catalogue, its translations (locale/), rendering in four languages, extraction.

Findings carry message keys; this wing alone turns them into sentences.
"""
