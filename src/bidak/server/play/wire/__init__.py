"""The wire: every message the server sends over the WebSocket, as typed values.

:mod:`~bidak.server.play.wire.table` is the table a connection is drawn; :mod:`~.messages` every
server-to-client message (each with its ``type`` as a ``Literal``) and the constructors that are
the only way they are built; :mod:`~.notes` what the bus carries for each connection to draw;
:mod:`~.doc` renders the tables of ``docs/protocol.md`` from them, from the client's messages
(:mod:`bidak.server.play.protocol`) and from the HTTP answers' models.

The messages are ``TypedDict``\\ s: plain dicts at run time, checked by mypy where they are built
and by a pydantic ``TypeAdapter`` (:data:`~.messages.ServerMessage`) in the tests, never on the
broadcast path (``scripts/wire_timing.py`` measures what that path costs).
"""
