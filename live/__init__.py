"""The live tier: the site's websockets, on top of every app and imported by none.

Its consumers (a game's, the lobby's, a table's, a tournament's, a replay analysis's, with the
table chat and the spectator count mixed in) call the apps' services and selectors and forward
what the apps publish (plumbing/publish.py) to their clients. The composition root uses it
through what this module names: `routes` (the websocket URL patterns), `auth_stack` and
`origin_checked` (socket sign-in and origin checks), `messages_in_hand` (what a draining server
lets finish)."""

from live.routes import routes
from live.sockets import messages_in_hand
from live.ws_auth import auth_stack, origin_checked

__all__ = ["auth_stack", "messages_in_hand", "origin_checked", "routes"]
