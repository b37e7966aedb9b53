from django.apps import AppConfig


class WebpushConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "webpush"

    def ready(self) -> None:
        from notifications.hooks import notification_sent

        from .followups import push_send_later

        # Every notification kept may also go to the person's devices (webpush/followups.py).
        notification_sent.subscribe(push_send_later)
