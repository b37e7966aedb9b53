from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self) -> None:
        from .publish import publish_user_credentials_ended, publish_user_signed_out
        from .services import user_credentials_ended, user_signed_out

        user_signed_out.subscribe(publish_user_signed_out)  # every socket of theirs closes
        # ... and after a password change, those signed in by what it ended
        user_credentials_ended.subscribe(publish_user_credentials_ended)
