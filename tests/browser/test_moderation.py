"""The report flow in Chromium: a player reports through /report/, a moderator resolves it in /admin/."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from accounts.services import user_register
from moderation.groups import MODERATORS
from moderation.models import AuditEntry, Report, ReportStatus

pytestmark = pytest.mark.browser
PASSWORD = "correct-horse-battery"


@pytest.fixture(autouse=True)
def _orm_beside_playwright(monkeypatch: pytest.MonkeyPatch) -> None:
    """Playwright's sync API runs an event loop in this thread; the test's own ORM calls are still
    plain synchronous ones (set up before `site`, so it also covers the database flush after it)."""
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


def _moderator(name: str) -> Any:
    user = user_register(username=name, password=PASSWORD)
    get_user_model().objects.filter(pk=user.pk).update(is_staff=True)
    user.groups.add(Group.objects.get(name=MODERATORS))
    return user


def test_a_report_filed_on_the_site_is_resolved_by_a_moderator_in_the_admin(site, browser, screenshots):
    reporter = user_register(username="reporter", password=PASSWORD)
    user_register(username="rude_rabbit", password=PASSWORD)
    _moderator("mod_maria")

    player = browser.new_context()
    page = player.new_page()
    page.goto(f"{site.url()}/report/?user=rude_rabbit")
    assert page.url.startswith(f"{site.url()}/accounts/login/?next=")  # signed out: sent to sign in
    csrf = next(c["value"] for c in player.cookies() if c["name"] == "csrftoken")  # set by the sign-in page
    r = page.request.post(
        f"{site.url()}/api/accounts/login/",
        data={"username": "reporter", "password": PASSWORD},
        headers={"X-CSRFToken": csrf},
    )
    assert r.ok, r.text()
    page.goto(f"{site.url()}/report/?user=rude_rabbit")
    assert page.locator("input[name=user]").input_value() == "rude_rabbit"
    page.select_option("select[name=reason]", "abuse")
    page.fill("textarea[name=text]", "Called everyone names all game.")
    page.click(".report-form button[type=submit]")
    page.wait_for_selector("[data-report-id]")
    page.screenshot(path=str(screenshots / "moderation-report-sent.png"))
    report = Report.objects.get(reporter=reporter)
    assert report.status == ReportStatus.OPEN and report.target_user.username == "rude_rabbit"
    player.close()

    staff = browser.new_context()
    admin = staff.new_page()
    admin.goto(f"{site.url()}/admin/")
    admin.fill("#id_username", "mod_maria")
    admin.fill("#id_password", PASSWORD)
    admin.click("input[type=submit]")
    admin.wait_for_selector("#site-name")
    # The report's own page: what it is about, and links to where each action on it is taken.
    admin.goto(f"{site.url()}/admin/moderation/report/{report.pk}/change/")
    assert admin.locator(".field-actions_on_it a").all_inner_texts() == [
        "mute, suspend or ban rude_rabbit",
        "resolve or dismiss this report",
    ]
    admin.screenshot(path=str(screenshots / "moderation-report-page.png"), full_page=True)
    admin.goto(f"{site.url()}/admin/moderation/report/")
    assert "status__exact=open" in admin.url  # the queue opens on the open reports
    row = admin.locator("#result_list tbody tr", has_text="rude_rabbit")
    assert row.count() == 1 and "Called everyone names" in row.inner_text()
    row.locator("input[name=_selected_action]").check()
    admin.select_option("select[name=action]", "resolve_reports")
    admin.click("button[name=index]")
    assert admin.locator(".moderation-action li").all_inner_texts() == [
        f"Report {report.pk} (Abusive or harassing behaviour) about rude_rabbit"
    ]
    admin.fill("textarea[name=reason]", "Warned the player.")
    admin.screenshot(path=str(screenshots / "moderation-resolve-form.png"))
    admin.click("input[name=apply]")
    admin.wait_for_selector(".messagelist")
    assert "Resolved: 1" in admin.locator(".messagelist").inner_text()
    assert admin.locator("#result_list tbody tr", has_text="rude_rabbit").count() == 0
    admin.screenshot(path=str(screenshots / "moderation-queue-after.png"))
    staff.close()

    report.refresh_from_db()
    assert report.status == ReportStatus.RESOLVED and report.resolution_note == "Warned the player."
    entry = AuditEntry.objects.get(action="resolve")
    assert entry.actor.username == "mod_maria" and entry.target_id == str(report.pk)
