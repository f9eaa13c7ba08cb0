// HTTP calls of docs/protocol.md (plus the hint and review endpoints).

export class ApiError extends Error {
  constructor(status, message, code = null, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code; // a machine code the server gave (e.g. "name_reserved"), if any
    this.retryAfter = retryAfter; // seconds, from a 429's Retry-After
  }
}

export async function call(method, path, body, extraHeaders = {}) {
  const response = await fetch(path, {
    method,
    credentials: "same-origin",
    headers: { ...(body === undefined ? {} : { "Content-Type": "application/json" }), ...extraHeaders },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) {
    const detail = data && typeof data === "object" ? data.detail : data;
    const retry = Number(response.headers.get("Retry-After"));
    const retryAfter = retry > 0 ? retry : null;
    if (detail && typeof detail === "object" && typeof detail.code === "string") {
      throw new ApiError(response.status, detail.message || response.statusText, detail.code, retryAfter);
    }
    throw new ApiError(response.status, typeof detail === "string" ? detail : response.statusText, null, retryAfter);
  }
  return data;
}

export const api = {
  me: () => call("GET", "/api/me"),
  rename: (name) => call("PATCH", "/api/me", { name }),
  history: () => call("GET", "/api/me/matches"),
  createRoom: (options) => call("POST", "/api/rooms", options),
  room: (code) => call("GET", `/api/rooms/${encodeURIComponent(code)}`),
  joinRoom: (code) => call("POST", `/api/rooms/${encodeURIComponent(code)}/join`),
  hint: (code, level = "2ply") =>
    call("GET", `/api/rooms/${encodeURIComponent(code)}/hint?level=${level}`),
  review: (matchId, level = "1ply") =>
    call("GET", `/api/matches/${encodeURIComponent(matchId)}/review?level=${level}`),
  events: (matchId, since = 0) =>
    call("GET", `/api/matches/${encodeURIComponent(matchId)}/events?since=${since}`),
  matUrl: (matchId) => `/api/matches/${encodeURIComponent(matchId)}/mat`,
  wallet: () => call("GET", "/api/me/wallet"),
  checkIn: () => call("POST", "/api/me/checkin"),
  shop: () => call("GET", "/api/shop"),
  buy: (item, key) =>
    call("POST", `/api/shop/${encodeURIComponent(item)}/buy`, undefined, { "Idempotency-Key": key }),
  equip: (choice) => call("POST", "/api/me/equip", choice),
  // Playing strangers (issue 18)
  quick: (options) => call("POST", "/api/quick", options),
  quickStatus: () => call("GET", "/api/quick"),
  leaveQuick: () => call("DELETE", "/api/quick"),
  rematch: (code) => call("POST", `/api/rooms/${encodeURIComponent(code)}/rematch`),
  mute: (code, seat, muted) => call("POST", `/api/rooms/${encodeURIComponent(code)}/mute`, { seat, muted }),
  matchRating: (matchId) => call("GET", `/api/matches/${encodeURIComponent(matchId)}/rating`),
  player: (id) => call("GET", `/api/players/${encodeURIComponent(id)}`),
  leaderboard: () => call("GET", "/api/leaderboard"),
  live: () => call("GET", "/api/live"),
};
