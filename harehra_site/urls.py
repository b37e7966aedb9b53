from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from accounts import views as accounts_views

urlpatterns = [
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/accounts/", include("accounts.api_urls")),
    path("api/reports/", include("moderation.api_urls")),
    path("api/replays/", include("replays.api_urls")),
    path("api/", include("games.api_urls")),
    path("", include("replays.urls")),
    path("", include("moderation.urls")),
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("i18n/setlang/", accounts_views.language_set, name="set_language"),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
]
