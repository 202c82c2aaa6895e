"""The registration desk's writes, by concern.

- ``tournaments``: creating a tournament, its settings, checklist, windows;
- ``staff``: roles;
- ``registration``: players one by one or from CSV, the waiting list;
- ``checkin``: the checklist, check-in with override, withdraw, no-show;
- ``start_numbers``: the draw by lot.

Every function follows the contract in ``tournament.writes``. The names below
are the desk's public services; import them from here.
"""

from tournament.desk.checkin import (
    CheckInResult,
    check_in_player,
    mark_no_show,
    reinstate_player,
    set_check,
    set_returned,
    undo_check_in,
    withdraw_player,
)
from tournament.desk.players import name_key
from tournament.desk.registration import (
    ImportReport,
    ImportRow,
    Registration,
    import_players_csv,
    parse_player_csv,
    register_player,
    set_fixed_seat,
)
from tournament.desk.staff import add_staff, remove_staff
from tournament.desk.start_numbers import draw_start_numbers
from tournament.desk.tournaments import (
    WindowInput,
    add_checklist_item,
    add_registration_window,
    create_tournament,
    remove_checklist_item,
    save_settings,
    scoring_locked,
    set_scoring_table,
    update_tournament,
)

__all__ = [
    "CheckInResult",
    "ImportReport",
    "ImportRow",
    "Registration",
    "WindowInput",
    "add_checklist_item",
    "add_registration_window",
    "add_staff",
    "check_in_player",
    "create_tournament",
    "draw_start_numbers",
    "import_players_csv",
    "mark_no_show",
    "name_key",
    "parse_player_csv",
    "register_player",
    "reinstate_player",
    "remove_checklist_item",
    "remove_staff",
    "save_settings",
    "scoring_locked",
    "set_check",
    "set_fixed_seat",
    "set_returned",
    "set_scoring_table",
    "undo_check_in",
    "update_tournament",
    "withdraw_player",
]
