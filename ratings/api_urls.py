from django.urls import path

from .api import LeaderboardView

urlpatterns = [path("leaderboard/", LeaderboardView.as_view(), name="api-leaderboard")]
