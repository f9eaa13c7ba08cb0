"""E-mail addresses as Bidak keeps them: checked, normalised, compared without regard to case.

``email-validator`` checks the syntax (no DNS lookups: a typo is caught by the link never
arriving) and normalises the domain (IDNA, lower case). Bidak then lowers the local part too, so
``Budi@Example.com`` and ``budi@example.com`` are one address and belong to one account at most.
"""

from __future__ import annotations

import unicodedata

from email_validator import EmailNotValidError, validate_email

MAX_LENGTH = 254


class BadAddress(ValueError):
    """Not an e-mail address Bidak can send to; the message says why, for people."""


def normalise(text: str) -> str:
    """The address as stored and compared, or :class:`BadAddress`."""
    candidate = unicodedata.normalize("NFC", text.strip())
    if not candidate or len(candidate) > MAX_LENGTH:
        raise BadAddress("Give an e-mail address such as budi@example.com")
    try:
        checked = validate_email(candidate, check_deliverability=False)
    except EmailNotValidError as invalid:
        raise BadAddress(f"That is not an e-mail address: {invalid}") from None
    return checked.normalized.lower()


def masked(address: str) -> str:
    """The address partly hidden, for showing on screen: ``b***i@example.com``."""
    local, _, domain = address.partition("@")
    if len(local) <= 2:
        return f"{local[:1]}***@{domain}"
    return f"{local[0]}***{local[-1]}@{domain}"
