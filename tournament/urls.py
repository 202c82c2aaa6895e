from django.urls import path

from tournament.views import desk, organiser

app_name = "tournament"

urlpatterns = [
    path("", desk.home, name="home"),
    path("t/new/", desk.tournament_create, name="create"),
    path("t/<int:tournament_id>/", desk.desk, name="desk"),
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
    path("t/<int:tournament_id>/draw/", desk.draw, name="draw"),
    path("t/<int:tournament_id>/print/cards/", desk.print_cards, name="print_cards"),
    path("t/<int:tournament_id>/print/players/", desk.print_players, name="print_players"),
    path("t/<int:tournament_id>/settings/", organiser.tournament_settings, name="settings"),
    path("t/<int:tournament_id>/settings/checklist/", organiser.add_checklist_item, name="add_checklist_item"),
    path(
        "t/<int:tournament_id>/settings/checklist/<int:item_id>/remove/",
        organiser.remove_checklist_item,
        name="remove_checklist_item",
    ),
    path("t/<int:tournament_id>/settings/windows/", organiser.add_window, name="add_window"),
    path("t/<int:tournament_id>/staff/", organiser.staff, name="staff"),
    path("t/<int:tournament_id>/staff/<int:staff_id>/remove/", organiser.remove_staff, name="remove_staff"),
]
