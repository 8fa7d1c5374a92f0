"""Plain chat and tool calls through the real openai client against a real local server."""

from __future__ import annotations

import json

import pytest

from medgym.llm import ChatResult, LLMTransportError
from medgym.llm.fake_server import ErrorReply, FakeOpenAIServer

TOOLS = [{
    "type": "function",
    "function": {
        "name": "order_lab",
        "description": "Order a laboratory test",
        "parameters": {"type": "object", "properties": {"test": {"type": "string"}}, "required": ["test"]},
    },
}]


def test_plain_chat_returns_text_usage_and_a_ready_message(client_for, user_messages):
    with FakeOpenAIServer(replies=["Likely community-acquired pneumonia."]) as srv:
        client = client_for(srv, temperature=0.0, seed=7, max_tokens=64)
        res = client.chat(user_messages)
        assert isinstance(res, ChatResult)
        assert res.text == "Likely community-acquired pneumonia."
        assert res.tool_calls == []
        assert res.message == {"role": "assistant", "content": "Likely community-acquired pneumonia."}
        assert res.finish_reason == "stop"
        assert res.model == "fake-model"
        assert res.cached is False and res.attempts == 1 and res.latency_s > 0
        assert res.usage.prompt_tokens == 5 and res.usage.completion_tokens == 3
        assert res.usage.total_tokens == 8
        (body,) = srv.requests
        assert body["model"] == "fake-model"
        assert body["messages"] == user_messages
        assert body["temperature"] == 0.0 and body["seed"] == 7 and body["max_tokens"] == 64
        assert srv.request_headers[0]["authorization"] == "Bearer EMPTY"


def test_extra_params_override_config_and_reach_the_server(client_for, user_messages):
    with FakeOpenAIServer() as srv:
        client = client_for(srv, seed=None, max_tokens=None, max_tokens_param="max_completion_tokens")
        assert client.chat(user_messages, temperature=0.7, top_k=20).text == "OK"
        body = srv.requests[0]
        assert body["temperature"] == 0.7 and body["top_k"] == 20
        assert "seed" not in body and "max_tokens" not in body and "max_completion_tokens" not in body
        client.chat(user_messages, extra_body={"repetition_penalty": 1.1})
        assert srv.requests[-1]["repetition_penalty"] == 1.1 and "extra_body" not in srv.requests[-1]
        with pytest.raises(TypeError, match="LLMConfig"):
            client.chat(user_messages, timeout=3)
        client2 = client_for(srv, max_tokens=99, max_tokens_param="max_completion_tokens")
        client2.chat(user_messages)
        assert srv.requests[-1]["max_completion_tokens"] == 99 and "max_tokens" not in srv.requests[-1]


def test_tool_call_loop_appends_message_and_tool_result(client_for, user_messages):
    replies = [
        {"content": None, "tool_calls": [{"id": "call_a", "name": "order_lab", "arguments": {"test": "CRP"}}]},
        "CRP is raised: bacterial pneumonia is likely.",
    ]
    with FakeOpenAIServer(replies=replies) as srv:
        client = client_for(srv)
        res = client.chat(user_messages, tools=TOOLS, tool_choice="auto")
        assert res.finish_reason == "tool_calls"
        (call,) = res.tool_calls
        assert (call.id, call.name, call.arguments, call.parse_error) == ("call_a", "order_lab", {"test": "CRP"}, None)
        assert res.message["role"] == "assistant"
        assert res.message["tool_calls"][0]["function"] == {"name": "order_lab", "arguments": '{"test": "CRP"}'}
        convo = [*user_messages, res.message, {"role": "tool", "tool_call_id": call.id, "content": "CRP 87 mg/L"}]
        final = client.chat(convo, tools=TOOLS)
        assert final.text.startswith("CRP is raised")
        first, second = srv.requests
        assert first["tools"] == TOOLS and first["tool_choice"] == "auto"
        assert second["messages"][1]["tool_calls"][0]["id"] == "call_a"
        assert second["messages"][2] == {"role": "tool", "tool_call_id": "call_a", "content": "CRP 87 mg/L"}


def test_bare_function_specs_are_wrapped_as_openai_tools(client_for, user_messages):
    with FakeOpenAIServer() as srv:
        client_for(srv).chat(user_messages, tools=[TOOLS[0]["function"]])
        assert srv.requests[0]["tools"] == TOOLS


def test_invalid_tool_arguments_are_reported_not_hidden(client_for, user_messages):
    replies = [{"tool_calls": [{"name": "order_lab", "arguments": "{test: CRP"}]},
               {"tool_calls": [{"name": "order_lab", "arguments": "[1, 2]"}]}]
    with FakeOpenAIServer(replies=replies) as srv:
        client = client_for(srv)
        bad = client.chat(user_messages, tools=TOOLS).tool_calls[0]
        assert bad.arguments == {} and bad.arguments_raw == "{test: CRP"
        assert "not valid JSON" in bad.parse_error
        not_obj = client.chat(user_messages, tools=TOOLS).tool_calls[0]
        assert "expected a JSON object" in not_obj.parse_error


def test_non_retryable_4xx_raises_at_once_with_status(client_for, user_messages):
    with FakeOpenAIServer(require_api_key="secret") as srv:
        client = client_for(srv, api_key="wrong")
        with pytest.raises(LLMTransportError) as info:
            client.chat(user_messages)
        assert info.value.status == 401 and info.value.retryable is False
        assert info.value.attempts == 1 and len(srv.requests) == 1
        assert client_for(srv, api_key="secret").chat(user_messages).text == "OK"


def test_404_model_not_found_is_not_retried(client_for, user_messages):
    with FakeOpenAIServer(replies=[ErrorReply(404, "model 'nope' not found")]) as srv:
        with pytest.raises(LLMTransportError, match="model 'nope' not found") as info:
            client_for(srv).chat(user_messages)
        assert info.value.status == 404 and len(srv.requests) == 1


def test_list_models_and_message_validation(client_for):
    with FakeOpenAIServer(model_name="qwen2.5-7b-instruct") as srv:
        client = client_for(srv)
        assert client.list_models() == ["qwen2.5-7b-instruct"]
        with pytest.raises(TypeError, match="list of message dicts"):
            client.chat("hello")
        with pytest.raises(TypeError, match="role"):
            client.chat([{"content": "no role"}])
        assert srv.requests == []


def test_message_content_parts_and_json_roundtrip_of_result(client_for, user_messages):
    completion = {"id": "x", "object": "chat.completion", "model": "m",
                  "choices": [{"index": 0, "finish_reason": "stop",
                               "message": {"role": "assistant",
                                           "content": [{"type": "text", "text": "part one, "},
                                                       {"type": "text", "text": "part two"}]}}]}
    with FakeOpenAIServer(replies=[completion]) as srv:
        res = client_for(srv).chat(user_messages)
        assert res.text == "part one, part two"
        assert res.usage.total_tokens == 0  # the server sent no usage block
        assert ChatResult.model_validate(json.loads(res.model_dump_json())) == res
