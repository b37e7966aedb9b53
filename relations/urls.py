from django.urls import path

from . import views

urlpatterns = [
    path("players/", views.people_page, name="people"),
    path("players/<str:username>/relation/", views.relation_change, name="player-relation"),
]
