"""The chat's report form offers the reasons moderation knows, in the reader's language."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.services.tables import TableSettings, table_create
from moderation.models import ReportReason

pytestmark = pytest.mark.django_db


def _options(html: str) -> list[tuple[str, str]]:
    form = html[html.index('id="chat-report-template"') :]
    form = form[: form.index("</template>")]
    return re.findall(r'<option value="(\w+)"[^>]*>([^<]+)</option>', form)


def test_the_report_forms_reasons_are_moderations_own(make_user: Any) -> None:
    table = table_create(host=make_user(), settings=TableSettings(seats=2))
    english = _options(Client().get(f"/tables/{table.pk}/").content.decode())
    assert [v for v, _ in english] == ["abuse", "spam", "name", "cheating", "other"]
    assert all(label == ReportReason(value).label for value, label in english)
    czech = _options(Client().get(f"/tables/{table.pk}/", HTTP_ACCEPT_LANGUAGE="cs").content.decode())
    with translation.override("cs"):
        assert czech == [(value, str(ReportReason(value).label)) for value, _ in english]
    assert dict(czech)["other"] == "Něco jiného"


def test_a_chat_report_keeps_the_reason_picked(make_user: Any, client_for: Any) -> None:
    from chat.services import chat_post
    from games.services.tables import table_join
    from moderation.models import Report

    host, reader = make_user(), make_user()
    table = table_create(host=host, settings=TableSettings(seats=3))
    table_join(table=table, user=reader)
    sent = chat_post(table_id=table.pk, user=host, text="buy cheap carrots")
    r = client_for(reader).post(f"/api/chat/messages/{sent['id']}/report/", {"reason": "spam"}, format="json")
    assert r.status_code == 201
    assert Report.objects.get(pk=r.json()["id"]).reason == "spam"
    third = make_user()
    table_join(table=table, user=third)
    other = client_for(third).post(
        f"/api/chat/messages/{sent['id']}/report/", {"reason": "other"}, format="json"
    )
    assert other.status_code == 400 and other.json()["code"] == "bad_text"
