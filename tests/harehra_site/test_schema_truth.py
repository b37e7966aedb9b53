"""The schema tells the truth: lists are lists, unknown API URLs answer JSON, only JSON bodies."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from games.models import Table

pytestmark = pytest.mark.django_db


def test_an_unknown_api_url_answers_json_404() -> None:
    for method in ("get", "post", "delete"):
        r = getattr(APIClient(), method)("/api/no/such/thing/")
        assert r.status_code == 404 and r.json()["code"] == "not_found", method
    assert APIClient().post("/api/tables/null,null/start/").json()["code"] == "not_found"


def test_a_form_or_multipart_body_is_refused_not_read_as_defaults(make_user, client_for) -> None:
    client = client_for(make_user())
    r = client.post("/api/tables/", "[]", content_type="multipart/form-data; boundary=x")
    assert r.status_code == 415 and r.json()["code"] == "unsupported_media_type"
    r = client.post("/api/tables/", {"seats": 2})  # multipart, as a form would send it
    assert r.status_code == 415
    assert not Table.objects.exists()


def test_the_schema_says_lists_where_the_api_answers_lists() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    props = schema["components"]["schemas"]
    assert props["ReplayList"]["properties"]["results"]["type"] == "array"
    assert props["ReplaySummary"]["properties"]["players"]["type"] == "array"
    assert props["ReplayMeta"]["properties"]["players"]["type"] == "array"
    assert props["ReplayFrames"]["properties"]["frames"]["type"] == "array"
    after = schema["paths"]["/api/games/{id}/events/"]["get"]["parameters"]
    assert next(p for p in after if p["name"] == "after")["schema"]["minimum"] == 0
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            assert {"400", "401", "403", "404", "429"} <= set(operation["responses"]), (path, method)
