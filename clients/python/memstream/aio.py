"""The async client: :class:`Memstream`'s verbs as coroutines, for asyncio agents.

Standard library only, so each call runs the blocking client in a worker thread
(``asyncio.to_thread``): the event loop never waits on the network, and calls made together
(``asyncio.gather``) run at once, up to the loop's default thread pool (min(32, cores + 4)).
"""

import asyncio
from typing import Any, List, Mapping, Optional, Union

from .client import Memstream, RetryOptions
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


class AsyncMemstream:
    """``await``-able twin of :class:`Memstream`, same arguments and answers; every failure raises
    :class:`MemstreamError`."""

    def __init__(
        self,
        base_url: str = "http://127.0.0.1:8787",
        api_key: Optional[str] = None,
        retry: RetryOptions = RetryOptions(),
    ) -> None:
        self.sync = Memstream(base_url, api_key=api_key, retry=retry)

    async def remember(self, agent_id: str, memory: Union[NewMemory, str]) -> Memory:
        return await asyncio.to_thread(self.sync.remember, agent_id, memory)

    async def remember_many(self, agent_id: str, memories: List[NewMemory]) -> List[Memory]:
        return await asyncio.to_thread(self.sync.remember_many, agent_id, memories)

    async def retrieve(self, agent_id: str, query: Optional[str] = None, **options: Any) -> RetrieveResult:
        return await asyncio.to_thread(self.sync.retrieve, agent_id, query, **options)

    async def feedback(
        self, agent_id: str, retrieval_id: str, used: List[str], unused: Optional[List[str]] = None
    ) -> FeedbackResult:
        return await asyncio.to_thread(self.sync.feedback, agent_id, retrieval_id, used, unused)

    async def list(self, agent_id: str, **query: Any) -> MemoryPage:
        return await asyncio.to_thread(self.sync.list, agent_id, **query)

    async def get(self, agent_id: str, memory_id: str) -> Memory:
        return await asyncio.to_thread(self.sync.get, agent_id, memory_id)

    async def forget(self, agent_id: str, memory_id: str) -> None:
        await asyncio.to_thread(self.sync.forget, agent_id, memory_id)

    async def stats(self, agent_id: str) -> AgentStats:
        return await asyncio.to_thread(self.sync.stats, agent_id)

    async def reflect(self, agent_id: str) -> Any:
        return await asyncio.to_thread(self.sync.reflect, agent_id)

    async def record_outcome(self, agent_id: str, outcome: NewOutcome) -> Memory:
        return await asyncio.to_thread(self.sync.record_outcome, agent_id, outcome)

    async def subscribe(
        self, agent_id: str, url: str, events: Optional[List[str]] = None, **fields: Any
    ) -> CreatedEventSubscription:
        return await asyncio.to_thread(self.sync.subscribe, agent_id, url, events, **fields)

    async def subscriptions(self, agent_id: str) -> List[EventSubscription]:
        return await asyncio.to_thread(self.sync.subscriptions, agent_id)

    async def unsubscribe(self, agent_id: str, subscription_id: str) -> None:
        await asyncio.to_thread(self.sync.unsubscribe, agent_id, subscription_id)

    async def deliveries(self, agent_id: str, subscription_id: str, **query: Any) -> List[EventDelivery]:
        return await asyncio.to_thread(self.sync.deliveries, agent_id, subscription_id, **query)

    async def redeliver(self, agent_id: str, subscription_id: str, delivery_id: str) -> EventDelivery:
        return await asyncio.to_thread(self.sync.redeliver, agent_id, subscription_id, delivery_id)

    async def request(
        self, method: str, path: str, body: Optional[Any] = None, query: Optional[Mapping[str, Any]] = None
    ) -> Any:
        return await asyncio.to_thread(self.sync.request, method, path, body, query)
