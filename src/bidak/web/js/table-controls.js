// @ts-check
// The table's controls: the buttons the table allows now (roll, double, undo, OK, hint,
// resign; take back control from auto-play), the status line under them, and the keyboard
// (R roll, D double, U/Backspace undo, Enter OK, a point number, B bar, O off or the arrow
// keys and Enter to pick, H hint, Esc to let go, T to type a play, S to read the board, ? the
// list of keys), which does nothing while an input, a dialog or the rules panel has the focus.
import { button, clear, h, tx } from "./dom.js";
import { t } from "./i18n.js";
import { BAR, isComplete, OFF } from "./selection.js";
import { announce } from "./speech.js";
import { nameOf } from "./table-names.js";
import { setTutor, tutorFirst, tutorOn } from "./tutor.js";
import { readPlay, typedField } from "./typed.js";
import { dialog } from "./ui.js";

/** The keys, as the list `?` opens says them (docs/client.md). */
const KEYS = ["roll", "double", "arrows", "numbers", "type", "undo", "ok", "hint", "read", "help", "dialogs"];

/** @import { Table } from "./types.js" */

/**
 * @import { TableStore } from "./table-store.js"
 * @import { BoardView } from "./table-board.js"
 */

/**
 * @param {TableStore} store
 * @param {BoardView} board
 * @param {{ controls: () => HTMLElement, autoplay: () => HTMLElement, status: () => HTMLElement }} where
 * @param {{ showHint: () => void, resign: () => void, syncOffers: (tb: Table) => void }} actions
 */
export function createControls(store, board, where, { showHint, resign, syncOffers }) {
  const v = store.state;
  const { act, undo } = store;
  /** OK: at a practice table with the tutor on, ask it first (tutor.js). */
  function submit() {
    const steps = v.made.map(([s0, e0]) => [s0, e0]);
    tutorFirst(v, store.myMove() && !v.sending, { steps }, () => store.submit());
  }

  /** Double: at a practice table with the tutor on, ask it first, as OK does. */
  function double() {
    tutorFirst(v, !v.sending, { cube: "double" }, () => act("double"));
  }

  /** Roll: when doubling was allowed too, rolling is the decision not to double; at a
   * practice table with the tutor on, ask it first. */
  function roll() {
    const could = Boolean(v.table?.allowed.includes("double"));
    tutorFirst(v, !v.sending && could, { cube: "no_double" }, () => act("roll"));
  }

  /** Say the whole board in the live region ("read the board"). */
  function readBoard() {
    announce(board.lines().join(". "));
  }

  function showKeys() {
    dialog({
      id: "keys-dialog",
      title: "keys.title",
      body: () =>
        h(
          "ul",
          { class: "keys-list" },
          KEYS.map((key) => h("li", {}, tx(`keys.${key}`))),
        ),
      actions: [{ key: "btn.close", kind: "primary", id: "keys-close" }],
    });
  }

  // -- a play typed in notation (typed.js): the field is made again at each layout (a change of
  // language) with what was typed kept.
  let typed = typedField("", read, (play) => {
    store.setPlay(play.steps.map((step) => [step[0], step[1]]));
    submit();
  });
  /** What the field's text names at this table, or null when the player is not to move. */
  function read(/** @type {string} */ text) {
    const tb = v.table;
    if (!tb || !store.myMove()) return null;
    return readPlay(text, { points: tb.points, bar: tb.bar, off: tb.off }, tb.legal_plays, tb.dice || []);
  }
  /** Typing a play, and under it "read the board" and the list of keys (small, for everyone). */
  function typedPanel() {
    typed = typedField(typed.input.value, read, typed.onPlay);
    typed.form.classList.toggle("hidden", !store.myMove());
    return h(
      "div",
      { class: "access" },
      typed.form,
      h(
        "div",
        { class: "access-row" },
        button("btn.read_board", readBoard, { class: "btn ghost small", id: "btn-read", title: t("keys.read") }),
        button("btn.keys", showKeys, { class: "btn ghost small", id: "btn-keys", title: t("keys.help") }),
      ),
    );
  }

  function render() {
    const tb = v.table;
    const controls = clear(where.controls());
    const autoplay = clear(where.autoplay());
    autoplay.classList.add("hidden");
    typed.form.classList.toggle("hidden", !store.myMove());
    if (!tb || v.seat === null) {
      if (tb) controls.append(tx("spectating", null, "span", { class: "muted" }));
      renderStatus();
      return;
    }
    const allowed = new Set(tb.allowed);
    const row = [];
    if (tb.autoplay[v.seat] && tb.phase !== "match_over") {
      autoplay.classList.remove("hidden");
      autoplay.append(
        tx("autoplay.on"),
        allowed.has("autoplay")
          ? button("autoplay.take_back", () => act("autoplay", { on: false }), {
              class: "btn primary",
              id: "take-back",
            })
          : "",
      );
    }
    if (allowed.has("roll"))
      row.push(
        button("btn.roll", roll, {
          class: "btn primary",
          id: "btn-roll",
          title: t("key.roll"),
          disabled: v.sending,
        }),
      );
    if (allowed.has("double"))
      row.push(
        button("btn.double", double, {
          class: "btn",
          id: "btn-double",
          title: t("key.double"),
          disabled: v.sending,
        }),
      );
    if (store.myMove() || v.sending) {
      const complete = isComplete(tb.legal_plays, v.made);
      row.push(
        button("btn.undo", undo, {
          class: "btn",
          id: "btn-undo",
          disabled: !v.made.length || v.sending,
          title: t("key.undo"),
        }),
      );
      row.push(
        button("btn.ok", submit, {
          class: `btn primary${complete ? " ready" : ""}`,
          id: "btn-ok",
          disabled: !complete || v.sending,
          title: t("key.ok"),
        }),
      );
    }
    if (v.kind === "practice" && (allowed.has("play") || allowed.has("double") || allowed.has("take"))) {
      row.push(button("btn.hint", showHint, { class: "btn ghost", id: "btn-hint" }));
    }
    if (v.kind === "practice") {
      const on = tutorOn();
      row.push(
        button(
          on ? "tutor.on" : "tutor.off",
          () => {
            setTutor(!on);
            render();
          },
          { class: `btn ghost small${on ? " on" : ""}`, id: "btn-tutor", "aria-pressed": String(on) },
        ),
      );
    }
    if (allowed.has("resign") || allowed.has("forfeit")) {
      row.push(button("btn.resign", resign, { class: "btn ghost", id: "btn-resign" }));
    }
    controls.append(...row);
    syncOffers(tb);
    renderStatus();
  }

  function renderStatus() {
    const tb = v.table;
    let key = "status.waiting";
    /** @type {Record<string, unknown>} */
    let params = {};
    if (!tb) key = "status.connecting";
    else if (tb.phase === "match_over") key = "status.match_over";
    else if (v.seat === null) key = "status.spectating";
    else if (tb.turn === v.seat || (tb.phase === "doubled" && tb.turn !== v.seat)) {
      if (tb.phase === "doubled") key = tb.turn === v.seat ? "status.wait_take" : "status.take_or_drop";
      else if (tb.phase === "roll") key = tb.allowed.includes("double") ? "status.roll_or_double" : "status.rolling";
      else if (tb.phase === "move") {
        if (v.sending) key = "status.sending";
        else if (isComplete(tb.legal_plays, v.made)) key = "status.confirm";
        else if (v.selected !== null) key = "status.pick_dest";
        else key = "status.move";
        params = { dice: (tb.dice || []).join("-") };
        if (v.autoRolled && key === "status.move") key = "status.move_auto";
      } else if (tb.phase === "resign_offered") key = "status.resign_pending";
    } else {
      key = "status.opponent";
      params = { name: nameOf(v, tb.turn) };
    }
    const status = where.status();
    clear(status).append(tx(key, params));
    status.dataset.key = key;
  }

  // -- keyboard ---------------------------------------------------------------------------------
  let digits = "";
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let digitTimer;

  /** @param {KeyboardEvent} event */
  function onKey(event) {
    const target = /** @type {Element | null} */ (event.target);
    if (target?.closest?.("input, textarea, select, [contenteditable], .dialog, .sheet")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const tb = v.table;
    if (!tb) return;
    const allowed = new Set(tb.allowed);
    const k = event.key;
    if ((k === "r" || k === "R") && allowed.has("roll") && !v.sending) roll();
    else if ((k === "d" || k === "D") && allowed.has("double") && !v.sending) double();
    else if (k === "u" || k === "U" || k === "Backspace") undo();
    else if (k === "h" || k === "H") {
      if (document.getElementById("btn-hint")) showHint();
    } else if (k === "Escape") store.release();
    else if (k === "s" || k === "S") readBoard();
    else if (k === "?") showKeys();
    else if ((k === "t" || k === "T") && !typed.form.classList.contains("hidden")) {
      event.preventDefault();
      typed.input.focus();
    } else if (k === "b" || k === "B") store.tap(BAR);
    else if (k === "o" || k === "O") store.tap(OFF);
    else if (/^[0-9]$/.test(k)) {
      digits += k;
      clearTimeout(digitTimer);
      // The key sequence's own clock: "1" then "2" within 0.65 s is point 12.
      const commit = () => {
        const n = Number(digits);
        digits = "";
        if (n >= 1 && n <= 24) store.tap(n);
      };
      if (Number(digits) * 10 > 24 || digits.length >= 2) commit();
      else digitTimer = setTimeout(commit, 650);
    } else if (k === "ArrowLeft" || k === "ArrowRight" || k === "ArrowUp" || k === "ArrowDown") {
      const opts = store.currentOptions();
      const dests = v.selected !== null ? opts.get(v.selected) : undefined;
      const list = dests ? [...dests.keys()] : [...opts.keys()];
      if (!list.length) return;
      list.sort((a, b) => b - a);
      const i = v.cursor === null ? -1 : list.indexOf(v.cursor);
      const step = k === "ArrowLeft" || k === "ArrowUp" ? 1 : -1;
      store.setCursor(list[(i + step + list.length) % list.length]);
      event.preventDefault();
      board.render();
      board.markCursor();
    } else if (k === "Enter" || k === " ") {
      // A focused button (Undo, Read the board, ...) takes its own Enter: not also the table's.
      if (target?.closest?.("button, a, summary")) return;
      if (v.cursor !== null) {
        const c = v.cursor;
        store.setCursor(null);
        store.tap(c);
        board.markCursor();
      } else if (isComplete(tb.legal_plays || [], v.made)) submit();
      event.preventDefault();
    }
  }

  document.addEventListener("keydown", onKey);
  const stop = () => {
    document.removeEventListener("keydown", onKey);
    clearTimeout(digitTimer);
  };
  return { render, renderStatus, stop, typedPanel };
}
