from django.urls import path

from . import views

urlpatterns = [
    path("challenges/", views.challenges_page, name="challenges"),
    path("challenges/new/", views.challenge_new, name="challenge-new"),
    path("challenges/settings/", views.challenges_from_page, name="challenges-from"),
    path("challenges/<int:pk>/", views.challenge_page, name="challenge"),
    path("challenges/<int:pk>/<slug:action>/", views.challenge_action, name="challenge-action"),
    path("games/<int:game_id>/rematch/", views.rematch, name="rematch"),
    path("friends/panel/", views.friends_panel, name="friends-panel"),
]
