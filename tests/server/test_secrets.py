"""The site's secret signs short-lived, purpose-bound tokens; production refuses a secret that
is not one. (A session's token is replaced on a privilege change by the sign-in itself, in the
transaction that uses the link: tests/server/test_accounts.py.)"""

from __future__ import annotations

import secrets

import pytest
from pydantic import ValidationError

from bidak.server.accounts.tokens import BadToken, ExpiredToken, Signer
from bidak.server.shared.settings import DEFAULT_SECRET, Settings

NOW = 1_800_000_000.0


def test_a_signed_token_holds_for_its_purpose_until_it_expires() -> None:
    signer = Signer(secrets.token_urlsafe(32))
    token = signer.sign("sign-in", "budi@example.com", NOW, seconds=900)
    assert signer.verify("sign-in", token, NOW + 900) == "budi@example.com"
    with pytest.raises(ExpiredToken):
        signer.verify("sign-in", token, NOW + 901)
    with pytest.raises(BadToken):  # made for another purpose
        signer.verify("link-email", token, NOW)
    with pytest.raises(BadToken):  # made by another site
        Signer(secrets.token_urlsafe(32)).verify("sign-in", token, NOW)
    expiry, subject, signature = token.split(".")
    forged = [
        f"{int(expiry) + 3600}.{subject}.{signature}",  # a later expiry
        f"{expiry}.{Signer('x' * 32).sign('sign-in', 'admin', NOW, 9).split('.')[1]}.{signature}",
        f"{expiry}.{subject}.{signature[:-2]}AA",
        f"{expiry}.{subject}",
        "",
        "not.a.token",
        f"{expiry}.{subject}.{signature}.more",
    ]
    for bad in forged:
        with pytest.raises(BadToken):
            signer.verify("sign-in", bad, NOW)


@pytest.mark.parametrize(
    "secret",
    [DEFAULT_SECRET, DEFAULT_SECRET + "-" * 20, "short", "a" * 64, "0123456789" * 4],
)
def test_production_refuses_a_secret_that_is_not_one(secret: str) -> None:
    with pytest.raises(ValidationError, match="BIDAK_SECRET_KEY"):
        Settings(environment="production", secret_key=secret, public_url="https://b.example")


def test_production_takes_a_random_secret() -> None:
    secret = secrets.token_urlsafe(32)
    chosen = Settings(environment="production", secret_key=secret, public_url="https://b.example")
    assert chosen.secret_key == secret
