"""Schema errors name the file, the case id, the field, what was expected and what was found."""

from __future__ import annotations

import subprocess
import sys

import pytest
import yaml

from medgym.errors import DataValidationError
from medgym.knowledge_base.case_bank import CaseBank, load_case_file


def write_case(tmp_path, text: str, name: str = "case.yaml"):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def mutate(example_yaml: str, fn) -> str:
    data = yaml.safe_load(example_yaml)
    fn(data)
    return yaml.safe_dump(data, allow_unicode=True, sort_keys=False)


def test_example_case_loads(example_yaml, tmp_path):
    (case,) = load_case_file(write_case(tmp_path, example_yaml))
    assert case.id == "hep-001-dili-amoxiclav"
    assert case.omitted_ids == ["bilirubin", "alp", "alt", "hep_serology"]
    assert case.delayed_ids == ["us_biliary"]
    assert case.fact("bilirubin").abnormal is True


@pytest.mark.parametrize(
    ("mutation", "expected"),
    [
        (lambda d: d.pop("title"), ["'title'", "required field is missing"]),
        (lambda d: d.update(difficulty="L9"), ["'difficulty'", "L9"]),
        (lambda d: d.update(track="video"), ["'track'", "video"]),
        (lambda d: d["facts"][7].update(value="hot"), ["facts.7.value", "hot"]),
        (lambda d: d["facts"][8].pop("unit"), ["needs a 'unit'"]),
        (lambda d: d["facts"][8]["reference_range"].update(low=50, high=10), ["low <= high"]),
        (lambda d: d["facts"].append(dict(d["facts"][0])), ["duplicate fact ids", "abx_course"]),
        (lambda d: d["gold"]["key_evidence"].append("troponin"), ["gold.key_evidence", "troponin"]),
        (lambda d: d["stressors"]["delay"][0].update(fact_id="nope"), ["stressors.delay.fact_id", "nope"]),
        (lambda d: d["stressors"].update(contradictions=[]), ["'stressors.contradictions'", "at least 1"]),
        (lambda d: d["stressors"].update(omit=["alp"]), ["at least 2 omittable"]),
        (lambda d: d["stressors"].update(omit=["alp", "us_biliary"]), ["both omitted and delayed", "us_biliary"]),
        (lambda d: d["stressors"].update(omit=["alp", "pruritus"]), ["only hold objective facts", "pruritus"]),
        (lambda d: d["gold"].update(leading_alternative="lupus"), ["leading_alternative", "lupus"]),
        (lambda d: d.update(colour="blue"), ["'colour'", "Extra inputs are not permitted"]),
        (lambda d: d["facts"][0].update(category="gossip"), ["facts.0.category", "gossip"]),
    ],
)
def test_schema_errors_are_precise(example_yaml, tmp_path, mutation, expected):
    path = write_case(tmp_path, mutate(example_yaml, mutation))
    with pytest.raises(DataValidationError) as err:
        load_case_file(path)
    msg = str(err.value)
    assert str(path) in msg
    assert "hep-001-dili-amoxiclav" in msg
    for piece in expected:
        assert piece in msg, msg


def test_bad_yaml_syntax_names_file(tmp_path):
    path = write_case(tmp_path, "id: x\nfacts: [unclosed\n")
    with pytest.raises(DataValidationError, match="not valid YAML") as err:
        load_case_file(path)
    assert str(path) in str(err.value)


def test_json_case_files_work(example_yaml, tmp_path):
    import json

    path = tmp_path / "case.json"
    path.write_text(json.dumps(yaml.safe_load(example_yaml)), encoding="utf-8")
    (case,) = load_case_file(path)
    assert case.title.startswith("Cholestatic")


def test_bank_load_is_all_or_nothing(example_yaml, tmp_path):
    write_case(tmp_path, example_yaml, "a.yaml")
    write_case(tmp_path, mutate(example_yaml, lambda d: d.update(id="other", track="nope")), "b.yaml")
    with pytest.raises(DataValidationError, match="b.yaml"):
        CaseBank.load([tmp_path])


def test_duplicate_case_ids_across_files(example_yaml, tmp_path):
    write_case(tmp_path, example_yaml, "a.yaml")
    write_case(tmp_path, example_yaml, "b.yaml")
    with pytest.raises(DataValidationError, match="already defined"):
        CaseBank.load([tmp_path])


def test_unknown_case_id_suggests(bank):
    from medgym.errors import UnknownNameError

    with pytest.raises(UnknownNameError, match="did you mean 'hep-001-dili-amoxiclav'"):
        bank.get("hep-001-dili-amoxiclv")


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "medgym.cli.main", *args], capture_output=True, text=True)


def test_cli_validate_exit_codes(example_yaml, tmp_path):
    good = write_case(tmp_path, example_yaml, "good.yaml")
    bad = write_case(tmp_path, mutate(example_yaml, lambda d: d.pop("gold")), "bad.yaml")
    ok = run_cli("cases", "validate", str(good))
    assert ok.returncode == 0, ok.stderr
    res = run_cli("cases", "validate", str(good), str(bad))
    assert res.returncode == 1
    assert "bad.yaml" in res.stderr and "'gold'" in res.stderr
    missing = run_cli("cases", "validate", str(tmp_path / "nope.yaml"))
    assert missing.returncode == 1 and "no such file" in missing.stderr


def test_cli_unknown_case_is_one_line_error():
    res = run_cli("cases", "show", "hep-001-dili")
    assert res.returncode == 2
    assert "did you mean" in res.stderr and "Traceback" not in res.stderr


def test_packaged_bank_is_valid_and_diverse(bank):
    """The issue's floor: 40+ cases, 12+ specialties, L1-L3, all care stages, every stressor hook present."""
    assert len(bank) >= 40
    stats = bank.stats()
    assert len(stats["specialty"]) >= 12
    assert set(stats["difficulty"]) == {"L1", "L2", "L3"}
    assert set(stats["care_stage"]) == {"prevention", "treatment", "long-term management"}
    assert set(stats["track"]) == {"llm", "multimodal", "agent"}
    for case in bank:
        assert len(case.omitted_ids) >= 2, case.id
        assert case.stressors.contradictions and case.stressors.delay, case.id


def test_bank_authoring_rules(bank):
    """Rules the matcher and judges rely on: statements name their fact; numbers appear with their unit."""
    from medgym.text.fact_matcher import matcher_for
    from medgym.text.numbers import find_quantities, same_value

    for case in bank:
        m = matcher_for(case)
        for f in case.facts:
            found = {x.item_id for x in m.fact_mentions(f.statement)}
            assert f.id in found, f"{case.id}: statement of {f.id!r} does not name the fact"
            if f.value is not None:
                qs = find_quantities(f.statement)
                assert any(same_value(q.value, q.unit, f.value, f.unit, f.name) for q in qs), (
                    f"{case.id}: statement of {f.id!r} does not state {f.value} {f.unit}"
                )
        for t in case.stressors.contradictions:
            found = {x.item_id for x in m.mentions(t.statement, ("contradiction",))}
            assert t.id in found, f"{case.id}: contradiction {t.id!r} does not name its item"
