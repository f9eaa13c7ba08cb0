// @ts-check
// Coins: the lobby's check-in card and the shop (#/shop). Coins come from a daily check-in and
// buy board themes and checker sets; matches never give or take coins (docs/protocol.md, Coins).
import { ApiError, api } from "./api.js";

/** @import { Shop, ShopItem, Wallet } from "./types.js" */
import { button, clear, h, raw, tx } from "./dom.js";
import { onLanguage, t } from "./i18n.js";
import { forgetLooks } from "./looks.js";
import { toast } from "./ui.js";

/** A fresh key for one purchase the player means; a retry of that purchase reuses it. */
function purchaseKey() {
  if (globalThis.crypto && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes); // randomUUID needs a secure context, this does not
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/** POST a purchase, and once more with the same key if the answer was lost on the way. */
async function buyOnce(/** @type {string} */ item) {
  const key = purchaseKey();
  try {
    return await api.buy(item, key);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    return api.buy(item, key); // a network failure: the same key cannot charge twice
  }
}

/** How far the streak is along the reward table: the days done, and the next day's index. */
function streakDays(/** @type {Wallet} */ wallet) {
  const cycle = wallet.rewards.length;
  let done = wallet.streak > 0 ? ((wallet.streak - 1) % cycle) + 1 : 0;
  // A cycle closed before today: today's check-in starts the table again at day 1.
  if (done === cycle && !wallet.checked_in_today) done = 0;
  return { done, next: done % cycle };
}

/**
 * The lobby's card: balance, streak, the reward table, the check-in button and the way to the
 * shop. `session`: the visitor's first request (the wallet waits for it, since that request
 * creates a new visitor's guest). Returns {el, close}; `el` stays the same element, so the
 * lobby can put it back after drawing itself again.
 * @param {{ navigate: (path: string) => void, session?: Promise<unknown> }} options
 */
export function coinsCard({ navigate, session = Promise.resolve() }) {
  const card = h("section", { class: "card coins-card", id: "coins-card" });
  /** @type {Wallet | null} */
  let wallet = null;
  let failed = false;
  let busy = false;
  let gone = false;

  function rewards(/** @type {Wallet} */ wallet) {
    const { done, next } = streakDays(wallet);
    return h(
      "ol",
      { class: "coins-days", id: "coins-days", "aria-label": t("coins.days") },
      wallet.rewards.map((coins, i) =>
        h(
          "li",
          {
            class: `coins-day${i < done ? " done" : ""}${i === next && !wallet.checked_in_today ? " next" : ""}`,
            "data-day": i + 1,
          },
          tx("coins.day", { n: i + 1 }, "span", { class: "coins-day-n" }),
          raw(String(coins), "b"),
        ),
      ),
    );
  }

  function draw() {
    const head = h(
      "div",
      { class: "card-head" },
      h("span", { class: "card-icon icon-coin", "aria-hidden": "true" }),
      tx("coins.title", null, "h2"),
      wallet
        ? h(
            "p",
            { class: "coins-balance" },
            raw(String(wallet.balance), "strong", { id: "coins-balance" }),
            " ",
            tx("coins.unit"),
          )
        : null,
    );
    if (wallet === null) {
      clear(card).append(
        head,
        failed
          ? h(
              "p",
              { class: "muted" },
              tx("coins.unavailable"),
              " ",
              button(
                "coins.retry",
                () => {
                  failed = false;
                  draw();
                  load();
                },
                { class: "btn ghost small", id: "coins-retry" },
              ),
            )
          : h("p", { class: "muted" }, h("span", { class: "spinner" })),
      );
      return;
    }
    const done = wallet.checked_in_today;
    clear(card).append(
      head,
      wallet.streak > 0
        ? tx("coins.streak", { n: wallet.streak }, "p", { class: "coins-streak", id: "coins-streak" })
        : tx("coins.no_streak", null, "p", { class: "coins-streak muted", id: "coins-streak" }),
      rewards(wallet),
      button(done ? "coins.checked_in" : "coins.check_in", checkIn, {
        class: `btn${done ? "" : " primary"} wide`,
        id: "check-in",
        disabled: done || busy,
        params: { n: wallet.next_reward },
        "data-done": done ? "true" : "false",
      }),
      done
        ? tx("coins.tomorrow", { n: wallet.next_reward }, "p", { class: "muted small coins-next", id: "coins-next" })
        : tx("coins.reset", null, "p", { class: "muted small coins-next", id: "coins-next" }),
      button("coins.open_shop", () => navigate("/shop"), { class: "btn wide", id: "open-shop" }),
      tx("coins.no_matches", null, "p", { class: "muted small coins-note" }),
    );
  }

  async function load() {
    try {
      await session;
      wallet = await api.wallet();
      failed = false;
    } catch {
      failed = wallet === null;
    }
    if (!gone) draw();
  }

  async function checkIn() {
    if (busy || !wallet || wallet.checked_in_today) return;
    busy = true;
    draw();
    try {
      const result = await api.checkIn();
      // The answer says all the card shows: no second request, no reload.
      wallet = {
        ...wallet,
        balance: result.balance,
        streak: result.streak,
        checked_in_today: true,
        next_reward: result.next_reward,
      };
      toast(
        result.already
          ? tx("coins.checked_in")
          : result.welcome
            ? tx("coins.welcome", { n: result.credited, gift: result.welcome })
            : tx("coins.credited", { n: result.credited }),
      );
    } catch {
      toast(tx("error.generic"), "error");
    } finally {
      busy = false;
      if (!gone) draw();
    }
  }

  draw();
  load();
  const off = onLanguage(draw);
  return {
    el: card,
    close: () => {
      gone = true;
      off();
    },
  };
}

/**
 * The shop: every board theme and checker set, to buy and to wear.
 * @param {HTMLElement} root
 * @param {{ navigate: (path: string) => void }} options
 */
export function mountShop(root, { navigate }) {
  /** @type {Shop | null} */
  let shop = null;
  let failed = false;
  /** @type {string | null} the item being bought or worn */
  let pending = null;
  let gone = false;

  function itemCard(/** @type {Shop} */ shop, /** @type {ShopItem} */ item) {
    const state = item.equipped ? "shop.wearing" : item.owned ? "shop.owned" : null;
    const action = item.equipped
      ? null
      : item.owned
        ? button("shop.wear", () => wear(item), {
            class: "btn small",
            "data-wear": item.id,
            disabled: pending !== null,
          })
        : shop.balance < item.price
          ? button("shop.missing", () => {}, {
              class: "btn primary small",
              "data-buy": item.id,
              params: { n: item.price - shop.balance, price: item.price },
              disabled: true,
            })
          : button("shop.buy", () => buy(item), {
              class: "btn primary small",
              "data-buy": item.id,
              params: { n: item.price },
              disabled: pending !== null,
            });
    const board = item.kind === "board";
    return h(
      "li",
      { class: `shop-item shop-${item.kind}${item.equipped ? " on" : ""}`, "data-item": item.id },
      h("img", {
        src: item.preview,
        alt: "",
        width: board ? 120 : 80,
        height: 80,
        class: "shop-preview",
        decoding: "async",
      }),
      h(
        "div",
        { class: "shop-text" },
        tx(`shop.item.${item.id}`, null, "span", { class: "shop-name" }),
        state ? tx(state, null, "span", { class: `badge${item.equipped ? " good" : ""} shop-state` }) : null,
      ),
      action || h("span", { class: "shop-action-none" }),
    );
  }

  /** @param {Shop} shop @param {string} kind @param {string} title @param {string} note */
  function section(shop, kind, title, note) {
    const items = shop.items.filter((i) => i.kind === kind);
    return h(
      "section",
      { class: "card shop-section", id: `shop-${kind}` },
      tx(title, null, "h2"),
      tx(note, null, "p", { class: "muted small" }),
      h(
        "ul",
        { class: "shop-grid" },
        items.map((item) => itemCard(shop, item)),
      ),
    );
  }

  function draw() {
    if (gone) return;
    const top = h(
      "div",
      { class: "shop-top" },
      button("nav.back", () => navigate("/"), { class: "btn ghost small", id: "shop-back" }),
      tx("shop.title", null, "h1"),
      shop
        ? h(
            "p",
            { class: "coins-balance" },
            raw(String(shop.balance), "strong", { id: "shop-balance" }),
            " ",
            tx("coins.unit"),
          )
        : null,
    );
    let body;
    if (shop) {
      body = h(
        "div",
        { class: "shop-columns" },
        section(shop, "board", "shop.boards", "shop.board_note"),
        section(shop, "checkers", "shop.checkers", "shop.checkers_note"),
      );
    } else if (failed) {
      body = h(
        "div",
        { class: "card center-card" },
        tx("error.generic", null, "p"),
        button(
          "coins.retry",
          () => {
            failed = false;
            draw();
            load();
          },
          { class: "btn primary", id: "shop-retry" },
        ),
      );
    } else {
      body = h("div", { class: "spinner-row" }, h("span", { class: "spinner" }));
    }
    clear(root).append(
      h("div", { class: "shop", id: "shop" }, top, tx("shop.earn", null, "p", { class: "muted shop-earn" }), body),
    );
  }

  async function load() {
    try {
      shop = await api.shop();
      failed = false;
    } catch {
      failed = shop === null;
      if (!failed) toast(tx("error.generic"), "error");
    }
    draw();
  }

  async function buy(/** @type {ShopItem} */ item) {
    if (pending !== null) return;
    pending = item.id;
    draw();
    try {
      await buyOnce(item.id);
      toast(tx("shop.bought"));
      forgetLooks();
    } catch (error) {
      toast(tx(error instanceof ApiError && error.status === 409 ? "shop.short" : "error.generic"), "error");
    }
    pending = null;
    await load();
  }

  async function wear(/** @type {ShopItem} */ item) {
    if (pending !== null || !shop) return;
    pending = item.id;
    draw();
    const choice = { board: shop.board, checkers: shop.checkers };
    if (item.kind === "board") choice.board = item.id;
    else choice.checkers = item.id;
    try {
      await api.equip(choice);
      forgetLooks();
      toast(tx("shop.worn"));
    } catch {
      toast(tx("error.generic"), "error");
    }
    pending = null;
    await load();
  }

  draw();
  load();
  const off = onLanguage(draw);
  return () => {
    gone = true;
    off();
  };
}
