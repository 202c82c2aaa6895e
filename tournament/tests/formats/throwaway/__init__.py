"""A fourth, throwaway format written by the rule for adding a format (ARCHITECTURE.md, "Adding a
format"): its package (rules, services, reads, dry_run, plugin, templates) and one line in the
registry, which ``tests/formats/test_registry.py`` adds with monkeypatch and checks like the others.
"First to two wins": tables of three play UNO games until one player has won two."""
