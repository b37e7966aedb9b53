from django.urls import path

from moderation.api import ChatReportView

from .api import TableChatSettingsView, TableChatView

urlpatterns = [
    path("tables/<int:pk>/chat/", TableChatView.as_view(), name="api-table-chat"),
    path("tables/<int:pk>/chat/settings/", TableChatSettingsView.as_view(), name="api-table-chat-settings"),
    path("chat/messages/<int:pk>/report/", ChatReportView.as_view(), name="api-chat-report"),
]
