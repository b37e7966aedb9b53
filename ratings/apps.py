from django.apps import AppConfig


class RatingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "ratings"

    def ready(self) -> None:
        from games.ended import game_ended
        from games.selectors import game_part_of, player_ratings

        from .selectors import display_ratings, game_rating_context
        from .services import ratings_game_ended

        game_ended.subscribe(ratings_game_ended)
        player_ratings.subscribe(display_ratings)  # beside players' names in the lobby
        game_part_of.subscribe(game_rating_context)  # the rating changes on a game's end screen
