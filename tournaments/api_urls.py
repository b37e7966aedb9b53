from django.urls import path

from . import api

urlpatterns = [
    path("", api.TournamentListView.as_view(), name="api-tournaments"),
    path("<int:pk>/", api.TournamentDetailView.as_view(), name="api-tournament"),
    *[
        path(
            f"<int:pk>/{action}/",
            api.TournamentActionView.as_view(action=action),
            name=f"api-tournament-{action}",
        )
        for action in api.ACTIONS
    ],
    path(
        "<int:pk>/players/<str:username>/",
        api.TournamentPlayerView.as_view(),
        name="api-tournament-player",
    ),
]
