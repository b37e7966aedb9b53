"""The site's sockets: each consumer of the live tier with the features of the apps mixed in (the
table chat, the spectator count), and the push sockets of a tournament and of a replay's analysis."""

from __future__ import annotations

from django.urls import path

from live.analysis import AnalysisConsumer
from live.chat import ChatSocketMixin
from live.game import GameConsumer
from live.lobby import LobbyConsumer, TableConsumer
from live.me import MeConsumer
from live.replays import WatchersSocketMixin
from live.tournaments import TournamentConsumer


class GameSocket(WatchersSocketMixin, ChatSocketMixin, GameConsumer):
    def chat_table_id(self) -> int:
        return self.game.table_id


class TableSocket(ChatSocketMixin, TableConsumer):
    def chat_table_id(self) -> int:
        return self.table_id


routes = [
    path("ws/games/<int:game_id>/", GameSocket.as_asgi()),
    path("ws/lobby/", LobbyConsumer.as_asgi()),
    path("ws/me/", MeConsumer.as_asgi()),
    path("ws/tables/<int:table_id>/", TableSocket.as_asgi()),
    path("ws/tournaments/<int:tournament_id>/", TournamentConsumer.as_asgi()),
    path("ws/replays/<str:ref>/analysis/", AnalysisConsumer.as_asgi()),
]
