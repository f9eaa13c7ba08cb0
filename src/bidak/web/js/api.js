// @ts-check
// HTTP calls of docs/protocol.md (plus the hint and review endpoints).

/**
 * @import { NotifySettings } from "./push.js"
 * @import { Access, AuditEntry, Challenges, CheckIn, FoundPlayer, Friend, Relation, HintAnswer, HistoryItem, Leaderboard, LiveGame, Notes, Vacation, YourGames, MatchRating, Me, ModCase,
 *   ModCaseDetail, PlayerProfile, QuickOptions, QuickStatus, RematchAnswer, ReportReason, Review, RoomInfo, Shop,
 *   Wallet, MatchEvents, NextMatch, TournamentList, TournamentView, MyTournaments, TableTournament, Drill, DrillVerdict, TrainingSummary,
 *   TutorAdvice, PuzzleSummary, NextPuzzle, PuzzleVerdict } from "./types.js"
 */

export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} message
   * @param {string | null} [code]
   * @param {number | null} [retryAfter]
   */
  constructor(status, message, code = null, retryAfter = null) {
    super(message);
    this.status = status;
    this.code = code; // a machine code the server gave (e.g. "name_reserved"), if any
    this.retryAfter = retryAfter; // seconds, from a 429's Retry-After
  }
}

/** The HTTP status of a refused request (0 for anything else: a network failure). */
export function statusOf(/** @type {unknown} */ error) {
  return error instanceof ApiError ? error.status : 0;
}

/** The refusals of the server's door check (docs/security.md), each with its `refusal.<code>` text. */
const DOORS = ["banned", "rated_banned", "guest", "muted", "blocked"];

/**
 * The text key of a refusal by the server's door check (a ban, a mute, a guest), or `fallback`.
 * @param {unknown} error
 * @param {string} fallback
 */
export function refusalKey(error, fallback) {
  return error instanceof ApiError && error.code && DOORS.includes(error.code) ? `refusal.${error.code}` : fallback;
}

/**
 * One request; resolves to the answer's JSON (null when empty), or throws an ApiError. The
 * answer's type is the caller's word: it is what docs/protocol.md says that address answers.
 * @template [T=unknown]
 * @param {string} method
 * @param {string} path
 * @param {unknown} [body]
 * @param {Record<string, string>} [extraHeaders]
 * @returns {Promise<T>}
 */
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

const room = (/** @type {string} */ code) => `/api/rooms/${encodeURIComponent(code)}`;
const match = (/** @type {string} */ id) => `/api/matches/${encodeURIComponent(id)}`;
const tour = (/** @type {string} */ id) => `/api/tournaments/${encodeURIComponent(id)}`;
const friend = (/** @type {string} */ id) => `/api/friends/${encodeURIComponent(id)}`;
const challenge = (/** @type {string} */ id) => `/api/challenges/${encodeURIComponent(id)}`;

export const api = {
  me: () => /** @type {Promise<Me>} */ (call("GET", "/api/me")),
  rename: (/** @type {string} */ name) => /** @type {Promise<Me>} */ (call("PATCH", "/api/me", { name })),
  setAccess: (/** @type {Access} */ access) => /** @type {Promise<Me>} */ (call("PUT", "/api/me/access", access)),
  history: () => /** @type {Promise<HistoryItem[]>} */ (call("GET", "/api/me/matches")),
  createRoom: (/** @type {Record<string, unknown>} */ options) =>
    /** @type {Promise<RoomInfo>} */ (call("POST", "/api/rooms", options)),
  room: (/** @type {string} */ code) => /** @type {Promise<RoomInfo>} */ (call("GET", room(code))),
  joinRoom: (/** @type {string} */ code) => /** @type {Promise<RoomInfo>} */ (call("POST", `${room(code)}/join`)),
  hint: (/** @type {string} */ code, level = "2ply") =>
    /** @type {Promise<HintAnswer>} */ (call("GET", `${room(code)}/hint?level=${level}`)),
  review: (/** @type {string} */ matchId, level = "2ply") =>
    /** @type {Promise<Review>} */ (call("GET", `${match(matchId)}/review?level=${level}`)),
  events: (/** @type {string} */ matchId, since = 0) =>
    /** @type {Promise<MatchEvents>} */ (call("GET", `${match(matchId)}/events?since=${since}`)),
  matUrl: (/** @type {string} */ matchId) => `${match(matchId)}/mat`,
  wallet: () => /** @type {Promise<Wallet>} */ (call("GET", "/api/me/wallet")),
  checkIn: () => /** @type {Promise<CheckIn>} */ (call("POST", "/api/me/checkin")),
  shop: () => /** @type {Promise<Shop>} */ (call("GET", "/api/shop")),
  buy: (/** @type {string} */ item, /** @type {string} */ key) =>
    call("POST", `/api/shop/${encodeURIComponent(item)}/buy`, undefined, { "Idempotency-Key": key }),
  equip: (/** @type {{ board: string, checkers: string }} */ choice) => call("POST", "/api/me/equip", choice),
  // Playing strangers (issue 18)
  quick: (/** @type {QuickOptions} */ options) =>
    /** @type {Promise<QuickStatus>} */ (call("POST", "/api/quick", options)),
  quickStatus: () => /** @type {Promise<QuickStatus>} */ (call("GET", "/api/quick")),
  leaveQuick: () => call("DELETE", "/api/quick"),
  rematch: (/** @type {string} */ code) =>
    /** @type {Promise<RematchAnswer>} */ (call("POST", `${room(code)}/rematch`)),
  mute: (/** @type {string} */ code, /** @type {number} */ seat, /** @type {boolean} */ muted) =>
    call("POST", `${room(code)}/mute`, { seat, muted }),
  matchRating: (/** @type {string} */ matchId) =>
    /** @type {Promise<MatchRating>} */ (call("GET", `${match(matchId)}/rating`)),
  player: (/** @type {string} */ id) =>
    /** @type {Promise<PlayerProfile>} */ (call("GET", `/api/players/${encodeURIComponent(id)}`)),
  leaderboard: () => /** @type {Promise<Leaderboard>} */ (call("GET", "/api/leaderboard")),
  live: () => /** @type {Promise<LiveGame[]>} */ (call("GET", "/api/live")),
  // Correspondence (issue 38)
  games: () => /** @type {Promise<YourGames>} */ (call("GET", "/api/games")),
  gameSettings: () => /** @type {Promise<{ auto_roll: boolean }>} */ (call("GET", "/api/games/settings")),
  setAutoRoll: (/** @type {boolean} */ on) =>
    /** @type {Promise<{ auto_roll: boolean }>} */ (call("PUT", "/api/games/settings", { auto_roll: on })),
  vacation: () => /** @type {Promise<Vacation>} */ (call("GET", "/api/vacation")),
  takeVacation: (/** @type {number} */ days) =>
    /** @type {Promise<Vacation>} */ (call("POST", "/api/vacation", { days })),
  // The notification centre (issue 38)
  notifications: () => /** @type {Promise<Notes>} */ (call("GET", "/api/notifications")),
  unreadNotes: () => /** @type {Promise<{ unread: number }>} */ (call("GET", "/api/notifications/unread")),
  markRead: (/** @type {number[] | null} */ ids) =>
    /** @type {Promise<{ unread: number }>} */ (call("POST", "/api/notifications/read", ids ? { ids } : {})),
  markRoomRead: (/** @type {string} */ room) =>
    /** @type {Promise<{ unread: number }>} */ (call("POST", "/api/notifications/read", { room })),
  // Friends, challenges and blocks (issue 38)
  friends: () => /** @type {Promise<{ friends: Friend[] }>} */ (call("GET", "/api/friends")),
  searchPlayers: (/** @type {string} */ name) =>
    /** @type {Promise<{ players: FoundPlayer[] }>} */ (
      call("GET", `/api/friends/search?name=${encodeURIComponent(name)}`)
    ),
  relation: (/** @type {string} */ id) => /** @type {Promise<Relation>} */ (call("GET", friend(id))),
  follow: (/** @type {string} */ id, /** @type {boolean} */ on) =>
    /** @type {Promise<Relation>} */ (call(on ? "PUT" : "DELETE", friend(id))),
  block: (/** @type {string} */ id, /** @type {boolean} */ on) =>
    /** @type {Promise<Relation>} */ (call(on ? "PUT" : "DELETE", `/api/blocks/${encodeURIComponent(id)}`)),
  challenges: () => /** @type {Promise<Challenges>} */ (call("GET", "/api/challenges")),
  challenge: (/** @type {string} */ to, /** @type {Record<string, unknown>} */ options) =>
    call("POST", "/api/challenges", { ...options, to }),
  acceptChallenge: (/** @type {string} */ id) =>
    /** @type {Promise<{ room: string }>} */ (call("POST", `${challenge(id)}/accept`)),
  declineChallenge: (/** @type {string} */ id) => call("POST", `${challenge(id)}/decline`),
  cancelChallenge: (/** @type {string} */ id) => call("DELETE", challenge(id)),
  notifySettings: () => /** @type {Promise<NotifySettings>} */ (call("GET", "/api/notifications/settings")),
  setNotify: (/** @type {"push" | "email"} */ channel, /** @type {string} */ kind, /** @type {boolean} */ on) =>
    /** @type {Promise<NotifySettings>} */ (call("PUT", "/api/notifications/settings", { channel, kind, on })),
  // Web Push (issue 38)
  pushKey: () => /** @type {Promise<{ key: string }>} */ (call("GET", "/api/push/key")),
  pushSubscribe: (/** @type {Record<string, unknown>} */ subscription) =>
    /** @type {Promise<{ subscribed: boolean }>} */ (call("POST", "/api/push/subscriptions", subscription)),
  pushUnsubscribe: (/** @type {string} */ endpoint) =>
    /** @type {Promise<{ subscribed: boolean }>} */ (call("DELETE", "/api/push/subscriptions", { endpoint })),
  // Tournaments (issue 27)
  tournaments: () => /** @type {Promise<TournamentList>} */ (call("GET", "/api/tournaments")),
  tournament: (/** @type {string} */ id) => /** @type {Promise<TournamentView>} */ (call("GET", tour(id))),
  createKnockout: (/** @type {Record<string, unknown>} */ options) =>
    /** @type {Promise<{ id: string }>} */ (call("POST", "/api/tournaments", options)),
  joinTournament: (/** @type {string} */ id) =>
    /** @type {Promise<TournamentView>} */ (call("POST", `${tour(id)}/join`)),
  pauseTournament: (/** @type {string} */ id, /** @type {boolean} */ paused) =>
    call("POST", `${tour(id)}/pause`, { paused }),
  myTournaments: () => /** @type {Promise<MyTournaments>} */ (call("GET", "/api/tournaments/mine")),
  tableTournament: (/** @type {string} */ code) =>
    /** @type {Promise<TableTournament>} */ (call("GET", `/api/tournaments/room/${encodeURIComponent(code)}`)),
  readyTournament: (/** @type {string} */ id) =>
    /** @type {Promise<NextMatch | null>} */ (call("POST", `${tour(id)}/ready`)),
  // Fair play (issue 26)
  report: (/** @type {string} */ matchId, /** @type {ReportReason} */ reason, /** @type {string} */ note) =>
    call("POST", "/api/reports", { match_id: matchId, reason, note: note || null }),
  myActions: () => /** @type {Promise<AuditEntry[]>} */ (call("GET", "/api/me/actions")),
  modQueue: () => /** @type {Promise<ModCase[]>} */ (call("GET", "/api/mod/queue")),
  modCase: (/** @type {string} */ id) =>
    /** @type {Promise<ModCaseDetail>} */ (call("GET", `/api/mod/players/${encodeURIComponent(id)}`)),
  modAct: (/** @type {string} */ id, /** @type {{ kind: string, note: string, name?: string }} */ action) =>
    /** @type {Promise<AuditEntry>} */ (call("POST", `/api/mod/players/${encodeURIComponent(id)}/actions`, action)),
  tutor: (/** @type {string} */ code, /** @type {{ steps: number[][] } | { cube: string }} */ question) =>
    /** @type {Promise<TutorAdvice>} */ (call("POST", `${room(code)}/tutor`, question)),
  // Training from one's own mistakes (issue 28)
  training: () => /** @type {Promise<TrainingSummary>} */ (call("GET", "/api/training")),
  drill: () => /** @type {Promise<Drill>} */ (call("GET", "/api/training/drill")),
  answerCard: (/** @type {number} */ id, /** @type {Record<string, string>} */ answer) =>
    /** @type {Promise<DrillVerdict>} */ (call("POST", `/api/training/cards/${id}/answer`, answer)),
  puzzles: () => /** @type {Promise<PuzzleSummary>} */ (call("GET", "/api/puzzles")),
  nextPuzzle: (/** @type {string | null} */ theme) =>
    /** @type {Promise<NextPuzzle>} */ (
      call("GET", theme ? `/api/puzzles/next?theme=${encodeURIComponent(theme)}` : "/api/puzzles/next")
    ),
  answerPuzzle: (/** @type {number} */ id, /** @type {Record<string, string>} */ answer) =>
    /** @type {Promise<PuzzleVerdict>} */ (call("POST", `/api/puzzles/${id}/answer`, answer)),
  sharePuzzles: (/** @type {boolean} */ shared) =>
    /** @type {Promise<PuzzleSummary>} */ (call("PUT", "/api/puzzles/sharing", { shared })),
};
