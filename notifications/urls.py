from django.urls import path

from . import views

urlpatterns = [
    path("notifications/", views.notifications_page, name="notifications"),
    path("notifications/settings/", views.settings_page, name="notification-settings"),
    path("notifications/unsubscribe/<str:token>/", views.unsubscribe_page, name="notification-unsubscribe"),
]
