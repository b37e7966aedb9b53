from django.apps import AppConfig
from django.db.models.signals import post_migrate


class ModerationConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "moderation"
    verbose_name = "Moderation"

    def ready(self) -> None:
        from .groups import ensure_moderators_group_after_migrate

        # The data migration creates the group; this keeps it after a test database flush.
        post_migrate.connect(ensure_moderators_group_after_migrate, sender=self)
