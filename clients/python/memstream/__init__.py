"""memstream: long-term memory streams for LLM agents. Standard library only.

    from memstream import Memstream
    memory = Memstream("http://127.0.0.1:8787")
    memory.remember("npc-42", "Klaus is coming to the party")
    print(memory.retrieve("npc-42", "Who is coming?", format="text")["context"].get("text"))

``AsyncMemstream`` has the same verbs as coroutines.
"""

from .aio import AsyncMemstream
from .client import Memstream, RetryOptions
from .errors import MemstreamError
from .types import (
    AgentStats,
    Context,
    CreatedEventSubscription,
    EventDelivery,
    EventSubscription,
    FeedbackResult,
    Freshness,
    Memory,
    MemoryPage,
    NewMemory,
    NewOutcome,
    RetrieveResult,
    ScoredMemory,
)

__all__ = [
    "AgentStats",
    "AsyncMemstream",
    "Context",
    "CreatedEventSubscription",
    "EventDelivery",
    "EventSubscription",
    "FeedbackResult",
    "Freshness",
    "Memory",
    "MemoryPage",
    "Memstream",
    "MemstreamError",
    "NewMemory",
    "NewOutcome",
    "RetrieveResult",
    "RetryOptions",
    "ScoredMemory",
]
__version__ = "0.1.0"
