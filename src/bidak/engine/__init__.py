"""Bots, hints and analysis on the Open Sage engine (``bgsage``).

Every use of ``bgsage`` lives in :mod:`bidak.engine.sage`; the rest of Bidak never imports it.
"""
