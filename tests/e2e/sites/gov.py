"""A government service form in the style of GOV.UK and state licensing portals.

Fieldsets with legends, a yes/no radio group, a native date input, a terms
checkbox, server-side validation that answers a post with missing answers with an
error summary and messages by each field, a "Check your answers" page, and a final
"Submit application" button.
"""

from __future__ import annotations

from html import escape
from typing import Any

from .base import Site, document

CSS = """
main{max-width:640px;margin:24px auto;font-size:17px}
.govuk-header{background:#0b0c0c;color:#fff;padding:10px 24px}
.govuk-header a{color:#fff}
.govuk-form-group{margin:0 0 24px}
.govuk-form-group--error{border-left:5px solid #d4351c;padding-left:12px}
.govuk-label,.govuk-fieldset__legend{display:block;font-weight:bold;margin-bottom:6px}
.govuk-hint{color:#505a5f;margin-bottom:6px}
.govuk-error-message{color:#d4351c;font-weight:bold;display:block}
.govuk-input{font-size:17px;padding:5px;border:2px solid #0b0c0c;width:300px}
.govuk-radios__item,.govuk-checkboxes__item{position:relative;padding-left:40px;margin:8px 0;
  min-height:40px}
.govuk-radios__input,.govuk-checkboxes__input{position:absolute;left:0;top:0;width:40px;
  height:40px;margin:0;opacity:0;cursor:pointer;z-index:1}
.govuk-radios__label,.govuk-checkboxes__label{display:inline-block;padding:8px 15px 5px;
  cursor:pointer}
.govuk-radios__label:before,.govuk-checkboxes__label:before{content:"";position:absolute;
  left:0;top:0;width:34px;height:34px;border:2px solid #0b0c0c;border-radius:50%}
.govuk-checkboxes__label:before{border-radius:0}
.govuk-button{background:#00703c;color:#fff;border:0;padding:8px 12px;font-size:17px;
  box-shadow:0 2px 0 #002d18;cursor:pointer}
.govuk-error-summary{border:5px solid #d4351c;padding:15px;margin-bottom:24px}
.govuk-summary-list{display:grid;grid-template-columns:1fr 2fr}
"""

FIELDS = ("first_name", "last_name", "dob", "resident", "terms")
MESSAGES = {
    "first_name": "Enter your first name",
    "last_name": "Enter your last name",
    "dob": "Enter your date of birth",
    "resident": "Select yes if you live in the state",
    "terms": "You must agree to the terms to continue",
}


def _header() -> str:
    return (
        '<header class="govuk-header"><a href="/">State of Columbia</a> '
        "<span>Apply for a fishing licence</span></header>"
    )


def _apply_page(site: Site) -> str:
    errors: dict[str, str] = site.state.get("errors", {})
    answers: dict[str, str] = site.state.get("answers", {})

    def group(name: str, inner: str) -> str:
        cls = "govuk-form-group" + (" govuk-form-group--error" if name in errors else "")
        msg = (
            f'<p id="{name}-error" class="govuk-error-message">'
            f'<span class="govuk-visually-hidden">Error:</span> {errors[name]}</p>'
            if name in errors
            else ""
        )
        return (
            f'<div class="{cls}">{msg}{inner}</div>'
            if not inner.startswith("<fieldset")
            else f'<div class="{cls}">{inner.replace("<!--error-->", msg)}</div>'
        )

    def value(name: str) -> str:
        return escape(answers.get(name, ""), quote=True)

    summary = ""
    if errors:
        items = "".join(f'<li><a href="#{k}">{v}</a></li>' for k, v in errors.items())
        summary = (
            f'<div class="govuk-error-summary" role="alert" tabindex="-1">'
            f'<h2 class="govuk-error-summary__title">There is a problem</h2>'
            f'<ul class="govuk-error-summary__list">{items}</ul></div>'
        )
    yes = " checked" if answers.get("resident") == "yes" else ""
    no = " checked" if answers.get("resident") == "no" else ""
    terms = " checked" if answers.get("terms") else ""
    body = f"""{_header()}
<main>
{summary}
<h1>Your details</h1>
<form method="post" action="/apply" novalidate>
<fieldset class="govuk-fieldset"><legend class="govuk-fieldset__legend">Personal details</legend>
{
        group(
            "first_name",
            f'''<label class="govuk-label" for="first_name">First name</label>
  <input class="govuk-input" id="first_name" name="first_name" value="{value("first_name")}">''',
        )
    }
{
        group(
            "last_name",
            f'''<label class="govuk-label" for="last_name">Last name</label>
  <input class="govuk-input" id="last_name" name="last_name" value="{value("last_name")}">''',
        )
    }
{
        group(
            "dob",
            f'''<label class="govuk-label" for="dob">Date of birth</label>
  <div class="govuk-hint" id="dob-hint">For example, 27 3 2007</div>
  <input class="govuk-input" type="date" id="dob" name="dob" aria-describedby="dob-hint"
    value="{value("dob")}">''',
        )
    }
</fieldset>
{
        group(
            "resident",
            f'''<fieldset class="govuk-fieldset" aria-describedby="resident-hint">
  <legend class="govuk-fieldset__legend">Are you a resident of the state?</legend>
  <div id="resident-hint" class="govuk-hint">You must have lived here for 6 months</div>
  <!--error-->
  <div class="govuk-radios">
    <div class="govuk-radios__item"><input class="govuk-radios__input" id="resident"
      name="resident" type="radio" value="yes"{yes}>
      <label class="govuk-label govuk-radios__label" for="resident">Yes</label></div>
    <div class="govuk-radios__item"><input class="govuk-radios__input" id="resident-2"
      name="resident" type="radio" value="no"{no}>
      <label class="govuk-label govuk-radios__label" for="resident-2">No</label></div>
  </div></fieldset>''',
        )
    }
{
        group(
            "terms",
            f'''<fieldset class="govuk-fieldset"><legend class="govuk-fieldset__legend">
  Declaration</legend><!--error-->
  <div class="govuk-checkboxes__item"><input class="govuk-checkboxes__input" id="terms"
    name="terms" type="checkbox" value="agreed"{terms}>
    <label class="govuk-label govuk-checkboxes__label" for="terms">I agree to the
    <a href="/terms">terms and conditions</a></label></div></fieldset>''',
        )
    }
<button class="govuk-button" type="submit" data-module="govuk-button">Continue</button>
</form></main>"""
    return document("Your details – Apply for a fishing licence – GOV", body, CSS)


def _check_page(site: Site) -> str:
    a = site.state.get("answers", {})
    rows = (
        ("Name", f"{a.get('first_name', '')} {a.get('last_name', '')}"),
        ("Date of birth", a.get("dob", "")),
        ("Resident", "Yes" if a.get("resident") == "yes" else "No"),
    )
    items = "".join(f"<dt>{k}</dt><dd>{escape(v)}</dd>" for k, v in rows)
    body = f"""{_header()}
<main><h1>Check your answers before sending your application</h1>
<dl class="govuk-summary-list">{items}</dl>
<h2>Now send your application</h2>
<p>By submitting this application you are confirming that the details are correct.</p>
<form method="post" action="/submit">
<button class="govuk-button" type="submit">Submit application</button></form></main>"""
    return document("Check your answers – GOV", body, CSS)


def _posted(site: Site, data: dict[str, Any]) -> str | None:
    site.state["answers"] = data
    errors = {k: MESSAGES[k] for k in FIELDS if not str(data.get(k, "")).strip()}
    site.state["errors"] = errors
    return None if errors else "/check"


def build() -> Site:
    """The service: ``/apply`` the form, ``/check`` the answers, ``/submit`` sends."""
    site = Site()
    site.page("/apply", _apply_page)
    site.page("/check", _check_page)
    site.page("/done", document("Application complete", "<h1>Application complete</h1>"))
    site.on_post("/apply", _posted)
    site.on_post("/submit", lambda _s, _d: "/done")
    return site
