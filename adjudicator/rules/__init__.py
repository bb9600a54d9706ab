"""The rules: the judge, the readings of open points, the checks one subject each, and rule().
"""
