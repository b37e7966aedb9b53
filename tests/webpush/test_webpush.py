"""Web push: subscribing a browser, and the sender against a push service the test runs, which
decrypts each message as the browser would and checks its VAPID header."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.exceptions import InvalidTag
from django.test import Client

from accounts.models import Preference
from notifications.models import Kind, Notification
from notifications.services import notification_send
from tests.support.pushservice import BrowserKeys, PushService, push_service, vapid_claims
from webpush.management.commands.vapid_keys import vapid_key_pair
from webpush.models import PushSubscription
from webpush.sender import push_deliver

pytestmark = pytest.mark.django_db


@pytest.fixture
def service(settings: Any) -> Iterator[PushService]:
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid_key_pair()
    settings.VAPID_SUBJECT = "mailto:push@harehra.test"
    settings.PUSH_SERVICE_HOSTS = ["127.0.0.1"]
    settings.PUSH_SERVICE_HTTP = True
    with push_service() as s:
        yield s


def subscribe(api: Any, endpoint: str, keys: BrowserKeys) -> Any:
    body = {
        "endpoint": endpoint,
        "expirationTime": None,
        "keys": {"p256dh": keys.p256dh, "auth": keys.auth_b64},
    }
    return api.post("/api/push/subscriptions/", body, format="json")


def test_a_push_reaches_each_device_encrypted_to_it_with_the_sites_vapid_header(
    service: PushService, settings: Any, make_user: Any, client_for: Any
) -> None:
    emil = make_user("emil")
    Preference.objects.create(user=emil, language="cs")  # the words come in his language
    phone, laptop = BrowserKeys(), BrowserKeys()
    api = client_for(emil)
    assert subscribe(api, service.endpoint("push/phone"), phone).status_code == 201
    assert subscribe(api, service.endpoint("push/laptop"), laptop).status_code == 201
    n = notification_send(user_id=emil.pk, kind=Kind.FOLLOWER, data={"name": "dana"})

    done = push_deliver(n.pk)

    assert (done.sent, done.gone, done.failed) == (2, 0, 0)
    got = {r.path: r for r in service.wait_for(2)}
    assert set(got) == {"/push/phone", "/push/laptop"}
    for path, keys in (("/push/phone", phone), ("/push/laptop", laptop)):
        r = got[path]
        assert r.headers["content-encoding"] == "aes128gcm"
        assert int(r.headers["ttl"]) > 0
        assert json.loads(keys.decrypt(r.body)) == {
            "title": "Harehra Online",
            "body": "dana vás sleduje.",
            "url": "/players/dana/",
            "tag": f"notification-{n.pk}",
        }
        claims = vapid_claims(r.headers["authorization"], settings.VAPID_PUBLIC_KEY)
        assert claims["aud"] == service.origin
        assert claims["sub"] == "mailto:push@harehra.test"
        assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    # Each is encrypted to its own browser: the other's keys cannot read it.
    with pytest.raises(InvalidTag):
        laptop.decrypt(got["/push/phone"].body)
    assert PushSubscription.objects.filter(user=emil, last_success_at__isnull=False).count() == 2


def test_a_subscription_the_push_service_no_longer_knows_is_deleted(
    service: PushService, make_user: Any, client_for: Any
) -> None:
    olga = make_user("olga")
    api = client_for(olga)
    for name in ("gone/a", "missing/b", "push/c"):
        assert subscribe(api, service.endpoint(name), BrowserKeys()).status_code == 201
    n = notification_send(user_id=olga.pk, kind=Kind.ANALYSIS_READY, data={"game": 7})

    done = push_deliver(n.pk)

    assert (done.sent, done.gone, done.failed) == (1, 2, 0)
    assert len(service.wait_for(3)) == 3
    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [service.endpoint("push/c")]


def test_subscribing_checks_the_endpoint_and_keys_and_unsubscribing_ends_only_ones_own(
    service: PushService, settings: Any, make_user: Any, client_for: Any
) -> None:
    dana, emil = make_user("dana"), make_user("emil")
    api, other = client_for(dana), client_for(emil)
    keys = BrowserKeys()
    refusals = [
        (subscribe(api, "https://push.example.net/x", keys), "unknown_push_service"),
        (subscribe(api, "ftp://127.0.0.1/x", keys), "bad_subscription"),
        (api.post("/api/push/subscriptions/", {"endpoint": service.endpoint("x")}, format="json"), "invalid"),
    ]
    bad_key = {"endpoint": service.endpoint("x"), "keys": {"p256dh": "AAAA", "auth": keys.auth_b64}}
    refusals.append((api.post("/api/push/subscriptions/", bad_key, format="json"), "bad_subscription"))
    short_auth = {"endpoint": service.endpoint("x"), "keys": {"p256dh": keys.p256dh, "auth": "AAAA"}}
    refusals.append((api.post("/api/push/subscriptions/", short_auth, format="json"), "bad_subscription"))
    assert [(r.status_code, r.json()["code"]) for r, _ in refusals] == [(400, code) for _, code in refusals]
    assert PushSubscription.objects.count() == 0

    assert api.get("/api/push/subscriptions/").json() == {
        "enabled": True,
        "public_key": settings.VAPID_PUBLIC_KEY,
    }
    assert subscribe(api, service.endpoint("push/one"), keys).status_code == 201
    gone = other.delete("/api/push/subscriptions/", {"endpoint": service.endpoint("push/one")}, format="json")
    assert gone.json() == {"deleted": 0}  # not emil's to end
    # The same browser subscribing for another account is that account's now.
    assert subscribe(other, service.endpoint("push/one"), keys).status_code == 201
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["emil"]
    assert other.delete(
        "/api/push/subscriptions/", {"endpoint": service.endpoint("push/one")}, format="json"
    ).json() == {"deleted": 1}
    assert Client().post("/api/push/subscriptions/", {}, content_type="application/json").status_code in (
        401,
        403,
    )

    settings.VAPID_PRIVATE_KEY = ""
    off = subscribe(api, service.endpoint("push/two"), keys)
    assert (off.status_code, off.json()["code"]) == (409, "push_off")
    assert api.get("/api/push/subscriptions/").json() == {"enabled": False, "public_key": ""}


def test_a_notification_is_queued_for_the_worker_after_commit_only_for_people_with_a_device(
    service: PushService,
    make_user: Any,
    client_for: Any,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from webpush import followups

    sent: list[tuple[str, Any]] = []
    monkeypatch.setattr(followups.app, "send_task", lambda name, args: sent.append((name, args)))
    dana, emil = make_user("dana"), make_user("emil")
    assert subscribe(client_for(emil), service.endpoint("push/e"), BrowserKeys()).status_code == 201

    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        to_emil = notification_send(user_id=emil.pk, kind=Kind.FOLLOWER, data={"name": "dana"})
        notification_send(user_id=dana.pk, kind=Kind.FOLLOWER, data={"name": "emil"})
        assert sent == []  # nothing before the commit
    for callback in callbacks:
        callback()
    assert sent == [("webpush.tasks.push_send", [[to_emil.pk]])]

    sent.clear()
    monkeypatch.setattr(followups, "push_wanted", lambda user_id, kind: False)
    with django_capture_on_commit_callbacks(execute=True):
        notification_send(user_id=emil.pk, kind=Kind.FOLLOWER, data={"name": "olga"})
    assert sent == []
    assert Notification.objects.filter(user=emil).count() == 2


def test_one_transactions_notifications_go_in_one_task_per_batch_and_a_rolled_back_one_in_none(
    service: PushService,
    make_user: Any,
    client_for: Any,
    monkeypatch: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from django.db import transaction

    from webpush import followups

    sent: list[list[int]] = []
    monkeypatch.setattr(followups.app, "send_task", lambda name, args: sent.append(args[0]))
    monkeypatch.setattr(followups, "PUSH_BATCH", 2)
    emil = make_user("emil")
    assert subscribe(client_for(emil), service.endpoint("push/e"), BrowserKeys()).status_code == 201

    def follow(name: str) -> int:
        n = notification_send(user_id=emil.pk, kind=Kind.FOLLOWER, data={"name": name})
        assert n is not None
        return n.pk

    with django_capture_on_commit_callbacks(execute=True):
        try:
            with transaction.atomic():  # its batch goes with its rollback
                follow("rolled-back")
                raise RuntimeError
        except RuntimeError:
            pass
        ids = [follow(name) for name in ("a", "b", "c")]
        assert sent == []  # nothing before the commit
    assert sent == [ids[:2], ids[2:]]

    sent.clear()
    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        follow("d")
        transaction.set_rollback(True)
    assert sent == []


def test_several_notifications_are_sent_with_one_read_and_the_vapid_header_signed_once(
    service: PushService, make_user: Any, client_for: Any, django_assert_max_num_queries: Any
) -> None:
    people = [make_user(name) for name in ("emil", "dana", "olga")]
    keys = {}
    for person in people:
        keys[person.username] = BrowserKeys()
        endpoint = service.endpoint(f"push/{person.username}")
        assert subscribe(client_for(person), endpoint, keys[person.username]).status_code == 201
    ids = [
        notification_send(user_id=p.pk, kind=Kind.ANALYSIS_READY, data={"game": i}).pk
        for i, p in enumerate(people * 2)
    ]

    with django_assert_max_num_queries(3):  # the notifications, the subscriptions, last success
        done = push_deliver([*ids, max(ids) + 1000])  # an id that rolled back: skipped

    assert (done.sent, done.gone, done.failed) == (6, 0, 0)
    got = service.wait_for(6)
    assert {json.loads(keys[r.path.split("/")[-1]].decrypt(r.body))["tag"] for r in got} == {
        f"notification-{pk}" for pk in ids
    }
    assert len({r.headers["authorization"] for r in got}) == 1  # one origin, one signature


def test_the_task_sends_what_it_is_given(service: PushService, make_user: Any, client_for: Any) -> None:
    from webpush.tasks import push_send

    emil = make_user("emil")
    keys = BrowserKeys()
    assert subscribe(client_for(emil), service.endpoint("push/e"), keys).status_code == 201
    n = notification_send(user_id=emil.pk, kind=Kind.ANALYSIS_READY, data={"game": 12})
    push_send.apply(args=[n.pk])  # one id, as older servers queue it
    push_send.apply(args=[[n.pk]])
    assert [json.loads(keys.decrypt(r.body))["url"] for r in service.wait_for(2)] == ["/replays/12/"] * 2


def test_the_worker_manifest_and_offline_page_are_served_from_the_root_and_name_nobody(
    make_user: Any, settings: Any
) -> None:
    page = Client()
    page.force_login(make_user("vera"))
    sw = page.get("/sw.js")
    assert sw.status_code == 200 and sw["Content-Type"].startswith("text/javascript")
    assert sw["Cache-Control"] == "no-cache" and sw["Service-Worker-Allowed"] == "/"
    assert b'addEventListener("push"' in sw.content
    manifest = page.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    body = manifest.json()
    assert (body["start_url"], body["display"], body["theme_color"]) == ("/", "standalone", "#2f6b3a")
    assert {(i["sizes"], i["purpose"]) for i in body["icons"]} == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("512x512", "maskable"),
    }
    offline = page.get("/offline/").content.decode()
    assert "You are offline" in offline and "vera" not in offline
    # The base page links the manifest; the switch shows only where push is on.
    notifications = page.get("/notifications/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in notifications
    assert 'id="push-switch"' not in notifications
    settings.VAPID_PUBLIC_KEY, settings.VAPID_PRIVATE_KEY = vapid_key_pair()
    assert f'data-key="{settings.VAPID_PUBLIC_KEY}"' in page.get("/notifications/").content.decode()
