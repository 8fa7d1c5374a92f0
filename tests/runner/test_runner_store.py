"""results.jsonl guarantees: whole lines, torn-tail repair, latest record per key wins."""

from __future__ import annotations

import json

from medgym.runner.store import ResultStore, read_results


def test_append_and_latest_wins(tmp_path):
    with ResultStore(tmp_path) as store:
        store.append({"key": "a", "status": "error"})
        store.append({"key": "b", "status": "ok"})
        store.append({"key": "a", "status": "ok"})
    latest = read_results(tmp_path)
    assert latest["a"]["status"] == "ok" and set(latest) == {"a", "b"}


def test_torn_tail_is_repaired_before_appending(tmp_path):
    path = tmp_path / "results.jsonl"
    path.write_bytes(b'{"key": "a", "status": "ok"}\n{"key": "b", "stat')
    assert set(read_results(tmp_path)) == {"a"}  # readers skip the torn line
    with ResultStore(tmp_path) as store:
        assert store.dropped_bytes == len(b'{"key": "b", "stat')
        store.append({"key": "c", "status": "ok"})
    lines = path.read_text().splitlines()
    assert [json.loads(x)["key"] for x in lines] == ["a", "c"]


def test_a_file_that_is_only_a_torn_line(tmp_path):
    (tmp_path / "results.jsonl").write_bytes(b'{"key": "x"')
    with ResultStore(tmp_path) as store:
        store.append({"key": "y", "status": "ok"})
    assert list(read_results(tmp_path)) == ["y"]


def test_nan_is_never_written(tmp_path):
    from medgym.runner.store import jsonable

    with ResultStore(tmp_path) as store:
        store.append(jsonable({"key": "k", "audit": {"CDR": float("nan"), "GDR": 0.5}}))
    rec = read_results(tmp_path)["k"]
    assert rec["audit"] == {"CDR": None, "GDR": 0.5}
