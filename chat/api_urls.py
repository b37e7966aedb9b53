from django.urls import path

from .api import TableChatSettingsView, TableChatView

urlpatterns = [
    path("tables/<int:pk>/chat/", TableChatView.as_view(), name="api-table-chat"),
    path("tables/<int:pk>/chat/settings/", TableChatSettingsView.as_view(), name="api-table-chat-settings"),
]
