// @ts-check
// The notification centre (#/notifications, issue 38): the newest first, the unread ones
// marked; a tap marks one read and opens its table ('Your games' for a challenge, where it is
// answered; the friends page for a declined one); "mark all read". The header's bell shows
// the unread count (GET /api/notifications/unread), asked again on every route and every 30 s.
import { api } from "./api.js";
import { button, clear, h, raw, tx } from "./dom.js";
import { language } from "./i18n.js";
import { toast } from "./ui.js";

/** @import { Note, Notes } from "./types.js" */

const BELL_MS = 30000;
let timer = /** @type {ReturnType<typeof setInterval> | null} */ (null);

/** Show `count` on the header's bell (hidden at 0). */
export function setBell(/** @type {number} */ count) {
  const badge = document.getElementById("bell-badge");
  if (!badge) return;
  badge.textContent = count ? String(count) : "";
  badge.hidden = !count;
}

/** The table of ``room`` is open: its notifications (your turn, time almost up) are read. */
export function readRoom(/** @type {string} */ room) {
  if (!document.getElementById("bell-badge")) return;
  api.markRoomRead(room).then(
    (answer) => setBell(answer.unread),
    () => {},
  );
}

/** Ask for the unread count now, and every 30 s from now on. */
export function refreshBell() {
  const ask = () =>
    api.unreadNotes().then(
      (x) => setBell(x.unread),
      () => {},
    );
  ask();
  if (timer === null) timer = setInterval(ask, BELL_MS);
}

/**
 * One notification: what it says, when, and (tapped) its table.
 * @param {Note} note
 * @param {(note: Note) => void} open
 */
function item(note, open) {
  const when = new Date(note.at * 1000).toLocaleString(language(), { dateStyle: "medium", timeStyle: "short" });
  return h(
    "li",
    {},
    h(
      "button",
      {
        type: "button",
        class: `note-item${note.read ? "" : " unread"}`,
        "data-note": String(note.id),
        "data-kind": note.kind,
        onclick: () => open(note),
      },
      tx(`notify.${note.kind}`, null, "b"),
      raw(when, "span", { class: "muted small" }),
    ),
  );
}

/** `#/notifications` */
export function mountNotifications(
  /** @type {HTMLElement} */ root,
  /** @type {{ navigate: (path: string) => void }} */ { navigate },
) {
  let gone = false;
  /** @param {Note} note */
  const open = async (note) => {
    try {
      if (!note.read) setBell((await api.markRead([note.id])).unread);
    } catch {
      // the table opens anyway; the note stays unread
    }
    // A challenge is answered in 'Your games'; a declined one's news leads to the friends.
    if (note.room) navigate(`/room/${note.room}`);
    else if (note.kind === "challenge") navigate("/games");
    else if (note.kind === "declined") navigate("/friends");
    else load();
  };
  const readAll = async () => {
    try {
      setBell((await api.markRead(null)).unread);
      load();
    } catch {
      toast(tx("error.generic"), "error");
    }
  };
  /** @param {Notes | null} data @param {boolean} failed */
  const draw = (data, failed) => {
    if (gone) return;
    const body = failed
      ? tx("error.generic", null, "p", { class: "muted" })
      : data === null
        ? h("div", { class: "spinner-row" }, h("span", { class: "spinner" }))
        : data.notes.length
          ? h(
              "ul",
              { class: "notes-list", id: "notes-list" },
              data.notes.map((n) => item(n, open)),
            )
          : tx("notify.empty", null, "p", { class: "muted", id: "notes-empty" });
    clear(root).append(
      h(
        "div",
        { class: "community", id: "notifications" },
        h(
          "div",
          { class: "page-bar" },
          button("nav.back", () => navigate("/"), { class: "btn ghost small", id: "page-back" }),
        ),
        h(
          "section",
          { class: "card" },
          h(
            "div",
            { class: "card-head" },
            tx("notify.title", null, "h2"),
            data?.unread
              ? button("notify.read_all", readAll, { class: "btn ghost small", id: "notes-read-all" })
              : null,
          ),
          body,
        ),
      ),
    );
  };
  const load = () =>
    api.notifications().then(
      (data) => {
        setBell(data.unread);
        draw(data, false);
      },
      () => draw(null, true),
    );
  draw(null, false);
  load();
  return () => {
    gone = true;
  };
}
