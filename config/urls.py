from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from config.views import bad_request, healthz, page_not_found, permission_denied, server_error

urlpatterns = [
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("", include("tournament.urls")),
]

# Error pages: translated, in the site layout, a bare alert for htmx (see config/views.py).
handler400 = bad_request
handler403 = permission_denied
handler404 = page_not_found
handler500 = server_error
