"""Answers to input that cannot be parsed: a 4xx with a clear reason, never a 500 (issue 23).

FastAPI's own answer to a request that fails validation echoes each error's ``input`` and
``ctx``: a ``NaN``, an infinity or a lone surrogate the client sent cannot be written as JSON,
so the answer itself failed with a traceback and a 500. Bodies are therefore read as strict JSON
first (:func:`strict_json_error`, used by :class:`bidak.server.http_limits.BodyGuard`: ``NaN``,
``Infinity``, ``1e999`` and lone surrogates are refused with 400), and the validation answer
(:func:`invalid_request`) says where and what, never what was sent.
"""

from __future__ import annotations

import logging
from typing import Any

import orjson
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse


def safe_text(value: object, limit: int = 200) -> str:
    """``value`` as text any JSON encoder can write: a lone surrogate becomes ``\\udxxx``."""
    text = value if isinstance(value, str) else str(value)
    return text[:limit].encode("utf-8", "backslashreplace").decode("utf-8")


def strict_json_error(body: bytes) -> str | None:
    """Why ``body`` is not strict JSON (RFC 8259: no NaN, no infinity, no lone surrogate, valid
    UTF-8), or None when it is."""
    try:
        orjson.loads(body)
    except orjson.JSONDecodeError as error:
        return safe_text(error)
    return None


def _location(part: Any) -> str | int:
    return part if isinstance(part, int) else safe_text(part, 60)


async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
    """422 with each error's type, place and message; nothing of the input is echoed."""
    assert isinstance(exc, RequestValidationError)
    detail = [
        {
            "type": safe_text(error.get("type", "invalid"), 60),
            "loc": [_location(part) for part in error.get("loc", ())],
            "msg": safe_text(error.get("msg", "invalid")),
        }
        for error in exc.errors()[:20]
    ]
    return JSONResponse({"detail": detail}, status_code=422)


EXPECTED_REFUSALS = frozenset({"Invalid UTF-8 sequence received from client."})
"""What uvicorn logs with a traceback for input it refuses as it should (the connection is
closed with 1007): a client's error, not the server's."""


class QuietRefusals(logging.Filter):
    """One line, at WARNING and without the traceback, for a refusal that is expected
    (:data:`EXPECTED_REFUSALS`): a log read for errors finds only the server's own."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.getMessage() in EXPECTED_REFUSALS:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.exc_info = record.exc_text = None
        return True


def quiet_refusals() -> None:
    """Put :class:`QuietRefusals` on uvicorn's error log (once)."""
    log = logging.getLogger("uvicorn.error")
    if not any(isinstance(f, QuietRefusals) for f in log.filters):
        log.addFilter(QuietRefusals())
