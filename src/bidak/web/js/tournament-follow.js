// @ts-check
// From one tournament match to the next, wherever the player is (issue 36): when a tournament
// pairs them, every page of theirs (a finished table, the tournament's page, the lobby, any
// other) goes to the new table at once. The pairing comes as `{"type": "tournament", "state":
// "paired"}` on every socket of the player's (a table's too: table.js passes it here), in
// whatever order with the table's own last events; and GET /api/tournaments/mine is asked when
// the page loads and each time this module's socket opens, so a reload, or a pairing sent while
// the socket was down, finds the table waiting for the player too. The match's clock starts
// only when both players are at its table (or its grace ran out), so nobody loses time here.
// The socket is kept open only while the player is in a tournament not over.
import { api } from "./api.js";

/** @import { TournamentMessage } from "./types.js" */

const RETRY_MS = [1000, 2000, 5000, 10000];

/** @type {{ navigate: ((path: string) => void) | null, socket: WebSocket | null, active: boolean, tries: number,
 *   retry: ReturnType<typeof setTimeout> | undefined }} */
const state = { navigate: null, socket: null, active: false, tries: 0, retry: undefined };

/** Go to the table of `room`, unless the page shows it already. */
function go(/** @type {string} */ room) {
  if (!state.navigate || location.hash === `#/room/${room}`) return;
  state.navigate(`/room/${room}`);
}

/** A message of the player's own: a pairing takes the page to the new table. */
export function onTournamentMessage(/** @type {TournamentMessage} */ message) {
  if (message.type === "tournament" && message.state === "paired") go(message.room);
}

/** Ask where the player is expected; keep the socket open while they are in a tournament. */
export async function checkTournaments() {
  let mine;
  try {
    mine = await api.myTournaments();
  } catch {
    return;
  }
  state.active = mine.active;
  if (mine.waiting) go(mine.waiting.room);
  if (state.active) openSocket();
  else if (state.socket) state.socket.close();
}

function openSocket() {
  if (state.socket) return;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws`);
  state.socket = ws;
  ws.onopen = () => {
    state.tries = 0;
    checkTournaments();
  };
  ws.onmessage = (event) => {
    try {
      onTournamentMessage(JSON.parse(event.data));
    } catch {
      // not JSON: nothing for us
    }
  };
  ws.onclose = () => {
    if (state.socket === ws) state.socket = null;
    if (!state.active) return;
    clearTimeout(state.retry);
    state.retry = setTimeout(checkTournaments, RETRY_MS[Math.min(state.tries++, RETRY_MS.length - 1)]);
  };
}

/**
 * Follow the player's tournaments from now on (once the session is known).
 * @param {{ navigate: (path: string) => void, session: Promise<unknown> }} context
 */
export function followTournaments({ navigate, session }) {
  state.navigate = navigate;
  session.then(checkTournaments);
}
