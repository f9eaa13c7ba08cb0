// Shared types of the browser client (src/bidak/web/js), for `tsc --noEmit` only: the modules
// name them in JSDoc (`/** @import { Table } from "./types.js" */`), which the browser never
// loads. tsconfig.json's `rootDirs` lays this folder over src/bidak/web, so "./types.js" from a
// module there is this file. The wire format is docs/protocol.md's; these types only say what
// the client reads of it.

// -- the table -------------------------------------------------------------------------------

/** A step `[start, end]` in the mover's numbering (25 bar, 0 off); the server adds `hit`. */
export type Step = [number, number, boolean?];

/** A position from the viewer's side: `points[i]` is point i + 1 (> 0 the viewer's). */
export interface Board {
  points: number[];
  bar: number[];
  off: number[];
}

export interface LegalPlay {
  steps: Step[];
  notation: string;
  alternatives?: Step[][];
}

export type Phase = "opening" | "roll" | "move" | "doubled" | "resign_offered" | "match_over";

export interface Cube {
  value: number;
  owner: number | null;
  offered: number | null;
  in_use: boolean;
}

/** `table` of a snapshot or events message: the whole table as the receiving seat sees it. */
export interface Table extends Board {
  phase: Phase;
  turn: number | null;
  viewer: number;
  pips: number[];
  dice: number[] | null;
  cube: Cube;
  score: number[];
  length: number;
  crawford: boolean;
  post_crawford: boolean;
  resign: { level: number; by: number } | null;
  autoplay: boolean[];
  strikes: number[];
  strike_limit: number | null;
  winner: number | null;
  legal_plays: LegalPlay[];
  allowed: string[];
}

export interface Seat {
  name?: string;
  id?: string;
  bot?: string;
  you?: boolean;
  checkers?: string;
}

export interface Deadline {
  player: number;
  at: number;
  seconds: number;
}

// -- match events (the match log) -------------------------------------------------------------

/** One event of the match log; which fields are set depends on `type` (docs/protocol.md). */
export interface MatchEvent {
  type: string;
  player?: number;
  game?: number;
  dice?: number[];
  starter?: number;
  steps?: Step[];
  notation?: string;
  value?: number;
  level?: number;
  winner?: number;
  points?: number;
  kind?: string;
  score?: number[];
  strikes?: number;
  left?: number | null;
  on?: boolean;
}

export interface LoggedEvent {
  version: number;
  event: MatchEvent;
}

/** GET /api/matches/{id}/events */
export interface MatchEvents {
  match_id: string;
  finished: boolean;
  events: LoggedEvent[];
}

// -- WebSocket messages, server to client ------------------------------------------------------

export interface SnapshotMessage {
  type: "snapshot";
  room: string;
  kind: RoomKind;
  seat: number | null;
  seats?: Seat[];
  move_seconds: number | null;
  match: string | null;
  version: number;
  table: Table | null;
  deadline: Deadline | null;
  now?: number;
  missed?: LoggedEvent[];
}

export interface EventsMessage {
  type: "events";
  room: string;
  match: string | null;
  version: number;
  events: LoggedEvent[];
  table: Table;
  deadline: Deadline | null;
  now?: number;
}

export interface ErrorMessage {
  type: "error";
  code: string;
  message?: string;
  room?: string;
}

export interface PongMessage {
  type: "pong";
  now?: number;
}

export interface QuickMessage {
  type: "quick";
  state: "waiting" | "paired" | "offer" | "left";
  since?: number;
  room?: string;
  level?: string;
}

export interface RematchMessage {
  type: "rematch";
  state: "offered" | "accepted";
  by?: number;
  until?: number;
  room?: string;
}

export interface TalkMessage {
  type: "talk";
  seat: number;
  phrase: string;
}

export type ServerMessage =
  | SnapshotMessage
  | EventsMessage
  | ErrorMessage
  | PongMessage
  | QuickMessage
  | RematchMessage
  | TalkMessage
  | TournamentMessage;

/** What `Connection` reports: connecting, open, lost (reconnecting), replaced (closed 4001). */
export type ConnectionStatus = "connecting" | "open" | "lost" | "replaced" | "signed_out";

/** `intent.action`. */
export interface Action {
  type: string;
  steps?: number[][];
  level?: number;
  on?: boolean;
}

// -- HTTP answers the client reads ----------------------------------------------------------------

export type RoomKind = "practice" | "friend" | "quick" | "tournament";

export interface RoomInfo {
  code: string;
  kind: RoomKind;
  seat: number | null;
  seats: Seat[];
  invite_url?: string;
  match_id?: string;
}

export interface Me {
  id: string;
  name: string;
  rating?: number;
  email?: string | null;
  email_linked?: boolean;
  /** the browser came with a session that had ended: this is a new guest */
  signed_out?: boolean;
  moderator?: boolean;
  /** a moderator muted this player's table talk */
  talk_muted?: boolean;
  /** the accessibility settings kept with the account (settings.js) */
  access?: Access;
}

export interface Access {
  motion: boolean;
  contrast: boolean;
  large: boolean;
  shapes: boolean;
}

/** What main.js gives the views it mounts. */
export interface ViewContext {
  navigate: (path: string) => void;
  me: () => Me | null;
  setMe: (me: Me | null) => void;
  /** The visitor's first request (GET /api/me): every other request waits for it. */
  session: Promise<unknown>;
}

export interface QuickOptions {
  length: number;
  move_seconds: number;
  cube: boolean;
}

export interface QuickStatus {
  waiting: boolean;
  since?: number | null;
  waited?: number;
  options?: QuickOptions | null;
  offered?: boolean;
  room?: string | null;
}

export interface HistoryItem {
  match_id: string;
  room: string;
  kind: RoomKind;
  bot?: string | null;
  opponent: string;
  length: number;
  score: number[];
  finished: boolean;
  won: boolean;
  updated_at: string;
}

export interface Probabilities {
  win: number;
  win_gammon: number;
  lose_gammon: number;
}

export interface PlayCandidate {
  rank: number;
  notation: string;
  steps: number[][];
  equity: number;
  loss: number;
  probabilities: Probabilities;
}

export interface CubeHintData {
  action: string;
  right_action: string;
  no_double: number;
  double_take: number;
  double_pass: number;
  probabilities: Probabilities;
}

/** GET /api/rooms/{code}/hint. */
export type HintAnswer =
  | { kind: "PlayHint"; hint: { candidates: PlayCandidate[]; level: string } }
  | { kind: "CubeHint"; hint: CubeHintData & { level?: string } };

export interface RatingLine {
  seat: number;
  before: number;
  change: number;
  after: number;
}

export interface MatchRating {
  rated: boolean;
  players: RatingLine[];
  /** Why a match of a rated room moved no rating. */
  unrated?: "guest" | "pair_limit" | null;
}

export interface RematchAnswer {
  state: "offered" | "accepted";
  by?: number;
  until?: number;
  room?: string;
}

export interface ShopItem {
  id: string;
  kind: "board" | "checkers";
  price: number;
  owned: boolean;
  equipped: boolean;
  preview: string;
  colours: Record<string, string>;
  texture?: string | null;
}

export interface Shop {
  balance: number;
  board: string;
  checkers: string;
  items: ShopItem[];
}

export interface Wallet {
  balance: number;
  streak: number;
  checked_in_today: boolean;
  next_reward: number;
  rewards: number[];
}

export interface CheckIn {
  balance: number;
  streak: number;
  next_reward: number;
  credited: number;
  welcome?: number;
  already: boolean;
}

export interface Leaderboard {
  leaders: { rank: number; id: string; name: string; rating: number; experience: number }[];
  your_rank: number | null;
  min_experience: number;
  active_days: number;
  your_experience: number;
  matches_to_go: number;
}

export interface LiveGame {
  room: string;
  kind: RoomKind;
  match_id: string;
  players: ({ id: string; name: string; rating: number } | null)[];
  length: number | null;
  score: number[] | null;
  started_at: string;
}

export interface YourGame {
  room: string;
  match_id: string;
  yours: boolean;
  deadline: number | null;
  seat: number;
  opponent: string | null;
  opponent_id: string | null;
  score: number[];
  length: number;
  days_per_move: number | null;
  board: number[];
}

export interface Vacation {
  start: number | null;
  end: number | null;
  days_left: number;
  bank: number;
}

export interface Note {
  id: number;
  kind: "turn" | "time" | "over" | "moderator" | "tournament" | "challenge" | "accepted" | "declined";
  room: string | null;
  at: number;
  read: boolean;
}

export interface Notes {
  unread: number;
  notes: Note[];
}

/** GET /api/friends: a player you follow (issue 38). */
export interface Friend {
  id: string;
  name: string;
  rating: number;
  guest: boolean;
  /** seen in the last 10 minutes */
  online: boolean;
  /** at a live table whose match is in play */
  playing: boolean;
  /** that table, when anybody may watch it */
  room: string | null;
}

export interface FoundPlayer {
  id: string;
  name: string;
  rating: number;
}

/** A friend room's options, as a challenge carries them. */
export interface ChallengeOptions {
  length: number;
  cube: boolean;
  move_seconds: number;
  days_per_move: number | null;
  opening: string;
  timeout_policy: string;
  rated: boolean;
  private: boolean;
}

export interface Challenge {
  id: string;
  /** the other player: the challenger of an incoming one, the challenged of an outgoing one */
  player_id: string;
  name: string;
  created: number;
  expires: number;
  options: ChallengeOptions;
}

export interface Challenges {
  now: number;
  incoming: Challenge[];
  outgoing: Challenge[];
}

/** GET /api/friends/{id}: what you and that player are to each other. */
export interface Relation {
  following: boolean;
  blocking: boolean;
  online: boolean;
  incoming: Challenge[];
  outgoing: Challenge[];
}

export interface YourGames {
  now: number;
  waiting: number;
  games: YourGame[];
}

export interface PlayerProfile {
  id: string;
  name: string;
  rating: number;
  experience: number;
  member_since: string;
  played: number;
  won: number;
  /** no linked e-mail address: unrated */
  guest?: boolean;
  /** tournament matches decided, rated or not, and won */
  tournament_played: number;
  tournament_won: number;
  streak: number;
  average_pr: number | null;
  reviewed: number;
  recent: {
    match_id: string;
    opponent_id: string | null;
    opponent: string;
    won: boolean;
    length: number;
    rating_change: number;
    at: string;
  }[];
  tournaments: TournamentResult[];
  trophies: Trophy[];
}

/** A finished tournament on a profile: the player's place among those who played. */
export interface TournamentResult {
  /** null: a player's private knockout (its id is its invite) */
  id: string | null;
  name: string;
  kind: "arena" | "knockout";
  place: number;
  players: number;
  /** its start, in seconds since the epoch */
  at: number;
}

/** A cosmetic badge: a first, second or third place, and how many times. */
export interface Trophy {
  kind: "arena" | "knockout";
  place: number;
  count: number;
}

export interface ReviewDecision {
  kind: "checker" | "cube";
  player: number;
  xgid: string;
  dice: number[];
  played: string;
  best: string | null;
  verdict: string;
  loss: number;
  luck: number;
  equity_played: number;
  turn: number;
  forced?: boolean;
}

export interface Review {
  level: string;
  players: string[];
  totals: { player: number; pr: number; errors: number; blunders: number; luck: number }[];
  games: { game: number; decisions: ReviewDecision[] }[];
}

/** What a request for a letter answers (e-mail link, sign-in, removal, deletion). */
export interface LetterSent {
  delivery?: string;
}

export interface SessionItem {
  id: string;
  device: string;
  browser?: string | null;
  system?: string | null;
  current: boolean;
  created_at: number | string;
  last_seen?: number | string | null;
}

export interface LinkPreview {
  state: string;
  purpose: string;
  name: string;
  address?: string | null;
}

export interface LinkDone {
  merged?: number;
}

// -- the table's own state (table-store.js) ---------------------------------------------------

/** The hint panel: asking, refused, or the answer with the candidate whose arrows show. */
export type HintState = { loading: true } | { error: true; busy: boolean } | (HintAnswer & { shown?: number });

/** The table as the client holds it: the server's truth, and the steps of a play not yet sent. */
export interface TableView {
  code: string;
  info: RoomInfo | null;
  seat: number | null;
  seats: Seat[];
  kind: RoomKind | null;
  moveSeconds: number | null;
  match: string | null;
  table: Table | null;
  version: number;
  deadline: Deadline | null;
  /** The server's clock minus this one's, in seconds. */
  offset: number;
  /** The board shown before the steps made (during and after an animation). */
  shown: Board | null;
  /** The steps of the viewer's play made so far, `[start, end]`. */
  made: number[][];
  selected: number | null;
  cursor: number | null;
  queue: Promise<void>;
  log: LoggedEvent[];
  hint: HintState | null;
  hintArrows: Arrow[] | null;
  lastArrows: Arrow[] | null;
  ownPlay: number[][] | null;
  ownRoll: boolean;
  autoRolled: boolean;
  timedOut: number | null;
  sending: boolean;
  ended: MatchEvent | null;
  matchOverShown: boolean;
  connection: import("./connection.js").Connection | null;
  status: ConnectionStatus;
  diceOverride: DiceShown | null;
}

/** What a store change asks to draw again (table.js routes it to the views). */
export type Change = "all" | "board" | "controls" | "play" | "hint" | "seats";

/** The values of a catalog text's {name} placeholders (i18n.js `t`). */
export type Params = Record<string, unknown>;

/** What dom.js's builders take as content (null, undefined and false are left out). */
export type Child = Node | string | number | null | undefined | false | Child[];

// -- drawing ---------------------------------------------------------------------------------

export interface Die {
  face: number;
  used: boolean;
}

export interface DiceShown {
  faces: Die[];
  side: "me" | "them";
}

export interface Arrow {
  from: number;
  to: number;
  kind?: "hint" | "last";
  mine?: boolean;
  after?: boolean;
}

/** What a board draws (board.js `render`): only `board` is required. */
export interface BoardState {
  board: Board;
  movable?: Set<number> | null;
  selected?: number | null;
  dests?: Map<number, number[][]> | null;
  dice?: DiceShown | null;
  cube?: { value: number; where: "me" | "them" | "center"; offered: number | null } | null;
  arrows?: Arrow[];
  cursor?: number | null;
  labels?: boolean;
  trays?: boolean;
}

/** What can be moved now (selection.js `options`): start -> end -> the steps that get there. */
export type Options = Map<number, Map<number, number[][]>>;

// -- debugging hooks on the page (the browser tests read them) ---------------------------------

declare global {
  interface Window {
    /** The table mounted now: its state, and a way to drop its socket as a network failure would. */
    __bidak: { view: TableView; drop: () => unknown } | null;
    /** The catalogs, and the keys asked for but missing (i18n.js). */
    __bidakI18n: {
      missing: Set<string>;
      catalogs: Record<string, Record<string, string>>;
      t: (key: string, params?: Record<string, unknown>) => string;
      language: () => string;
    };
  }
}

// Tournaments (docs/tournaments.md)
export type TournamentKind = "arena" | "knockout";
export type TournamentStatus = "open" | "running" | "finished" | "cancelled";

export interface TournamentItem {
  id: string;
  kind: TournamentKind;
  name: string;
  status: TournamentStatus;
  starts_at: number;
  ends_at: number | null;
  length: number;
  move_seconds: number;
  players: number;
}

export interface TournamentList {
  now: number;
  tournaments: TournamentItem[];
}

export interface TournamentStanding {
  rank: number;
  id: string;
  name: string;
  score: number;
  wins: number;
  played: number;
  streak: number;
  playing: boolean;
  paused: boolean;
}

export interface BracketSeat {
  id: string;
  name: string;
  seed: number;
}

export interface BracketSlot {
  a: BracketSeat | null;
  b: BracketSeat | null;
  winner: string | null;
  how: "played" | "bye" | "forfeit" | null;
  room: string | null;
}

export interface NextMatch {
  room: string;
  opponent: string;
  opponent_name: string;
  started: boolean;
  round: number | null;
}

export interface TournamentView {
  id: string;
  kind: TournamentKind;
  name: string;
  status: TournamentStatus;
  now: number;
  starts_at: number;
  ends_at: number | null;
  round_deadline: number | null;
  lengths: number[];
  move_seconds: number;
  max_players: number;
  players: number;
  private: boolean;
  winner: string | null;
  winner_name: string | null;
  joined: boolean;
  paused: boolean;
  standings: TournamentStanding[];
  bracket: BracketSlot[][] | null;
  current_round: number | null;
  next_match: NextMatch | null;
}

/** GET /api/tournaments/mine: whether the player is in a tournament not over, and the match
 * whose table waits for them (every page of theirs goes there). */
export interface MyTournaments {
  active: boolean;
  waiting: { tournament: string; room: string } | null;
}

/** GET /api/tournaments/room/{code}: the tournament a table belongs to. */
export interface TableTournament {
  id: string;
  name: string;
  kind: TournamentKind;
  status: TournamentStatus;
  round: number | null;
  rounds: number | null;
  number: number;
  next_room: string | null;
  waiting: boolean;
  paused: boolean;
  absences: number;
  grace: number;
}

export type TournamentMessage =
  | { type: "tournament"; state: "paired"; tournament: string; room: string }
  | { type: "tournament"; state: "changed"; tournament: string; version: number };
/** Fair play (docs/protocol.md): what a report is about. */
export type ReportReason = "engine" | "name" | "talk" | "leaving";

/** An audit entry about the visitor (GET /api/me/actions); a moderator's also says who. */
export interface AuditEntry {
  kind: string;
  note: string;
  detail: string | null;
  at: string;
  id?: number;
  by?: string | null;
}

export interface FairSignal {
  matches: number;
  decisions: number;
  pr: number;
  bound: number;
  threshold: number;
  cv: number | null;
  enough: boolean;
  flagged: boolean;
  strength: number | null;
  percentile: number;
}

/** A case of the moderators' queue (GET /api/mod/queue). */
export interface ModCase {
  player: {
    id: string;
    name: string;
    rating: number;
    moderator: boolean;
    muted: boolean;
    banned: boolean;
    banned_play: boolean;
    held: boolean;
  };
  signal: FairSignal;
  open_reports: number;
  reasons: ReportReason[];
  newest_report: string | null;
  leaver: boolean;
}

/** One player's case in full (GET /api/mod/players/ID). */
export interface ModCaseDetail extends ModCase {
  history: {
    match_id: string;
    pr: number;
    decisions: number;
    think_mean: number | null;
    think_cv: number | null;
    left: boolean;
    at: string;
  }[];
  reports: {
    id: number;
    reporter: string;
    match_id: string;
    reason: ReportReason;
    note: string | null;
    at: string;
    open: boolean;
  }[];
  actions: AuditEntry[];
}

// -- training (issue 28) ---------------------------------------------------------------------

export interface TrainingSummary {
  due: number;
  cards: number;
  streak: number;
}

export interface DrillPlay {
  steps: Step[];
  notation: string;
  result: string;
}

export interface DrillCard {
  id: number;
  kind: "checker" | "cube";
  seat: number;
  xgid: string;
  phase: string;
  theme: string;
  match_id: string;
  dice: number[] | null;
  legal_plays: DrillPlay[] | null;
  decider: "doubler" | "taker" | null;
}

export interface Drill {
  card: DrillCard | null;
  summary: TrainingSummary;
}

export interface DrillVerdict {
  loss: number;
  grade: "again" | "hard" | "good" | "easy";
  best: string;
  played: string;
  due: number;
  due_in: number;
  summary: TrainingSummary;
}

export interface PuzzleSummary {
  rating: number;
  deviation: number;
  answered: number;
  right: number;
  shared: boolean;
  themes: Record<string, number>;
}

export interface Puzzle {
  id: number;
  kind: "checker" | "cube";
  seat: number;
  xgid: string;
  phase: string;
  theme: string;
  rating: number;
  dice: number[] | null;
  legal_plays: DrillPlay[] | null;
  decider: "doubler" | "taker" | null;
}

export interface NextPuzzle {
  puzzle: Puzzle | null;
  summary: PuzzleSummary;
}

export interface PuzzleVerdict {
  puzzle_id: number;
  right: boolean;
  loss: number;
  best: string;
  rating_before: number;
  rating: number;
  puzzle_rating_before: number;
  puzzle_rating: number;
  repeated: boolean;
}

/** The tutor's answer about a play or a double about to be sent (practice tables). */
export interface TutorAdvice {
  version: number;
  loss: number;
  warn: boolean;
  threshold: number;
  best: string;
  level: string;
}
