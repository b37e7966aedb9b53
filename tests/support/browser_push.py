"""Web push in a Playwright Chromium, for browser tests: a context's push manager subscribed at
the test's push service (tests/support/pushservice.py), and a decrypted message delivered to the
site's service worker through the DevTools protocol (ServiceWorker.deliverPushMessage), whose
shown notifications are then read from the page.

Headless Chromium has no push service (its pushManager.subscribe answers "permission denied"
whatever the permission): the page's pushManager is given a subscription at the test's push
service, with keys the test holds, in its place."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.support.pushservice import BrowserKeys

# The page's push manager, standing for a browser's: a subscription at the test's push service,
# kept across pages as a browser keeps it (in the page's storage here).
FAKE_PUSH_MANAGER = """((endpoint, p256dh, auth) => {
  const KEPT = "harehra-test-push";
  const subscription = {
    endpoint,
    expirationTime: null,
    toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
    unsubscribe: async () => {
      localStorage.removeItem(KEPT);
      return true;
    },
  };
  PushManager.prototype.subscribe = async function (options) {
    const key = options && options.applicationServerKey;
    window.harehraTestSubscribedWith = key && key.length;
    localStorage.setItem(KEPT, "1");
    return subscription;
  };
  PushManager.prototype.getSubscription = async function () {
    return localStorage.getItem(KEPT) ? subscription : null;
  };
})(%s, %s, %s);"""

NOTIFICATIONS_SHOWN = """() => navigator.serviceWorker.ready
  .then((r) => r.getNotifications())
  .then((ns) => ns.map((n) => ({ title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url })))"""


def push_manager_at(context: Any, base: str, endpoint: str, keys: BrowserKeys) -> None:
    """Lets the context's pages show notifications and subscribe at `endpoint` with `keys`."""
    context.grant_permissions(["notifications"], origin=base)
    context.add_init_script(
        FAKE_PUSH_MANAGER % tuple(json.dumps(v) for v in (endpoint, keys.p256dh, keys.auth_b64))
    )


class WorkerPush:
    """The site's service worker as the DevTools protocol sees it from `page`: pushes delivered
    to it, and the notifications it shows."""

    def __init__(self, page: Any, base: str) -> None:
        self.page, self.base = page, base
        self.cdp = page.context.new_cdp_session(page)
        registrations: list[dict[str, Any]] = []
        self.cdp.on(
            "ServiceWorker.workerRegistrationUpdated", lambda e: registrations.extend(e["registrations"])
        )
        self.cdp.send("ServiceWorker.enable")
        for _ in range(50):
            found = next((r for r in registrations if r["scopeURL"] == f"{base}/"), None)
            if found:
                break
            # A round trip through the page (the worker ready) hands over the protocol's events.
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        else:
            raise AssertionError("the service worker's registration was never reported")
        self.registration = found

    def deliver(self, message: dict[str, Any]) -> None:
        self.cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": self.base,
                "registrationId": self.registration["registrationId"],
                "data": json.dumps(message),
            },
        )

    def shown(self) -> list[dict[str, Any]]:
        return self.page.evaluate(NOTIFICATIONS_SHOWN)

    def wait_shown(self, timeout: float = 15) -> list[dict[str, Any]]:
        """The notifications shown, once there are any. Polled through `evaluate`, which awaits
        the worker's answer (a predicate's promise is not a truthy value to wait on)."""
        deadline = time.monotonic() + timeout
        while not (shown := self.shown()):
            assert time.monotonic() < deadline, f"no notification shown in {timeout} s"
            time.sleep(0.1)
        return shown
