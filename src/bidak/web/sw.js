// Bidak's service worker (issue 38, docs/correspondence.md "Notifications: Web Push").
// It shows a Web Push as a notification and, on a tap, opens the match's table: in a Bidak tab
// already open (focused, and asked to go there) or in a new one. It caches nothing and has no
// fetch handler: every request goes to the network exactly as without it, so a stale board can
// never show, and an offline page says it is offline instead of showing yesterday's game.
/* global self, clients */

self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));

/** A page of this site from a push's `url` ("/#/..."), else the list of one's games. */
function page(url) {
  return typeof url === "string" && url.startsWith("/#/") ? url : "/#/games";
}

self.addEventListener("push", (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === "string" && data.title ? data.title : "Bidak";
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === "string" ? data.body : "",
      icon: "/icon-192.png",
      badge: "/icon-maskable-192.png",
      tag: typeof data.tag === "string" ? data.tag : undefined,
      data: { url: page(data.url) },
    }),
  );
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = page(event.notification.data?.url);
  event.waitUntil(
    (async () => {
      const open = await clients.matchAll({ type: "window", includeUncontrolled: true });
      const mine = open.find((client) => new URL(client.url).origin === self.location.origin);
      if (mine) {
        await mine.focus();
        mine.postMessage({ type: "open", url });
        return;
      }
      await clients.openWindow(url);
    })(),
  );
});
