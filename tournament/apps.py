from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TournamentConfig(AppConfig):
    name = "tournament"
    verbose_name = _("Tournaments")

    def ready(self) -> None:
        # The formats' own settings become attributes of Tournament (``registry.install_settings``).
        from tournament.formats import registry

        registry.install_settings()
