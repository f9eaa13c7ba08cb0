// @ts-check
// Challenges (issue 38): the form that challenges a player to a live or correspondence match
// with a friend room's options (remembered in localStorage, `bidak.challenge`), a challenge as a
// row (incoming: accept or decline; outgoing: withdraw), and the card of 'Your games' that lists
// them. Accepting opens the new table; a refusal says why in the player's language.
import { ApiError, api, refusalKey, statusOf } from "./api.js";
import { append, button, clear, h, raw, tx } from "./dom.js";
import { playerLink } from "./players.js";
import { dialog, formatClock, segmented, toast } from "./ui.js";

/** @import { Challenge, Challenges } from "./types.js" */

const KEY = "bidak.challenge";

/** What a refused challenge request says (its `challenge.refused.*` or door text). */
export function refusedKey(/** @type {unknown} */ error) {
  const code = error instanceof ApiError ? error.code : null;
  if (code === "already_challenged" || code === "too_many_open" || code === "expired" || code === "answered") {
    return `challenge.refused.${code}`;
  }
  if (statusOf(error) === 429) return "error.too_many";
  return refusalKey(error, "error.generic");
}

function remembered() {
  const fallback = {
    length: 3,
    cube: true,
    move_seconds: 60,
    days_per_move: /** @type {number | null} */ (1),
    rated: false,
  };
  try {
    return { ...fallback, ...JSON.parse(localStorage.getItem(KEY) || "{}") };
  } catch {
    return fallback;
  }
}

/**
 * The challenge form in a dialog: days per move (or live), length, cube, the live clock, rated.
 * @param {{ id: string, name: string }} player
 * @param {() => void} [done] after the challenge was made
 */
export function challengeDialog(player, done) {
  const options = remembered();
  const lengths = (/** @type {number[]} */ ns) =>
    ns.map((n) => ({ value: n, key: n === 1 ? "opt.length.one" : "opt.length.n", params: { n } }));
  const onOff = [
    { value: true, key: "opt.on" },
    { value: false, key: "opt.off" },
  ];
  const field = (/** @type {string} */ key, /** @type {HTMLElement} */ control) =>
    h("div", { class: "field" }, tx(key, null, "label", { class: "field-label" }), control);
  const form = h("div", { class: "challenge-form", id: "challenge-form" });
  const draw = () => {
    const live = options.days_per_move === null;
    if (live && options.length > 7) options.length = 7;
    append(
      clear(form),
      raw(player.name, "p", { class: "challenge-who", dir: "auto" }),
      field(
        "opt.days",
        segmented(
          "challenge-days",
          [
            { value: /** @type {number | null} */ (null), key: "opt.days.live" },
            ...[1, 2, 3, 5, 7].map((n) => ({
              value: /** @type {number | null} */ (n),
              key: "opt.days.n",
              params: { n },
            })),
          ],
          options.days_per_move,
          (x) => {
            options.days_per_move = x;
            draw();
          },
        ),
      ),
      field(
        "opt.length",
        segmented("challenge-length", lengths(live ? [1, 3, 5, 7] : [1, 3, 5, 7, 9, 11]), options.length, (x) => {
          options.length = x;
          draw();
        }),
      ),
      options.length === 1
        ? null
        : field(
            "opt.cube",
            segmented("challenge-cube", onOff, options.cube, (x) => {
              options.cube = x;
            }),
          ),
      live
        ? field(
            "opt.time",
            segmented(
              "challenge-time",
              [30, 45, 60, 90].map((n) => ({ value: n, key: "opt.seconds", params: { n } })),
              options.move_seconds,
              (x) => {
                options.move_seconds = x;
              },
            ),
          )
        : tx("opt.days.note", null, "p", { class: "muted small" }),
      field(
        "challenge.rated",
        segmented("challenge-rated", onOff, options.rated, (x) => {
          options.rated = x;
        }),
      ),
    );
  };
  draw();
  const send = async () => {
    localStorage.setItem(KEY, JSON.stringify(options));
    const { days_per_move, ...rest } = options;
    const body = { ...rest, kind: "friend", cube: options.length === 1 ? false : options.cube };
    try {
      await api.challenge(player.id, days_per_move === null ? body : { ...body, days_per_move });
      shown.close();
      toast(tx("challenge.sent", { name: player.name }));
      if (done) done();
    } catch (error) {
      // Said in the form, which stays open: the player reads why, and may change the options.
      problem.replaceChildren(tx(refusedKey(error)));
      problem.hidden = false;
    }
  };
  const problem = h("p", { class: "notice bad", id: "challenge-refused", role: "alert", hidden: true });
  const shown = dialog({
    id: "challenge-dialog",
    title: "challenge.title",
    body: h("div", {}, form, problem),
    actions: [
      { key: "challenge.send", kind: "primary", id: "challenge-send", onclick: send, keepOpen: true },
      { key: "btn.cancel", id: "challenge-close" },
    ],
  });
}

/** "3 points · 1 day a move" (or the live clock). @param {Challenge} c */
function summary(c) {
  const o = c.options;
  return h(
    "span",
    { class: "muted small challenge-options" },
    tx(o.length === 1 ? "opt.length.one" : "opt.length.n", { n: o.length }),
    " · ",
    o.days_per_move === null ? tx("opt.seconds", { n: o.move_seconds }) : tx("challenge.days", { n: o.days_per_move }),
    o.rated ? [" · ", tx("challenge.rated.short")] : null,
  );
}

/**
 * One challenge: incoming with Accept and Decline, outgoing with Withdraw.
 * @param {Challenge} c
 * @param {"incoming" | "outgoing"} way
 * @param {number} now server time
 * @param {{ navigate: (path: string) => void, changed: () => void }} context
 */
export function challengeRow(c, way, now, { navigate, changed }) {
  const act = async (/** @type {() => Promise<unknown>} */ call) => {
    try {
      await call();
    } catch (error) {
      toast(tx(refusedKey(error)), "error");
    }
    changed();
  };
  const accept = async () => {
    try {
      const { room } = await api.acceptChallenge(c.id);
      navigate(`/room/${room}`);
    } catch (error) {
      toast(tx(refusedKey(error)), "error");
      changed();
    }
  };
  return h(
    "li",
    { class: "challenge-item", "data-challenge": c.id, "data-way": way },
    h(
      "div",
      { class: "challenge-text" },
      tx(way === "incoming" ? "challenge.from" : "challenge.to", null, "span", { class: "muted small" }),
      playerLink(c.player_id, c.name, { class: "challenge-name" }),
      summary(c),
      tx("challenge.expires", { left: formatClock(c.expires - now) }, "span", { class: "muted small" }),
    ),
    h(
      "div",
      { class: "challenge-actions" },
      way === "incoming"
        ? [
            button("challenge.accept", accept, { class: "btn primary small", "data-accept": c.id }),
            button("challenge.decline", () => act(() => api.declineChallenge(c.id)), {
              class: "btn small",
              "data-decline": c.id,
            }),
          ]
        : button("challenge.withdraw", () => act(() => api.cancelChallenge(c.id)), {
            class: "btn small",
            "data-withdraw": c.id,
          }),
    ),
  );
}

/**
 * The challenges card of 'Your games': open challenges to the viewer and theirs, or nothing
 * when there are none.
 * @param {{ navigate: (path: string) => void }} context
 */
export function challengesCard({ navigate }) {
  const card = h("section", { class: "card", id: "challenges-card", hidden: true });
  const load = () =>
    api.challenges().then(
      (data) => draw(data),
      () => {},
    );
  const draw = (/** @type {Challenges} */ data) => {
    const context = { navigate, changed: load };
    const list = (/** @type {"incoming" | "outgoing"} */ way) =>
      data[way].length
        ? h(
            "div",
            { class: "challenge-group" },
            tx(`challenge.${way}`, null, "h3"),
            h(
              "ul",
              { class: "challenge-list", id: `challenges-${way}` },
              data[way].map((c) => challengeRow(c, way, data.now, context)),
            ),
          )
        : null;
    card.hidden = !data.incoming.length && !data.outgoing.length;
    card.replaceChildren(
      h("div", { class: "card-head" }, tx("challenge.list_title", null, "h2")),
      list("incoming") || h("span"),
      list("outgoing") || h("span"),
    );
  };
  load();
  return card;
}
