from django.urls import path

from .api import ChatMessageHideView, MuteView, TournamentCancelView, TournamentPlayerRemoveView

urlpatterns = [
    path("chat-messages/<int:pk>/hide/", ChatMessageHideView.as_view(), name="api-chat-hide"),
    path("users/<str:username>/mute/", MuteView.as_view(), name="api-user-mute"),
    path("users/<str:username>/unmute/", MuteView.as_view(lift=True), name="api-user-unmute"),
    path("tournaments/<int:pk>/cancel/", TournamentCancelView.as_view(), name="api-tournament-cancel"),
    path(
        "tournaments/<int:pk>/players/<str:username>/remove/",
        TournamentPlayerRemoveView.as_view(),
        name="api-tournament-remove-player",
    ),
]
