// @ts-check
// One WebSocket to /ws (docs/protocol.md). Joins a room, keeps the highest version seen, and
// when the connection drops, reconnects by itself with backoff and joins again with `since`.

const BACKOFF = [300, 800, 1500, 3000, 5000, 8000];
// The server closed this socket because the same browser opened too many (docs/protocol.md):
// reconnecting would close another of them in turn, so this one stays closed.
const REPLACED = 4001;
// The server closed this socket because its session ended: signed out here or everywhere, ended
// from another browser, or the account deleted. Reconnecting would only make a new guest, so the
// table says so and stays closed. (4002, a session this browser renewed at sign-in, reconnects.)
const SIGNED_OUT = 4003;

/** @import { Action, ConnectionStatus, ServerMessage } from "./types.js" */

export class Connection {
  /**
   * @param {string} room
   * @param {{ message: (message: ServerMessage) => void, status: (status: ConnectionStatus) => void }} handlers
   */
  constructor(room, handlers) {
    this.room = room;
    this.handlers = handlers;
    this.version = 0;
    this.attempt = 0;
    this.closed = false;
    /** @type {WebSocket | null} */
    this.ws = null;
    /** @type {ReturnType<typeof setTimeout> | undefined} */
    this.timer = undefined;
    /** @type {ReturnType<typeof setInterval> | undefined} the keep-alive ping, every 20 s */
    this.pinger = undefined;
    this.open();
  }

  open() {
    if (this.closed) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    // The room in the address: the server does not read it, a load balancer that keeps a
    // room's players on one process routes by it (docs/scaling.md).
    const where = `/ws?room=${encodeURIComponent(this.room)}`;
    const ws = new WebSocket(`${scheme}://${location.host}${where}`);
    this.ws = ws;
    this.handlers.status(this.attempt ? "lost" : "connecting");
    ws.onopen = () => {
      this.attempt = 0;
      /** @type {{ type: "join", room: string, since?: number }} */
      const join = { type: "join", room: this.room };
      if (this.version > 0) join.since = this.version;
      ws.send(JSON.stringify(join));
      this.handlers.status("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), 20000);
    };
    ws.onmessage = (event) => {
      /** @type {ServerMessage} */
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      if (message.type === "snapshot" || message.type === "events") {
        if (message.version < this.version && message.type === "events") return;
        this.version = Math.max(this.version, message.version || 0);
      }
      this.handlers.message(message);
    };
    ws.onclose = (event) => {
      clearInterval(this.pinger);
      if (this.ws !== ws || this.closed) return;
      if (event.code === REPLACED || event.code === SIGNED_OUT) {
        this.closed = true;
        this.handlers.status(event.code === REPLACED ? "replaced" : "signed_out");
        return;
      }
      this.handlers.status("lost");
      const delay = BACKOFF[Math.min(this.attempt, BACKOFF.length - 1)];
      this.attempt += 1;
      this.timer = setTimeout(() => this.open(), delay * (0.75 + Math.random() * 0.5));
    };
    ws.onerror = () => {}; // onclose follows and handles it
  }

  /** Write `message` if the socket is open; says whether it was. */
  send(/** @type {Record<string, unknown>} */ message) {
    if (this.ws && this.ws.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(message));
      return true;
    }
    return false;
  }

  /** @param {Action} action @param {number} [version] */
  intent(action, version) {
    /** @type {{ type: "intent", action: Action, version?: number }} */
    const message = { type: "intent", action };
    if (version !== undefined) message.version = version;
    return this.send(message);
  }

  /** Drop the socket as a network failure would (used by tests and the debug hook). */
  drop() {
    if (this.ws) this.ws.close();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
