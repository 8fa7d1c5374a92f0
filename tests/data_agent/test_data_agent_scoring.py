"""Execution accuracy, cell-level F1 and unanswerable handling."""

from __future__ import annotations

import math

import pytest

from medgym.judges.sql_scoring import (
    cell_f1,
    cells_match,
    detect_unanswerable,
    execution_match,
    normalise_values,
    score_round,
    summarize,
    values_from_text,
)


@pytest.mark.parametrize("a,g,ok", [
    (7.078, 7.078947368, True),  # rounded to 3 decimals
    (7.08, 7.078947368, True),  # rounded to 2 decimals
    (7.1, 7.078947368, True),  # 0.3 % off
    (7.2, 7.078947368, False),
    (12, 12, True),
    (12.0, 12, True),
    ("12", 12, True),
    (13, 12, False),  # counts are exact
    (12.4, 12, False),
    (1.2, 1.2, True),
    (None, None, True),
    ("NULL", None, True),
    (0, None, False),
    (" p0027 ", "P0027", True),
    ("2024-07-07T17:05:00", "2024-07-07 17:05:00", True),
    ("2024-07-07", "2024-07-07 17:05:00", False),
    ("mg/dl", "mg/dL", True),  # text compares case-insensitively
    ("abc", 1.0, False),
])
def test_cells_match(a, g, ok):
    assert cells_match(a, g) is ok


def test_execution_match_ignores_order_and_allows_extra_columns():
    gold = [["P1"], ["P2"], ["P3"]]
    assert execution_match([["P3"], ["P1"], ["P2"]], gold)
    assert execution_match([["P3", 1.0], ["P1", 2.0], ["P2", 3.0]], gold)  # projection
    assert not execution_match([["P1"], ["P2"]], gold)
    assert not execution_match([["P1"], ["P2"], ["P3"], ["P4"]], gold)
    assert execution_match([[2.0, "P1"], [3.0, "P2"]], [["P1", 2.0], ["P2", 3.0]])  # column order
    assert not execution_match([["P1", 3.0], ["P2", 2.0]], [["P1", 2.0], ["P2", 3.0]])  # rows must stay together
    assert execution_match([[9.37], [7.22]], [[9.373333, 7.221918]])  # transposed single row
    assert execution_match([], [])
    assert not execution_match([[1]], [])


def test_multiset_duplicates_matter():
    assert not execution_match([["a"], ["a"]], [["a"], ["b"]])
    assert execution_match([["a"], ["b"], ["a"]], [["a"], ["a"], ["b"]])


def test_cell_f1():
    p, r, f = cell_f1([["P1"], ["P2"], ["P9"]], [["P1"], ["P2"], ["P3"], ["P4"]])
    assert (p, r) == (2 / 3, 2 / 4)
    assert f == pytest.approx(2 * p * r / (p + r))
    assert cell_f1([], []) == (1.0, 1.0, 1.0)
    assert cell_f1([["x"]], []) == (0.0, 0.0, 0.0)
    assert cell_f1([[7.08]], [[7.078947]])[2] == 1.0
    # extra columns lower precision, not recall
    p, r, f = cell_f1([["P1", 2.0]], [["P1"]])
    assert (p, r) == (0.5, 1.0)


def test_normalise_values():
    assert normalise_values(12) == [[12]]
    assert normalise_values(["P1", "P2"]) == [["P1"], ["P2"]]
    assert normalise_values([9.3, 7.2], gold_rows=[[9.37, 7.22]]) == [[9.3, 7.2]]
    assert normalise_values([["P1", 2]]) == [["P1", 2]]
    assert normalise_values([{"patient_id": "P1", "n": 2}]) == [["P1", 2]]
    assert normalise_values(None) == []


def test_text_fallback_extracts_ids_numbers_and_dates():
    vals = values_from_text("Patients P0027 and P0050; 12 results, mean 1.06 mg/dL, first on 2023-01-05 09:00")
    flat = [v[0] for v in vals]
    assert "P0027" in flat and "P0050" in flat and 12 in flat and 1.06 in flat and "2023-01-05 09:00" in flat


@pytest.mark.parametrize("text,yes", [
    ("The database does not contain imaging results.", True),
    ("This is not recorded in the database.", True),
    ("Unanswerable from these tables.", True),
    ("There is no information on blood type in the database.", True),
    ("There are no patients with a potassium above 6.", False),
    ("12 patients.", False),
])
def test_detect_unanswerable(text, yes):
    assert detect_unanswerable(text) is yes


def test_score_round_cases():
    gold = [["P1"], ["P2"]]
    s = score_round(1, ["lookup"], gold, False, {"source": "values", "values": ["P2", "P1"], "rows": []})
    assert s.correct and s.f1 == 1.0
    s = score_round(1, ["lookup"], gold, False, {"source": "last_result", "rows": [["P1"]]})
    assert not s.correct and 0 < s.f1 < 1
    s = score_round(2, ["unanswerable"], None, True, {"source": "flag", "unanswerable": True, "rows": []})
    assert s.correct and s.f1 == 1.0
    s = score_round(2, ["unanswerable"], None, True, {"source": "last_result", "rows": [["x"]]})
    assert not s.correct and s.f1 == 0.0
    s = score_round(3, ["lookup"], gold, False, {"source": "flag", "unanswerable": True})
    assert not s.correct and "declared unanswerable" in s.notes[0]
    s = score_round(4, ["lookup"], gold, False, None)
    assert not s.answered and s.execution_accuracy == 0.0
    s = score_round(5, ["aggregation"], [[12]], False, {"source": "text", "text": "There are 12 of them."})
    assert s.correct


def test_summarize_counts_unanswered_rounds_as_zero():
    s1 = score_round(1, ["a"], [[1]], False, {"source": "values", "values": 1})
    out = summarize([s1], n_rounds=4)
    assert out["accuracy"] == 0.25 and out["success"] is False
    assert math.isnan(summarize([], n_rounds=0)["accuracy"])
