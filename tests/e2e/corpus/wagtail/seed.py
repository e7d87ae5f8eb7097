"""Seed the migrated Wagtail project for the corpus: an editor who may sign in to the
admin. Run with Wagtail's venv Python in the project's folder, its dev settings named
by ``DJANGO_SETTINGS_MODULE``. Nothing here is gofer's; it only prepares the app."""

from __future__ import annotations

EDITOR = "editor"
EDITOR_PASSWORD = "corpus-editor-pass"


def main() -> None:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    user_model = get_user_model()
    if not user_model.objects.filter(username=EDITOR).exists():
        user_model.objects.create_superuser(EDITOR, "editor@example.org", EDITOR_PASSWORD)


if __name__ == "__main__":
    main()
