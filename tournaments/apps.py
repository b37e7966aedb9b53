from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games.ended import game_ended

        from .services import tournament_game_ended

        game_ended.subscribe(tournament_game_ended)
