"""Settings come from the environment; with nothing set, the service runs embedded on SQLite."""

import os
import secrets
import time
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from plumbing.client_address import parse_trusted_proxies

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    return default if value is None else value.lower() in ("1", "true", "yes", "on")


def local_secret_key(path: Path) -> str:
    """This checkout's own random key, made on first use (`.secret_key`, never committed): a site
    run with nothing set signs its sessions with a key nobody else has. Several processes starting
    at once agree on one (the first to create the file writes it; the others read it)."""
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        for _ in range(50):  # the creator may not have written it yet
            key = path.read_text().strip()
            if key:
                return key
            time.sleep(0.02)
        raise ImproperlyConfigured(f"{path} is empty: delete it or set SECRET_KEY") from None
    key = secrets.token_urlsafe(50)
    with os.fdopen(fd, "w") as f:
        f.write(key)
    return key


DEBUG = env_bool("DEBUG", False)
DEVELOPMENT_KEY = "harehra-insecure-development-key-set-SECRET_KEY-in-production"
SECRET_KEY = os.environ.get("SECRET_KEY") or (
    DEVELOPMENT_KEY if DEBUG else local_secret_key(BASE_DIR / ".secret_key")
)
if not DEBUG and SECRET_KEY == DEVELOPMENT_KEY:
    raise ImproperlyConfigured("DEBUG=0 with the public development SECRET_KEY: set a secret one")
ALLOWED_HOSTS = [
    h for h in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",") if h
]
CSRF_TRUSTED_ORIGINS = [o for o in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",") if o]

# Email (accounts/mail.py: sent by the worker). The console by default: a message is printed by
# the process that sends it; production sets EMAIL_BACKEND=django.core.mail.backends.smtp.EmailBackend
# and the server's address.
EMAIL_BACKEND = os.environ.get("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
EMAIL_TIMEOUT = 20
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Harehra Online <noreply@localhost>")
# How long a link to verify an address or reset a password works.
EMAIL_LINK_SECONDS = 3 * 24 * 3600
# The site's address as people reach it, for links in mail sent by the worker (no request there
# to take it from): notifications' emails and their unsubscribe links.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000").rstrip("/")
PASSWORD_RESET_TIMEOUT = EMAIL_LINK_SECONDS

# Web push (webpush/, docs/OPERATIONS.md "Web push"): the site's VAPID key pair, base64url (the
# public key an uncompressed P-256 point, the private key its 32-byte scalar: `python manage.py
# vapid_keys` makes a pair), and the contact push services see in every message's VAPID header
# (a mailto: or https: URL). Without both keys push is off and the switch is not shown.
VAPID_PUBLIC_KEY = os.environ.get("VAPID_PUBLIC_KEY", "").strip()
VAPID_PRIVATE_KEY = os.environ.get("VAPID_PRIVATE_KEY", "").strip()
VAPID_SUBJECT = os.environ.get("VAPID_SUBJECT", "mailto:admin@localhost")
# The push services the worker posts to, by host (".example.com": any host under it): the
# browsers' own (Chrome's, Firefox's, Edge's, Safari's). The worker posts to whatever endpoint a
# browser gave, so any other host is refused when a browser subscribes.
PUSH_SERVICE_HOSTS = [
    h.strip()
    for h in os.environ.get(
        "PUSH_SERVICE_HOSTS",
        "fcm.googleapis.com,updates.push.services.mozilla.com,.notify.windows.com,.push.apple.com",
    ).split(",")
    if h.strip()
]
# Endpoints over plain HTTP are refused, but where tests and benches run a push service of their own.
PUSH_SERVICE_HTTP = env_bool("PUSH_SERVICE_HTTP", False)

# HTTPS=1: the site is served over HTTPS (behind a proxy that sets X-Forwarded-Proto): plain HTTP
# is redirected, cookies are Secure, and browsers are told to use HTTPS only (HSTS).
#
# Whether a request came over HTTPS is decided at the edge of the ASGI application with the client's
# address (plumbing/client_address.py): X-Forwarded-Proto is believed from TRUSTED_PROXIES
# alone, which set the scope's scheme. Django's SECURE_PROXY_SSL_HEADER is not set: it would believe
# the header from any peer, so a client connecting to a server directly could claim HTTPS.
HTTPS = env_bool("HTTPS", False)
if HTTPS:
    if not os.environ.get("TRUSTED_PROXIES", "").strip():
        # Nothing could then say a request came over HTTPS: every one would be redirected, forever.
        raise ImproperlyConfigured(
            "HTTPS=1 needs TRUSTED_PROXIES: the address of the proxy that terminates TLS "
            "and sets X-Forwarded-Proto"
        )
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)

# Content Security Policy (django-csp): scripts, styles, fonts and images from this site only, no
# inline script or style, sockets to this site, no framing.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "font-src": ["'self'"],
        "connect-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

INSTALLED_APPS = [
    "daphne",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "channels",
    "accounts",
    "relations",
    "notifications",
    "webpush",
    "games",
    "challenges",
    "replays",
    "moderation",
    "ratings",
    "chat",
    "profiles",
    "tournaments",
    "analysis",
    "bench",
    "plumbing",  # the shared plumbing's template tags (times)
    "harehra_site",  # the composition root's own commands: serve, grant_app_role
    "csp",
]

MIDDLEWARE = [
    "plumbing.monitoring.RequestMetricsMiddleware",
    "plumbing.middleware.RejectNulMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "accounts.notices.SignedOutNoticeMiddleware",  # after sessions, languages and messages
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "accounts.devices.KnownDeviceMiddleware",
]

ROOT_URLCONF = "harehra_site.urls"
WSGI_APPLICATION = None
ASGI_APPLICATION = "harehra_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context_processors.unread",
                "webpush.context_processors.push",
            ],
            # `{{ moment|when }}` on every page: moments in the reader's own time zone
            # (plumbing/templatetags/times.py, static/js/core/times.js).
            "builtins": ["plumbing.templatetags.times"],
        },
    },
]

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("CONN_MAX_AGE", "0")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django turns psycopg's prepared statements off. Its own queries never use them (their
    # parameters are bound in the client), but the few statements every move makes
    # (games/sql.py) then run prepared, each planned once per connection instead of per move.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault("prepare_threshold", 5)
    # Under ASGI every HTTP request runs on a thread of its own, so a connection per thread
    # (CONN_MAX_AGE) meant one new PostgreSQL connection per request, left open: a busy server ran
    # PostgreSQL out of connections ("too many clients"). A pool per process bounds them, and a
    # request or a socket's call borrows one and gives it back (prepared statements stay with it).
    DB_POOL_SIZE = int(os.environ.get("DB_POOL_SIZE", "16"))
    if DB_POOL_SIZE > 0:
        DATABASES["default"]["OPTIONS"]["pool"] = {"min_size": 2, "max_size": DB_POOL_SIZE, "timeout": 20}
        DATABASES["default"]["CONN_MAX_AGE"] = 0  # a pooled connection goes back after each use
# A streaming replica of the primary for the reads that tolerate lag (replays, profiles, the
# leaderboard, finished events' standings, the analysis's input): plumbing/replica.py says which and
# how a person's own writes are read from the primary. Without it every read goes to the primary.
DATABASE_REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "")
REPLICA_MAX_LAG_SECONDS = float(os.environ.get("REPLICA_MAX_LAG_SECONDS", "5"))
REPLICA_CHECK_SECONDS = float(os.environ.get("REPLICA_CHECK_SECONDS", "1"))
REPLICA_RETRY_SECONDS = float(os.environ.get("REPLICA_RETRY_SECONDS", "10"))
if DATABASE_REPLICA_URL:
    DATABASES["replica"] = dj_database_url.parse(DATABASE_REPLICA_URL, conn_max_age=0)
    replica_options = DATABASES["replica"].setdefault("OPTIONS", {})
    replica_options["prepare_threshold"] = 5
    # A replica that went away holds a page at most a second (the pool's wait for a connection; the
    # connection's own bound when there is no pool), once a REPLICA_RETRY_SECONDS: then the primary.
    replica_options["connect_timeout"] = 2
    replica_pool = int(os.environ.get("DB_POOL_SIZE", "16"))
    if replica_pool > 0:
        replica_options["pool"] = {"min_size": 0, "max_size": replica_pool, "timeout": 1}
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}  # tests read "the replica" from their database
    DATABASE_ROUTERS = ["plumbing.replica.ReplicaRouter"]
    MIDDLEWARE.append("plumbing.replica.ReadYourWritesMiddleware")
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several ASGI threads and the in-process worker share one file: wait for locks, don't fail.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"timeout": 20, "transaction_mode": "IMMEDIATE", "init_command": "PRAGMA journal_mode=WAL;"}
    )

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

LANGUAGE_CODE = "en"
# English and Czech: the first visit takes the browser's Accept-Language, the footer's switcher
# remembers the choice (the language cookie, and the person's account when signed in).
LANGUAGES = [("en", "English"), ("cs", "Čeština")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"] if (BASE_DIR / "static").is_dir() else []
WHITENOISE_USE_FINDERS = True

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
# Database sessions that know their user: a suspension or ban deletes all of a user's sessions.
SESSION_ENGINE = "accounts.sessions"
LOGIN_URL = "/accounts/login/"
LOGIN_REDIRECT_URL = "/lobby/"

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "plumbing.api_errors.exception_handler",
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    # The API takes JSON bodies only (a form or multipart body is a 415, never read as defaults).
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    # Throttles (accounts/throttles.py) count in Django's cache, per client address
    # (plumbing/client_address.py: TRUSTED_PROXIES below says which that is).
    "DEFAULT_THROTTLE_RATES": {
        "sign_in": os.environ.get("THROTTLE_SIGN_IN", "30/min"),
        "register": os.environ.get("THROTTLE_REGISTER", "10/hour"),
        "preview": os.environ.get("THROTTLE_PREVIEW", "60/min"),
        "clip": os.environ.get("THROTTLE_CLIP", "10/min"),
        # Analyses one account may ask for (analysis/services.py): each costs a worker's seconds.
        "analysis": os.environ.get("THROTTLE_ANALYSIS", "5/hour"),
        # Whole replays built from a log, per person (signed out: per address) and per address
        # (accounts/throttles.py; the measured costs: docs/OPERATIONS.md, "What a request costs").
        "replay_import": os.environ.get("THROTTLE_REPLAY_IMPORT", "10/min"),
        "replay_import_address": os.environ.get("THROTTLE_REPLAY_IMPORT_ADDRESS", "30/min"),
        "replay_frames": os.environ.get("THROTTLE_REPLAY_FRAMES", "30/min"),
        "replay_frames_address": os.environ.get("THROTTLE_REPLAY_FRAMES_ADDRESS", "120/min"),
        # A whole log read but not folded (an export, a game page's history, a stored analysis).
        "game_log": os.environ.get("THROTTLE_GAME_LOG", "60/min"),
        "game_log_address": os.environ.get("THROTTLE_GAME_LOG_ADDRESS", "240/min"),
        "schema": os.environ.get("THROTTLE_SCHEMA", "30/min"),
        # Follows per person a day (relations/): each tells the person followed.
        "follow": os.environ.get("THROTTLE_FOLLOW", "100/day"),
        "people_search": os.environ.get("THROTTLE_PEOPLE_SEARCH", "60/min"),
        # Challenges per person a minute (challenges/): each tells every person challenged.
        "challenge": os.environ.get("THROTTLE_CHALLENGE", "6/min"),
        # Mail a person asks for: links to reset a password (per address) or verify an address.
        "password_reset": os.environ.get("THROTTLE_PASSWORD_RESET", "5/hour"),
        "email": os.environ.get("THROTTLE_EMAIL", "5/hour"),
        "push_subscription": os.environ.get("THROTTLE_PUSH_SUBSCRIPTION", "30/hour"),
    },
}

# The load balancers or reverse proxies in front of the servers: addresses or networks,
# comma-separated. Only a connection from one of them is believed when its X-Forwarded-For says
# whose request it carries (plumbing/client_address.py); by default none is.
TRUSTED_PROXIES = parse_trusted_proxies(os.environ.get("TRUSTED_PROXIES", ""))
if os.environ.get("NUM_PROXIES"):
    # It counted hops of a header anyone can write; silently ignoring it would count every client
    # behind the proxy as the proxy's one address.
    raise ImproperlyConfigured(
        "NUM_PROXIES is no longer read: set TRUSTED_PROXIES to your proxies' addresses"
    )

SPECTACULAR_SETTINGS = {
    "TITLE": "Harehra Online API",
    "DESCRIPTION": "Play Harehra: accounts, tables, games and their event logs.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # The API docs page serves Swagger UI from this site, not from a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # One name for the bot levels, whichever field (a seat's level, the away bot's) uses them.
    "ENUM_NAME_OVERRIDES": {"BotLevelEnum": "games.models.BotLevel"},
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "plumbing.schema.add_error_responses",
    ],
}

REDIS_URL = os.environ.get("REDIS_URL", "")
# Each channel-layer connection: a dead server (a host gone, not a refused port) is given up on
# within these seconds, so a move's push to it fails soon instead of holding the move's answer
# (plumbing/publish.py: a failed push is logged, the pages catch up from the log).
LAYER_REDIS_OPTIONS = {"socket_connect_timeout": 2.0, "socket_timeout": 5.0}

# Django's cache holds what every process must share and may lose: throttle counters, sign-in
# lockouts and the presence of sockets. Redis when there is one, else this process's memory (the
# embedded server is one process).
if REDIS_URL:
    CACHES = {
        "default": {
            "BACKEND": "plumbing.sharedcache.RedisCache",  # Django's, its clients kept
            "LOCATION": REDIS_URL,
            "KEY_PREFIX": "harehra",
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# The channel layer's Redis servers: CHANNEL_LAYER_REDIS_URLS, comma-separated, else REDIS_URL
# alone. With several, each group (a game's, a user's, a table chat's) lives on one of them, by a
# hash of its name (plumbing/channellayer.py); the cache and the broker stay where they are.
CHANNEL_LAYER_REDIS_URLS = [
    url.strip() for url in os.environ.get("CHANNEL_LAYER_REDIS_URLS", "").split(",") if url.strip()
] or ([REDIS_URL] if REDIS_URL else [])
if CHANNEL_LAYER_REDIS_URLS:
    # Redis pub/sub: a push to a game is one PUBLISH, read once by each server process with a
    # socket at that game, which hands it to its own sockets. At most once, like any channel
    # layer: clients check seq continuity and resume on a gap.
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "plumbing.channellayer.ConfirmedPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": url, **LAYER_REDIS_OPTIONS} for url in CHANNEL_LAYER_REDIS_URLS]
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}

if REDIS_URL:
    # The broker: its own Redis when CELERY_BROKER_URL names one (a queue's backlog then never
    # slows the pushes' Redis), else REDIS_URL's.
    CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or REDIS_URL
    # A task a killed worker had taken (acknowledged late: below) stays in Redis's unacknowledged
    # set until it is this old, then goes back to the queue (kombu's default: an hour). Longer
    # than any task waits in a live worker's hands, or a task still waiting there would be handed
    # out again: a countdown is armed up to the longest timer ahead (600 s: TABLE_LIMITS in
    # games/services/tables.py), a seat's away check AWAY_GRACE_SECONDS (60 s) ahead, and an
    # analysis runs for a minute or two after waiting behind one other. Not much longer: nothing
    # needs the games' tasks back (beat's sweep does their work within seconds), and a killed
    # worker's leftovers should not sit there an hour, counted by harehra_celery_unacked_tasks.
    # docs/OPERATIONS.md, "Celery workers".
    CELERY_BROKER_TRANSPORT_OPTIONS = {
        "visibility_timeout": float(os.environ.get("CELERY_VISIBILITY_TIMEOUT", str(20 * 60)))
    }
else:
    # The memory transport ignores the host, but kombu warns "No hostname was supplied" at
    # every connection made without one: the host it would fall back to is named here.
    CELERY_BROKER_URL = "memory://localhost/"
    # kombu's memory transport with each queue served by priority, as Redis serves it: an
    # analysis asked for overtakes the automatic ones waiting (harehra_site/memory_broker.py).
    CELERY_BROKER_TRANSPORT = "harehra_site.memory_broker:Transport"
    # The memory transport polls; poll often so bots and timers answer promptly.
    CELERY_BROKER_TRANSPORT_OPTIONS = {"polling_interval": 0.05}

CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", False)
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A task is acknowledged once done, and given back to the broker if its worker dies meanwhile
# (every task here is guarded by the game's seq, so running one twice changes nothing).
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# Analyses of finished games (analysis/) run on their own queue and worker (Procfile "analyst"),
# so a bot's move or a timer never waits behind one.
CELERY_TASK_ROUTES = {"analysis.tasks.*": {"queue": "analysis"}}
# Queue a rated game's analysis when it ends, while fewer than ANALYSIS_AUTOMATIC_MAX_PENDING
# analyses are queued or running, at the lowest priority: after every analysis someone asked for
# (docs/ANALYSIS.md "Automatic analyses"). On by default, wherever an analyst runs (the Procfile's
# `analyst`, the embedded server's own); ANALYSIS_AUTOMATIC=0 turns it off, as where no analyst
# runs or live play must not share its cores with one. And the budget of each analysis: worlds
# per step and per option (harehra/analysis.py).
ANALYSIS_AUTOMATIC = env_bool("ANALYSIS_AUTOMATIC", True)
ANALYSIS_AUTOMATIC_MAX_PENDING = int(os.environ.get("ANALYSIS_AUTOMATIC_MAX_PENDING", "2"))
# Requested analyses queued or running at once, over every account (each account: one): a request
# beyond it is refused, `analysis_queue_full` (docs/ANALYSIS.md, "How many an hour").
ANALYSIS_QUEUE_MAX = int(os.environ.get("ANALYSIS_QUEUE_MAX", "10"))
ANALYSIS_PLAYOUTS = int(os.environ.get("ANALYSIS_PLAYOUTS", "512"))
# The analysis process's niceness (analysis/apart.py): it takes the CPU live play leaves.
ANALYSIS_NICENESS = int(os.environ.get("ANALYSIS_NICENESS", "10"))

# Log lines go to standard error, one a line: JSON objects (python-json-logger) by default with
# DEBUG=0, where a log collector reads them; text with DEBUG=1, for a person at a terminal.
# LOG_FORMAT=json|text chooses either way. Besides warnings and errors (LOG_LEVEL), every HTTP
# request, websocket session and command is one line (ACCESS_LOG=0 turns those off):
# docs/OPERATIONS.md, "Logs".
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text" if DEBUG else "json")
if LOG_FORMAT not in ("json", "text"):
    raise ImproperlyConfigured(f"LOG_FORMAT is json or text, not {LOG_FORMAT!r}")
ACCESS_LOG = env_bool("ACCESS_LOG", True)
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "json": {"()": "plumbing.logs.JsonLines"},
        "text": {"()": "plumbing.logs.TextLines"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": LOG_FORMAT}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
    "loggers": {
        name: {"level": "INFO" if ACCESS_LOG else "WARNING"}
        for name in ("harehra.requests", "harehra.sockets", "harehra.commands")
    },
}

# The Prometheus scrape, GET /metrics, answers only "Authorization: Bearer <METRICS_TOKEN>"; with
# no token it is not there (404). Processes share their metrics through PROMETHEUS_MULTIPROC_DIR
# (an environment variable, read by prometheus_client itself: plumbing/metrics.py).
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "")
if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
    Path(os.environ["PROMETHEUS_MULTIPROC_DIR"]).mkdir(parents=True, exist_ok=True)

# A bot waits this long before it moves, so people can follow the game.
BOT_DELAY_SECONDS = float(os.environ.get("BOT_DELAY_SECONDS", "0.8"))
# The shuffle of every deck (games/services/shuffle.py): the operating system's random source.
# Tests name another (tests/support/decks.py) to deal the cards a rule needs.
GAME_SHUFFLE = os.environ.get("GAME_SHUFFLE", "games.services.shuffle.system_shuffle")
# A bot that has not moved this long after its delay lost its wake-up: the beat's sweep moves it.
BOT_OVERDUE_SECONDS = float(os.environ.get("BOT_OVERDUE_SECONDS", "4"))
# Child processes in which hard bots search (games/bot_thinking.py), per process that moves bots
# (the embedded server, each `celery worker`); 0: they search on the task's own thread.
BOT_THINK_PROCESSES = int(os.environ.get("BOT_THINK_PROCESSES", "1"))
CELERY_BEAT_SCHEDULE = {
    "sweep-deadlines": {"task": "games.tasks.sweep_deadlines", "schedule": 5.0},
    "tournaments": {"task": "tournaments.tasks.tournaments_run", "schedule": 5.0},
    "event-log-partitions": {"task": "games.tasks.event_log_partitions_ensure", "schedule": 300.0},
    "challenges": {"task": "challenges.tasks.challenges_expire", "schedule": 30.0},
    # Notifications: a decision awaited with no page open, a tournament starting in 5 minutes.
    "your-turn": {"task": "games.tasks.your_turn_notify", "schedule": 5.0},
    "tournaments-starting": {"task": "tournaments.tasks.tournaments_starting", "schedule": 15.0},
}
# The event log's partitions (games/partitions.py): game ids per partition, and how many
# partitions past the newest game the beat keeps made (headroom if the beat stops: their product).
EVENT_LOG_GAMES_PER_PARTITION = int(os.environ.get("EVENT_LOG_GAMES_PER_PARTITION", "50000"))
EVENT_LOG_PARTITIONS_AHEAD = int(os.environ.get("EVENT_LOG_PARTITIONS_AHEAD", "4"))
# A decision whose window is at least this long is told about when its person's page is not
# open (games/services/turns.py): a shorter one would be over before they came.
YOUR_TURN_MIN_SECONDS = float(os.environ.get("YOUR_TURN_MIN_SECONDS", "30"))
# A seated person disconnected this long is marked away and a bot plays their seat.
AWAY_GRACE_SECONDS = float(os.environ.get("AWAY_GRACE_SECONDS", "60"))
# Each server process renews the presence of the seats it has live sockets for in the cache every
# PRESENCE_HEARTBEAT_SECONDS; a seat not renewed for PRESENCE_LEASE_SECONDS has lost its sockets,
# however they ended (live/sockets.py, games/services/presence.py).
# A challenge nobody started this long after it was made ends expired (challenges/; the beat
# looks every 30 s): the challenged are on the site now, or not at all, for a live table.
CHALLENGE_EXPIRY_SECONDS = float(os.environ.get("CHALLENGE_EXPIRY_SECONDS", "600"))
PRESENCE_HEARTBEAT_SECONDS = float(os.environ.get("PRESENCE_HEARTBEAT_SECONDS", "10"))
PRESENCE_LEASE_SECONDS = float(os.environ.get("PRESENCE_LEASE_SECONDS", "30"))
# Messages a socket may send: a burst, then this many a second on average (live/sockets.py).
SOCKET_MESSAGES_PER_SECOND = float(os.environ.get("SOCKET_MESSAGES_PER_SECOND", "10"))
SOCKET_MESSAGES_BURST = float(os.environ.get("SOCKET_MESSAGES_BURST", "30"))
# The server pings every socket this often and closes one whose pong is this late: a client whose
# connection is still open but that no longer answers (a frozen or suspended page, a dead network
# path) ends within the sum of both, then AWAY_GRACE_SECONDS later a bot plays its seat.
WEBSOCKET_PING_INTERVAL_SECONDS = float(os.environ.get("WEBSOCKET_PING_INTERVAL_SECONDS", "10"))
WEBSOCKET_PING_TIMEOUT_SECONDS = float(os.environ.get("WEBSOCKET_PING_TIMEOUT_SECONDS", "10"))
# Sockets one user may have open at one game, per server process.
SOCKETS_PER_USER_PER_GAME = int(os.environ.get("SOCKETS_PER_USER_PER_GAME", "8"))
# A server told to stop (SIGTERM) drains and exits within this many seconds
# (harehra_site/management/commands/serve.py).
DRAIN_SECONDS = float(os.environ.get("DRAIN_SECONDS", "30"))
# ... closing its sockets at most this many a second, so that the server taking its pages in is
# not handed them all in one instant (faster when the bound would otherwise pass first). Below
# what the other servers open a second while they play: on the 2-core machine at 600 games, 150 a
# second left the pages of a restarted server back after 11.7 s at p99, 70 after 3.6 s
# (docs/OPERATIONS.md), 75 after 2.1-4.8 s; 1,320 sockets take 22 s at 60.
DRAIN_CLOSE_RATE = float(os.environ.get("DRAIN_CLOSE_RATE", "60"))
# ... and keeps listening this long after the signal, answering /readyz with 503, for a load
# balancer that polls it (nginx does not: it is better served by a refused connection at once).
DRAIN_LINGER_SECONDS = float(os.environ.get("DRAIN_LINGER_SECONDS", "0"))
# A failed readiness check is its probe's answer (503, naming the check); the library would also
# log each one with a traceback, on every probe while a service is down or the process drains.
LOGGING.setdefault("loggers", {})["health_check"] = {"level": "ERROR"}
# How long a reaction window lasts for a seat that chose "answer for me when I can't".
AUTO_ANSWER_SECONDS = float(os.environ.get("AUTO_ANSWER_SECONDS", "4"))
# Tests only: a file of seconds every process adds to the slow path's clock (plumbing/clock.py), so a
# test's servers, worker and beat share one moved clock. Unset in production: no file is read.
CLOCK_SHIFT_FILE = os.environ.get("CLOCK_SHIFT_FILE", "")
# Slow tables (a decision in hours or days; docs/ARCHITECTURE.md, "Slow tables"):
# A person may sit at this many slow tables at once (each a game running or waiting for its next
# one). At the slowest useful pace, a decision a day, 100 games is 100 decisions a day for the
# most eager player: more than anyone plays well, and it bounds what My games reads for one
# person (games/selectors.py `my_games`, one statement for them all).
SLOW_GAMES_MAX = int(os.environ.get("SLOW_GAMES_MAX", "100"))
# Days a year (any 365 days) a person may pause the clocks of their slow games: a month, as
# correspondence chess grants (ICCF: 35 days a calendar year; chess sites' daily games: a few
# weeks). Enough for a summer holiday and a few long weekends; short enough that nobody's
# opponents wait a season for them.
HOLIDAY_DAYS_PER_YEAR = int(os.environ.get("HOLIDAY_DAYS_PER_YEAR", "30"))
# A finished game stays on My games this long, in a section of its own.
MY_GAMES_FINISHED_DAYS = int(os.environ.get("MY_GAMES_FINISHED_DAYS", "7"))
