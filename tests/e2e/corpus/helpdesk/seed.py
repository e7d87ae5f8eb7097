"""Seed the migrated helpdesk for the corpus: a staff agent, a public queue and one open
ticket from a customer. Run with the helpdesk's venv Python, DJANGO_SETTINGS_MODULE and
DESK_HOME set. Nothing here is gofer's; it only prepares the application's state."""

from __future__ import annotations

AGENT = "agent"
AGENT_PASSWORD = "corpus-agent-pass"


def main() -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from helpdesk.models import Queue, Ticket

    users = get_user_model()
    if not users.objects.filter(username=AGENT).exists():
        users.objects.create_superuser(AGENT, "agent@example.org", AGENT_PASSWORD)
    support, _ = Queue.objects.get_or_create(
        slug="support",
        defaults={"title": "Support", "allow_public_submission": True, "email_address": ""},
    )
    Queue.objects.get_or_create(
        slug="billing",
        defaults={"title": "Billing", "allow_public_submission": True, "email_address": ""},
    )
    if not Ticket.objects.filter(title="Printer on floor 3 jams").exists():
        Ticket.objects.create(
            title="Printer on floor 3 jams",
            queue=support,
            description="It jams on every second page.",
            submitter_email="lena@example.org",
            priority=3,
        )


if __name__ == "__main__":
    main()
