from django.urls import path

from .api import (
    ChallengeActionView,
    ChallengesFromView,
    ChallengesView,
    ChallengeView,
    FriendsOnlineView,
    RematchView,
)

# Under /api/challenges/.
urlpatterns = [
    path("", ChallengesView.as_view(), name="api-challenges"),
    path("settings/", ChallengesFromView.as_view(), name="api-challenges-from"),
    path("friends/", FriendsOnlineView.as_view(), name="api-friends-online"),
    path("rematch/<int:game_id>/", RematchView.as_view(), name="api-rematch"),
    path("<int:pk>/", ChallengeView.as_view(), name="api-challenge"),
    path("<int:pk>/accept/", ChallengeActionView.as_view(action="accept"), name="api-challenge-accept"),
    path("<int:pk>/decline/", ChallengeActionView.as_view(action="decline"), name="api-challenge-decline"),
    path("<int:pk>/cancel/", ChallengeActionView.as_view(action="cancel"), name="api-challenge-cancel"),
    path("<int:pk>/start/", ChallengeActionView.as_view(action="start"), name="api-challenge-start"),
]
