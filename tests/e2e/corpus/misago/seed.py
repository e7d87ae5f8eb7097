"""What the corpus's Misago holds before the tasks: a member and one thread to reply to.
Run inside Misago's own virtual environment (``conftest.py``)."""

import django

django.setup()

from misago.categories.models import Category  # noqa: E402
from misago.threads.test import post_thread  # noqa: E402
from misago.users.test import create_test_superuser, create_test_user  # noqa: E402

admin = create_test_superuser("admin", "admin@example.com", "Adm1n-pass-123")
create_test_user("mira", "mira@example.com", "Mira-pass-456")
create_test_user("otto", "otto@example.com", "Otto-pass-789")
category = Category.objects.all_categories().get(slug="first-category")
post_thread(category, title="Welcome to the forum", poster=admin)
post_thread(category, title="Meetup in October", poster=admin)
mira = type(admin).objects.get(username="mira")
post_thread(category, title="Selling my old bike", poster=mira, is_unapproved=True)
category.synchronize()
category.save()
