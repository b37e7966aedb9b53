from django.urls import path

from .api import ChatReportView

# Under /api/, beside the table chat's own endpoints (chat/api_urls.py): a report is moderation's.
urlpatterns = [
    path("chat/messages/<int:pk>/report/", ChatReportView.as_view(), name="api-chat-report"),
]
