from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self) -> None:
        from accounts.services import user_signed_out

        from .live.publish import publish_user_signed_out

        user_signed_out.subscribe(publish_user_signed_out)  # every socket of theirs closes
