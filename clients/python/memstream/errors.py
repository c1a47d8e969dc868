"""The one error type: a failed call with the server's code, message and request id."""

from __future__ import annotations

import json
from typing import Any, Dict, Mapping, Optional


class MemstreamError(Exception):
    """A failed call: the HTTP status (0 when the server was never reached) and the server's
    ``code`` (``invalid_request``, ``not_found``, ``unavailable``, ...), message and request id
    (quote it in bug reports). ``details`` carries e.g. ``details["field"]``."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        request_id: Optional[str] = None,
        details: Optional[Dict[str, Any]] = None,
    ) -> None:
        super().__init__(f"{code}: {message}" if status == 0 else f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.request_id = request_id
        self.details: Dict[str, Any] = details or {}

    @classmethod
    def from_response(cls, status: int, headers: Mapping[str, str], body: bytes) -> "MemstreamError":
        """Builds the error from an answer: the envelope ``{"error": {...}}``, or whatever a proxy sent."""
        request_id = headers.get("x-request-id")
        try:
            envelope = json.loads(body.decode("utf-8")).get("error")
        except (ValueError, AttributeError, UnicodeDecodeError):
            envelope = None
        if isinstance(envelope, dict) and isinstance(envelope.get("code"), str):
            return cls(
                status,
                envelope["code"],
                str(envelope.get("message", "")),
                envelope.get("requestId") or request_id,
                envelope.get("details") if isinstance(envelope.get("details"), dict) else None,
            )
        return cls(status, "unexpected_response", f"HTTP {status} without an error envelope", request_id)
