"""The shapes the API sends and takes (a subset of its OpenAPI document, as TypedDicts)."""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional

if sys.version_info >= (3, 11):
    from typing import NotRequired, TypedDict
else:  # pragma: no cover - older Pythons: every key optional
    from typing import TypedDict

    NotRequired = Optional  # type: ignore[misc,assignment]

Metadata = Dict[str, Any]


class NewMemory(TypedDict, total=False):
    """A memory to store; only ``description`` is required."""

    description: str
    kind: str  # observation | reflection | plan
    createdAt: str
    importance: int  # 1-10; computed by the server when left out
    embedding: List[float]
    embeddingModel: str
    metadata: Metadata
    citations: List[str]
    # Ids of earlier memories of the agent this one replaces (a newer version of the same fact).
    supersedes: List[str]


class EnrichmentStatus(TypedDict):
    importance: str  # pending | ready | failed
    embedding: str


class Memory(TypedDict):
    id: str
    agentId: str
    kind: str
    description: str
    createdAt: str
    lastAccessedAt: str
    importance: Optional[int]
    embeddingModel: Optional[str]
    metadata: Metadata
    citations: List[str]
    # The memory that replaced this one and when it stopped holding; None while current.
    supersededBy: Optional[str]
    validUntil: Optional[str]
    # When it stops existing; None = never.
    expiresAt: Optional[str]
    status: EnrichmentStatus


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


class Context(TypedDict, total=False):
    text: str
    tokens: int
    truncated: bool


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
    importance: Dict[str, int]
    embedding: Dict[str, int]
    oldest: Optional[str]
    newest: Optional[str]


class NewOutcome(TypedDict, total=False):
    """How an attempted task went; ``task`` and ``success`` are required."""

    task: str
    taskType: str
    success: bool
    strategy: str
    error: str
    durationMs: int
    metadata: Metadata
    occurredAt: str
