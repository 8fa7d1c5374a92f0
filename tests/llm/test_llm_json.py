"""chat_json: structured output, the json_schema -> json_object -> prompt fallback, and
the validating parser. Invalid output must raise (never a default value)."""

from __future__ import annotations

import math

import pytest
from pydantic import BaseModel, Field

from medgym.llm import LLMOutputError, LLMTransportError, json_candidates, remembered_mode
from medgym.llm.fake_server import MALFORMED_CONTENT, ErrorReply, FakeOpenAIServer, Fault


class Judgement(BaseModel):
    diagnosis: str
    confidence: float = Field(ge=0, le=1)
    evidence: list[str] = Field(default_factory=list)


GOOD = '{"diagnosis": "pneumonia", "confidence": 0.9, "evidence": ["fever", "crackles"]}'
DICT_SCHEMA = {"type": "object", "properties": {"flag": {"type": "boolean"}, "turn": {"type": "integer"}},
               "required": ["flag", "turn"], "additionalProperties": False}


def _formats(srv: FakeOpenAIServer) -> list[str | None]:
    return [(r.get("response_format") or {}).get("type") for r in srv.requests]


def test_well_formed_structured_reply_with_pydantic_schema(client_for, user_messages):
    with FakeOpenAIServer(replies=[GOOD]) as srv:
        parsed, res = client_for(srv, role="judge").chat_json(user_messages, Judgement, name="node annotation")
        assert isinstance(parsed, Judgement)
        assert parsed == Judgement(diagnosis="pneumonia", confidence=0.9, evidence=["fever", "crackles"])
        assert res.structured_mode == "json_schema" and res.attempts == 1
        rf = srv.requests[0]["response_format"]
        assert rf["type"] == "json_schema"
        assert rf["json_schema"]["name"] == "node_annotation" and rf["json_schema"]["strict"] is True
        strict = rf["json_schema"]["schema"]
        # strict mode needs every property required and no extra properties; no "default"
        assert strict["required"] == ["diagnosis", "confidence", "evidence"]
        assert strict["additionalProperties"] is False
        assert "default" not in str(strict["properties"]["evidence"])
        # the json_schema request keeps the caller's prompt untouched
        assert srv.requests[0]["messages"] == user_messages


def test_dict_schema_returns_a_validated_dict(client_for, user_messages):
    with FakeOpenAIServer(replies=['{"flag": true, "turn": 3}']) as srv:
        parsed, _ = client_for(srv).chat_json(user_messages, DICT_SCHEMA)
        assert parsed == {"flag": True, "turn": 3}


def test_json_is_extracted_from_fences_prose_and_think_blocks(client_for, user_messages):
    replies = [
        'Here you go:\n```json\n{"flag": false, "turn": 1}\n```\nHope this helps.',
        '<think>the user wants {"flag": "maybe"}</think>Sure: {"flag": true, "turn": 2} -- done',
    ]
    with FakeOpenAIServer(replies=replies) as srv:
        client = client_for(srv)
        assert client.chat_json(user_messages, DICT_SCHEMA)[0] == {"flag": False, "turn": 1}
        assert client.chat_json(user_messages, DICT_SCHEMA)[0] == {"flag": True, "turn": 2}


def test_malformed_json_raises_output_error_and_caller_marks_unscored(client_for, user_messages):
    with FakeOpenAIServer(replies=[Fault.MALFORMED_JSON, Fault.MALFORMED_JSON]) as srv:
        client = client_for(srv, role="judge", output_retries=1)

        def judge_item() -> float:
            try:
                parsed, _ = client.chat_json(user_messages, Judgement)
            except LLMOutputError:
                return math.nan  # unscored, never 0
            return parsed.confidence

        with pytest.raises(LLMOutputError) as info:
            client.chat_json(user_messages, Judgement)
        err = info.value
        assert err.raw_text == MALFORMED_CONTENT
        assert err.attempts == 2 and len(err.problems) == 2
        assert "no JSON found" in err.problems[0]
        # the repair turn shows the model its bad reply and asks for corrected JSON
        repair = srv.requests[1]["messages"]
        assert repair[-2] == {"role": "assistant", "content": MALFORMED_CONTENT}
        assert "could not be used" in repair[-1]["content"]
        snap = client.usage.snapshot()["judge"]
        assert snap["output_errors"] == 1 and snap["errors"] == 1 and snap["calls"] == 1
        assert snap["total_tokens"] > 0  # the bad replies were paid for and are counted

        srv.set_replies([Fault.MALFORMED_JSON, Fault.MALFORMED_JSON])
        assert math.isnan(judge_item())


def test_schema_invalid_output_is_an_output_error_not_a_default(client_for, user_messages):
    with FakeOpenAIServer(replies=['{"diagnosis": "x", "confidence": 7}']) as srv:
        with pytest.raises(LLMOutputError, match="confidence") as info:
            client_for(srv, output_retries=0).chat_json(user_messages, Judgement)
        assert info.value.raw_text == '{"diagnosis": "x", "confidence": 7}'
        assert len(srv.requests) == 1  # output_retries=0: no repair turn
    with (FakeOpenAIServer(replies=['{"flag": "yes", "turn": 1}']) as srv,
          pytest.raises(LLMOutputError, match="schema violation at flag")):
        client_for(srv, output_retries=0).chat_json(user_messages, DICT_SCHEMA)


def test_empty_content_is_an_output_error(client_for, user_messages):
    reply = {"content": None, "tool_calls": [{"name": "f", "arguments": {}}]}
    with FakeOpenAIServer(replies=[reply]) as srv, pytest.raises(LLMOutputError, match="empty reply"):
        client_for(srv, output_retries=0).chat_json(user_messages, DICT_SCHEMA)


def test_repair_turn_recovers_and_usage_covers_both_replies(client_for, user_messages):
    with FakeOpenAIServer(replies=['{"diagnosis": "pneumonia", "confidence": 2}', GOOD]) as srv:
        parsed, res = client_for(srv).chat_json(user_messages, Judgement)
        assert parsed.confidence == 0.9
        assert res.attempts == 2 and len(srv.requests) == 2
        # the fake server counts words: 4 for the invalid reply, 7 for the good one
        assert res.usage.completion_tokens == 4 + 7
        assert res.usage.total_tokens == res.usage.prompt_tokens + res.usage.completion_tokens


def test_llama_cpp_style_json_schema_rejection_falls_back_and_is_remembered(client_for, user_messages):
    with FakeOpenAIServer(replies=[GOOD, GOOD], reject_json_schema=True) as srv:
        client = client_for(srv, max_retries=3)
        parsed, res = client.chat_json(user_messages, Judgement)
        assert parsed.diagnosis == "pneumonia" and res.structured_mode == "json_object"
        # the 500 names the format: no retries are wasted on it
        assert _formats(srv) == ["json_schema", "json_object"]
        system = srv.requests[1]["messages"][0]
        assert system["role"] == "system" and "JSON schema" in system["content"]
        assert remembered_mode(client.config.endpoint, "fake-model") == "json_object"
        # a second client of the same endpoint+model starts at json_object directly
        _, res2 = client_for(srv).chat_json(user_messages, Judgement)
        assert res2.structured_mode == "json_object"
        assert _formats(srv) == ["json_schema", "json_object", "json_object"]
        # another model on the same server is not affected
        assert remembered_mode(client.config.endpoint, "other-model") == "json_schema"


def test_bare_500_on_json_schema_is_retried_once_then_falls_back(client_for, user_messages):
    def handler(req):
        if (req.get("response_format") or {}).get("type") == "json_schema":
            return ErrorReply(500, "Internal Server Error")
        return '{"flag": true, "turn": 5}'

    with FakeOpenAIServer(handler=handler) as srv:
        parsed, res = client_for(srv).chat_json(user_messages, DICT_SCHEMA)
        assert parsed == {"flag": True, "turn": 5}
        assert _formats(srv) == ["json_schema", "json_schema", "json_object"]
        # remembered only because a request without json_schema then succeeded
        assert remembered_mode(client_for(srv).config.endpoint, "fake-model") == "json_object"


def test_server_rejecting_every_response_format_gets_the_schema_in_the_prompt(client_for):
    def handler(req):
        if "response_format" in req:
            return ErrorReply(400, "unsupported parameter: response_format")
        return '{"flag": false, "turn": 0}'

    msgs = [{"role": "system", "content": "You are a clinical auditor."}, {"role": "user", "content": "Rate."}]
    with FakeOpenAIServer(handler=handler) as srv:
        client = client_for(srv)
        parsed, res = client.chat_json(msgs, DICT_SCHEMA)
        assert parsed == {"flag": False, "turn": 0} and res.structured_mode == "prompt"
        assert _formats(srv) == ["json_schema", "json_object", None]
        system = srv.requests[-1]["messages"][0]["content"]
        assert system.startswith("You are a clinical auditor.") and '"turn"' in system
        assert remembered_mode(client.config.endpoint, "fake-model") == "prompt"


def test_a_wrong_key_does_not_downgrade_the_structured_mode(client_for, user_messages):
    with FakeOpenAIServer(require_api_key="k") as srv:
        client = client_for(srv, api_key="bad")
        with pytest.raises(LLMTransportError) as info:
            client.chat_json(user_messages, DICT_SCHEMA)
        assert info.value.status == 401 and len(srv.requests) == 1
        assert remembered_mode(client.config.endpoint, "fake-model") == "json_schema"


def test_explicit_mode_without_fallback_raises_transport_error(client_for, user_messages):
    with FakeOpenAIServer(reject_json_schema=True) as srv:
        client = client_for(srv, structured_output="json_schema")
        with pytest.raises(LLMTransportError) as info:
            client.chat_json(user_messages, DICT_SCHEMA)
        assert info.value.reason == "format_rejected" and info.value.status == 500
    with FakeOpenAIServer(replies=['{"flag": true, "turn": 1}']) as srv:
        client_for(srv, structured_output="prompt").chat_json(user_messages, DICT_SCHEMA)
        assert _formats(srv) == [None]


def test_invalid_schema_argument_is_rejected_before_any_request(client_for, user_messages):
    with FakeOpenAIServer() as srv:
        client = client_for(srv)
        with pytest.raises(ValueError, match="invalid JSON schema"):
            client.chat_json(user_messages, {"type": "objekt"})
        with pytest.raises(TypeError):
            client.chat_json(user_messages, int)
        assert srv.requests == []


@pytest.mark.parametrize(("text", "expected"), [
    ('{"a": 1}', [{"a": 1}]),
    ('  ```json\n{"a": 1}\n```  ', [{"a": 1}]),
    ('```\n[1, 2]\n```', [[1, 2]]),
    ('Answer: {"a": {"b": 2}} and also {"c": 3}.', [{"a": {"b": 2}}, {"c": 3}]),
    ('Use {placeholders} then {"a": 1}', [{"a": 1}]),
    ("<think>maybe {\"a\": 0}</think>\n{\"a\": 2}", [{"a": 2}]),
    ('reasoning without an opening tag</think>{"a": 3}', [{"a": 3}]),
    ("no json at all", []),
])
def test_json_candidates(text, expected):
    assert json_candidates(text) == expected


def test_fragments_of_a_truncated_object_are_never_used():
    # A nested object inside a broken reply could satisfy a lenient schema: refuse it.
    assert json_candidates('{"verdict": "ok", "detail": {"score": 1}, "evid') == []
    assert json_candidates('{"a": 1,, "b": {"c": 2}} then nothing') == []
