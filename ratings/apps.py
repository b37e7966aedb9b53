from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        from games.ended import on_game_ended

        from .services import ratings_game_ended

        on_game_ended(ratings_game_ended)
