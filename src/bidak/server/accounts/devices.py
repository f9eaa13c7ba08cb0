"""A coarse label for a browser, from its User-Agent, for the list of signed-in sessions.

Only the browser's family and the operating system ("Chrome on Android"), never the version or
anything finer: enough for a player to recognise their own devices, too little to fingerprint.
The User-Agent is read by ua-parser (the maintained port of Browserscope's rules); its families
are folded into the few names a player knows ("Chrome Mobile" and "HeadlessChrome" are Chrome).
The label is what is stored; `device_parts` splits it again for the client, which says it in
the player's language.
"""

from __future__ import annotations

from functools import lru_cache

from ua_parser import parse

UNKNOWN = "Unknown browser"
"""The label of a browser that does not say what it is (and of a session stored without one)."""
_ON = " on "

_BROWSERS = {
    "Chrome": "Chrome",
    "Chrome Mobile": "Chrome",
    "Chrome Mobile iOS": "Chrome",
    "Chrome Mobile WebView": "Chrome",
    "HeadlessChrome": "Chrome",
    "Chromium": "Chromium",
    "Firefox": "Firefox",
    "Firefox Mobile": "Firefox",
    "Firefox iOS": "Firefox",
    "Safari": "Safari",
    "Mobile Safari": "Safari",
    "Mobile Safari UI/WKWebView": "Safari",
    "Edge": "Edge",
    "Edge Mobile": "Edge",
    "Opera": "Opera",
    "Opera Mobile": "Opera",
    "Samsung Internet": "Samsung Internet",
}
_SYSTEMS = {
    "Android": "Android",
    "iOS": "iOS",
    "Mac OS X": "macOS",
    "Windows": "Windows",
    "Chrome OS": "ChromeOS",
    "Linux": "Linux",
    "Ubuntu": "Linux",
    "Fedora": "Linux",
    "Debian": "Linux",
}
_APPLE_DEVICES = ("iPhone", "iPad")


@lru_cache(maxsize=256)
def device_label(user_agent: str | None) -> str:
    """ "Chrome on Android", "Safari on iPhone", ... or "Unknown browser"."""
    text = (user_agent or "")[:512]
    found = parse(text)
    browser = _BROWSERS.get(found.user_agent.family) if found.user_agent else None
    system = _SYSTEMS.get(found.os.family) if found.os else None
    if system == "iOS" and found.device and found.device.family in _APPLE_DEVICES:
        system = found.device.family
    if browser and system:
        return f"{browser}{_ON}{system}"
    return browser or system or UNKNOWN


def prepare() -> None:
    """Load ua-parser's rules now: its first parse compiles them all (85 ms of CPU, a stall of
    the event loop 212 ms long in a process held to 0.4 core), so the server does it at start
    (``bidak.server.app.warm``) rather than at the first guest's arrival."""
    parse("Mozilla/5.0")


def device_parts(label: str | None) -> tuple[str | None, str | None]:
    """A stored label split again: (browser, system), either None when it was not known."""
    if not label or label == UNKNOWN:
        return None, None
    if _ON in label:
        browser, system = label.split(_ON, 1)
        return browser, system
    return (None, label) if label in _SYSTEMS.values() or label in _APPLE_DEVICES else (label, None)
