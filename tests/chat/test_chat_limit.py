"""A chat message over the limit is not cut without a word: the input lets the whole of a pasted
message in (no maxlength) and the page counts it (static/js/core/chatlimit.js, tests/js), while
the server keeps refusing more than 300 characters."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from chat.models import MAX_CHARS
from chat.services import chat_post
from games.services.tables import TableSettings, table_create
from plumbing.errors import ServiceError

pytestmark = pytest.mark.django_db


def test_the_chat_input_does_not_cut_a_pasted_message_and_has_a_counter(make_user: Any) -> None:
    table = table_create(host=make_user(), settings=TableSettings(seats=2))
    html = Client().get(f"/tables/{table.pk}/").content.decode()
    field = re.search(r'<input id="chat-input"[^>]*>', html)
    assert field is not None
    assert "maxlength" not in field.group(0)  # a browser's maxlength cuts a paste silently
    assert f'data-max-chars="{MAX_CHARS}"' in field.group(0)
    assert 'aria-describedby="chat-count"' in field.group(0)
    assert 'id="chat-count"' in html


def test_the_server_still_refuses_a_message_over_300_characters(make_user: Any) -> None:
    host = make_user()
    table = table_create(host=host, settings=TableSettings(seats=2))
    assert chat_post(table_id=table.pk, user=host, text="x" * MAX_CHARS)["text"] == "x" * MAX_CHARS
    with pytest.raises(ServiceError) as refused:
        chat_post(table_id=table.pk, user=host, text="x" * (MAX_CHARS + 1))
    assert refused.value.code == "chat_too_long"
