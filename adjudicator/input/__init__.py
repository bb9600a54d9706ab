"""Input: the request shapes (marshmallow), their compiled fast check, and the parser.

JSON in, typed requests out. The one wing that loads marshmallow; nothing below it imports it.
"""
