"""The Python client against a real memstream server, and its retries against a scripted one."""

import http.server
import json
import os
import socket
import threading
import time
from typing import Any, Dict, Iterator, List, Tuple

import pytest

from memstream import Memstream, MemstreamError, RetryOptions


def test_remembers_lists_retrieves_gets_and_forgets(client: Memstream, agent: str) -> None:
    one = client.remember(agent, {"description": "Klaus is coming to the party", "importance": 7})
    assert one["agentId"] == agent and one["importance"] == 7 and one["id"].startswith("mem_")
    many = client.remember_many(
        agent, [{"description": "The cafe opens at 8"}, {"description": "Maria bakes the cake", "kind": "plan"}]
    )
    assert [m["kind"] for m in many] == ["observation", "plan"]
    plain = client.remember(agent, "Isabella is planning a Valentine's Day party")
    assert plain["description"] == "Isabella is planning a Valentine's Day party"

    page = client.list(agent, limit=2)
    assert len(page["memories"]) == 2 and page["nextCursor"]
    rest = client.list(agent, limit=10, cursor=page["nextCursor"])
    seen = {m["id"] for m in page["memories"] + rest["memories"]}
    assert seen == {one["id"], plain["id"], *(m["id"] for m in many)}
    assert [m["kind"] for m in client.list(agent, kind=["plan"])["memories"]] == ["plan"]

    found = client.retrieve(agent, "Who is coming to the party?", format="text", maxTokens=500, k=3)
    assert one["id"] in [m["id"] for m in found["memories"]]
    assert "Klaus is coming to the party" in found.get("context", {}).get("text", "")
    assert all(set(m["scores"]) == {"recency", "importance", "relevance", "lift", "subject", "similarity"} for m in found["memories"])
    assert found["retrievalId"].startswith("ret_") and found["freshness"]["pending"] >= 0
    # Feedback names the retrieve: the memory used, the rest of what came back unused.
    given = client.feedback(agent, found["retrievalId"], used=[one["id"]])
    assert given == {"retrievalId": found["retrievalId"], "used": 1, "unused": len(found["memories"]) - 1, "events": 1}
    with pytest.raises(MemstreamError) as unknown:
        client.feedback(agent, "ret_unknown", used=[])
    assert unknown.value.status == 404

    assert client.get(agent, one["id"])["description"] == "Klaus is coming to the party"
    assert client.stats(agent)["total"] == 4
    client.forget(agent, one["id"])
    with pytest.raises(MemstreamError) as gone:
        client.get(agent, one["id"])
    assert gone.value.status == 404 and gone.value.code == "not_found"


def test_agent_ids_with_slashes_and_colons(client: Memstream, agent: str) -> None:
    odd = f"{agent}:repo/acme"
    stored = client.remember(odd, "A memory of an agent whose id holds / and :")
    assert stored["agentId"] == odd
    assert client.stats(odd)["total"] == 1


def test_records_an_outcome(client: Memstream, agent: str) -> None:
    outcome = client.record_outcome(
        agent,
        {"task": "Deploy billing to staging", "taskType": "deploy", "success": False, "error": "port in use"},
    )
    assert outcome["kind"] == "outcome"
    assert "Deploy billing to staging" in outcome["description"]


def test_errors_carry_the_code_the_field_and_the_request_id(client: Memstream, agent: str) -> None:
    with pytest.raises(MemstreamError) as bad:
        client.remember(agent, {"description": "x", "importance": 11})
    err = bad.value
    assert (err.status, err.code) == (400, "invalid_request")
    assert err.details.get("field") == "body.importance"
    assert err.request_id and len(err.request_id) >= 8
    assert "400 invalid_request" in str(err)


@pytest.mark.skipif(not os.environ.get("MEMSTREAM_API_KEY"), reason="the server has no API keys")
def test_a_missing_key_is_unauthorized_and_another_tenant_is_not_found(server_url: str, agent: str) -> None:
    with pytest.raises(MemstreamError) as anonymous:
        Memstream(server_url).stats(agent)
    assert (anonymous.value.status, anonymous.value.code) == (401, "unauthorized")
    keyed = Memstream(server_url, api_key=os.environ["MEMSTREAM_API_KEY"])
    with pytest.raises(MemstreamError) as outside:
        keyed.stats("someone-else-entirely")
    assert outside.value.code == "not_found"


def test_the_generic_request_reaches_any_operation(client: Memstream, agent: str) -> None:
    client.remember(agent, "Lessons need outcomes first")
    assert client.request("GET", f"/v1/agents/{agent}/lessons") == {"lessons": []}


# --- retries, against a scripted server (the real one cannot be made to answer 503 on cue) ---


class Scripted(http.server.BaseHTTPRequestHandler):
    """Answers the statuses queued in `script`, then 200 with a stats-like body."""

    script: List[Tuple[int, Dict[str, str]]] = []
    seen: List[str] = []

    def _answer(self) -> None:
        Scripted.seen.append(f"{self.command} {self.path}")
        status, headers = Scripted.script.pop(0) if Scripted.script else (200, {})
        body = (
            json.dumps({"agentId": "a", "total": 0}).encode()
            if status == 200
            else json.dumps({"error": {"code": "unavailable", "message": "busy", "requestId": "req-123"}}).encode()
        )
        self.send_response(status)
        for k, v in headers.items():
            self.send_header(k, v)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    do_GET = _answer
    do_POST = _answer

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass


@pytest.fixture
def scripted() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    Scripted.script, Scripted.seen = [], []
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_retries_429_and_503_honouring_retry_after(scripted: str) -> None:
    Scripted.script = [(503, {}), (429, {"retry-after": "0"}), (503, {})]
    fast = Memstream(scripted, retry=RetryOptions(retries=4, base_delay=0.01))
    assert fast.stats("a")["total"] == 0
    assert len(Scripted.seen) == 4


def test_gives_up_after_the_last_retry_with_the_servers_error(scripted: str) -> None:
    Scripted.script = [(503, {})] * 3
    with pytest.raises(MemstreamError) as err:
        Memstream(scripted, retry=RetryOptions(retries=2, base_delay=0.01)).stats("a")
    assert (err.value.status, err.value.code, err.value.request_id) == (503, "unavailable", "req-123")
    assert len(Scripted.seen) == 3


def test_no_retry_when_turned_off_or_for_other_errors(scripted: str) -> None:
    Scripted.script = [(503, {})]
    with pytest.raises(MemstreamError):
        Memstream(scripted, retry=RetryOptions(retries=0)).stats("a")
    assert len(Scripted.seen) == 1
    Scripted.script = [(500, {})]
    with pytest.raises(MemstreamError):
        Memstream(scripted, retry=RetryOptions(base_delay=0.01)).stats("a")
    assert len(Scripted.seen) == 2


def test_a_refused_connection_is_retried_then_reported_as_network_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    started = time.monotonic()
    with pytest.raises(MemstreamError) as err:
        Memstream(f"http://127.0.0.1:{port}", retry=RetryOptions(retries=2, base_delay=0.05)).remember("a", "x")
    assert (err.value.status, err.value.code) == (0, "network_error")
    assert time.monotonic() - started >= 0.05  # it waited before retrying
