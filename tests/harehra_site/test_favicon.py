"""The site's icon: linked from every page as static files (the CSP allows images from the site
only), and /favicon.ico, which browsers ask for where no page names one, sent to it."""

from __future__ import annotations

import re

import pytest
from django.contrib.staticfiles import finders


@pytest.mark.django_db
def test_every_page_links_the_icon_and_favicon_ico_leads_to_it(client) -> None:
    html = client.get("/").content.decode()
    icons = re.findall(r'<link rel="(?:icon|apple-touch-icon)"[^>]*href="([^"]+)"', html)
    assert {"/static/img/favicon.svg", "/static/img/favicon.png", "/static/img/favicon-180.png"} <= set(icons)
    for href in icons:
        assert finders.find(href.removeprefix("/static/")), href
    # The one the game page's cues swap (static/js/table/cues.js) is the site's own, not a card.
    assert re.search(r'<link rel="icon" id="favicon" href="/static/img/favicon.svg"', html)
    r = client.get("/favicon.ico")
    assert r.status_code == 301 and r["Location"] == "/static/img/favicon.png"
