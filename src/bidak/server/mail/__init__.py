"""E-mail: the letters the site sends (:mod:`.letters`, pure) and their delivery (:mod:`.outbox`).

A letter is composed in the player's language, then handed to the outbox, which returns at once
and delivers it in the background over SMTP (``BIDAK_SMTP_URL``), retrying a few times; without
an SMTP URL (development) it writes the letter, link included, to the server log instead.
"""

from bidak.server.mail.addresses import BadAddress, masked, normalise
from bidak.server.mail.letters import LANGUAGES, Language, Letter, Purpose, compose, language_of
from bidak.server.mail.outbox import Outbox

__all__ = [
    "LANGUAGES",
    "BadAddress",
    "Language",
    "Letter",
    "Outbox",
    "Purpose",
    "compose",
    "language_of",
    "masked",
    "normalise",
]
