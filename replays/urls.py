"""Replay pages. /replays/<id>/ and /replays/<replay_key>/ both open a replay (see replays.access)."""

from django.urls import path

from . import views

urlpatterns = [
    path("replays/", views.replay_list, name="replay-list"),
    path("replays/import/", views.replay_import, name="replay-import"),
    path("replays/<str:ref>/", views.replay_view, name="replay"),
    path("replays/<str:ref>/image.png", views.replay_image, name="replay-image"),
    path("replays/<str:ref>/clip.gif", views.replay_clip, name="replay-clip"),
    path("embed/replays/<str:ref>/", views.replay_embed, name="replay-embed"),
    path("watch/<int:game_id>/", views.watch_view, name="replay-watch"),
    path("watch/<int:game_id>/image.png", views.watch_image, name="watch-image"),
]
