import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "harehra_site.settings")
django_asgi_app = get_asgi_application()

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402

from harehra_site.routing import websocket_urlpatterns  # noqa: E402
from live import auth_stack, origin_checked  # noqa: E402
from plumbing.client_address import with_client_address  # noqa: E402
from plumbing.health import health_edge  # noqa: E402

# The health endpoints and the draining gate answer first, before Django (plumbing/health.py).
# Which address a request comes from is decided here, once, for HTTP and websockets alike.
application = health_edge(
    with_client_address(
        ProtocolTypeRouter(
            {
                "http": django_asgi_app,
                "websocket": origin_checked(auth_stack(URLRouter(websocket_urlpatterns))),
            }
        )
    )
)
