"""The site's websocket routes: the live tier's (live/routes.py)."""

from __future__ import annotations

from live import routes

websocket_urlpatterns = routes
