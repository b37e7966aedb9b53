from django.contrib import admin
from django.http import HttpRequest, JsonResponse
from django.templatetags.static import static
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts import views as accounts_views
from accounts.admin import admin_sign_in
from accounts.throttles import SchemaThrottle
from plumbing.monitoring import metrics_view


@csrf_exempt  # answers every method with the same 404: no form to protect
def api_not_found(request: HttpRequest) -> JsonResponse:
    return JsonResponse({"code": "not_found", "detail": "no such API URL"}, status=404)


urlpatterns = [
    path("metrics", metrics_view, name="metrics"),
    # Browsers ask for /favicon.ico where no page names an icon (an API answer opened in a tab).
    path("favicon.ico", RedirectView.as_view(url=static("img/favicon.png"), permanent=True)),
    # The admin's sign-in, throttled and locked like every other way to sign in (accounts/admin.py).
    path("admin/login/", admin_sign_in),
    path("admin/", admin.site.urls),
    # Generated from the views on every request: throttled (docs/OPERATIONS.md, "What a request costs").
    path("api/schema/", SpectacularAPIView.as_view(throttle_classes=[SchemaThrottle]), name="api-schema"),
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/accounts/", include("profiles.api_urls")),
    path("api/accounts/", include("accounts.api_urls")),
    path("api/reports/", include("moderation.api_urls")),
    path("api/replays/", include("analysis.api_urls")),
    path("api/replays/", include("replays.api_urls")),
    path("api/ratings/", include("ratings.api_urls")),
    path("api/relations/", include("relations.api_urls")),
    path("api/notifications/", include("notifications.api_urls")),
    path("api/push/", include("webpush.api_urls")),
    path("api/moderation/", include("moderation.api_moderation_urls")),
    path("api/tournaments/", include("tournaments.api_urls")),
    path("api/", include("chat.api_urls")),
    path("api/", include("moderation.api_chat_urls")),
    path("api/", include("games.api_urls")),
    re_path(r"^api/", api_not_found),  # an unknown API URL answers JSON, like every API error
    path("", include("replays.urls")),
    path("", include("moderation.urls")),
    path("", include("ratings.urls")),
    path("", include("tournaments.urls")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("i18n/setlang/", accounts_views.language_set, name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("", include("profiles.urls")),
    path("", include("relations.urls")),
    path("", include("notifications.urls")),
    path("", include("webpush.urls")),
    path("", include("games.urls")),
]

# Under /api/ an error Django answers itself (an unexpected exception, a refused request) is
# JSON with a stable code, like every other API error.
handler400 = "plumbing.api_errors.bad_request"
handler403 = "plumbing.api_errors.permission_denied"
handler500 = "plumbing.api_errors.server_error"
