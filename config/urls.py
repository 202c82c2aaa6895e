from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.views import bad_request, favicon, healthz, page_not_found, permission_denied, server_error
from tournament.views import account

urlpatterns = [
    # Django's login, then the user's kept language applied on this device (tournament.views.account).
    path("accounts/login/", account.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    # Django's language switch, the choice also kept with a logged-in user's account.
    path("i18n/setlang/", account.set_language, name="set_language"),
    # Browsers ask for /favicon.ico whatever the page links: the icon in static/ (whitenoise serves it).
    path("favicon.ico", favicon, name="favicon"),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("", include("tournament.urls")),
]

# Error pages: translated, in the site layout, a bare alert for htmx (see config/views.py).
handler400 = bad_request
handler403 = permission_denied
handler404 = page_not_found
handler500 = server_error
