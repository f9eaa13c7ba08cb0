// @ts-check
// What an event of the room shows as the store applies it: the toasts that tell what the
// other side (or the server, for the viewer) did, the pauses that let dice be seen, a play's
// animation, and the dialog at the end of a game. Nothing here changes the table's state.
import { tx } from "./dom.js";
import { saidAlready, timedOutLine } from "./table-log.js";
import { nameOf } from "./table-names.js";
import { toast } from "./ui.js";

/**
 * @import { MatchEvent } from "./types.js"
 * @import { Shown } from "./table-queue.js"
 * @import { TableStore } from "./table-store.js"
 * @import { BoardView } from "./table-board.js"
 */

const pause = (/** @type {number} */ ms) => new Promise((r) => setTimeout(r, ms));

/**
 * @param {TableStore} store
 * @param {BoardView} board
 * @param {{ gameWon: (event: MatchEvent) => void }} dialogs
 */
export function createPresenter(store, board, dialogs) {
  const v = store.state;
  const name = (/** @type {number | undefined} */ player) => nameOf(v, player);

  /** @param {MatchEvent} event @param {Shown} shown */
  async function present(event, { mine, own, timedOut, animate, frames }) {
    const dice = (event.dice || []).join("-");
    switch (event.type) {
      case "opening_rolled":
        await pause(animate ? 500 : 0);
        break;
      case "dice_rolled":
        await pause(animate ? 250 : 0);
        break;
      case "played":
        if (own) break;
        if (mine && v.seat !== null && !timedOut) {
          toast(
            event.steps?.length ? tx("auto.forced", { play: event.notation }) : tx("auto.dance", { dice }),
            "info",
            2400,
          );
        } else if (!event.steps?.length) {
          toast(tx("ev.dance", { name: name(event.player), dice }), "info", 2000);
        }
        await board.animate(frames, animate);
        break;
      case "doubled":
        if (!mine) toast(tx("ev.doubled", { name: name(event.player), value: event.value }), "info");
        break;
      case "taken":
      case "dropped":
      case "resign_rejected":
      case "resign_accepted":
        if (!mine) toast(tx(`ev.${event.type}`, { name: name(event.player) }), "info");
        break;
      case "timed_out":
        if (!saidAlready(v.log, v.log.length - 1)) toast(timedOutLine(v, event), "warn", 3200);
        break;
      case "autoplay_changed":
        if (mine && event.on) toast(tx("auto.autoplay_on"), "warn", 3200);
        break;
      case "game_won":
        dialogs.gameWon(event);
        break;
      default:
        break;
    }
  }

  return present;
}
