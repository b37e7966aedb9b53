"""Web push and the installed app in Chromium, through real servers: the notifications page's
switch subscribes the browser and gives the subscription to the site; a follow makes the worker
send a push to the push service this test runs, which decrypts it as the browser would; the
message is delivered to the site's service worker through the DevTools protocol
(ServiceWorker.deliverPushMessage), which shows it as a notification; opening it takes the tab to
its page. With the network gone, a page is answered with the offline page (English, and Czech on
a phone); and Chromium finds nothing that keeps the site from being installed
(Page.getInstallabilityErrors).

Headless Chromium has no push service (its pushManager.subscribe answers "permission denied"
whatever the permission): the page's pushManager is given a subscription at this test's push
service, with keys the test holds, in its place. Nor can a test click a notification (there is
none on a screen): the worker's click handler's work (`notificationOpen` in static/sw.js) is
called in the worker with the notification it shows."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.browser.ui import api, person, sign_in
from tests.support.browser_push import WorkerPush, push_manager_at
from tests.support.pushservice import BrowserKeys, push_service
from webpush.management.commands.vapid_keys import vapid_key_pair

# As tests/browser/conftest.py launches it, for the test that needs a profile of its own.
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
PUBLIC_KEY, PRIVATE_KEY = vapid_key_pair()
SITE_ENV = {
    "VAPID_PUBLIC_KEY": PUBLIC_KEY,
    "VAPID_PRIVATE_KEY": PRIVATE_KEY,
    "VAPID_SUBJECT": "mailto:push@harehra.test",
    "PUSH_SERVICE_HOSTS": "127.0.0.1",
    "PUSH_SERVICE_HTTP": "1",
}
pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_a_follow_is_pushed_to_the_service_worker_shown_and_opens_its_page(
    site: Any, browser: Any, screenshots: Path
) -> None:
    base = site.url(0)
    stamp = int(time.time()) % 100000
    name, follower = f"vera{stamp}", f"dana{stamp}"
    person(base, name)
    follower_token = person(base, follower)
    keys = BrowserKeys()
    with push_service() as service:
        endpoint = service.endpoint(f"push/{name}")
        context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-GB")
        push_manager_at(context, base, endpoint, keys)
        context.set_default_timeout(15000)
        page = context.new_page()
        sign_in(page, base, name)
        page.goto(f"{base}/notifications/")
        switch = page.locator("#push-switch")
        switch.wait_for(state="visible")  # the worker is ready and the browser can take pushes
        assert page.locator("#push-switch input").is_checked() is False
        page.locator("#push-switch input").check()
        page.locator("#push-switch .push-status", has_text="even with the site closed").wait_for()
        assert page.evaluate("window.harehraTestSubscribedWith") == 65  # the site's VAPID key, as bytes
        page.screenshot(path=str(screenshots / "web-push-switch-en.png"))

        worker_push = WorkerPush(page, base)

        # Someone follows: the worker sends the push to the test's push service.
        api(base, follower_token, f"/api/relations/follows/{name}/")
        [received] = service.wait_for(1, timeout=20)
        assert received.path == f"/push/{name}"
        message = json.loads(keys.decrypt(received.body))
        assert message["body"] == f"{follower} follows you." and message["url"] == f"/players/{follower}/"

        worker_push.deliver(message)
        shown = worker_push.wait_shown()
        assert shown == [
            {
                "title": "Harehra Online",
                "body": f"{follower} follows you.",
                "tag": message["tag"],
                "url": f"/players/{follower}/",
            }
        ]

        worker = next((w for w in context.service_workers if w.url == f"{base}/sw.js"), None)
        worker = worker or context.wait_for_event("serviceworker")
        worker.evaluate(
            "self.registration.getNotifications().then((ns) => self.notificationOpen(ns[0])).then(() => true)"
        )
        page.wait_for_url(f"{base}/players/{follower}/")
        assert worker_push.shown() == []  # opened, it is closed
        page.screenshot(path=str(screenshots / "web-push-opened.png"))

        # Off: the browser unsubscribes and the site forgets it; the next push goes nowhere.
        page.goto(f"{base}/notifications/")
        page.locator("#push-switch").wait_for(state="visible")
        assert page.locator("#push-switch input").is_checked()
        page.locator("#push-switch input").uncheck()
        page.locator("#push-switch .push-status", has_text="only while").wait_for()
        from webpush.models import PushSubscription

        assert not PushSubscription.objects.filter(endpoint=endpoint).exists()
        context.close()

    # The switch in Czech, on a phone.
    czech = browser.new_context(viewport={"width": 390, "height": 844}, locale="cs-CZ")
    czech.grant_permissions(["notifications"], origin=base)
    page = czech.new_page()
    sign_in(page, base, name)
    page.goto(f"{base}/notifications/")
    page.locator("#push-switch").wait_for(state="visible")
    assert "Oznámení na tomto zařízení" in page.locator("#push-switch label").inner_text()
    page.locator("#push-switch .push-status", has_text="jen když").wait_for()
    page.screenshot(path=str(screenshots / "web-push-switch-cs-phone.png"))
    czech.close()


def test_the_offline_page_in_english_and_czech(site: Any, browser: Any, screenshots: Path) -> None:
    base = site.url(0)
    name = f"otto{int(time.time()) % 100000}"
    person(base, name)
    for locale, viewport, shot in (
        ("en-GB", {"width": 1280, "height": 800}, "offline-en.png"),
        ("cs-CZ", {"width": 390, "height": 844}, "offline-cs-phone.png"),
    ):
        context = browser.new_context(viewport=viewport, locale=locale)
        context.set_default_timeout(15000)
        page = context.new_page()
        sign_in(page, base, name)
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()  # now under the worker's control
        page.wait_for_function("navigator.serviceWorker.controller !== null")

        context.set_offline(True)
        page.goto(f"{base}/players/{name}/")
        heading = page.locator("h1").inner_text()
        assert heading.strip() == ("You are offline" if locale == "en-GB" else "Jste offline")
        assert name not in page.content()  # the offline page names nobody
        page.screenshot(path=str(screenshots / shot))
        context.set_offline(False)
        page.goto(f"{base}/players/{name}/")
        assert name in page.locator("h1").inner_text()  # back online: the page itself, not a copy
        context.close()


def test_chromium_finds_the_site_installable(site: Any, browser: Any, tmp_path: Path) -> None:
    """In a profile of its own: Chromium never offers to install from an incognito context (a
    Playwright context is one), and says so as an installability error."""
    base = site.url(0)
    context = browser.browser_type.launch_persistent_context(
        str(tmp_path / "profile"), executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True
    )
    try:
        page = context.new_page()
        page.goto(f"{base}/")
        page.evaluate("navigator.serviceWorker.ready.then(() => true)")
        page.reload()
        cdp = context.new_cdp_session(page)
        assert cdp.send("Page.getAppManifest").get("errors") == []
        assert cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] == []
        manifest = page.evaluate("fetch('/manifest.webmanifest').then((r) => r.json())")
        assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    finally:
        context.close()
