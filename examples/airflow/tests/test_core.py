"""SparkRcaOperator's logic against the real sparkrca CLI on real Spark runs (testkit fixtures)."""

import json

import pytest

from sparkrca_airflow import core
from sparkrca_airflow.core import Outcome

VERSIONS = ["3.5.9", "4.0.4"]


@pytest.mark.parametrize("version", VERSIONS)
def test_a_failed_job_fails_the_task_with_its_root_cause_and_fix_in_the_log(analysed, fixture, version):
    result = analysed(version, "bad-record")
    label = fixture(version, "bad-record").label

    decision = core.decide(result)
    log = core.format_log(result, decision)

    assert result.exit_code == 1 and result.verdict == "PROBLEM"
    assert decision.outcome is Outcome.FAIL
    assert result.root_cause["kind"] == label["rootCause"]
    first_line = log.splitlines()[0]
    assert first_line == (f"sparkrca FAIL: sparkrca found a root cause: {label['rootCause']} "
                          f"({result.root_cause['confidence']}): {result.root_cause['title']}")
    assert f"application {label['application']['id']} " in log
    assert "root cause: " + " ".join(result.root_cause["explanation"].split())[:100] in log
    assert "recommendations:\n  - [IMMEDIATE_FIX] " + result.report["recommendations"][0]["action"][:80] in log
    assert decision.details[0] == " ".join(result.report["recommendations"][0]["action"].split())


@pytest.mark.parametrize("version", VERSIONS)
def test_a_problem_only_warns_when_the_task_asks_for_warnings(analysed, fixture, version):
    result = analysed(version, "skew-join")

    decision = core.decide(result, on_problem="warn")

    assert decision.outcome is Outcome.WARN
    assert result.root_cause["kind"] == fixture(version, "skew-join").label["rootCause"] == "DATA_SKEW"
    assert core.format_log(result, decision).startswith("sparkrca WARN: sparkrca found a root cause: DATA_SKEW")
    # The fix names the exact Spark properties to change.
    props = [p["property"] for r in result.report["recommendations"] for p in r["properties"]]
    assert "spark.sql.adaptive.skewJoin.enabled" in props
    assert "(spark.sql.adaptive.skewJoin.enabled=true)" in core.format_log(result, decision)


@pytest.mark.parametrize("version", VERSIONS)
def test_a_healthy_run_passes(analysed, version):
    result = analysed(version, "healthy")

    decision = core.decide(result, on_problem="fail", on_undetermined="fail")

    assert result.exit_code == 0 and result.verdict == "HEALTHY"
    assert decision.outcome is Outcome.PASS
    assert core.format_log(result, decision).startswith("sparkrca PASS: sparkrca found no problem: HEALTHY")


def test_missing_evidence_is_not_a_pass_it_warns_by_default_and_says_what_is_missing(analysed):
    # Failed before its first action: the cause is only in the driver log, which is not given.
    result = analysed("3.5.9", "driver-fails-before-first-action", with_driver_log=False)

    decision = core.decide(result)

    assert result.exit_code == 1 and result.verdict == "UNDETERMINED"
    assert decision.outcome is Outcome.WARN
    assert decision.reason.startswith("sparkrca could not determine a root cause: UNDETERMINED")
    assert "missing evidence: " in core.format_log(result, decision)
    assert "driver" in core.format_log(result, decision).split("missing evidence: ")[1]
    assert core.decide(result, on_undetermined="fail").outcome is Outcome.FAIL


def test_an_input_sparkrca_cannot_read_raises_with_its_message(sparkrca, tmp_path):
    missing = str(tmp_path / "no-such-log")

    with pytest.raises(core.SparkRcaError) as e:
        core.run_sparkrca(sparkrca, missing)

    assert str(e.value).startswith(f"sparkrca could not analyse {missing}: {missing} not found: check the path or URL;")


def test_a_corrupt_event_log_raises_rather_than_passing(sparkrca, tmp_path):
    log = tmp_path / "local-1700000000000"
    log.write_bytes(b"\x00\x01garbage that is no Spark event log\n{\"Event\":")

    with pytest.raises(core.SparkRcaError) as e:
        core.run_sparkrca(sparkrca, str(log))

    assert str(e.value).startswith(f"sparkrca could not analyse {log}: ")


def test_a_missing_cli_says_how_to_point_at_it(tmp_path):
    with pytest.raises(core.SparkRcaError) as e:
        core.run_sparkrca([str(tmp_path / "sparkrca")], "/tmp/spark-events/app-1")

    assert "install the sparkrca CLI, or pass sparkrca=['java', '-jar', '/path/to/sparkrca.jar']" in str(e.value)


def test_a_cli_that_does_not_finish_in_time_is_stopped(sparkrca, fixture):
    with pytest.raises(core.SparkRcaError) as e:
        core.run_sparkrca(sparkrca, fixture("3.5.9", "bad-record").event_log, timeout_seconds=0.01)

    assert "did not finish within 0.01 s" in str(e.value)


def test_output_that_is_not_a_report_is_an_error_not_a_pass(tmp_path):
    # A stand-in for a wrong binary: prints text and exits 0.
    with pytest.raises(core.SparkRcaError) as e:
        core.run_sparkrca(["echo", "hello"], "/tmp/spark-events/app-1")

    assert "exited 0 without a JSON report" in str(e.value)


@pytest.mark.parametrize("version", VERSIONS)
def test_the_xcom_value_is_json_with_the_verdict_root_cause_and_capped_report(analysed, version):
    result = analysed(version, "bad-record")
    value = core.xcom_value(result, core.decide(result))

    again = json.loads(json.dumps(value))

    assert again["outcome"] == "fail" and again["verdict"] == "PROBLEM" and again["exitCode"] == 1
    assert again["rootCause"]["kind"] == "DETERMINISTIC_DATA_FAILURE"
    assert again["rootCause"]["stageIds"] == result.root_cause["stageIds"]
    assert again["recommendations"][0] == result.report["recommendations"][0]["action"]
    assert again["report"]["application"] == result.report["application"]
    assert len(again["report"]["findings"]) <= core.MAX_ITEMS


def test_many_findings_are_cut_in_xcom_and_the_cut_is_stated(analysed, monkeypatch):
    result = analysed("3.5.9", "skew-join")
    assert len(result.report["findings"]) > 1
    monkeypatch.setattr(core, "MAX_ITEMS", 1)

    value = core.xcom_value(result, core.decide(result))

    n = len(result.report["findings"])
    assert len(value["report"]["findings"]) == 1
    assert value["report"]["notes"][-1] == f"XCom copy: {n - 1} of {n} findings left out"


def test_a_long_log_is_cut_and_says_so(analysed, monkeypatch):
    result = analysed("3.5.9", "bad-record")
    monkeypatch.setattr(core, "MAX_LOG_CHARS", 200)

    log = core.format_log(result, core.decide(result))

    assert log.endswith("\n[cut at 200 characters; the whole report is in XCom 'report']")
    assert len(log) == 200 + len("\n[cut at 200 characters; the whole report is in XCom 'report']")


def test_a_policy_that_is_not_fail_warn_or_pass_is_refused(analysed):
    with pytest.raises(ValueError, match="on_problem must be 'fail', 'warn' or 'pass', not 'explode'"):
        core.decide(analysed("3.5.9", "bad-record"), on_problem="explode")
