// @ts-check
// The lobby: its cards laid out (quick match, quick.js; tournaments, tournaments.js; practice and friend room, lobby-new.js;
// join a room; the player's name; coins, coins.js; the matches, lobby-history.js), drawn at once
// and each filled in when its answer comes.
import { ApiError, api } from "./api.js";
import { coinsCard } from "./coins.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { historyCard } from "./lobby-history.js";
import { newMatchCards } from "./lobby-new.js";
import { quickMatch } from "./quick.js";
import { tournamentsCard } from "./tournament-card.js";
import { trainingCard } from "./training-card.js";
import { toast } from "./ui.js";

/** @import { HistoryItem, ViewContext } from "./types.js" */

/**
 * @param {HTMLElement} root
 * @param {Omit<ViewContext, "session"> & { session?: Promise<unknown> }} context
 */
export function mountLobby(root, { navigate, me, setMe, session = Promise.resolve() }) {
  /** @type {HistoryItem[] | null} */
  let history = null;
  let editing = false;
  let gone = false;
  const coins = coinsCard({ navigate, session }); // one element, put back at every drawing
  const quick = quickMatch({ navigate, session, me });
  const tournaments = tournamentsCard({ navigate, session }); // one element, kept across drawings
  const training = trainingCard({ navigate, session }); // one element, as the coins' card

  const { practiceCard, friendCard } = newMatchCards({ navigate, session, redrawFrom });
  const historyOf = () => historyCard(history, navigate);

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
      // A code read out may come with spaces or a dash ("ABCD EFGH"), in any case.
      const spoken = text.replace(/[\s-]/g, "");
      const match =
        /#\/room\/([A-Za-z0-9_-]+)/.exec(text) ||
        /^([A-Za-z0-9]{8})$/.exec(spoken) ||
        /^([A-Za-z0-9_-]{9,64})$/.exec(text);
      if (!match) {
        toast(tx("lobby.join.bad"), "error");
        return;
      }
      navigate(`/room/${match[1].length === 8 ? match[1].toUpperCase() : match[1]}`);
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
              const known = ["name_length", "name_characters", "name_reserved", "name_replaced", "name_taken"];
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
          // Practice first: a newcomer's first game, on the first screen of every size; the
          // Tournaments card next, so a phone shows it too; three columns of like heights.
          h("div", { class: "col" }, practiceCard(), tournaments.el, joinCard()),
          h("div", { class: "col" }, friendCard(), quick.card()),
          h("div", { class: "col" }, profileCard(), training.el, coins.el, historyOf()),
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
    .then(() => refresh("history-card", historyOf));
  const off = onLanguage(() => {
    training.draw();
    draw();
  });
  return () => {
    gone = true;
    off();
    coins.close();
    quick.stop();
    tournaments.stop();
  };
}
