"""A small Flask app whose data is edited through Flask-Admin's own model views.

Run by the corpus fixture with the Flask-Admin venv's Python:
``python app.py SQLITE_PATH PORT``. It creates and seeds the database when it is new,
then serves on 127.0.0.1:PORT. Nothing here is gofer's: the pages, widgets (date and
datetime pickers, select2) and forms are Flask-Admin's as it ships them.
"""

from __future__ import annotations

import enum
import sys
from datetime import date, datetime
from typing import ClassVar

from flask import Flask, redirect
from flask_admin import Admin
from flask_admin.contrib.sqla import ModelView
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import Enum, ForeignKey, String, Text
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)


class Role(enum.Enum):
    reader = "reader"
    editor = "editor"
    admin = "admin"


class Status(enum.Enum):
    draft = "draft"
    review = "review"
    published = "published"


class User(db.Model):  # type: ignore[name-defined]
    __tablename__ = "user"
    id: Mapped[int] = mapped_column(primary_key=True)
    name: Mapped[str] = mapped_column(String(80))
    email: Mapped[str] = mapped_column(String(120), unique=True)
    role: Mapped[Role] = mapped_column(Enum(Role), default=Role.reader)
    is_active: Mapped[bool] = mapped_column(default=True)
    birthday: Mapped[date | None] = mapped_column(default=None)
    posts: Mapped[list[Post]] = relationship(back_populates="author")

    def __str__(self) -> str:
        return self.name


class Post(db.Model):  # type: ignore[name-defined]
    __tablename__ = "post"
    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str] = mapped_column(String(200))
    body: Mapped[str] = mapped_column(Text, default="")
    status: Mapped[Status] = mapped_column(Enum(Status), default=Status.draft)
    featured: Mapped[bool] = mapped_column(default=False)
    views: Mapped[int] = mapped_column(default=0)
    publish_on: Mapped[date | None] = mapped_column(default=None)
    event_at: Mapped[datetime | None] = mapped_column(default=None)
    author_id: Mapped[int | None] = mapped_column(ForeignKey("user.id"), default=None)
    author: Mapped[User | None] = relationship(back_populates="posts")

    def __str__(self) -> str:
        return self.title


class UserView(ModelView):
    column_searchable_list = ("name", "email")
    column_filters = ("role", "is_active")
    form_excluded_columns = ("posts",)
    can_view_details = True


class PostView(ModelView):
    column_list = ("title", "author", "status", "featured", "views", "publish_on", "event_at")
    column_searchable_list = ("title",)
    column_filters = ("status", "featured", "publish_on")
    column_labels: ClassVar[dict[str, str]] = {"publish_on": "Publish on", "event_at": "Event at"}
    page_size = 20
    can_export = True  # Flask-Admin's own CSV export of the list


SEED_USERS = [
    ("Ada Lovelace", "ada@example.org", Role.admin, True, date(1815, 12, 10)),
    ("Grace Hopper", "grace@example.org", Role.editor, True, date(1906, 12, 9)),
    ("Alan Turing", "alan@example.org", Role.reader, True, None),
    ("Edsger Dijkstra", "edsger@example.org", Role.reader, False, None),
]

SEED_POSTS = [
    ("Notes on the Analytical Engine", "ada@example.org", Status.published, True, 120),
    ("Compilers for everyone", "grace@example.org", Status.review, False, 40),
    ("On computable numbers", "alan@example.org", Status.draft, False, 0),
    ("Go to statement considered harmful", "edsger@example.org", Status.published, False, 99),
    ("A case against the GO TO", "edsger@example.org", Status.draft, False, 5),
    ("The first bug", "grace@example.org", Status.draft, False, 7),
    ("Old draft on tapes", "alan@example.org", Status.draft, False, 1),
    ("Old draft on drums", "alan@example.org", Status.draft, False, 2),
]


def create_app(path: str) -> Flask:
    app = Flask(__name__)
    app.config["SECRET_KEY"] = "corpus-only"
    app.config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{path}"
    db.init_app(app)
    admin = Admin(app, name="Newsroom")
    admin.add_view(UserView(User, db, name="Users"))
    admin.add_view(PostView(Post, db, name="Posts"))

    @app.route("/")
    def index():  # type: ignore[no-untyped-def]
        return redirect("/admin/")

    with app.app_context():
        db.create_all()
        if not db.session.query(User).count():
            users = {}
            for name, email, role, active, born in SEED_USERS:
                users[email] = User(
                    name=name, email=email, role=role, is_active=active, birthday=born
                )
                db.session.add(users[email])
            for title, email, status, featured, views in SEED_POSTS:
                db.session.add(
                    Post(
                        title=title,
                        author=users[email],
                        status=status,
                        featured=featured,
                        views=views,
                    )
                )
            db.session.commit()
    return app


if __name__ == "__main__":
    create_app(sys.argv[1]).run(host="127.0.0.1", port=int(sys.argv[2]), debug=False)
