"""The tests run against a real memstream server: test/clients/python.test.ts starts one (real
PostgreSQL behind it) and runs pytest with MEMSTREAM_URL, MEMSTREAM_API_KEY (a key scoped to
MEMSTREAM_AGENT_PREFIX). By hand: `MEMSTREAM_URL=http://127.0.0.1:8787 python3 -m pytest` against
`npm start` (no key, any prefix)."""

import os
import sys
import uuid

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))

from memstream import Memstream  # noqa: E402


@pytest.fixture(scope="session")
def server_url() -> str:
    url = os.environ.get("MEMSTREAM_URL")
    if not url:
        # Never skipped: a run without a server is a failed run.
        pytest.fail("MEMSTREAM_URL is not set: run these tests against a memstream server")
    return url


@pytest.fixture(scope="session")
def client(server_url: str) -> Memstream:
    return Memstream(server_url, api_key=os.environ.get("MEMSTREAM_API_KEY"))


@pytest.fixture
def agent() -> str:
    """A fresh agent per test, inside the key's prefix."""
    return f"{os.environ.get('MEMSTREAM_AGENT_PREFIX', '')}py-{uuid.uuid4().hex[:10]}"
