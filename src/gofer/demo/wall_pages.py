"""Pages that stand between a visitor and the booking: captcha, sign-in, one-time code."""

from __future__ import annotations

from gofer.demo.layout import Frame, e, page

__all__ = [
    "captcha_page",
    "coming_soon_page",
    "login_page",
    "otp_page",
    "signin_wall_page",
    "signup_page",
]


def _error(message: str) -> str:
    return f'<div class="form-error" role="alert">{e(message)}</div>' if message else ""


def captcha_page(next_url: str, frame: Frame, error: str = "") -> str:
    """The "Verify you are human" interstitial shown after a search."""
    body = f"""<section class="narrow card">
  <h1>Verify you are human</h1>
  <p>We've seen a lot of searches from your network. Please confirm you're a person to see
    fares.</p>
  {_error(error)}
  <form method="post" action="/verify" class="captcha-form">
    <input type="hidden" name="next" value="{e(next_url)}">
    <div class="captcha-box">
      <input type="checkbox" id="robot" name="robot" value="yes">
      <label for="robot">I'm not a robot</label>
      <span class="captcha-brand" aria-hidden="true">SkyGuard<br><small>Privacy · Terms</small>\
</span>
    </div>
    <button type="submit" class="btn btn-primary">Verify</button>
  </form>
</section>"""
    return page("Verify you are human", body, frame)


def _credentials_form(action: str, next_url: str, button: str, email: str) -> str:
    return f"""<form method="post" action="{action}" class="stack-form" novalidate>
    <input type="hidden" name="next" value="{e(next_url)}">
    <label for="login-email">Email</label>
    <input type="email" id="login-email" name="email" autocomplete="username"
      value="{e(email)}">
    <label for="login-password">Password</label>
    <input type="password" id="login-password" name="password"
      autocomplete="current-password">
    <button type="submit" class="btn btn-primary">{button}</button>
  </form>"""


def signin_wall_page(next_url: str, frame: Frame, error: str = "", email: str = "") -> str:
    """The "Sign in to continue" wall between choosing a fare and the passenger form."""
    body = f"""<section class="narrow card">
  <h1>Sign in to continue</h1>
  <p>Sign in to your SkyLark account to book this fare. Your seats are held for 15 minutes.</p>
  {_error(error)}
  {_credentials_form("/signin", next_url, "Sign in", email)}
  <p class="small"><a href="/coming-soon?what=Password+reset">Forgot password?</a></p>
</section>"""
    return page("Sign in to continue", body, frame)


def login_page(frame: Frame, error: str = "", email: str = "") -> str:
    """The ordinary "Log in" page behind the header link (not a wall)."""
    body = f"""<section class="narrow card">
  <h1>Log in to SkyLark</h1>
  <p class="muted">Log in to see your trips and check in faster.</p>
  {_error(error)}
  {_credentials_form("/login", "/", "Log in", email)}
  <p class="small">New here? <a href="/signup">Create an account</a></p>
</section>"""
    return page("Log in", body, frame)


def signup_page(frame: Frame, error: str = "") -> str:
    """The "Create your account" page behind the header's "Sign up" link."""
    body = f"""<section class="narrow card">
  <h1>Create your account</h1>
  {_error(error)}
  <form method="post" action="/signup" class="stack-form" novalidate>
    <label for="signup-name">Full name</label>
    <input type="text" id="signup-name" name="name" autocomplete="name">
    <label for="signup-email">Email</label>
    <input type="email" id="signup-email" name="email" autocomplete="email">
    <label for="signup-password">Choose a password</label>
    <input type="password" id="signup-password" name="password" autocomplete="new-password">
    <button type="submit" class="btn btn-primary">Create account</button>
  </form>
</section>"""
    return page("Sign up", body, frame)


def otp_page(masked_phone: str, frame: Frame, error: str = "", resent: bool = False) -> str:
    """The one-time-code page before payment; the code itself is never on the page."""
    sent = '<p class="notice" role="status">We sent a new code.</p>' if resent else ""
    body = f"""<section class="narrow card">
  <h1>Enter the one-time code we sent to {e(masked_phone)}</h1>
  <p class="muted">For your security we need to confirm your mobile number before payment.</p>
  {sent}
  {_error(error)}
  <form method="post" action="/verify-code" class="stack-form" novalidate>
    <label for="otp">6-digit code</label>
    <input type="text" id="otp" name="code" inputmode="numeric" maxlength="6"
      autocomplete="one-time-code" class="otp-input">
    <button type="submit" class="btn btn-primary">Verify and continue</button>
  </form>
  <form method="post" action="/verify-code/resend" class="inline-form">
    <span class="small muted">Didn't get it?</span>
    <button type="submit" class="btn-link">Resend code</button>
  </form>
</section>"""
    return page("Verify your mobile number", body, frame)


def coming_soon_page(what: str, frame: Frame) -> str:
    """A placeholder page for the sections the demo does not build."""
    body = f"""<section class="narrow card">
  <h1>{e(what)}</h1>
  <p>This part of SkyLark is coming soon.</p>
  <p><a href="/">Back to flight search</a></p>
</section>"""
    return page(what, body, frame)
