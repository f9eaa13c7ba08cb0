"""``bidak bench server``: scripted friend matches over real WebSockets, next to a bare relay.

What is measured. N friend matches, two clients each, play at a "human pace": a client acts a
random ``think`` time after the table gives it a decision, choosing among the legal plays the
server sent. For every intent the load generator times the first ``events`` message that follows
it on the actor's socket and on the opponent's socket (action-to-broadcast latency). A match that
ends is followed at once by a new one between the same two players.

The reference, measured in the same run, is a bare WebSocket relay on the same stack (uvicorn,
its WebSocket protocol and JSON): as many pairs of connections take turns at the same pace, and
each message is answered on both sockets of its pair with a reply as large as Bidak's broadcasts
were. The gap between the rows is what Bidak itself costs: validation, rules, storage, views.

How the load is made. Every client is an asyncio task on ``websockets`` (uvloop when present).
Up to :data:`~.measure.IN_PROCESS` matches run in this process; more go to worker processes (one per
1,000 matches, at most one per core), each owning whole matches so both sockets of a match are
timed by one clock. Pacing, not the generator, should set the rate: a client spends far less
than a millisecond per message, so two workers carry 4,000 sockets at human pace. A pair plays
as soon as it is set up (a ramp, which also keeps the 90-second move clocks from running out
while the other pairs are created); only intents sent inside the window, which opens when every
pair is ready and lasts ``duration`` seconds, are counted.

The server started by the bench serves ``/metrics`` to it (``BIDAK_METRICS=local``): the table
also shows the server's longest event loop stall and its longest collection in the window
(:mod:`.loopwatch`), "-" for a server that does not tell them.

The package, by concern:

- :mod:`.load`: what one run is (the load, the think time) and what its clients saw (the tally);
- :mod:`.scripted`: what a scripted client answers, from the table alone;
- :mod:`.clients`: the clients of one process, and the worker processes that run more;
- :mod:`.relay`: the reference server;
- :mod:`.processes`: servers in subprocesses (``bidak serve`` or the relay);
- :mod:`.loopwatch`: the server's own longest stall and collection, read from its ``/metrics``;
- :mod:`.measure`: one measured run, and :func:`run`, the two runs of ``bidak bench server``;
- :mod:`.report`: the table it prints.
"""

from bidak.bench.server.clients import NewPlayersRefused
from bidak.bench.server.load import Load, Tally, Think
from bidak.bench.server.measure import Result, default_workers, measure, run
from bidak.bench.server.processes import ServerProcess, free_port
from bidak.bench.server.relay import relay_app
from bidak.bench.server.report import quantile, results_table
from bidak.bench.server.scripted import choose, my_decision

__all__ = [
    "Load",
    "NewPlayersRefused",
    "Result",
    "ServerProcess",
    "Tally",
    "Think",
    "choose",
    "default_workers",
    "free_port",
    "measure",
    "my_decision",
    "quantile",
    "relay_app",
    "results_table",
    "run",
]
