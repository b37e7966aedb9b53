from django.urls import path

from . import api

urlpatterns = [
    path("", api.ReplayListView.as_view(), name="api-replays"),
    path("import/", api.ReplayImportView.as_view(), name="api-replay-import"),
    path("<str:ref>/", api.ReplayDetailView.as_view(), name="api-replay"),
    path("<str:ref>/frames/", api.ReplayFramesView.as_view(), name="api-replay-frames"),
    path("<str:ref>/export/", api.ReplayExportView.as_view(), name="api-replay-export"),
    path("<str:ref>/watchers/", api.ReplayWatchersView.as_view(), name="api-replay-watchers"),
]
