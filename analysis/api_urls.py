from django.urls import path

from . import api

# Mounted under /api/replays/ beside the replay API (harehra_site/urls.py).
urlpatterns = [
    path("<str:ref>/analysis/", api.ReplayAnalysisView.as_view(), name="api-replay-analysis"),
]
