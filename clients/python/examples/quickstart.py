"""`python3 clients/python/examples/quickstart.py`: remember, retrieve, record an outcome.

Talks to MEMSTREAM_URL (default http://127.0.0.1:8787, i.e. `npm start`) with MEMSTREAM_API_KEY
when set, as agent MEMSTREAM_AGENT (default a new barista-py-<time>). Standard library only: no install needed from this repository.
"""

import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from memstream import Memstream, MemstreamError  # noqa: E402

memory = Memstream(os.environ.get("MEMSTREAM_URL", "http://127.0.0.1:8787"), api_key=os.environ.get("MEMSTREAM_API_KEY"))
agent = os.environ.get("MEMSTREAM_AGENT", f"barista-py-{int(time.time())}")

try:
    memory.remember_many(
        agent,
        [
            {"description": "Klaus ordered an oat-milk flat white and said dairy makes him ill"},
            {"description": "Maria ordered a black americano and tipped well"},
            {"description": "The espresso grinder jammed twice"},
        ],
    )
except MemstreamError as err:
    sys.exit(f"memstream answered {err}; is the server running (npm start)?")

answer = memory.retrieve(agent, "What can Klaus drink?", format="text", maxTokens=200, k=2, relevance="hybrid")
print(f"retrieve for {agent}:")
print(answer.get("context", {}).get("text", ""))
memory.record_outcome(agent, {"task": "Serve Klaus", "taskType": "serve", "success": True, "strategy": "oat milk"})
print(f"{agent} has {memory.stats(agent)['total']} memories")
