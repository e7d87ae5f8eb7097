"""Django settings for the corpus's Misago: the package's own ``devproject`` on the
database in ``MISAGO_DB_URL``, with no Redis (Celery runs its tasks eagerly), no debug
toolbar, mail kept in memory and a fast password hash. Loaded inside Misago's own
virtual environment, never by gofer's."""

import os
from urllib.parse import urlsplit

from devproject.settings import *  # noqa: F403

_db = urlsplit(os.environ["MISAGO_DB_URL"])
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": _db.path.lstrip("/"),
        "USER": _db.username or "",
        "PASSWORD": _db.password or "",
        "HOST": _db.hostname or "",
        "PORT": _db.port or 5432,
    }
}
DEBUG = False
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
CELERY_BROKER_URL = None
CELERY_TASK_ALWAYS_EAGER = True
DEBUG_TOOLBAR_CONFIG = {"SHOW_TOOLBAR_CALLBACK": lambda request: False}
INTERNAL_IPS: list[str] = []
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
PASSWORD_HASHERS = ("django.contrib.auth.hashers.MD5PasswordHasher",)
MISAGO_NEW_REGISTRATIONS_VALIDATORS = ()
MEDIA_ROOT = os.environ["MISAGO_MEDIA_ROOT"]
STATIC_ROOT = os.environ["MISAGO_MEDIA_ROOT"] + "-static"
