from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"

    def ready(self) -> None:
        from games.ended import game_ended

        from .services import analysis_game_ended

        game_ended.subscribe(analysis_game_ended)
