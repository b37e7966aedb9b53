"""What makes the site installable and reachable when the tab is closed: the service worker
(served from the root, so its scope is the whole site), the web app manifest, and the page the
worker shows when the network is gone. None of them holds anything of a person."""

from __future__ import annotations

from pathlib import Path

from django.contrib.staticfiles import finders
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

# The site's colours (static/css/site.css: --accent, --paper).
THEME_COLOR = "#2f6b3a"
BACKGROUND_COLOR = "#fbf8f1"
# The site's description (templates/base.html), translated there already.
DESCRIPTION = (
    "Play Harehra, the fast card game about building your hand and staying in longer than everyone else."
)


def _service_worker() -> bytes:
    found = finders.find("sw.js")
    if found:
        return Path(str(found)).read_bytes()
    with staticfiles_storage.open("sw.js") as f:  # collected, where static/ is not shipped
        return bytes(f.read())


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """static/sw.js at /sw.js: a worker's scope is at most the folder it is served from."""
    response = HttpResponse(_service_worker(), content_type="text/javascript; charset=utf-8")
    # Browsers check for a new worker at most daily whatever this says; no-cache makes every check
    # ask this server, so a new version is picked up at the next page load.
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The web app manifest, in the request's language."""
    icons = [
        {
            "src": static(f"img/icon-{size}.png"),
            "sizes": f"{size}x{size}",
            "type": "image/png",
            "purpose": "any",
        }
        for size in (192, 512)
    ]
    icons.append(
        {
            "src": static("img/icon-maskable-512.png"),
            "sizes": "512x512",
            "type": "image/png",
            "purpose": "maskable",
        }
    )
    body = {
        "id": "/",
        "name": "Harehra Online",
        "short_name": "Harehra",
        "description": _(DESCRIPTION),
        "lang": request.LANGUAGE_CODE,
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": BACKGROUND_COLOR,
        "theme_color": THEME_COLOR,
        "icons": icons,
    }
    response = JsonResponse(body, content_type="application/manifest+json")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def offline_page(request: HttpRequest) -> HttpResponse:
    """Kept by the service worker at its install and shown when a page cannot be loaded. Its
    template names no person: the same page for everyone, so it may be kept."""
    return render(request, "webpush/offline.html")
