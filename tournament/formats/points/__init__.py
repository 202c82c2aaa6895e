"""The points format: pure rules (rules.py), writes (services.py), reads (reads.py) and its record (plugin.py)."""
