// @ts-check
// Friends (issue 38): the page #/friends (find a player by name and follow them; the players
// you follow, a dot for who is online, the live table each sits at, a challenge button; your
// challenges waiting for an answer), and the card on a player's profile (follow or unfollow,
// challenge, block or unblock, and the challenges between the two). Names are data: text
// nodes only (dom.js's `raw`, `playerLink`).
import { api } from "./api.js";
import { challengeDialog, challengeRow, challengesCard, refusedKey } from "./challenges.js";
import { append, button, clear, h, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { playerLink } from "./players.js";
import { toast } from "./ui.js";

/** @import { FoundPlayer, Friend, Relation } from "./types.js" */
/** @typedef {{ navigate: (path: string) => void }} Nav */

/** The online dot and its words (a screen reader says them; the dot is not colour alone). */
function presence(/** @type {boolean} */ online) {
  return h(
    "span",
    { class: `presence${online ? " on" : ""}` },
    h("span", { class: "presence-dot", "aria-hidden": "true" }),
    tx(online ? "friends.online" : "friends.offline", null, "span", { class: "presence-text" }),
  );
}

/** @param {Friend} f @param {() => void} changed */
function friendRow(f, changed) {
  return h(
    "li",
    { class: "friend-item", "data-friend": f.id, "data-online": f.online ? "1" : "0" },
    h(
      "div",
      { class: "friend-text" },
      playerLink(f.id, f.name, { class: "friend-name" }),
      h(
        "span",
        { class: "friend-meta" },
        presence(f.online),
        f.room
          ? h(
              "a",
              { class: "friend-table", href: `#/room/${encodeURIComponent(f.room)}`, "data-i18n": "friends.watch" },
              t("friends.watch"),
            )
          : f.playing
            ? tx("friends.playing", null, "span", { class: "muted small" })
            : null,
      ),
    ),
    button("challenge.button", () => challengeDialog({ id: f.id, name: f.name }, changed), {
      class: "btn small",
      "data-challenge-friend": f.id,
    }),
  );
}

/** The name search: at least two letters, then the players whose name begins so. */
function searchCard(/** @type {() => void} */ changed) {
  const input = h("input", {
    type: "search",
    id: "friend-search",
    maxlength: 40,
    autocomplete: "off",
    "aria-label": t("friends.search"),
    placeholder: t("friends.search"),
  });
  const results = h("ul", { class: "friend-list", id: "search-results" });
  let asked = 0;
  const show = (/** @type {FoundPlayer[]} */ players) =>
    results.replaceChildren(
      ...players.map((p) =>
        h(
          "li",
          { class: "friend-item", "data-found": p.id },
          h("div", { class: "friend-text" }, playerLink(p.id, p.name, { class: "friend-name" })),
          button(
            "friends.follow",
            async () => {
              try {
                await api.follow(p.id, true);
                changed();
              } catch (error) {
                toast(tx(refusedKey(error)), "error");
              }
            },
            { class: "btn small", "data-follow": p.id },
          ),
        ),
      ),
    );
  input.addEventListener("input", () => {
    const name = input.value.trim();
    const mine = ++asked;
    if (name.length < 2) return show([]);
    api.searchPlayers(name).then(
      (x) => mine === asked && show(x.players),
      () => {},
    );
  });
  return h(
    "section",
    { class: "card", id: "friend-search-card" },
    h("div", { class: "card-head" }, tx("friends.find", null, "h2")),
    input,
    results,
  );
}

/** `#/friends` */
export function mountFriends(/** @type {HTMLElement} */ root, /** @type {Nav} */ { navigate }) {
  let gone = false;
  /** @type {Friend[] | null} */
  let friends = null;
  let failed = false;
  const load = () =>
    api.friends().then(
      (x) => {
        friends = x.friends;
        draw();
      },
      () => {
        failed = true;
        draw();
      },
    );
  const search = searchCard(load);
  const draw = () => {
    if (gone) return;
    clear(root).append(
      h(
        "div",
        { class: "community", id: "friends" },
        h(
          "div",
          { class: "page-bar" },
          button("nav.back", () => navigate("/"), { class: "btn ghost small", id: "page-back" }),
        ),
        h(
          "section",
          { class: "card" },
          h("div", { class: "card-head" }, tx("friends.title", null, "h2")),
          failed
            ? tx("error.generic", null, "p", { class: "muted" })
            : friends === null
              ? h("div", { class: "spinner-row" }, h("span", { class: "spinner" }))
              : friends.length
                ? h(
                    "ul",
                    { class: "friend-list", id: "friend-list" },
                    friends.map((f) => friendRow(f, load)),
                  )
                : tx("friends.empty", null, "p", { class: "muted", id: "friends-empty" }),
        ),
        search,
        challengesCard({ navigate }),
      ),
    );
  };
  draw();
  load();
  const off = onLanguage(draw);
  return () => {
    gone = true;
    off();
  };
}

/**
 * The card on a player's profile: follow, challenge, block, and the challenges between you.
 * @param {{ id: string, name: string }} player
 * @param {Nav} nav
 */
export function relationCard(player, { navigate }) {
  const card = h("section", { class: "card", id: "relation-card" }, h("div", { class: "spinner-row" }));
  /** @param {Promise<Relation>} asked */
  const take = (asked) =>
    asked.then(draw, (error) => {
      toast(tx(refusedKey(error)), "error");
      load();
    });
  const load = () => api.relation(player.id).then(draw, () => card.replaceChildren());
  const draw = (/** @type {Relation} */ r) => {
    const context = { navigate, changed: load };
    const now = Date.now() / 1000;
    append(
      clear(card),
      h("div", { class: "relation-head" }, presence(r.online)),
      h(
        "div",
        { class: "relation-actions" },
        r.blocking
          ? null
          : button(
              r.following ? "friends.unfollow" : "friends.follow",
              () => take(api.follow(player.id, !r.following)),
              {
                class: `btn ${r.following ? "" : "primary"}`,
                id: "profile-follow",
              },
            ),
        r.blocking
          ? null
          : button("challenge.button", () => challengeDialog(player, load), { class: "btn", id: "profile-challenge" }),
        button(r.blocking ? "friends.unblock" : "friends.block", () => take(api.block(player.id, !r.blocking)), {
          class: "btn ghost",
          id: "profile-block",
        }),
      ),
      r.blocking ? tx("friends.blocked_note", null, "p", { class: "muted small", id: "blocked-note" }) : null,
      r.incoming.length || r.outgoing.length
        ? h(
            "ul",
            { class: "challenge-list", id: "profile-challenges" },
            r.incoming.map((c) => challengeRow(c, "incoming", now, context)),
            r.outgoing.map((c) => challengeRow(c, "outgoing", now, context)),
          )
        : null,
    );
  };
  load();
  return card;
}
