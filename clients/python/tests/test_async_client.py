"""AsyncMemstream against the real server: the same verbs as coroutines, calls made together."""

import asyncio
import os

import pytest

from memstream import AsyncMemstream, MemstreamError


def test_async_verbs_run_together(server_url: str, agent: str) -> None:
    async def main() -> None:
        memory = AsyncMemstream(server_url, api_key=os.environ.get("MEMSTREAM_API_KEY"))
        stored = await asyncio.gather(
            *(memory.remember(agent, f"Guest {i} is coming to the party") for i in range(8))
        )
        assert len({m["id"] for m in stored}) == 8
        # The loop stays free while the calls are in flight: a ticker runs beside them.
        ticks = 0

        async def ticker() -> None:
            nonlocal ticks
            while True:
                ticks += 1
                await asyncio.sleep(0.001)

        tick = asyncio.create_task(ticker())
        found, page, stats = await asyncio.gather(
            memory.retrieve(agent, "Who is coming?", k=3, format="text"),
            memory.list(agent, limit=5),
            memory.stats(agent),
        )
        tick.cancel()
        assert ticks > 0
        assert len(found["memories"]) == 3 and "coming to the party" in found.get("context", {}).get("text", "")
        assert len(page["memories"]) == 5 and stats["total"] == 8
        given = await memory.feedback(agent, found["retrievalId"], used=[found["memories"][0]["id"]])
        assert given["used"] == 1
        outcome = await memory.record_outcome(agent, {"task": "Seat the guests", "success": True})
        assert outcome["kind"] == "outcome"
        await memory.forget(agent, stored[0]["id"])
        with pytest.raises(MemstreamError) as gone:
            await memory.get(agent, stored[0]["id"])
        assert gone.value.status == 404 and gone.value.code == "not_found"
        lessons = await memory.request("GET", f"/v1/agents/{agent}/lessons")
        assert lessons == {"lessons": []}

    asyncio.run(main())
