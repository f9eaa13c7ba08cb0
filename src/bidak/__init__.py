"""Bidak: an open-source backgammon platform.

Layers, from the bottom: ``bidak.rules`` (pure rules), ``bidak.match`` (pure match state machine),
``bidak.formats`` (interchange formats), ``bidak.engine`` (bots and analysis), ``bidak.cli``.
"""

from bidak.errors import BidakError

__all__ = ["BidakError", "__version__"]
__version__ = "0.1.0"
