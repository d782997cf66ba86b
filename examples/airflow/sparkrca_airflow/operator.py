"""SparkRcaOperator: runs sparkrca after a Spark task, fails or warns the task, pushes the report to XCom.

A thin Airflow wrapper over ``sparkrca_airflow.core`` (all the logic lives there, tested without
Airflow). Example::

    diagnose = SparkRcaOperator(
        task_id="diagnose",
        event_log="gs://my-bucket/spark-events/{{ ti.xcom_pull('spark_job', key='application_id') }}",
        driver_logs=["/var/log/spark/driver.log"],
        sparkrca=["java", "-jar", "/opt/sparkrca/sparkrca.jar"],
        on_problem="fail",          # or "warn": log the root cause, keep the task green
        trigger_rule="all_done",    # diagnose the Spark task whether it failed or not
    )
"""

from typing import Any, Optional, Sequence

from airflow.exceptions import AirflowException
from airflow.models import BaseOperator

from . import core


class SparkRcaOperator(BaseOperator):
    """Diagnoses one Spark application with the ``sparkrca`` CLI.

    Exit 0 (healthy): the task succeeds. Exit 1 (a root cause, or not enough evidence): the task
    fails (``on_problem="fail"``) or logs a warning (``"warn"``), the root cause and the
    recommendations in the task log either way. Exit 2 (bad input, fetch failure): the task fails
    with sparkrca's message. The returned summary (outcome, verdict, root cause, recommendations,
    the report) is pushed to XCom as ``return_value``.
    """

    template_fields = ("event_log", "driver_logs", "executor_logs", "baseline", "extra_args")

    def __init__(self, *, event_log: str, driver_logs: Sequence[str] = (), executor_logs: Sequence[str] = (),
                 baseline: Optional[str] = None, sparkrca: Sequence[str] = ("sparkrca",),
                 extra_args: Sequence[str] = (), on_problem: str = "fail", on_undetermined: str = "warn",
                 timeout_seconds: float = 600, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.event_log = event_log
        self.driver_logs = list(driver_logs)
        self.executor_logs = list(executor_logs)
        self.baseline = baseline
        self.sparkrca = list(sparkrca)
        self.extra_args = list(extra_args)
        self.on_problem = on_problem
        self.on_undetermined = on_undetermined
        self.timeout_seconds = timeout_seconds

    def execute(self, context: Any) -> dict:
        try:
            result = core.run_sparkrca(self.sparkrca, self.event_log, self.driver_logs, self.executor_logs,
                                       self.baseline, self.extra_args, self.timeout_seconds)
        except core.SparkRcaError as e:
            raise AirflowException(str(e)) from e
        decision = core.decide(result, self.on_problem, self.on_undetermined)
        text = core.format_log(result, decision)
        value = core.xcom_value(result, decision)
        if decision.outcome is core.Outcome.FAIL:
            self.log.error("%s", text)
            # The report is useful on failure too: push it before failing (return values are not pushed then).
            context["ti"].xcom_push(key="report", value=value)
            raise AirflowException(decision.reason)
        if decision.outcome is core.Outcome.WARN:
            self.log.warning("%s", text)
        else:
            self.log.info("%s", text)
        return value
