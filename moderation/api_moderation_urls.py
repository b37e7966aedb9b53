from django.urls import path

from .api import ChatMessageHideView, MuteView

urlpatterns = [
    path("chat-messages/<int:pk>/hide/", ChatMessageHideView.as_view(), name="api-chat-hide"),
    path("users/<str:username>/mute/", MuteView.as_view(), name="api-user-mute"),
    path("users/<str:username>/unmute/", MuteView.as_view(lift=True), name="api-user-unmute"),
]
