"""What a page says when its link is pasted into a chat app (templates/replays/_share_meta.html):
Open Graph and Twitter card tags, with absolute URLs. Views pass `share_tags(...)` to their
templates; the words are theirs, in the page's language."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest
from django.templatetags.static import static
from django.utils import translation

DEFAULT_IMAGE = "img/share.png"  # 1200 × 630, for pages that show no game


def share_tags(
    request: HttpRequest,
    title: str,
    description: str,
    path: str,
    query: dict[str, Any] | None = None,
    image_path: str | None = None,
    image_query: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The context of _share_meta.html: `path` (with `query`) is the canonical URL, `image_path`
    (with `image_query` and the page's language) the picture; none: the site's picture."""
    query = {k: v for k, v in (query or {}).items() if v not in (None, "")}
    url = request.build_absolute_uri(path + (f"?{urlencode(query)}" if query else ""))
    if image_path is None:
        image = request.build_absolute_uri(static(DEFAULT_IMAGE))
    else:
        params = {**{k: v for k, v in (image_query or {}).items() if v not in (None, "")}}
        params["lang"] = translation.get_language() or "en"
        image = request.build_absolute_uri(f"{image_path}?{urlencode(params)}")
    return {
        "share_title": title,
        "description": description,
        "share_url": url,
        "share_image": image,
        "share_locale": "cs_CZ" if (translation.get_language() or "").startswith("cs") else "en_US",
    }
