"""The reference server, as :class:`~bidak.bench.server.ServerProcess` starts it:
``python -m bidak.bench.server PORT BYTES``."""

import sys

from bidak.bench.server.relay import serve_relay

if __name__ == "__main__":
    serve_relay(int(sys.argv[1]), int(sys.argv[2]))
