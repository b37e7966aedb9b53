"""The URLs that cost little whatever the game's length or the request's size, and why.

Every other URL must be throttled: its view names its throttles (`throttle_classes`, an API view's
or set on a plain view that asks them itself) and it has a row, with its measured cost and its
limit, in docs/OPERATIONS.md, "What a request costs". tests/harehra_site/test_endpoint_costs.py
walks the URL patterns and fails on one that is neither; a new endpoint must be added here or
throttled. A request body is bounded for every endpoint: 1 MB at nginx (deploy/nginx/harehra.conf),
DATA_UPLOAD_MAX_MEMORY_SIZE (2.5 MB) at a server.
"""

from __future__ import annotations

# The admin's pages: staff only (each a page of rows, Django's own).
STAFF_ONLY_PREFIX = "admin/"

ONE_ROW = "a few rows by key"
A_PAGE = "one page of rows, bounded"
PAGE = "a page from a template and a few rows"

CHEAP: dict[str, str] = {
    "metrics": "this process's counters (Prometheus text), a fixed set",
    "api/docs/": "the Swagger page, static (it loads /api/schema/, throttled)",
    "api/accounts/me/": ONE_ROW,
    "api/accounts/users/<str:username>/": (
        "a profile: at most 50 games listed, averages over at most 100 analyses (two short lists each)"
    ),
    "api/accounts/logout/": ONE_ROW,
    "api/reports/": "one report written (its text at most 2,000 characters)",
    "api/replays/": "at most 100 rows (limit)",
    "api/replays/<str:ref>/": (
        "the game's row and seats; a finished game's places read from its log once per process"
    ),
    "api/replays/<str:ref>/watchers/": ONE_ROW + " and a Redis set",
    "api/ratings/leaderboard/": A_PAGE,
    "api/relations/": "four lists of at most 1,000 names each",
    "api/notifications/": A_PAGE + " (the newest 50) and a count from a partial index",
    "api/notifications/read/": "the person's unread rows marked read, by a partial index",
    "notifications/": PAGE + ": the newest 50, then the unread marked read",
    "api/notifications/preferences/": "the person's choices: at most one row per kind and channel",
    "notifications/settings/": PAGE + "; a post writes at most one row per kind and channel",
    "notifications/unsubscribe/<str:token>/": "a signature checked and " + ONE_ROW,
    "accounts/password/reset/sent/": PAGE,
    "accounts/password/reset/done/": PAGE,
    "accounts/email/verify/<str:token>/": "a signature checked and " + ONE_ROW,
    "api/relations/blocks/<str:username>/": ONE_ROW,
    "api/challenges/friends/": "the person's friends (at most 1,000), one cache read, their seats",
    "api/challenges/<int:pk>/": ONE_ROW + " and the challenge's answers (at most 5)",
    "api/challenges/<int:pk>/accept/": (
        ONE_ROW + "; the last answer starts the table: a deal, a fixed number of events (as next-game)"
    ),
    "api/challenges/<int:pk>/decline/": ONE_ROW,
    "api/challenges/<int:pk>/cancel/": ONE_ROW,
    "api/challenges/<int:pk>/start/": "the challenger only; a deal: a fixed number of events",
    "challenges/": PAGE + ": the newest 30 challenges",
    "challenges/<int:pk>/": PAGE,
    "challenges/<int:pk>/<slug:action>/": "as the API's accept, decline, cancel and start",
    "api/challenges/settings/": ONE_ROW,
    "challenges/settings/": ONE_ROW,
    "friends/panel/": "the person's friends (at most 1,000), one cache read, their seats",
    "api/moderation/chat-messages/<int:pk>/hide/": "moderators only; " + ONE_ROW,
    "api/moderation/users/<str:username>/mute/": "moderators only; " + ONE_ROW,
    "api/moderation/users/<str:username>/unmute/": "moderators only; " + ONE_ROW,
    "api/moderation/tournaments/<int:pk>/cancel/": "moderators only; a tournament's rows",
    "api/moderation/tournaments/<int:pk>/players/<str:username>/remove/": "moderators only; " + ONE_ROW,
    "api/tournaments/": A_PAGE,
    "api/tournaments/<int:pk>/": "a tournament's rows, its entries bounded by its size",
    "api/tournaments/<int:pk>/join/": ONE_ROW,
    "api/tournaments/<int:pk>/cancel/": "the host or staff only; a tournament's rows",
    "tournaments/new/": PAGE + "; a post writes one event (5 a day per host, tournaments/limits.py)",
    "favicon.ico": "a redirect to a static file",
    "sw.js": "the service worker: a small file read from disk (webpush/views.py)",
    "manifest.webmanifest": "the web app manifest, built from constants",
    "offline/": "a page from a template, no rows (the service worker keeps it)",
    "api/tournaments/<int:pk>/withdraw/": ONE_ROW,
    "api/tournaments/<int:pk>/pause/": ONE_ROW,
    "api/tournaments/<int:pk>/players/<str:username>/": "one entry and its games' rows",
    "api/tables/<int:pk>/chat/": (
        "the latest 100 messages at most (chat.selectors.HISTORY); a post: 300 characters"
    ),
    "api/tables/<int:pk>/chat/settings/": ONE_ROW,
    "games/mine/": PAGE + ": the person's games in three statements, at most SLOW_GAMES_MAX slow ones",
    "api/games/mine/": "the person's games in three statements, at most SLOW_GAMES_MAX slow ones",
    "api/holidays/": (
        "the person's holidays (a sum by index); taking one moves the deadlines of at most "
        "SLOW_GAMES_MAX games and writes a chat line at each slow table, at most HOLIDAY_DAYS_PER_YEAR "
        "times a year (each charged a day at least)"
    ),
    "api/holidays/end/": "as taking one: at most SLOW_GAMES_MAX games' deadlines and chat lines",
    "games/mine/holiday/<slug:action>/": "as api/holidays/ and api/holidays/end/",
    "api/chat/messages/<int:pk>/report/": ONE_ROW,
    "api/tables/": A_PAGE,
    "api/tables/<int:pk>/": ONE_ROW,
    "api/tables/<int:pk>/games/": "the table's games' rows, no log read",
    "api/tables/<int:pk>/join/": ONE_ROW,
    "api/tables/<int:pk>/leave/": ONE_ROW,
    "api/tables/<int:pk>/add-bot/": ONE_ROW,
    "api/tables/<int:pk>/remove-bot/": ONE_ROW,
    "api/tables/<int:pk>/start/": "a deal: a fixed number of events",
    "api/tables/<int:pk>/next-game/": "a deal: a fixed number of events",
    "api/games/<int:pk>/": (
        "the state from this process's memory, or the latest snapshot and the events after it; "
        "a finished game's places read from its log once per process"
    ),
    "api/games/<int:pk>/commands/": "one command on the state kept in memory (or the snapshot)",
    "api/games/<int:pk>/reclaim/": ONE_ROW,
    "api/games/<int:pk>/auto-answer/": ONE_ROW,
    "api/games/<int:pk>/standing-answers/": ONE_ROW,
    "^api/": "a fixed 404",
    "replays/": "30 rows a page",
    "replays/import/": PAGE + " (the import itself is POST /api/replays/import/)",
    "report/": PAGE,
    "leaderboard/": A_PAGE,
    "tournaments/": A_PAGE,
    "tournaments/<int:pk>/": "a tournament's rows, its entries bounded by its size",
    "tournaments/<int:pk>/<slug:action>/": ONE_ROW,
    "jsi18n/": "the translation catalogue, fixed",
    "i18n/setlang/": "a cookie",
    "accounts/logout/": ONE_ROW,
    "players/<str:username>/": "a profile: as /api/accounts/users/<name>/",
    "": PAGE,
    "lobby/": A_PAGE,
    "tables/new/": PAGE,
    "tables/<int:pk>/": PAGE,
    "tables/<int:pk>/<slug:action>/": ONE_ROW,
    "games/<int:pk>/": PAGE + " (its state and history are fetched by the page)",
}
