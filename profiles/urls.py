from django.urls import path

from . import views

urlpatterns = [
    path("players/<str:username>/", views.profile, name="player-profile"),
]
