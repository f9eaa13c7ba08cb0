// @ts-check
// Web Push on this device (issue 38): the service worker (/sw.js, scope "/": it shows a push and
// opens its table on a tap, and caches nothing), the browser's permission, and this browser's
// push subscription registered with the server for the account signed in here. The server
// binds a subscription to the session that registered it, so after signing in or out the page
// registers it again for whoever this browser is now (`syncPush`).
import { api } from "./api.js";

/**
 * @typedef {{ push: Record<string, boolean>, email: Record<string, boolean>, email_linked: boolean }} NotifySettings
 * @typedef {"unsupported" | "blocked" | "on" | "off"} PushState
 */

const SYNCED = "bidak.push.synced"; // "<player id> <endpoint>" last registered from this browser

/** Whether this browser can take Web Push at all (a secure page, a worker, the Push API). */
export function pushSupported() {
  return window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** @type {Promise<ServiceWorkerRegistration | null> | null} */
let registering = null;

/** Register the service worker (once per page; a failure leaves the site as it was). */
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  if (registering) return registering;
  // A tap on a push while a Bidak tab is open: the worker asks that tab to open the table.
  navigator.serviceWorker.addEventListener("message", (event) => {
    const url = event.data && event.data.type === "open" ? String(event.data.url || "") : "";
    if (url.startsWith("/#/")) location.hash = url.slice(2);
  });
  registering = navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
  return registering;
}

/** The worker's registration, once it is ready (null without one). */
async function registration() {
  if (!("serviceWorker" in navigator)) return null;
  await registerWorker();
  return navigator.serviceWorker.ready;
}

/** This device's state: not supported, blocked by the browser, on (subscribed), or off. */
export async function pushState() {
  if (!pushSupported()) return /** @type {PushState} */ ("unsupported");
  if (Notification.permission === "denied") return /** @type {PushState} */ ("blocked");
  const found = await registration();
  const subscription = found ? await found.pushManager.getSubscription() : null;
  return /** @type {PushState} */ (subscription && Notification.permission === "granted" ? "on" : "off");
}

/** @param {string} text base64url */
function bytes(text) {
  const plain = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(plain, (c) => c.charCodeAt(0));
}

/**
 * Send this browser's subscription to the server for the player signed in here.
 * @param {PushSubscription} subscription
 * @param {string} playerId
 */
async function register(subscription, playerId) {
  await api.pushSubscribe({ ...subscription.toJSON(), language: document.documentElement.lang || "en" });
  localStorage.setItem(SYNCED, `${playerId} ${subscription.endpoint}`);
}

/**
 * Ask the browser's permission, subscribe with the server's key and register it; the state after.
 * @param {string} playerId
 */
export async function turnOn(playerId) {
  if (!pushSupported()) return /** @type {PushState} */ ("unsupported");
  const allowed = await Notification.requestPermission();
  if (allowed !== "granted") return /** @type {PushState} */ (allowed === "denied" ? "blocked" : "off");
  const found = await registration();
  if (!found) return /** @type {PushState} */ ("unsupported");
  const { key } = await api.pushKey();
  let subscription = await found.pushManager.getSubscription();
  if (subscription) {
    // Subscribed with another key (the site's key was changed): subscribe anew.
    const held = subscription.options.applicationServerKey;
    const same = held && new Uint8Array(held).join() === bytes(key).join();
    if (!same) {
      await subscription.unsubscribe();
      subscription = null;
    }
  }
  subscription ||= await found.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) });
  await register(subscription, playerId);
  return /** @type {PushState} */ ("on");
}

/** Stop pushes to this device: the subscription is dropped here and at the server. */
export async function turnOff() {
  const found = await registration();
  const subscription = found ? await found.pushManager.getSubscription() : null;
  if (subscription) {
    await api.pushUnsubscribe(subscription.endpoint).catch(() => {});
    await subscription.unsubscribe();
  }
  localStorage.removeItem(SYNCED);
  return /** @type {PushState} */ ("off");
}

/**
 * At each start: a browser that allowed pushes registers its subscription again when the
 * player signed in here changed (signed in, signed out), so pushes follow the account.
 * @param {string} playerId
 */
export async function syncPush(playerId) {
  if (!pushSupported() || Notification.permission !== "granted") return;
  const found = await registration();
  const subscription = found ? await found.pushManager.getSubscription() : null;
  if (!subscription || localStorage.getItem(SYNCED) === `${playerId} ${subscription.endpoint}`) return;
  await register(subscription, playerId).catch(() => {});
}
