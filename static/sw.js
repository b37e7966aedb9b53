// The site's service worker, served at /sw.js (webpush/views.py) so that its scope is the whole
// site. It does three things and keeps nothing of a person:
// - a push (webpush/sender.py: {title, body, url, tag}) is shown as a notification;
// - a click on one focuses a tab of the site at its page, or opens one;
// - a page that cannot be loaded (no network) is answered with the offline page, kept at install.
// Nothing else is cached: every other request, and every page that loads, goes to the network
// as if there were no worker (pages and API answers hold a person's data).

const CACHE = "harehra-offline-1";
const OFFLINE_URL = "/offline/";
// What the offline page needs; the same for everyone.
const OFFLINE_FILES = [OFFLINE_URL, "/static/css/site.css", "/static/img/favicon.svg", "/static/cards/right.svg"];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(OFFLINE_FILES.map((url) => new Request(url, { cache: "reload", credentials: "omit" }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.mode === "navigate" && request.method === "GET") {
    event.respondWith(fetch(request).catch(() => offlineAnswer()));
  } else if (request.method === "GET" && OFFLINE_FILES.includes(new URL(request.url).pathname)) {
    // The offline page's own style and pictures, from the network while there is one.
    event.respondWith(fetch(request).catch(() => caches.match(new URL(request.url).pathname)));
  }
});

async function offlineAnswer() {
  const kept = await caches.match(OFFLINE_URL);
  return kept || new Response("Offline", { status: 503, headers: { "Content-Type": "text/plain" } });
}

// A push's message: JSON {title, body, url, tag}; anything else shows the site's name.
function pushMessage(data) {
  let message;
  try {
    message = data ? data.json() : {};
  } catch {
    message = { body: data ? data.text() : "" };
  }
  return {
    title: message.title || "Harehra Online",
    body: message.body || "",
    url: sameSite(message.url),
    tag: message.tag || "",
  };
}

// Only a page of this site is opened.
function sameSite(url) {
  try {
    const target = new URL(url || "/notifications/", self.location.origin);
    return target.origin === self.location.origin ? target.pathname + target.search + target.hash : "/notifications/";
  } catch {
    return "/notifications/";
  }
}

self.addEventListener("push", (event) => {
  const message = pushMessage(event.data);
  const options = {
    body: message.body,
    tag: message.tag || undefined,
    icon: "/static/img/icon-192.png",
    badge: "/static/img/icon-192.png",
    data: { url: message.url },
  };
  event.waitUntil(self.registration.showNotification(message.title, options));
});

// The click's work: a tab of the site already open goes to the page and comes forward, else a
// new one opens there. Its own function so that tests can call it (a headless browser has no
// notification to click).
async function notificationOpen(notification) {
  const url = sameSite(notification.data && notification.data.url);
  notification.close();
  // Only a tab this worker controls can be sent to another page; any other, a new tab.
  const tabs = await self.clients.matchAll({ type: "window" });
  const tab = tabs.find((client) => new URL(client.url).origin === self.location.origin);
  const there = tab ? await tab.navigate(url).catch(() => null) : null;
  if (there) return there.focus().catch(() => there);
  return self.clients.openWindow(url);
}
self.notificationOpen = notificationOpen;

self.addEventListener("notificationclick", (event) => {
  event.waitUntil(notificationOpen(event.notification));
});
