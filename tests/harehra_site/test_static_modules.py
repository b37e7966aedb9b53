"""The page scripts are ES modules importing each other by relative path: after collectstatic, with
the storage the settings use, every import still names a collected file (a storage that renamed
files without rewriting module imports would break every page in production only)."""

from __future__ import annotations

import re
from pathlib import Path

from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command
from django.test import override_settings

IMPORT = re.compile(r"""^\s*(?:import|export)\s[^;]*?from\s+["']([^"']+)["']""", re.MULTILINE)


def test_collected_modules_import_only_collected_files(tmp_path: Path) -> None:
    # Django's test signals build the storage anew for the changed STATIC_ROOT.
    with override_settings(STATIC_ROOT=tmp_path):
        call_command("collectstatic", interactive=False, verbosity=0)
        storage = type(staticfiles_storage._wrapped).__name__
    modules = sorted((tmp_path / "js").rglob("*.js"))
    assert any(m.parent.name == "core" for m in modules) and any(m.parent.name == "pages" for m in modules)
    broken = []
    for module in modules:
        for spec in IMPORT.findall(module.read_text()):
            if not (module.parent / spec).resolve().is_file():
                broken.append(f"{module.relative_to(tmp_path)} -> {spec}")
    assert broken == [], storage
