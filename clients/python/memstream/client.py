"""The client: the verbs of an agent's loop over memstream's HTTP API, with retries on 429/503."""

from __future__ import annotations

import email.utils
import json
import random
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Union, cast

from .errors import MemstreamError
from .types import (
    AgentStats,
    CreatedEventSubscription,
    EventDelivery,
    EventSubscription,
    FeedbackResult,
    Memory,
    MemoryPage,
    NewMemory,
    NewOutcome,
    RetrieveResult,
)

# Statuses that mean "nothing happened, try again": overloaded (429) or a dependency down (503).
# The server answers them before it changes anything, so a retried POST is applied once.
RETRY_STATUSES = frozenset({429, 503})
IDEMPOTENT = frozenset({"GET", "HEAD", "OPTIONS", "PUT", "DELETE"})


@dataclass(frozen=True)
class RetryOptions:
    """Backoff on 429/503 and refused connections; every wait is base * 2**n, capped, with jitter."""

    retries: int = 4
    """Retries after the first attempt (0 turns retrying off)."""
    base_delay: float = 0.25
    """First backoff, in seconds."""
    max_delay: float = 10.0
    """Longest single wait, also the cap on ``retry-after``, in seconds."""
    timeout: float = 30.0
    """Each attempt is abandoned after this many seconds, so a lost answer cannot hang the caller."""


class Memstream:
    """A memstream client. ``base_url`` e.g. ``http://127.0.0.1:8787``; ``api_key`` one of the
    server's ``MEMSTREAM_API_KEYS`` (a server without keys needs none). Every failure raises
    :class:`MemstreamError`; ``request`` reaches any other operation of the API."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8787",
        api_key: Optional[str] = None,
        retry: RetryOptions = RetryOptions(),
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.api_key = api_key
        self.retry = retry

    # --- the verbs -------------------------------------------------------------------------

    def remember(self, agent_id: str, memory: Union[NewMemory, str]) -> Memory:
        """Stores one memory (a description, or a dict with more fields); importance and embedding
        are filled in by the server later."""
        body = {"description": memory} if isinstance(memory, str) else memory
        return cast(Memory, self.request("POST", f"{_agent(agent_id)}/memories", body))

    def remember_many(self, agent_id: str, memories: List[NewMemory]) -> List[Memory]:
        """Stores up to 1,000 memories in one call, all or nothing."""
        answer = self.request("POST", f"{_agent(agent_id)}/memories", {"memories": memories})
        return cast(List[Memory], answer["memories"])

    def retrieve(self, agent_id: str, query: Optional[str] = None, **options: Any) -> RetrieveResult:
        """Ranks memories by recency, importance and relevance. Options are the API's fields, e.g.
        ``k=5``, ``format="text"``, ``maxTokens=1000``, ``kinds=["reflection"]``, ``relevance="hybrid"``."""
        body = dict(options)
        if query is not None:
            body["query"] = query
        return cast(RetrieveResult, self.request("POST", f"{_agent(agent_id)}/retrieve", body))

    def feedback(
        self, agent_id: str, retrieval_id: str, used: List[str], unused: Optional[List[str]] = None
    ) -> FeedbackResult:
        """Says which memories of a retrieve the agent used (returned, or ranked below the cut);
        ``unused`` left out means every other memory the retrieve returned."""
        body: Dict[str, Any] = {"retrievalId": retrieval_id, "used": used}
        if unused is not None:
            body["unused"] = unused
        return cast(FeedbackResult, self.request("POST", f"{_agent(agent_id)}/feedback", body))

    def list(self, agent_id: str, **query: Any) -> MemoryPage:
        """One page of memories, newest first; pass ``nextCursor`` back as ``cursor`` for the next."""
        return cast(MemoryPage, self.request("GET", f"{_agent(agent_id)}/memories", query=query))

    def get(self, agent_id: str, memory_id: str) -> Memory:
        return cast(Memory, self.request("GET", f"{_agent(agent_id)}/memories/{_seg(memory_id)}"))

    def forget(self, agent_id: str, memory_id: str) -> None:
        """Deletes one memory for good."""
        self.request("DELETE", f"{_agent(agent_id)}/memories/{_seg(memory_id)}")

    def stats(self, agent_id: str) -> AgentStats:
        return cast(AgentStats, self.request("GET", f"{_agent(agent_id)}/stats"))

    def reflect(self, agent_id: str) -> Dict[str, Any]:
        """Reflects now (needs an LLM on the server)."""
        return cast(Dict[str, Any], self.request("POST", f"{_agent(agent_id)}/reflect"))

    def record_outcome(self, agent_id: str, outcome: NewOutcome) -> Memory:
        """Records how a task went; similar outcomes of a task type become lessons."""
        return cast(Memory, self.request("POST", f"{_agent(agent_id)}/outcomes", outcome))

    # --- outgoing events (docs/events.md) ---------------------------------------------------

    def subscribe(
        self, agent_id: str, url: str, events: Optional[List[str]] = None, **fields: Any
    ) -> CreatedEventSubscription:
        """Subscribes ``url`` to the agent's events (all types unless ``events`` names some); the
        answer's ``secret`` is shown only here. ``secret=`` and ``description=`` are optional."""
        body: Dict[str, Any] = {"url": url, **fields}
        if events is not None:
            body["events"] = events
        return cast(CreatedEventSubscription, self.request("POST", f"{_agent(agent_id)}/subscriptions", body))

    def subscriptions(self, agent_id: str) -> List[EventSubscription]:
        answer = self.request("GET", f"{_agent(agent_id)}/subscriptions")
        return cast(List[EventSubscription], answer["subscriptions"])

    def unsubscribe(self, agent_id: str, subscription_id: str) -> None:
        self.request("DELETE", f"{_agent(agent_id)}/subscriptions/{_seg(subscription_id)}")

    def deliveries(self, agent_id: str, subscription_id: str, **query: Any) -> List[EventDelivery]:
        """A subscription's delivery log, newest first (``limit``, ``status``, ``before``)."""
        path = f"{_agent(agent_id)}/subscriptions/{_seg(subscription_id)}/deliveries"
        return cast(List[EventDelivery], self.request("GET", path, query=query)["deliveries"])

    def redeliver(self, agent_id: str, subscription_id: str, delivery_id: str) -> EventDelivery:
        """Sends a logged delivery's event again, as a new delivery."""
        path = f"{_agent(agent_id)}/subscriptions/{_seg(subscription_id)}/deliveries/{_seg(delivery_id)}/redeliver"
        return cast(EventDelivery, self.request("POST", path))

    # --- any operation ---------------------------------------------------------------------

    def request(
        self,
        method: str,
        path: str,
        body: Optional[Any] = None,
        query: Optional[Mapping[str, Any]] = None,
    ) -> Any:
        """Sends one request (retried on 429/503 and refused connections) and returns the parsed
        JSON answer (None for 204). ``path`` starts with ``/``, e.g. ``/v1/agents/x/lessons``."""
        url = self.base_url + path
        params = {k: _query_value(v) for k, v in (query or {}).items() if v is not None}
        if params:
            url += "?" + urllib.parse.urlencode(params)
        data = None if body is None else json.dumps(body).encode("utf-8")
        headers = {"accept": "application/json"}
        if data is not None:
            headers["content-type"] = "application/json"
        if self.api_key:
            headers["authorization"] = f"Bearer {self.api_key}"
        for attempt in range(self.retry.retries + 1):
            last = attempt >= self.retry.retries
            req = urllib.request.Request(url, data=data, headers=headers, method=method)
            try:
                with urllib.request.urlopen(req, timeout=self.retry.timeout) as res:
                    raw = res.read()
                    return json.loads(raw) if raw else None
            except urllib.error.HTTPError as err:
                raw = err.read()
                if last or err.code not in RETRY_STATUSES:
                    raise MemstreamError.from_response(err.code, _lower(err.headers), raw) from None
                time.sleep(self._retry_after(err.headers.get("retry-after")) or self._backoff(attempt))
            except (urllib.error.URLError, OSError) as err:
                reason = err.reason if isinstance(err, urllib.error.URLError) else err
                if last or not _retryable(reason, method):
                    raise MemstreamError(0, "network_error", f"cannot reach memstream: {reason}") from err
                time.sleep(self._backoff(attempt))
        raise AssertionError("unreachable")  # pragma: no cover

    def _backoff(self, attempt: int) -> float:
        return min(self.retry.max_delay, self.retry.base_delay * 2.0**attempt) * (0.5 + random.random() / 2)

    def _retry_after(self, header: Optional[str]) -> Optional[float]:
        """``retry-after`` as seconds or an HTTP date, capped; None when absent or unreadable."""
        if not header:
            return None
        try:
            seconds = float(header)
        except ValueError:
            parsed = email.utils.parsedate_to_datetime(header) if header else None
            if parsed is None:
                return None
            seconds = parsed.timestamp() - time.time()
        return min(self.retry.max_delay, max(0.0, seconds))


def _retryable(reason: object, method: str) -> bool:
    """A refused connection never reached the server: always safe. A connection cut mid-call may
    have been processed: retried only for idempotent methods."""
    if isinstance(reason, ConnectionRefusedError):
        return True
    cut = isinstance(reason, (ConnectionResetError, socket.timeout, TimeoutError))
    return cut and method in IDEMPOTENT


def _seg(value: str) -> str:
    """One path segment: agent ids may hold `/` and `:` (``github:acme/api``)."""
    return urllib.parse.quote(value, safe="")


def _agent(agent_id: str) -> str:
    return f"/v1/agents/{_seg(agent_id)}"


def _query_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value)
    return str(value)


def _lower(headers: Any) -> Dict[str, str]:
    return {k.lower(): v for k, v in headers.items()} if headers else {}
