"""The sockets as the site serves them: each consumer of games/live with the features of the apps
above it mixed in (the table chat, the spectator count), so games imports none of those apps, and
the sockets of apps above games (a tournament's, a replay's analysis)."""

from __future__ import annotations

from django.urls import path

from analysis.sockets import AnalysisConsumer
from chat.sockets import ChatSocketMixin
from games.live.consumers import GameConsumer
from games.live.lobby_consumers import LobbyConsumer, TableConsumer
from replays.sockets import WatchersSocketMixin
from tournaments.sockets import TournamentConsumer


class GameSocket(WatchersSocketMixin, ChatSocketMixin, GameConsumer):
    def chat_table_id(self) -> int:
        return self.game.table_id


class TableSocket(ChatSocketMixin, TableConsumer):
    def chat_table_id(self) -> int:
        return self.table_id


websocket_urlpatterns = [
    path("ws/games/<int:game_id>/", GameSocket.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableSocket.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/replays/<str:ref>/analysis/", AnalysisConsumer.as_asgi()),
]
