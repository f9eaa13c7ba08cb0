// @ts-check
// The page an e-mail link opens (/auth/email?token=...): it previews the link and changes
// nothing before the one click (docs/protocol.md, "Accounts"), then shows the result and the
// way back. It asks /api/me nothing (a sign-in link in a new browser needs no guest first).
// Names and addresses are data: catalog parameters (text), never HTML.
import { accountApi } from "./account-parts.js";
import { ApiError } from "./api.js";
import { button, clear, h, tx } from "./dom.js";
import { onLanguage } from "./i18n.js";

/** @import { LinkDone, LinkPreview } from "./types.js" */

/** @type {Record<string, { title: string, body: string, action: string, kind: string }>} */
const READY = {
  link_email: {
    title: "link.link_email.title",
    body: "link.link_email.body",
    action: "link.link_email.go",
    kind: "primary",
  },
  sign_in: { title: "link.sign_in.title", body: "link.sign_in.body", action: "link.sign_in.go", kind: "primary" },
  change_email: {
    title: "link.change_email.title",
    body: "link.change_email.body",
    action: "link.change_email.go",
    kind: "primary",
  },
  remove_email: {
    title: "link.remove_email.title",
    body: "link.remove_email.body",
    action: "link.remove_email.go",
    kind: "danger",
  },
  delete_account: {
    title: "link.delete_account.title",
    body: "link.delete_account.body",
    action: "link.delete_account.go",
    kind: "danger",
  },
};

/**
 * The page of an e-mail link: what it does, one button, then the result and the way back.
 * @param {HTMLElement} root
 * @param {string} token
 */
export function mountEmailLink(root, token) {
  let state = "loading"; // loading · ready · used · expired · invalid · other · failed · done
  /** @type {LinkPreview | null} */
  let preview = null;
  /** @type {LinkDone | null} */
  let done = null;
  let busy = false;
  const home = () => location.assign("/");
  // A change_email link without a new address removes the address (docs/protocol.md).
  const purpose = () =>
    preview && preview.purpose === "change_email" && !preview.address ? "remove_email" : preview?.purpose;
  // The name inside a sentence is isolated (FSI ... PDI), as the table does, so a right-to-left
  // name cannot reorder the words around it.
  const params = () => ({
    name: preview ? `\u2068${preview.name}\u2069` : "",
    address: preview ? preview.address : "",
  });

  async function use() {
    if (busy) return;
    busy = true;
    draw();
    try {
      done = await accountApi.confirm(token);
      state = "done";
    } catch (failure) {
      const status = failure instanceof ApiError ? failure.status : 0;
      state =
        status === 410
          ? "used"
          : status === 404
            ? "invalid"
            : status === 403
              ? "other"
              : status === 409
                ? "taken"
                : "failed";
    }
    busy = false;
    draw();
  }

  function content() {
    if (state === "loading") return [h("p", { class: "spinner-row" }, h("span", { class: "spinner" }))];
    if (state === "ready") {
      const spec = READY[purpose() || ""] || READY.sign_in;
      return [
        tx(spec.title, params(), "h1"),
        tx(spec.body, params(), "p", { class: "muted" }),
        button(spec.action, use, { class: `btn ${spec.kind} wide`, id: "link-go", params: params(), disabled: busy }),
      ];
    }
    if (state === "done") {
      const key = `link.done.${purpose()}`;
      return [
        tx(key, params(), "h1"),
        done?.merged
          ? tx(done.merged === 1 ? "link.done.merged_one" : "link.done.merged", { n: done.merged }, "p", {
              id: "link-merged",
            })
          : null,
        purpose() === "change_email" ? tx("link.done.change_next", params(), "p", { class: "muted" }) : null,
        button("link.lobby", home, { class: "btn primary wide", id: "link-lobby" }),
      ];
    }
    return [
      tx(`link.${state}.title`, null, "h1"),
      tx(`link.${state}.body`, null, "p", { class: "muted" }),
      button("link.lobby", home, { class: "btn primary wide", id: "link-lobby" }),
    ];
  }

  function draw() {
    clear(root).append(
      h(
        "section",
        { class: "card center-card link-card", id: "link-card", "data-state": state, "data-purpose": purpose() || "" },
        h("span", { class: "card-icon icon-mail link-icon", "aria-hidden": "true" }),
        content(),
      ),
    );
  }

  draw();
  if (!token) state = "invalid";
  (token ? accountApi.preview(token) : Promise.reject(new ApiError(404, "")))
    .then(
      (found) => {
        preview = found;
        state = found.state;
      },
      (failure) => {
        state = failure instanceof ApiError && [404, 422].includes(failure.status) ? "invalid" : "failed";
      },
    )
    .then(draw);
  return onLanguage(draw);
}
