"""The Airflow wrapper over the real CLI. Debian has no Airflow and PyPI is out of reach here, so
the two Airflow names the wrapper imports (BaseOperator, AirflowException) are minimal stand-ins
defined below; everything of sparkrca's is real. In a real Airflow, see the README."""

import importlib
import logging
import sys
import types

import pytest


class _TaskInstance:
    def __init__(self):
        self.pushed = {}

    def xcom_push(self, key, value):
        self.pushed[key] = value


@pytest.fixture(scope="module")
def operator_module():
    airflow = types.ModuleType("airflow")
    exceptions = types.ModuleType("airflow.exceptions")
    models = types.ModuleType("airflow.models")

    class AirflowException(Exception):
        pass

    class BaseOperator:
        def __init__(self, task_id, **kwargs):
            self.task_id = task_id
            self.log = logging.getLogger(f"airflow.task.{task_id}")

    exceptions.AirflowException = AirflowException
    models.BaseOperator = BaseOperator
    saved = {k: sys.modules.get(k) for k in ("airflow", "airflow.exceptions", "airflow.models")}
    sys.modules.update({"airflow": airflow, "airflow.exceptions": exceptions, "airflow.models": models})
    try:
        yield importlib.import_module("sparkrca_airflow.operator")
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
        sys.modules.pop("sparkrca_airflow.operator", None)


def test_a_failed_spark_job_fails_the_task_logs_the_cause_and_pushes_the_report(operator_module, sparkrca, fixture, caplog):
    f = fixture("3.5.9", "bad-record")
    op = operator_module.SparkRcaOperator(task_id="diagnose", event_log=f.event_log, driver_logs=[f.driver_log],
                                          sparkrca=sparkrca)
    ti = _TaskInstance()

    with caplog.at_level(logging.INFO), pytest.raises(Exception) as e:
        op.execute({"ti": ti})

    assert type(e.value).__name__ == "AirflowException"
    assert str(e.value).startswith("sparkrca found a root cause: DETERMINISTIC_DATA_FAILURE (CONFIRMED): ")
    assert caplog.records[-1].levelname == "ERROR"
    assert "recommendations:\n  - [IMMEDIATE_FIX] Find and fix the input that partition 2 holds" in caplog.records[-1].getMessage()
    assert ti.pushed["report"]["rootCause"]["kind"] == "DETERMINISTIC_DATA_FAILURE"


def test_warn_keeps_the_task_green_and_returns_the_report_for_xcom(operator_module, sparkrca, fixture, caplog):
    f = fixture("4.0.4", "skew-join")
    op = operator_module.SparkRcaOperator(task_id="diagnose", event_log=f.event_log, sparkrca=sparkrca, on_problem="warn")

    with caplog.at_level(logging.INFO):
        value = op.execute({"ti": _TaskInstance()})

    assert value["outcome"] == "warn" and value["rootCause"]["kind"] == "DATA_SKEW"
    assert caplog.records[-1].levelname == "WARNING"
    assert caplog.records[-1].getMessage().startswith("sparkrca WARN: sparkrca found a root cause: DATA_SKEW")


def test_an_unreadable_input_fails_the_task_with_sparkrcas_message(operator_module, sparkrca, tmp_path):
    op = operator_module.SparkRcaOperator(task_id="diagnose", event_log=str(tmp_path / "gone"), sparkrca=sparkrca)

    with pytest.raises(Exception) as e:
        op.execute({"ti": _TaskInstance()})

    assert type(e.value).__name__ == "AirflowException"
    assert "not found: check the path" in str(e.value)


def test_the_example_dag_wires_the_operator_after_the_spark_task(operator_module):
    # The DAG module needs airflow.DAG and BashOperator too: parse it instead, and check the wiring.
    import ast
    import pathlib
    tree = ast.parse((pathlib.Path(__file__).parents[1] / "dags" / "sparkrca_example_dag.py").read_text())
    calls = {n.func.id: n for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
    diagnose = {k.arg: k.value for k in calls["SparkRcaOperator"].keywords}
    assert ast.literal_eval(diagnose["trigger_rule"]) == "all_done"
    assert ast.literal_eval(diagnose["on_problem"]) == "fail"
    assert set(diagnose) <= set(operator_module.SparkRcaOperator.__init__.__code__.co_varnames) | {"task_id", "trigger_rule"}
    assert any(isinstance(n, ast.BinOp) and isinstance(n.op, ast.RShift) for n in ast.walk(tree))
