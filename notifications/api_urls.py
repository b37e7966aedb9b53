from django.urls import path

from .api import NotificationPreferencesView, NotificationsReadView, NotificationsView

# Under /api/notifications/.
urlpatterns = [
    path("", NotificationsView.as_view(), name="api-notifications"),
    path("read/", NotificationsReadView.as_view(), name="api-notifications-read"),
    path("preferences/", NotificationPreferencesView.as_view(), name="api-notification-preferences"),
]
