"""Rooms: practice, friend and quick match tables and the matches played at them.

Other code uses :class:`bidak.server.rooms.service.RoomService` (the facade; its docstring says
which module of the package holds what) and the vocabulary of :mod:`bidak.server.rooms.room`.
"""
