from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"

    def ready(self) -> None:
        from games.ended import game_ended
        from games.selectors import game_part_of

        from .selectors import tournament_of_game
        from .services import tournament_game_ended

        game_ended.subscribe(tournament_game_ended)
        game_part_of.subscribe(tournament_of_game)  # the game page's way back to the event
