"""The static files storage: whitenoise's compressed manifest (hashed names, kept by browsers for a year).

The tablet's scripts are ES modules that import one another (``import ... from "./outbox_core.js";``):
Django rewrites those imports to the hashed names only with ``support_js_module_import_aggregation``,
so a page's ``{% static %}`` URL and the URL its modules import are the same file (run once per page),
and a new release never mixes a new page with an old module. Django applies that rewriting to every
``*.js``; here it applies to this project's ``js/`` only: third-party scripts (django-htmx's
extensions) name modules that are not static files and would stop collectstatic.
"""

from whitenoise.storage import CompressedManifestStaticFilesStorage

_MODULE_IMPORTS = CompressedManifestStaticFilesStorage._js_module_import_aggregation_patterns[1]


class ModuleManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    patterns = (*CompressedManifestStaticFilesStorage.patterns, ("js/*.js", _MODULE_IMPORTS))
