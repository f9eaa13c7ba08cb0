"""The game server: an authoritative FastAPI app with rooms, clocks, bots, fair dice and storage.

It is the only layer (with the CLI) that does I/O. The match rules live in :mod:`bidak.match`;
the server validates every intent there, stores the events before anyone sees them, then
publishes them.
"""
