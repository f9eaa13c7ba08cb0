"""A coarse label for a browser, from its User-Agent, for the list of signed-in sessions.

Only the browser's family and the operating system ("Chrome on Android"), never the version or
anything finer: enough for a player to recognise their own devices, too little to fingerprint.
"""

from __future__ import annotations

UNKNOWN = "Unknown browser"
"""The label of a browser that does not say what it is (and of a session stored without one)."""

# Order matters: Edge, Opera and Samsung's browser also say "Chrome", and Chrome says "Safari".
_BROWSERS = (
    ("Edg/", "Edge"),
    ("EdgA/", "Edge"),
    ("OPR/", "Opera"),
    ("SamsungBrowser/", "Samsung Internet"),
    ("Firefox/", "Firefox"),
    ("FxiOS/", "Firefox"),
    ("CriOS/", "Chrome"),
    ("Chromium/", "Chromium"),
    ("Chrome/", "Chrome"),
    ("Safari/", "Safari"),
)
_SYSTEMS = (
    ("Android", "Android"),
    ("iPhone", "iPhone"),
    ("iPad", "iPad"),
    ("CrOS", "ChromeOS"),
    ("Windows", "Windows"),
    ("Mac OS X", "macOS"),
    ("Macintosh", "macOS"),
    ("Linux", "Linux"),
)


def device_label(user_agent: str | None) -> str:
    """ "Chrome on Android", "Safari on iPhone", ... or "Unknown browser"."""
    text = (user_agent or "")[:512]
    browser = next((name for mark, name in _BROWSERS if mark in text), None)
    system = next((name for mark, name in _SYSTEMS if mark in text), None)
    if browser and system:
        return f"{browser} on {system}"
    return browser or system or UNKNOWN
