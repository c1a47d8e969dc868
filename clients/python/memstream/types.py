"""The shapes the API sends and takes (a subset of its OpenAPI document, as TypedDicts), checked
against the server's /openapi.json by tests/test_types_match_api.py."""

# No `from __future__ import annotations`: Python 3.11 would not see NotRequired in string annotations.
import sys
from typing import Any, Dict, List, Optional

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:  # pragma: no cover - older Pythons: a NotRequired field reads as Optional (type-check on 3.11+)
    from typing import TypedDict

    NotRequired = Optional

Metadata = Dict[str, Any]


class NewMemory(TypedDict):
    """A memory to store; only ``description`` is required."""

    description: str
    kind: NotRequired[str]  # observation | reflection | plan
    createdAt: NotRequired[str]
    importance: NotRequired[int]  # 1-10; computed by the server when left out
    embedding: NotRequired[List[float]]
    embeddingModel: NotRequired[str]
    metadata: NotRequired[Metadata]
    citations: NotRequired[List[str]]
    # Ids of earlier memories of the agent this one replaces (a newer version of the same fact).
    supersedes: NotRequired[List[str]]
    # When it stops existing (ISO time); left out = never.
    expiresAt: NotRequired[str]


class EnrichmentStatus(TypedDict):
    importance: str  # pending | ready | failed
    embedding: str


class EnrichmentErrors(TypedDict, total=False):
    """Why importance or embedding failed (only on a failed one)."""

    importance: str
    embedding: str


class Archived(TypedDict):
    summaryId: str
    archivedAt: str
    expansions: int


class Memory(TypedDict):
    id: str
    agentId: str
    kind: str
    description: str
    createdAt: str
    lastAccessedAt: str
    importance: Optional[int]
    # Who scored importance: caller, the scorer's id (llm:<model> or the offline scorer),
    # budget:<offline scorer> past the day's LLM budget, outcome, lesson; None until scored.
    importanceSource: Optional[str]
    embeddingModel: Optional[str]
    metadata: Metadata
    citations: List[str]
    # The memory that replaced this one and when it stopped holding; None while current.
    supersededBy: Optional[str]
    validUntil: Optional[str]
    # When it stops existing; None = never.
    expiresAt: Optional[str]
    status: EnrichmentStatus
    errors: NotRequired[EnrichmentErrors]
    # Cited ids whose memory has been deleted since; absent when none.
    missingCitations: NotRequired[List[str]]
    # On a memory in the archive tier: the summary standing for it, since when, expansions so far.
    archived: NotRequired[Archived]


class ExpandedMemory(Memory):
    # The cosine to the query vector; None without a query vector of its model.
    similarity: Optional[float]
    # Hybrid relevance to the query, scaled over every member the retrieve expanded (0-1).
    relevance: float


class Scores(TypedDict):
    recency: float
    importance: float
    relevance: float
    # What a version lift added to the score (0 unless versions lifted the memory).
    lift: float
    # What the subject lift added (the memory starts with a name the question gives; 0 otherwise).
    subject: float
    # The unscaled cosine to the query vector (relevance "vector"); None otherwise.
    similarity: Optional[float]


class ScoredMemory(Memory):
    score: float
    scores: Scores
    # Copies of this memory (same kind and description but for case, spacing, punctuation) it stands for.
    duplicates: int
    # Index of its section (requests with sections).
    section: NotRequired[int]
    # A summary's archived members, best first (retrieve with ``expand``).
    expanded: NotRequired[List[ExpandedMemory]]
    # In a flattened answer (``flatten=True``): the summary this archived member was expanded from.
    expandedFrom: NotRequired[str]


class ContextSectionReport(TypedDict):
    title: str
    kinds: Optional[List[str]]
    count: int
    truncated: bool


class Context(TypedDict):
    """The prompt-ready block (``text`` with ``format="text"``) and what it cost."""

    text: NotRequired[str]
    tokens: int
    encoding: str  # cl100k_base | o200k_base
    truncated: bool
    sections: NotRequired[List[ContextSectionReport]]


class Freshness(TypedDict):
    """What was not yet searchable when the retrieve ranked (``waited`` when it was asked to wait)."""

    pending: int
    oldestPendingMs: Optional[int]
    embeddedInline: int
    waited: NotRequired[Dict[str, Any]]


class RetrieveResult(TypedDict):
    """The ranked memories; ``context`` when asked with ``format="text"``; ``ranking`` says how;
    ``retrievalId`` names the retrieve for ``feedback()``."""

    retrievalId: str
    memories: List[ScoredMemory]
    mode: str
    ranking: Dict[str, Any]
    freshness: Freshness
    # When the retrieve that ranked it ran; only on an answer from the result cache.
    cachedAt: NotRequired[str]
    context: NotRequired[Context]


class FeedbackResult(TypedDict):
    retrievalId: str
    used: int
    unused: int
    events: int


class MemoryPage(TypedDict):
    memories: List[Memory]
    nextCursor: Optional[str]


class AgentStats(TypedDict):
    agentId: str
    total: int
    byKind: Dict[str, int]
    # Memories per tier: recent and summary are ranked (``total``), archive is what compaction moved.
    tiers: Dict[str, int]
    importance: Dict[str, int]
    embedding: Dict[str, int]
    oldest: Optional[str]
    newest: Optional[str]
    # Memories deleted by retention, all time; the last retention run (None = never).
    forgotten: int
    retainedAt: Optional[str]
    # The day's LLM spend against the budget; None without an LLM.
    llmBudget: Optional[Dict[str, Any]]


class NewOutcome(TypedDict):
    """How an attempted task went; ``task`` and ``success`` are required."""

    task: str
    taskType: NotRequired[str]
    success: bool
    strategy: NotRequired[str]
    error: NotRequired[str]
    durationMs: NotRequired[int]
    metadata: NotRequired[Metadata]
    occurredAt: NotRequired[str]


class EventSubscription(TypedDict):
    """A URL subscribed to an agent's outgoing events (docs/events.md); never its secret."""

    id: str
    agentId: str
    url: str
    events: List[str]
    description: Optional[str]
    status: str  # active | disabled
    consecutiveFailures: int
    disabledReason: Optional[str]
    createdAt: str


class CreatedEventSubscription(EventSubscription):
    """The answer of ``subscribe``: the subscription and its signing secret, shown this once."""

    secret: str


class EventDelivery(TypedDict):
    """One event sent (or to send) to a subscription, as the delivery log shows it."""

    id: str
    subscriptionId: str
    eventId: str
    event: str
    status: str  # pending | delivered | failed | cancelled
    attempts: int
    lastStatusCode: Optional[int]
    lastError: Optional[str]
    nextAttemptAt: Optional[str]
    deliveredAt: Optional[str]
    createdAt: str
    redeliveryOf: Optional[str]
