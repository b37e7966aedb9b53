from django.apps import AppConfig


class ChatConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "chat"

    def ready(self) -> None:
        from games.services.holidays import holiday_changed

        from .notices import chat_holiday_notices

        holiday_changed.subscribe(chat_holiday_notices)
