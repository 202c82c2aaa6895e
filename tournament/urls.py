from django.urls import path, register_converter

from tournament.formats import registry
from tournament.views import (
    accessibility,
    corrections,
    desk,
    display,
    exports,
    offline,
    organiser,
    passes,
    printing,
    public_link,
    referee,
    rounds,
    self_check_in,
    signup,
    tombola,
)

app_name = "tournament"
register_converter(display.PublicKeyConverter, "public_key")

urlpatterns = [
    # First: the projector's and phones' polls, the most frequent requests, are resolved after
    # the fewest patterns (resolving ran through some fifty before them, a sixth of a 304).
    # The public pages under the tournament's unguessable key (``Tournament.public_key``).
    path("p/<public_key:public_key>/", display.projector, name="projector"),
    path("p/<public_key:public_key>/screen/", display.projector_screen, name="projector_screen"),
    path("p/<public_key:public_key>/find/", display.find, name="find"),
    path("p/<public_key:public_key>/api.json", display.api, name="api"),
    path("p/<public_key:public_key>/plan/", display.plan, name="plan"),
    # The old addresses by number: a redirect to the above while the tournament is listed, else 404.
    path("p/<int:tournament_id>/", display.by_number, {"page": "projector"}, name="projector_by_number"),
    path("p/<int:tournament_id>/screen/", display.by_number, {"page": "projector_screen"}, name="screen_by_number"),
    path("p/<int:tournament_id>/find/", display.by_number, {"page": "find"}, name="find_by_number"),
    path("p/<int:tournament_id>/api.json", display.by_number, {"page": "api"}, name="api_by_number"),
    path("p/<int:tournament_id>/plan/", display.by_number, {"page": "plan"}, name="plan_by_number"),
    path("", desk.home, name="home"),
    path("sw.js", offline.service_worker, name="service_worker"),
    path("accessibility/", accessibility.statement, name="accessibility"),
    path("t/new/", desk.tournament_create, name="create"),
    path("t/<int:tournament_id>/", desk.enter, name="enter"),
    path("t/<int:tournament_id>/desk/", desk.desk, name="desk"),
    path("t/<int:tournament_id>/register/", desk.register, name="register"),
    path("t/<int:tournament_id>/import/", desk.import_players, name="import"),
    path("t/<int:tournament_id>/check-in/", desk.check_in_screen, name="check_in"),
    path(
        "t/<int:tournament_id>/players/<int:player_id>/check/<int:item_id>/",
        desk.toggle_check,
        name="toggle_check",
    ),
    path("t/<int:tournament_id>/players/<int:player_id>/check-in/", desk.check_in, name="player_check_in"),
    path("t/<int:tournament_id>/players/<int:player_id>/undo-check-in/", desk.undo_check_in, name="undo_check_in"),
    path("t/<int:tournament_id>/players/<int:player_id>/withdraw/", desk.withdraw, name="withdraw"),
    path("t/<int:tournament_id>/players/<int:player_id>/no-show/", desk.no_show, name="no_show"),
    path("t/<int:tournament_id>/players/<int:player_id>/reinstate/", desk.reinstate, name="reinstate"),
    path("t/<int:tournament_id>/players/<int:player_id>/seat/", desk.fixed_seat, name="fixed_seat"),
    path("t/<int:tournament_id>/draw/", desk.draw, name="draw"),
    path("t/<int:tournament_id>/print/cards/", desk.print_cards, name="print_cards"),
    path("t/<int:tournament_id>/print/players/", desk.print_players, name="print_players"),
    # The print pack (views/printing.py): every printable from one page.
    path("t/<int:tournament_id>/print/", printing.pack, name="print_pack"),
    path(
        "t/<int:tournament_id>/print/rounds/<int:round_number>/table-cards/",
        printing.table_cards,
        name="print_table_cards",
    ),
    path(
        "t/<int:tournament_id>/print/rounds/<int:round_number>/seating/",
        printing.seating_by_table,
        name="print_seating",
    ),
    path(
        "t/<int:tournament_id>/print/rounds/<int:round_number>/seating-by-name/",
        printing.seating_by_name,
        name="print_seating_by_name",
    ),
    path(
        "t/<int:tournament_id>/print/rounds/<int:round_number>/result-slips/",
        printing.result_slips,
        name="print_result_slips",
    ),
    path("t/<int:tournament_id>/print/ranking/", printing.ranking, name="print_ranking"),
    path("t/<int:tournament_id>/print/plan/", printing.plan, name="print_plan"),
    path("t/<int:tournament_id>/print/tombola/", printing.tombola, name="print_tombola"),
    # The tombola (views/tombola.py): prizes, the draw prize by prize, absent winners drawn again.
    path("t/<int:tournament_id>/tombola/", tombola.tombola, name="tombola"),
    path("t/<int:tournament_id>/tombola/prizes/", tombola.add_prize, name="tombola_add"),
    path("t/<int:tournament_id>/tombola/prizes/<int:prize_id>/rename/", tombola.rename_prize, name="tombola_rename"),
    path("t/<int:tournament_id>/tombola/prizes/<int:prize_id>/move/", tombola.move_prize, name="tombola_move"),
    path("t/<int:tournament_id>/tombola/prizes/<int:prize_id>/remove/", tombola.remove_prize, name="tombola_remove"),
    path("t/<int:tournament_id>/tombola/prizes/<int:prize_id>/absent/", tombola.mark_absent, name="tombola_absent"),
    path("t/<int:tournament_id>/tombola/settings/", tombola.tombola_settings, name="tombola_settings"),
    path("t/<int:tournament_id>/tombola/draw/", tombola.draw_next, name="tombola_draw"),
    path("t/<int:tournament_id>/tombola/screen/", tombola.on_screen, name="tombola_screen"),
    path("t/<int:tournament_id>/settings/", organiser.tournament_settings, name="settings"),
    path("t/<int:tournament_id>/settings/checklist/", organiser.add_checklist_item, name="add_checklist_item"),
    path(
        "t/<int:tournament_id>/settings/checklist/<int:item_id>/remove/",
        organiser.remove_checklist_item,
        name="remove_checklist_item",
    ),
    path("t/<int:tournament_id>/settings/windows/", organiser.add_window, name="add_window"),
    path("t/<int:tournament_id>/settings/scoring/", organiser.scoring, name="scoring"),
    path("t/<int:tournament_id>/settings/public-link/", public_link.new_public_link, name="new_public_link"),
    path("t/<int:tournament_id>/equipment/", desk.equipment, name="equipment"),
    path(
        "t/<int:tournament_id>/players/<int:player_id>/returned/<int:item_id>/",
        desk.toggle_returned,
        name="toggle_returned",
    ),
    path("t/<int:tournament_id>/staff/", organiser.staff, name="staff"),
    path("t/<int:tournament_id>/log/", organiser.audit_log, name="audit_log"),
    path("t/<int:tournament_id>/log.csv", exports.audit_csv, name="audit_csv"),
    path("t/<int:tournament_id>/staff/<int:staff_id>/remove/", organiser.remove_staff, name="remove_staff"),
    path("t/<int:tournament_id>/rounds/", rounds.rounds, name="rounds"),
    path("t/<int:tournament_id>/rounds/next/", rounds.next_round, name="next_round"),
    path("t/<int:tournament_id>/ranking/", rounds.ranking, name="ranking"),
    path("t/<int:tournament_id>/export/standings.csv", exports.standings_csv, name="export_standings"),
    path("t/<int:tournament_id>/export/games.csv", exports.games_csv, name="export_games"),
    path("t/<int:tournament_id>/export/backup.json.gz", exports.export_tournament, name="export_tournament"),
    path("t/<int:tournament_id>/rounds/<int:round_number>/table-cards/", referee.table_cards, name="table_cards"),
    path("t/<int:tournament_id>/referee/", referee.tables, name="referee_tables"),
    path("t/<int:tournament_id>/referee/tables/<int:table_id>/", referee.table, name="referee_table"),
    path("t/<int:tournament_id>/referee/tables/<int:table_id>/dealer/", referee.set_dealer, name="set_dealer"),
    path("t/<int:tournament_id>/referee/tables/<int:table_id>/game/", referee.record_game, name="record_game"),
    path("t/<int:tournament_id>/referee/tables/<int:table_id>/undo/", referee.undo_game, name="undo_game"),
    path("t/<int:tournament_id>/referee/tables/<int:table_id>/close/", referee.close_table, name="close_table"),
    path(
        "t/<int:tournament_id>/tables/<int:table_id>/corrections/",
        corrections.table_corrections,
        name="table_corrections",
    ),
    path("t/<int:tournament_id>/referee/tables/<int:table_id>/time/", referee.call_time, name="call_time"),
    # The player's pass (tournament.passes): the token is the key, no account.
    path("pass/<str:token>/", passes.pass_page, name="pass"),
    path("pass/<str:token>/seated/", passes.sit_down, name="pass_sit_down"),
    # Sign-up before the day (issue 32, item 2).
    path("p/<public_key:public_key>/sign-up/", signup.sign_up, name="sign_up"),
    path("pass/<str:token>/withdraw/", signup.withdraw, name="pass_withdraw"),
    path("t/<int:tournament_id>/players/<int:player_id>/fee/", signup.fee_paid, name="fee_paid"),
    # Self check-in (issue 32, item 3): on the pass, at the entrance, the entrance's poster.
    path("pass/<str:token>/here/", self_check_in.pass_here, name="pass_here"),
    path("p/<public_key:public_key>/here/", self_check_in.entrance, name="entrance"),
    path("t/<int:tournament_id>/print/entrance/", self_check_in.entrance_poster, name="print_entrance"),
    path("t/<int:tournament_id>/check-in/arrived/", self_check_in.arrived_list, name="arrived_list"),
    path("t/<int:tournament_id>/players/<int:player_id>/pass/", passes.desk_pass, name="desk_pass"),
    path("t/<int:tournament_id>/players/<int:player_id>/pass/new/", passes.new_pass, name="new_pass"),
]
# Each format's own pages (the life-bands half tracker, ...).
urlpatterns += [pattern for record in registry.FORMATS.values() for pattern in record.urlpatterns]
