// @ts-check
// The lobby: quick match, play a bot, create or join a friend room, the player's matches, their name.
// Over 400 lines only as Biome lays out its cards' element builders (about 190 before).
import { ApiError, api, statusOf } from "./api.js";
import { coinsCard } from "./coins.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { quickMatch } from "./quick.js";
import { segmented, toast } from "./ui.js";

const PRACTICE_KEY = "bidak.practice";
const FRIEND_KEY = "bidak.friend";

/** @import { HistoryItem, ViewContext } from "./types.js" */

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

/** The opponent of a match in the history: a bot by its level, waiting, or a name (data). */
export function opponentLabel(/** @type {HistoryItem} */ item) {
  if (item.kind === "practice" && ["beginner", "normal", "expert"].includes(item.bot || "")) {
    return { text: t("bot.name", { level: t(`level.${item.bot}`) }), i18n: true };
  }
  if (item.opponent === "(waiting)") return { text: t("history.waiting"), i18n: true };
  return { text: item.opponent, i18n: false };
}

/**
 * @param {HTMLElement} root
 * @param {Omit<ViewContext, "session"> & { session?: Promise<unknown> }} context
 */
export function mountLobby(root, { navigate, me, setMe, session = Promise.resolve() }) {
  const practice = remembered(PRACTICE_KEY, { level: "beginner", length: 3, cube: true });
  const friend = remembered(FRIEND_KEY, {
    length: 5,
    cube: true,
    move_seconds: 60,
    opening: "higher",
    timeout_policy: "autoplay",
  });
  /** @type {HistoryItem[] | null} */
  let history = null;
  let editing = false;
  let gone = false;
  const coins = coinsCard({ navigate, session }); // one element, put back at every drawing
  const quick = quickMatch({ navigate, session, me });

  const lengths = [1, 3, 5, 7].map((n) => ({
    value: n,
    key: n === 1 ? "opt.length.one" : "opt.length.n",
    params: { n },
  }));
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
        "opt.length",
        segmented("friend-length", lengths, friend.length, (x) => {
          friend.length = x;
          save();
          redrawFrom("friend-length", x);
        }),
      ),
      cubeField("friend-cube", friend, save),
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
      button("lobby.friend.create", createFriend, { class: "btn primary wide", id: "create-friend" }),
    );
  }

  function joinCard() {
    const input = h("input", {
      id: "join-code",
      placeholder: t("lobby.join.placeholder"),
      "aria-label": t("lobby.join.placeholder"),
      autocomplete: "off",
      spellcheck: false,
    });
    const go = () => {
      const text = input.value.trim();
      const match = /#\/room\/([A-Za-z0-9_-]+)/.exec(text) || /^([A-Za-z0-9_-]{8,64})$/.exec(text);
      if (!match) {
        toast(tx("lobby.join.bad"), "error");
        return;
      }
      navigate(`/room/${match[1]}`);
    };
    input.addEventListener("keydown", (e) => {
      if (e.key === "Enter") go();
    });
    return h(
      "section",
      { class: "card", id: "join-card" },
      h(
        "div",
        { class: "card-head" },
        h("span", { class: "card-icon icon-link", "aria-hidden": "true" }),
        tx("lobby.join.title", null, "h2"),
      ),
      tx("lobby.join.body", null, "p", { class: "muted" }),
      h("div", { class: "copy-row" }, input, button("lobby.join.go", go, { class: "btn primary", id: "join-go" })),
    );
  }

  function historyCard() {
    const list = h("ul", { class: "history", id: "history" });
    if (history === null) list.append(h("li", { class: "muted" }, h("span", { class: "spinner" })));
    else if (!history.length) list.append(tx("history.empty", null, "li", { class: "muted" }));
    for (const item of history || []) {
      const opponent = opponentLabel(item);
      const result = !item.finished ? "history.playing" : item.won ? "history.won" : "history.lost";
      const date = new Date(
        item.updated_at + (item.updated_at.endsWith("Z") || item.updated_at.includes("+") ? "" : "Z"),
      );
      list.append(
        h(
          "li",
          {
            class: `history-item ${item.finished ? (item.won ? "won" : "lost") : "live"}`,
            "data-match": item.match_id,
          },
          h(
            "div",
            { class: "history-main" },
            opponent.i18n
              ? h("span", { class: "opp", "data-i18n": "bot.name" }, opponent.text)
              : raw(opponent.text, "span", { class: "opp", dir: "auto" }),
            h(
              "span",
              { class: "history-meta" },
              tx("match.length", { n: item.length }),
              " · ",
              raw(
                date.toLocaleDateString(document.documentElement.lang || undefined, { day: "numeric", month: "short" }),
              ),
            ),
          ),
          h(
            "div",
            { class: "history-side" },
            raw(`${item.score[0]}–${item.score[1]}`, "b", { class: "history-score" }),
            tx(result, null, "span", { class: `badge ${item.finished ? (item.won ? "good" : "bad") : "live"}` }),
            item.finished
              ? button("history.review", () => navigate(`/review/${item.match_id}`), {
                  class: "btn small",
                  "data-review": item.match_id,
                })
              : button("history.resume", () => navigate(`/room/${item.room}`), { class: "btn small" }),
          ),
        ),
      );
    }
    return h(
      "section",
      { class: "card history-card", id: "history-card" },
      h(
        "div",
        { class: "card-head" },
        h("span", { class: "card-icon icon-history", "aria-hidden": "true" }),
        tx("history.title", null, "h2"),
      ),
      list,
    );
  }

  function profileCard() {
    const who = me();
    const nameRow = editing
      ? (() => {
          const input = h("input", {
            id: "name-input",
            value: who ? who.name : "",
            maxLength: 24,
            "aria-label": t("profile.name"),
          });
          const save = async () => {
            const name = input.value.trim();
            if (!name) return;
            try {
              setMe(await api.rename(name));
              editing = false;
              draw();
              toast(tx("profile.saved"));
            } catch (error) {
              const known = ["name_length", "name_characters", "name_reserved"];
              const code = error instanceof ApiError ? error.code : null;
              toast(tx(code && known.includes(code) ? `profile.${code}` : "profile.bad_name"), "error");
            }
          };
          input.addEventListener("keydown", (e) => {
            if (e.key === "Enter") save();
            if (e.key === "Escape") {
              editing = false;
              draw();
            }
          });
          setTimeout(() => input.focus(), 0);
          return h(
            "div",
            { class: "copy-row" },
            input,
            button("btn.save", save, { class: "btn primary", id: "name-save" }),
          );
        })()
      : h(
          "div",
          { class: "name-row" },
          raw(who ? who.name : "…", "strong", { class: "player-name", id: "player-name", dir: "auto" }),
          button(
            "profile.rename",
            () => {
              editing = true;
              draw();
            },
            { class: "btn ghost small", id: "rename", disabled: !who },
          ),
        );
    return h(
      "section",
      { class: "card profile", id: "profile-card" },
      tx("profile.hello", null, "p", { class: "muted small" }),
      nameRow,
      who && !who.email_linked ? h("p", { class: "notice", id: "guest-warning" }, tx("profile.guest_warning")) : null,
      who?.email_linked
        ? h("p", { class: "notice saved", id: "saved-note" }, tx("profile.saved_note", { address: who.email }))
        : null,
      button("account.open", () => navigate("/account"), {
        class: "btn small account-open",
        id: "open-account",
        disabled: !who,
      }),
    );
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
      const room = await api.createRoom({ kind: "friend", ...friend, cube: friend.length === 1 ? false : friend.cube });
      navigate(`/room/${room.code}`);
    } catch (error) {
      toast(tx(statusOf(error) === 429 ? "error.too_many" : "error.generic"), "error");
    }
  }

  /** Draw again (the cube field depends on the length) with the focus where it was. */
  function redrawFrom(/** @type {string} */ name, /** @type {unknown} */ value) {
    draw();
    const again = root.querySelector(`[data-name="${name}"] [data-value="${value}"]`);
    if (again instanceof HTMLElement) again.focus();
  }

  function draw() {
    clear(root).append(
      h(
        "div",
        { class: "lobby" },
        h("div", { class: "hero" }, tx("lobby.tagline", null, "h1"), tx("lobby.sub", null, "p", { class: "muted" })),
        h(
          "div",
          { class: "lobby-grid" },
          h("div", { class: "col" }, quick.card(), practiceCard(), joinCard()),
          h("div", { class: "col" }, friendCard()),
          h("div", { class: "col" }, profileCard(), coins.el, historyCard()),
        ),
      ),
    );
  }

  /** Draw one card again, leaving the others (and what is typed in them) alone. */
  function refresh(/** @type {string} */ id, /** @type {() => HTMLElement} */ make) {
    const old = !gone && root.querySelector(`#${id}`);
    if (old) old.replaceWith(make());
  }

  draw(); // at once, before any answer: the account and the history fill in when they come
  session
    .then(() => {
      if (!editing) refresh("profile-card", profileCard);
      return api.history();
    })
    .then(
      (items) => {
        history = items;
      },
      () => {
        history = [];
      },
    )
    .then(() => refresh("history-card", historyCard));
  const off = onLanguage(draw);
  return () => {
    gone = true;
    off();
    coins.close();
    quick.stop();
  };
}
