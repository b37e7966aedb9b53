"""Django's makemessages, which also finds the plurals that games/sentences.py and the pages' copy
of its table (static/js/table/sentences.js) mark with ngettext_noop: both domains, django.po and
djangojs.po. Django's own keywords (gettext_noop, ngettext_lazy, ...) stay as they are."""

from __future__ import annotations

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=ngettext_noop:1,2"]
