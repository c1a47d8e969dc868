"""The client's TypedDicts checked against the server's own /openapi.json: every field the API
sends (or takes) is in the type, none is invented, a field the API always sends is required, and
a field the API may send as null is Optional. A new field in the API fails here until the client
has it."""

import sys
from typing import Any, Dict, List, Tuple, Union, get_args, get_origin, get_type_hints

import pytest

from memstream import Memstream
from memstream import types as t

Schema = Dict[str, Any]

RETRIEVE = ("/v1/agents/{agentId}/retrieve", "post", "200")
LIST = ("/v1/agents/{agentId}/memories", "get", "200")


@pytest.fixture(scope="module")
def document(client: Memstream) -> Schema:
    doc: Schema = client.request("GET", "/openapi.json")
    return doc


def resolve(doc: Schema, schema: Schema) -> Schema:
    """The schema behind a $ref, with allOf merged (properties and required of every part)."""
    if "$ref" in schema:
        return resolve(doc, doc["components"]["schemas"][schema["$ref"].split("/")[-1]])
    if "allOf" in schema:
        merged: Schema = {"properties": {}, "required": []}
        for part in schema["allOf"]:
            p = resolve(doc, part)
            merged["properties"].update(p.get("properties", {}))
            merged["required"] += p.get("required", [])
        return merged
    return schema


def component(doc: Schema, name: str, *path: str) -> Schema:
    """A component schema, or the schema of one of its (nested) properties."""
    schema = resolve(doc, {"$ref": f"#/components/schemas/{name}"})
    for key in path:
        schema = resolve(doc, schema["properties"][key])
    return schema


def response(doc: Schema, where: Tuple[str, str, str]) -> Schema:
    path, method, status = where
    return resolve(doc, doc["paths"][path][method]["responses"][status]["content"]["application/json"]["schema"])


def nullable(schema: Schema) -> bool:
    kinds = schema.get("type")
    return (isinstance(kinds, list) and "null" in kinds) or any(
        s.get("type") == "null" for s in schema.get("anyOf", []) + schema.get("oneOf", [])
    )


def optional(hint: Any) -> bool:
    return get_origin(hint) is Union and type(None) in get_args(hint)


# (the client's type, where the API says it, whether the API sends it or takes it)
CHECKED: List[Tuple[type, Any, str]] = [
    (t.Memory, lambda d: component(d, "Memory"), "response"),
    (t.EnrichmentStatus, lambda d: component(d, "Memory", "status"), "response"),
    (t.EnrichmentErrors, lambda d: component(d, "Memory", "errors"), "response"),
    (t.ScoredMemory, lambda d: component(d, "ScoredMemory"), "response"),
    (t.Scores, lambda d: component(d, "ScoredMemory", "scores"), "response"),
    (t.Archived, lambda d: component(d, "Memory", "archived"), "response"),
    (t.ExpandedMemory, lambda d: component(d, "ExpandedMemory"), "response"),
    (t.RetrieveResult, lambda d: response(d, RETRIEVE), "response"),
    (t.Freshness, lambda d: component(d, "RetrieveFreshness"), "response"),
    (t.Context, lambda d: component(d, "RetrieveContext"), "response"),
    (t.ContextSectionReport, lambda d: resolve(d, component(d, "RetrieveContext", "sections")["items"]), "response"),
    (t.FeedbackResult, lambda d: component(d, "FeedbackRecorded"), "response"),
    (t.MemoryPage, lambda d: response(d, LIST), "response"),
    (t.AgentStats, lambda d: component(d, "AgentStats"), "response"),
    (t.NewMemory, lambda d: component(d, "NewMemory"), "request"),
    (t.NewOutcome, lambda d: component(d, "NewOutcome"), "request"),
    (t.EventSubscription, lambda d: component(d, "EventSubscription"), "response"),
    (t.CreatedEventSubscription, lambda d: component(d, "CreatedEventSubscription"), "response"),
    (t.EventDelivery, lambda d: component(d, "EventDelivery"), "response"),
]


@pytest.mark.parametrize("typed, where, direction", CHECKED, ids=[c[0].__name__ for c in CHECKED])
def test_the_type_has_every_field_the_api_has(document: Schema, typed: Any, where: Any, direction: str) -> None:
    schema = where(document)
    api_fields = set(schema["properties"])
    ours = set(typed.__required_keys__) | set(typed.__optional_keys__)
    assert sorted(api_fields - ours) == [], f"{typed.__name__} lacks fields the API has"
    assert sorted(ours - api_fields) == [], f"{typed.__name__} has fields the API does not"
    if sys.version_info >= (3, 11):
        # Required exactly where the API always sends (or needs) the field (older Pythons lack NotRequired).
        assert set(typed.__required_keys__) == set(schema.get("required", [])), typed.__name__
    hints = get_type_hints(typed)
    for name, prop in schema["properties"].items():
        if direction == "response":
            assert optional(hints[name]) == nullable(resolve(document, prop)), f"{typed.__name__}.{name} nullability"


def test_every_response_type_is_checked() -> None:
    """A new TypedDict in memstream.types is checked here too (or named as not an API shape)."""
    declared = {
        name
        for name, value in vars(t).items()
        if isinstance(value, type) and issubclass(value, dict) and value.__module__ == t.__name__
    }
    assert declared == {c[0].__name__ for c in CHECKED}
