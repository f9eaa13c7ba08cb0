// Coins: the lobby's check-in card and the shop (#/shop). Coins come from a daily check-in and
// buy board themes and checker sets; matches never give or take coins (docs/protocol.md, Coins).
import { api, ApiError } from "./api.js";
import { h, tx, raw, button, clear } from "./dom.js";
import { onLanguage } from "./i18n.js";
import { toast } from "./ui.js";
import { forgetLooks } from "./looks.js";

/** A fresh key for one purchase the player means; a retry of that purchase reuses it. */
function purchaseKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** POST a purchase, and once more with the same key if the answer was lost on the way. */
async function buyOnce(item) {
  const key = purchaseKey();
  try {
    return await api.buy(item, key);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    return api.buy(item, key); // a network failure: the same key cannot charge twice
  }
}

/** The lobby's card: balance, streak, the next reward and the check-in button. */
export function coinsCard({ navigate, onBalance }) {
  const card = h("section", { class: "card coins-card", id: "coins-card" });
  let wallet = null;
  let busy = false;

  function draw() {
    const head = h("div", { class: "card-head" },
      h("span", { class: "card-icon icon-coin", "aria-hidden": "true" }), tx("coins.title", null, "h2"));
    if (wallet === null) {
      clear(card).append(head, h("p", { class: "muted" }, h("span", { class: "spinner" })));
      return;
    }
    const done = wallet.checked_in_today;
    clear(card).append(head,
      h("p", { class: "coins-balance" },
        raw(String(wallet.balance), "strong", { id: "coins-balance" }), " ", tx("coins.unit")),
      h("p", { class: "muted small", id: "coins-streak" },
        wallet.streak > 0 ? tx("coins.streak", { n: wallet.streak }) : tx("coins.no_streak")),
      button(done ? "coins.checked_in" : "coins.check_in", checkIn, {
        class: `btn ${done ? "" : "primary"} wide`, id: "check-in", disabled: done || busy,
        params: { n: wallet.next_reward },
      }),
      done ? tx("coins.tomorrow", { n: wallet.next_reward }, "p", { class: "muted small", id: "coins-next" }) : null,
      button("coins.open_shop", () => navigate("/shop"), { class: "btn ghost wide", id: "open-shop" }),
      tx("coins.no_matches", null, "p", { class: "muted small" }));
  }

  async function load() {
    try {
      wallet = await api.wallet();
    } catch {
      wallet = { balance: 0, streak: 0, checked_in_today: false, next_reward: 10 };
    }
    draw();
  }

  async function checkIn() {
    if (busy) return;
    busy = true;
    draw();
    try {
      const result = await api.checkIn();
      if (!result.already) toast(tx("coins.credited", { n: result.credited }), "good");
      await load();
      if (onBalance) onBalance(result.balance);
    } catch {
      toast(tx("error.generic"), "error");
    } finally {
      busy = false;
      draw();
    }
  }

  draw();
  load();
  const off = onLanguage(draw);
  return { el: card, close: off };
}

/** The shop: every board theme and checker set, to buy and to wear. */
export function mountShop(root, { navigate }) {
  let shop = null;
  let pending = null;

  function itemCard(item) {
    const state = item.equipped ? "shop.wearing" : item.owned ? "shop.owned" : null;
    const action = item.equipped
      ? null
      : item.owned
        ? button("shop.wear", () => wear(item), { class: "btn small", "data-wear": item.id })
        : button("shop.buy", () => buy(item), {
          class: "btn primary small", "data-buy": item.id, params: { n: item.price },
          disabled: pending !== null || shop.balance < item.price,
        });
    return h("li", { class: `shop-item${item.equipped ? " on" : ""}`, "data-item": item.id },
      h("img", { src: item.preview, alt: "", width: item.kind === "board" ? 120 : 64, height: item.kind === "board" ? 80 : 64, class: "shop-preview" }),
      tx(`shop.item.${item.id}`, null, "span", { class: "shop-name" }),
      state ? tx(state, null, "span", { class: "badge good" }) : tx("shop.price", { n: item.price }, "span", { class: "badge" }),
      action);
  }

  function section(kind, title) {
    const items = shop.items.filter((i) => i.kind === kind);
    return h("section", { class: "card", id: `shop-${kind}` },
      tx(title, null, "h2"),
      kind === "checkers" ? tx("shop.checkers_note", null, "p", { class: "muted small" }) : tx("shop.board_note", null, "p", { class: "muted small" }),
      h("ul", { class: "shop-grid" }, items.map(itemCard)));
  }

  function draw() {
    const top = h("div", { class: "shop-top" },
      button("nav.lobby", () => navigate("/"), { class: "btn ghost small", id: "shop-back" }),
      tx("shop.title", null, "h1"),
      shop ? h("p", { class: "coins-balance" }, raw(String(shop.balance), "strong", { id: "shop-balance" }), " ", tx("coins.unit")) : null);
    if (shop === null) {
      clear(root).append(h("div", { class: "shop" }, top, h("span", { class: "spinner" })));
      return;
    }
    clear(root).append(h("div", { class: "shop" }, top,
      h("div", { class: "shop-columns" }, section("board", "shop.boards"), section("checkers", "shop.checkers"))));
  }

  async function load() {
    try {
      shop = await api.shop();
    } catch {
      toast(tx("error.generic"), "error");
      shop = { balance: 0, items: [] };
    }
    draw();
  }

  async function buy(item) {
    pending = item.id;
    draw();
    try {
      await buyOnce(item.id);
      toast(tx("shop.bought"), "good");
      forgetLooks();
    } catch (error) {
      toast(tx(error instanceof ApiError && error.status === 409 ? "shop.short" : "error.generic"), "error");
    } finally {
      pending = null;
      await load();
    }
  }

  async function wear(item) {
    const choice = { board: shop.board, checkers: shop.checkers };
    if (item.kind === "board") choice.board = item.id;
    else choice.checkers = item.id;
    try {
      await api.equip(choice);
      forgetLooks();
      toast(tx("shop.worn"), "good");
    } catch {
      toast(tx("error.generic"), "error");
    }
    await load();
  }

  draw();
  load();
  const off = onLanguage(draw);
  return () => off();
}
