from django.urls import path

from . import views

urlpatterns = [
    path("", views.home, name="home"),
    path("lobby/", views.lobby, name="lobby"),
    path("tables/new/", views.table_new, name="table-new"),
    path("tables/<int:pk>/", views.table_page, name="table"),
    path("tables/<int:pk>/<slug:action>/", views.table_action, name="table-action"),
    path("games/<int:pk>/", views.game_page, name="game"),
    path("games/mine/", views.my_games_page, name="my-games"),
    path("games/mine/holiday/<slug:action>/", views.my_holiday, name="my-holiday"),
]
