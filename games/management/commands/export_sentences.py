"""`python manage.py export_sentences`: writes the pages' copy of the sentence table
(games/sentences.py) to static/js/table/sentences.js; `--check` only says whether it is stale."""

from __future__ import annotations

import json
from dataclasses import MISSING, Field, fields
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from games.sentences import SEAT, SENTENCES, Plural, Say

TARGET = Path(settings.BASE_DIR) / "static" / "js" / "table" / "sentences.js"

HEADER = """\
// Generated from games/sentences.py by `python manage.py export_sentences`: change that module and
// run the command, never this file (tests/games/test_sentences.py fails when the two differ).
// What the fields mean is said there. gettext_noop and ngettext_noop only mark the templates for
// makemessages (djangojs.po); the describer (words.js) translates each when it says it.
import { EventType } from "./events.js";

const gettext_noop = (s) => s;
const ngettext_noop = (singular, plural) => [singular, plural];
"""

TEMPLATES = ("other", "you", "to_you")


def _js(value: Any) -> str:
    """A value as JavaScript: strings and lists as JSON, mappings with bare keys."""
    if isinstance(value, Plural):
        return f"ngettext_noop({_js(value.singular)}, {_js(value.plural)})"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k}: {_js(v)}" for k, v in value.items()) + " }"
    if isinstance(value, tuple):
        return "[" + ", ".join(_js(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _left_out(f: Field[Any], value: Any) -> bool:
    """A field at its default is left out (the describer reads a missing one as empty or false),
    but never `name`, whose default is a field."""
    if f.name == "name":
        return False
    if f.default_factory is not MISSING:
        return not value
    return f.default is not MISSING and value == f.default


def _case(say: Say) -> list[str]:
    lines = []
    for f in fields(say):
        value = getattr(say, f.name)
        if _left_out(f, value):
            continue
        if f.name in TEMPLATES and isinstance(value, str):
            lines.append(f"      {f.name}: gettext_noop({_js(value)}),")
        else:
            lines.append(f"      {f.name}: {_js(dict(value) if f.name in ('when', 'values') else value)},")
    return lines


def render() -> str:
    out = [HEADER, f"export const SEAT = gettext_noop({_js(SEAT)});", ""]
    out.append("export const SENTENCES = Object.freeze({")
    for kind, cases in SENTENCES.items():
        out.append(f"  [EventType.{kind.name}]: [")
        for say in cases:
            out.extend(["    {", *_case(say), "    },"])
        out.append("  ],")
    out.append("});")
    return "\n".join(out) + "\n"


class Command(BaseCommand):
    help = "Write static/js/table/sentences.js from games/sentences.py (--check: fail if it differs)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the file is stale")

    def handle(self, *args: Any, check: bool = False, **options: Any) -> None:
        text = render()
        current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else None
        if check:
            if current != text:
                raise CommandError(f"{TARGET} is stale: run `python manage.py export_sentences`")
            self.stdout.write(f"{TARGET} is up to date")
            return
        if current != text:
            TARGET.write_text(text, encoding="utf-8")
        self.stdout.write(f"wrote {TARGET}")
