from django.apps import AppConfig


class AnalysisConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "analysis"

    def ready(self) -> None:
        from games.ended import game_ended
        from replays.selectors import export_extras

        from .playout_core import warn_if_pure
        from .selectors import analysis_export
        from .services import analysis_game_ended

        game_ended.subscribe(analysis_game_ended)
        export_extras.subscribe(analysis_export)  # a finished game's export carries its analysis
        warn_if_pure()  # once a process: where the compiled playout core was not built
