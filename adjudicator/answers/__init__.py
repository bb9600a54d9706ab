"""The library's edge: the engine's typed results as the JSON documents the service answers, in a reader's
language (:mod:`.serialize`), and the words of problems (:mod:`.phrases`).

It stands above every other wing and nothing of the engine imports it; the web service (``web_api``), the
phone's engine and the command line all answer through it, so they answer alike.
"""
