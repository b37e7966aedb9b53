from django.urls import path

from . import views

urlpatterns = [
    path("tournaments/", views.tournament_list_page, name="tournaments"),
    path("tournaments/new/", views.tournament_new_page, name="tournament-new"),
    path("tournaments/<int:pk>/", views.tournament_page, name="tournament"),
    path("tournaments/<int:pk>/<slug:action>/", views.tournament_action, name="tournament-action"),
]
