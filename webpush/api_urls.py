from django.urls import path

from .api import PushSubscriptionsView

# Under /api/push/.
urlpatterns = [
    path("subscriptions/", PushSubscriptionsView.as_view(), name="api-push-subscriptions"),
]
