"""Run sparkrca after a Spark task and decide pass, warn or fail from its JSON report.

``sparkrca_airflow.core`` is plain Python (no Airflow import), so it is tested without Airflow;
``sparkrca_airflow.operator.SparkRcaOperator`` is the thin Airflow wrapper over it.
"""

from .core import Decision, Outcome, SparkRcaError, SparkRcaResult, decide, format_log, run_sparkrca, xcom_value

__all__ = ["Decision", "Outcome", "SparkRcaError", "SparkRcaResult", "decide", "format_log", "run_sparkrca", "xcom_value"]
