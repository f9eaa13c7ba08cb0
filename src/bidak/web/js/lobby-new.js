// @ts-check
// The lobby's new-match cards, Practice (a bot) and Friend room, with the options last chosen on
// each remembered in localStorage (`bidak.practice`, `bidak.friend`); a 1-point match has no cube
// (rules.md 7), so choosing 1 point replaces the cube toggle with the reason. The friend card's
// "days per move" makes a correspondence room (docs/correspondence.md): lengths up to 11, and
// no seconds or timeout policy (running out of days loses the match).
import { api, statusOf } from "./api.js";
import { button, h, tx } from "./dom.js";
import { segmented, toast } from "./ui.js";

/** @import { ViewContext } from "./types.js" */

const PRACTICE_KEY = "bidak.practice";
const FRIEND_KEY = "bidak.friend";

/**
 * The options last chosen on a card, over `fallback`.
 * @template {Record<string, unknown>} T
 * @param {string} key
 * @param {T} fallback
 * @returns {T}
 */
function remembered(key, fallback) {
  try {
    return { ...fallback, ...JSON.parse(localStorage.getItem(key) || "{}") };
  } catch {
    return { ...fallback };
  }
}

/**
 * The two cards, drawn again by `redrawFrom(name, value)` when a length changes (the cube field
 * depends on it); the options stay for the lobby's life and in localStorage.
 * @param {{ navigate: ViewContext["navigate"], session: Promise<unknown>,
 *   redrawFrom: (name: string, value: unknown) => void }} context
 */
export function newMatchCards({ navigate, session, redrawFrom }) {
  const practice = remembered(PRACTICE_KEY, { level: "beginner", length: 3, cube: true });
  const friend = remembered(FRIEND_KEY, {
    length: 5,
    cube: true,
    move_seconds: 60,
    opening: "higher",
    timeout_policy: "autoplay",
    days_per_move: /** @type {number | null} */ (null),
  });

  const lengthsOf = (/** @type {number[]} */ ns) =>
    ns.map((n) => ({
      value: n,
      key: n === 1 ? "opt.length.one" : "opt.length.n",
      params: { n },
    }));
  const lengths = lengthsOf([1, 3, 5, 7]);
  const correspondenceLengths = lengthsOf([1, 3, 5, 7, 9, 11]);
  const onOff = [
    { value: true, key: "opt.on" },
    { value: false, key: "opt.off" },
  ];
  const field = (
    /** @type {string} */ key,
    /** @type {HTMLElement} */ control,
    /** @type {HTMLElement | null} */ note = null,
  ) => h("div", { class: "field" }, tx(key, null, "label", { class: "field-label" }), control, note || null);
  // A 1-point match has no cube (rules.md 7): no toggle then, only the reason.
  const cubeField = (
    /** @type {string} */ name,
    /** @type {{ length: number, cube: boolean }} */ options,
    /** @type {() => void} */ save,
  ) =>
    options.length === 1
      ? field("opt.cube", tx("opt.cube.one_point", null, "p", { class: "muted small field-note", id: `${name}-none` }))
      : field(
          "opt.cube",
          segmented(name, onOff, options.cube, (x) => {
            options.cube = x;
            save();
          }),
        );

  function practiceCard() {
    const save = () => localStorage.setItem(PRACTICE_KEY, JSON.stringify(practice));
    return h(
      "section",
      { class: "card", id: "practice-card" },
      h(
        "div",
        { class: "card-head" },
        h("span", { class: "card-icon icon-bot", "aria-hidden": "true" }),
        tx("lobby.practice.title", null, "h2"),
      ),
      tx("lobby.practice.body", null, "p", { class: "muted" }),
      field(
        "opt.level",
        segmented(
          "level",
          ["beginner", "normal", "expert"].map((l) => ({ value: l, key: `level.${l}` })),
          practice.level,
          (x) => {
            practice.level = x;
            save();
          },
        ),
      ),
      field(
        "opt.length",
        segmented("practice-length", lengths, practice.length, (x) => {
          practice.length = x;
          save();
          redrawFrom("practice-length", x);
        }),
      ),
      cubeField("practice-cube", practice, save),
      button("lobby.practice.start", startPractice, { class: "btn primary wide", id: "start-practice" }),
    );
  }

  function friendCard() {
    const save = () => localStorage.setItem(FRIEND_KEY, JSON.stringify(friend));
    return h(
      "section",
      { class: "card", id: "friend-card" },
      h(
        "div",
        { class: "card-head" },
        h("span", { class: "card-icon icon-friend", "aria-hidden": "true" }),
        tx("lobby.friend.title", null, "h2"),
      ),
      tx("lobby.friend.body", null, "p", { class: "muted" }),
      field(
        "opt.days",
        segmented(
          "friend-days",
          [
            { value: /** @type {number | null} */ (null), key: "opt.days.live" },
            ...[1, 2, 3, 5, 7].map((n) => ({
              value: /** @type {number | null} */ (n),
              key: "opt.days.n",
              params: { n },
            })),
          ],
          friend.days_per_move,
          (x) => {
            friend.days_per_move = x;
            if (x === null && friend.length > 7) friend.length = 7;
            save();
            redrawFrom("friend-days", x);
          },
        ),
      ),
      field(
        "opt.length",
        segmented(
          "friend-length",
          friend.days_per_move === null ? lengths : correspondenceLengths,
          friend.length,
          (x) => {
            friend.length = x;
            save();
            redrawFrom("friend-length", x);
          },
        ),
      ),
      cubeField("friend-cube", friend, save),
      ...(friend.days_per_move === null
        ? liveFields(save)
        : [tx("opt.days.note", null, "p", { class: "muted small", id: "friend-days-note" })]),
      button("lobby.friend.create", createFriend, { class: "btn primary wide", id: "create-friend" }),
    );
  }

  /** The live room's clock and what its timeout does. @param {() => void} save */
  function liveFields(save) {
    return [
      field(
        "opt.time",
        segmented(
          "time",
          [30, 45, 60, 90].map((n) => ({ value: n, key: "opt.seconds", params: { n } })),
          friend.move_seconds,
          (x) => {
            friend.move_seconds = x;
            save();
          },
        ),
      ),
      field(
        "opt.opening",
        segmented(
          "opening",
          [
            { value: "higher", key: "opt.opening.higher" },
            { value: "lower", key: "opt.opening.lower" },
          ],
          friend.opening,
          (x) => {
            friend.opening = x;
            save();
          },
        ),
      ),
      field(
        "opt.timeout",
        segmented(
          "timeout",
          [
            { value: "autoplay", key: "opt.timeout.autoplay" },
            { value: "three_strikes", key: "opt.timeout.three_strikes" },
          ],
          friend.timeout_policy,
          (x) => {
            friend.timeout_policy = x;
            save();
          },
        ),
      ),
    ];
  }

  async function startPractice() {
    await session;
    try {
      const room = await api.createRoom({
        kind: "practice",
        length: practice.length,
        cube: practice.length === 1 ? false : practice.cube,
        level: practice.level,
      });
      navigate(`/room/${room.code}`);
    } catch (error) {
      toast(tx(statusOf(error) === 429 ? "error.too_many" : "error.generic"), "error");
    }
  }

  async function createFriend() {
    await session;
    try {
      const { days_per_move, ...live } = friend;
      const options = days_per_move === null ? live : { ...live, days_per_move };
      const room = await api.createRoom({
        ...options,
        kind: "friend",
        cube: friend.length === 1 ? false : friend.cube,
      });
      navigate(`/room/${room.code}`);
    } catch (error) {
      toast(tx(statusOf(error) === 429 ? "error.too_many" : "error.generic"), "error");
    }
  }

  return { practiceCard, friendCard };
}
