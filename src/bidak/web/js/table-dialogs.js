// @ts-check
// The table's dialogs: the ones the table asks for (take or drop a double, answer a
// resignation offered), the viewer's resign and forfeit, the end of a game, and the end of
// the match (shown once no other dialog is open: it waits for the last one to close).
import { h, raw, tx } from "./dom.js";
import { t } from "./i18n.js";
import { nameOf } from "./table-names.js";
import { tutorFirst } from "./tutor.js";
import { dialog, segmented } from "./ui.js";

/** @import { DialogAction } from "./ui.js" */

/**
 * @import { MatchEvent, Table } from "./types.js"
 * @import { TableStore } from "./table-store.js"
 */

/**
 * @param {TableStore} store
 * @param {{ navigate: (path: string) => void, afterPanel: () => HTMLElement, tourPanel: () => HTMLElement,
 *   tournament: () => string | null }} options
 *   `afterPanel()`: the match-over dialog's rating table and rematch (aftermatch.js); `tourPanel()`
 *   its tournament part (the next match, or waiting for one) and `tournament()` the table's
 *   tournament, at a tournament's table (table-tournament.js)
 */
export function createDialogs(store, { navigate, afterPanel, tourPanel, tournament }) {
  const v = store.state;
  const act = store.act;
  const name = (/** @type {number | null | undefined} */ player) => nameOf(v, player);
  /** @type {MutationObserver | null} */
  let waiting = null;

  /** Take or drop: at a practice table with the tutor on, ask it first; "reconsider" opens
   * the take dialog again. */
  function answer(/** @type {"take" | "drop"} */ choice) {
    tutorFirst(
      v,
      true,
      { cube: choice },
      () => act(choice),
      () => v.table && syncOffers(v.table),
    );
  }

  /** Open or close the dialogs the table itself asks for (a double, a resignation offered). */
  function syncOffers(/** @type {Table} */ tb) {
    const allowed = new Set(tb.allowed);
    /** @param {string} id @param {boolean} keep */
    const stale = (id, keep) => {
      const node = document.getElementById(id);
      const backdrop = node?.closest(".backdrop");
      if (backdrop && !keep) backdrop.remove();
    };
    stale("take-dialog", tb.phase === "doubled" && allowed.has("take"));
    stale("resign-offer", tb.phase === "resign_offered" && allowed.has("accept_resign"));
    if (tb.phase === "doubled" && allowed.has("take") && !v.sending && !document.getElementById("take-dialog")) {
      dialog({
        id: "take-dialog",
        title: "take.title",
        titleParams: () => ({ name: name(tb.turn) }),
        body: () => tx("take.body", { value: tb.cube.offered, current: tb.cube.value }, "p"),
        dismissable: false,
        actions: [
          { key: "btn.take", kind: "primary", id: "btn-take", onclick: () => answer("take") },
          { key: "btn.drop", kind: "danger", id: "btn-drop", onclick: () => answer("drop") },
        ],
      });
    }
    if (
      tb.phase === "resign_offered" &&
      allowed.has("accept_resign") &&
      !v.sending &&
      !document.getElementById("resign-offer")
    ) {
      const level = tb.resign ? tb.resign.level : 1;
      const by = tb.resign ? tb.resign.by : 1 - (v.seat ?? 0);
      dialog({
        id: "resign-offer",
        title: "resign.offer.title",
        titleParams: () => ({ name: name(by) }),
        body: () => tx("resign.offer.body", { what: t(`resign.level.${level}`), points: level * tb.cube.value }, "p"),
        dismissable: false,
        actions: [
          { key: "btn.accept", kind: "primary", onclick: () => act("accept_resign") },
          { key: "btn.reject", onclick: () => act("reject_resign") },
        ],
      });
    }
  }

  // Resigning is losing the match (rules.md 8); offering to lose only this game is the
  // secondary choice, in match play.
  function resign() {
    const tb = v.table;
    if (!tb) return;
    const allowed = new Set(tb.allowed);
    const gameToo = allowed.has("resign") && tb.length > 1;
    const body = () =>
      h(
        "div",
        {},
        tx("resign.match.body", null, "p"),
        gameToo ? tx("resign.game.hint", null, "p", { class: "muted small" }) : null,
      );
    /** @type {DialogAction[]} */
    const actions = [];
    if (allowed.has("forfeit"))
      actions.push({ key: "btn.forfeit", kind: "danger", id: "btn-forfeit", onclick: forfeit });
    if (gameToo) actions.push({ key: "btn.resign_game_only", id: "btn-resign-game", onclick: resignGame });
    actions.push({ key: "btn.cancel" });
    dialog({ id: "resign-dialog", title: "resign.title", body, actions });
  }

  function resignGame() {
    const tb = v.table;
    if (!tb) return;
    let level = 1;
    const body = () =>
      h(
        "div",
        {},
        tx("resign.game.body", null, "p"),
        segmented(
          "resign-level",
          [1, 2, 3].map((n) => ({
            value: n,
            key: "resign.choice",
            params: { what: t(`resign.level.${n}`), points: n * tb.cube.value },
          })),
          level,
          (n) => {
            level = n;
          },
        ),
      );
    dialog({
      id: "resign-game-dialog",
      title: "resign.game.title",
      body,
      actions: [
        { key: "btn.resign_game", kind: "primary", id: "confirm-resign", onclick: () => act("resign", { level }) },
        { key: "btn.cancel" },
      ],
    });
  }

  function forfeit() {
    // The score after a forfeit: the opponent is given the match length, the loser keeps theirs.
    const tb = v.table;
    if (!tb) return;
    const me = tb.viewer,
      them = 1 - me;
    const final = `${tb.score[me]} – ${Math.max(tb.score[them], tb.length)}`;
    dialog({
      id: "forfeit-dialog",
      title: "forfeit.title",
      body: () =>
        h(
          "div",
          {},
          tx("forfeit.body", { name: name(them) }, "p"),
          raw(final, "p", { class: "big-score", id: "forfeit-score" }),
        ),
      actions: [
        { key: "btn.forfeit_confirm", kind: "danger", id: "confirm-forfeit", onclick: () => act("forfeit") },
        { key: "btn.cancel" },
      ],
    });
  }

  /** A game won, when the match goes on (the match's own dialog follows otherwise). */
  function gameWon(/** @type {MatchEvent} */ event) {
    const tb = v.table;
    const score = event.score || [0, 0];
    if (!tb || score.some((s0) => s0 >= tb.length)) return;
    const me = v.seat ?? 0;
    dialog({
      id: "game-over",
      title: event.winner === me && v.seat !== null ? "game.won" : "game.lost",
      titleParams: () => ({ name: name(event.winner) }),
      body: () =>
        h(
          "div",
          {},
          tx("game.points", { points: event.points, kind: t(`win.${event.kind}`) }, "p"),
          raw(`${score[me]} – ${score[1 - me]}`, "p", { class: "big-score" }),
        ),
      actions: [{ key: "btn.continue", kind: "primary", id: "btn-continue" }],
    });
  }

  function matchOver() {
    if (document.getElementById("match-over") || v.matchOverShown || !v.table) return;
    v.matchOverShown = true;
    const tb = v.table;
    const me = v.seat ?? 0;
    const won = tb.winner === me;
    dialog({
      id: "match-over",
      title: v.seat === null ? "match.over" : won ? "match.won" : "match.lost",
      body: () =>
        h(
          "div",
          {},
          raw(`${tb.score[me]} – ${tb.score[1 - me]}`, "p", { class: "big-score" }),
          afterPanel(),
          v.kind === "tournament" ? tourPanel() : null,
          tx("match.review_hint", null, "p", { class: "muted" }),
        ),
      actions:
        v.kind === "tournament"
          ? [
              // A tournament decides who plays next: the way back to it, never a rematch.
              {
                key: "tour.back",
                kind: "primary",
                id: "tour-back",
                onclick: () => navigate(tournament() ? `/t/${tournament()}` : "/"),
              },
              { key: "btn.review", id: "btn-review", onclick: () => navigate(`/review/${v.match}`) },
            ]
          : [
              { key: "btn.review", kind: "primary", id: "btn-review", onclick: () => navigate(`/review/${v.match}`) },
              { key: "nav.lobby", id: "btn-lobby", onclick: () => navigate("/") },
            ],
    });
  }

  /**
   * The match is over: its dialog, once no other dialog (a game's end, the rules) is open.
   * Dialogs are the body's `.backdrop` children, so their closing is watched there.
   */
  function matchOverWhenFree() {
    if (v.table?.phase !== "match_over" || v.matchOverShown) return;
    if (!document.querySelector(".backdrop")) {
      matchOver();
      return;
    }
    if (waiting) return;
    waiting = new MutationObserver(() => {
      if (document.querySelector(".backdrop")) return;
      stop();
      matchOverWhenFree();
    });
    waiting.observe(document.body, { childList: true });
  }

  function stop() {
    if (waiting) waiting.disconnect();
    waiting = null;
  }

  return { syncOffers, resign, gameWon, matchOver, matchOverWhenFree, stop };
}
