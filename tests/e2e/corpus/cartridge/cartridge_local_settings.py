"""The corpus's Cartridge shop's local settings (Mezzanine's project template runs
this file inside its settings module): a SQLite file and media under
``CARTRIDGE_WORK``, pounds sterling, mail kept in memory. Copied into the project
that tools/corpus/cartridge.sh made, by the tests' fixture."""

import os

DEBUG = False
SECRET_KEY = "corpus-cartridge-not-secret"
NEVERCACHE_KEY = "corpus-cartridge-nevercache"
_WORK = os.environ["CARTRIDGE_WORK"]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.path.join(_WORK, "shop.sqlite3"),
    }
}
ALLOWED_HOSTS = ["localhost", "127.0.0.1"]
EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
MEDIA_ROOT = os.path.join(_WORK, "media")
SHOP_CURRENCY_LOCALE = "en_GB.UTF-8"
