"""The tablet's ES modules after collectstatic (config/storage.py): every relative import names the
hashed file the pages load with ``{% static %}``, so a module runs once per page and a release never
mixes new and old files; third-party scripts are collected as they are."""

from __future__ import annotations

import re
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles.storage import staticfiles_storage
from django.core.management import call_command

IMPORT = re.compile(r"""^import .*? from "(\./[^"]+)";$""", re.MULTILINE)
SOURCE = Path(settings.BASE_DIR) / "static" / "js"


def test_module_imports_point_at_the_hashed_files(settings, tmp_path) -> None:  # type: ignore[no-untyped-def]
    settings.STATIC_ROOT = tmp_path
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "config.storage.ModuleManifestStaticFilesStorage"},
    }
    call_command("collectstatic", interactive=False, verbosity=0)

    modules = {path.name: IMPORT.findall(path.read_text()) for path in SOURCE.glob("*.js")}
    importing = {name: imports for name, imports in modules.items() if imports}
    assert {"outbox.js", "half_tracker.js", "calculator.js", "app.js"} <= set(importing)
    for name, imports in importing.items():
        hashed = staticfiles_storage.stored_name(f"js/{name}")
        assert hashed != f"js/{name}"
        collected = IMPORT.findall((tmp_path / hashed).read_text())
        expected = [
            "./" + staticfiles_storage.stored_name(f"js/{target[2:]}").removeprefix("js/") for target in imports
        ]
        assert collected == expected, name
        for target in collected:
            assert (tmp_path / "js" / target[2:]).is_file()
