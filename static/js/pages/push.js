// The "Notifications on this device" switch (templates/notifications/list.html): turning it on
// asks the browser's permission, subscribes through the service worker's push manager with the
// site's VAPID key (the template's data-key) and gives the subscription to the site
// (/api/push/subscriptions/); off unsubscribes the browser and tells the site. Its words come from
// the template (the page loads no catalogue). Hidden where the site sends no push or the browser
// cannot receive it.

import { csrfToken } from "../core/dom.js";

// The key as the push manager wants it: base64url to bytes.
export function keyBytes(base64url) {
  const base64 = (base64url + "=".repeat((4 - (base64url.length % 4)) % 4)).replace(/-/g, "+").replace(/_/g, "/");
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

function tellSite(method, body) {
  return fetch("/api/push/subscriptions/", {
    method,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(body),
    credentials: "same-origin",
  }).then((r) => {
    if (!r.ok) throw new Error(`the site answered ${r.status}`);
    return r;
  });
}

export function bindPushSwitch(box) {
  const input = box.querySelector("input[type=checkbox]");
  const status = box.querySelector(".push-status");
  const words = box.dataset;
  const say = (text) => {
    status.textContent = text;
  };
  const registration = () => navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(() => navigator.serviceWorker.ready);

  async function turnOn() {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      input.checked = false;
      say(words.blocked);
      return;
    }
    const reg = await registration();
    const subscription =
      (await reg.pushManager.getSubscription()) ||
      (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(words.key) }));
    await tellSite("POST", subscription.toJSON());
    say(words.on);
  }

  async function turnOff() {
    const reg = await registration();
    const subscription = await reg.pushManager.getSubscription();
    if (subscription) {
      await tellSite("DELETE", { endpoint: subscription.endpoint }).catch(() => {});
      await subscription.unsubscribe();
    }
    say(words.off);
  }

  input.addEventListener("change", () => {
    input.disabled = true;
    (input.checked ? turnOn() : turnOff())
      .catch(() => {
        input.checked = !input.checked;
        say(words.failed);
      })
      .finally(() => {
        input.disabled = false;
      });
  });

  registration()
    .then((reg) => reg.pushManager.getSubscription())
    .then((subscription) => {
      input.checked = Boolean(subscription) && Notification.permission === "granted";
      say(input.checked ? words.on : Notification.permission === "denied" ? words.blocked : words.off);
      box.hidden = false;
    })
    .catch(() => {});
}

const box = typeof document === "undefined" ? null : document.getElementById("push-switch");
if (box && box.dataset.key && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window) {
  bindPushSwitch(box);
}
