from django.urls import path

from . import api

# Under /api/accounts/, beside the accounts' own endpoints.
urlpatterns = [
    path("me/", api.MeView.as_view(), name="api-me"),
    path("users/<str:username>/", api.ProfileView.as_view(), name="api-profile"),
]
