"""The `moderators` group and exactly the permissions its members need."""

from __future__ import annotations

from typing import Any

MODERATORS = "moderators"

# (app label, codename): viewing what moderators look at, and the moderation actions themselves.
MODERATOR_PERMISSIONS = [
    ("auth", "view_user"),
    ("accounts", "view_sanction"),
    ("accounts", "sanction_user"),
    ("moderation", "view_report"),
    ("moderation", "resolve_report"),
    ("moderation", "view_moderatedgame"),
    ("moderation", "abort_game"),
    ("moderation", "hide_replay"),
    ("moderation", "view_auditentry"),
    ("accounts", "view_mute"),
    ("moderation", "view_moderatedchatmessage"),
    ("accounts", "moderate_chat"),
    ("moderation", "view_moderatedtournament"),
    ("moderation", "view_moderatedentry"),
    ("moderation", "moderate_tournament"),
]


def ensure_moderators_group(apps: Any, using: str = "default") -> None:
    """Create the group (if missing) and give it exactly MODERATOR_PERMISSIONS."""
    from django.contrib.auth.management import create_permissions

    for app_config in apps.get_app_configs():
        if app_config.label in {"auth", "accounts", "moderation", "contenttypes"}:
            had = getattr(app_config, "models_module", None)
            app_config.models_module = had or True  # a migration's app stubs have no models module
            create_permissions(app_config, apps=apps, verbosity=0, using=using)
            app_config.models_module = had
    Group = apps.get_model("auth", "Group")
    Permission = apps.get_model("auth", "Permission")
    group, _ = Group.objects.using(using).get_or_create(name=MODERATORS)
    wanted = []
    for app_label, codename in MODERATOR_PERMISSIONS:
        # An earlier migration's models lack later permissions: the migration that adds them
        # (or migrate's end) gives them to the group.
        perm = (
            Permission.objects.using(using)
            .filter(content_type__app_label=app_label, codename=codename)
            .first()
        )
        if perm is not None:
            wanted.append(perm)
    group.permissions.set(wanted)


def ensure_moderators_group_after_migrate(sender: Any, using: str = "default", **kwargs: Any) -> None:
    from django.apps import apps as global_apps

    ensure_moderators_group(kwargs.get("apps") or global_apps, using=using)
