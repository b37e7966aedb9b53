from django.urls import path

from .api import views

table_actions = ["join", "leave", "add-bot", "remove-bot", "start", "next-game"]

urlpatterns = [
    path("tables/", views.TableListView.as_view(), name="api-tables"),
    path("tables/<int:pk>/", views.TableDetailView.as_view(), name="api-table"),
    path("tables/<int:pk>/games/", views.TableGamesView.as_view(), name="api-table-games"),
    *[
        path(
            f"tables/<int:pk>/{action}/",
            views.TableActionView.as_view(action=action),
            name=f"api-table-{action}",
        )
        for action in table_actions
    ],
    path("games/mine/", views.MyGamesView.as_view(), name="api-my-games"),
    path("holidays/", views.HolidayView.as_view(), name="api-holidays"),
    path("holidays/end/", views.HolidayEndView.as_view(), name="api-holiday-end"),
    path("games/<int:pk>/", views.GameDetailView.as_view(), name="api-game"),
    path("games/<int:pk>/commands/", views.GameCommandView.as_view(), name="api-game-commands"),
    path("games/<int:pk>/events/", views.GameEventsView.as_view(), name="api-game-events"),
    path("games/<int:pk>/reclaim/", views.GameReclaimView.as_view(), name="api-game-reclaim"),
    path("games/<int:pk>/auto-answer/", views.GameAutoAnswerView.as_view(), name="api-game-auto-answer"),
    path(
        "games/<int:pk>/standing-answers/",
        views.GameStandingAnswersView.as_view(),
        name="api-game-standing-answers",
    ),
]
