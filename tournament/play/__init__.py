"""The play core every format shares (see ARCHITECTURE.md).

- ``core``: the table lock, the guards and their messages;
- ``rounds``: open and close a round, seat a table, finish the tournament;
- ``results``: start a result entry (idempotency, version), the first dealer,
  and the table services each format builds from hooks: record a winner
  (UNO, with card points), undo the last game, close a table;
- ``tables``: a table's tally from its valid games and saving its outcome.

Formats (``tournament.formats.<slug>.services``) compose these; nothing here
knows a format by name.
"""
