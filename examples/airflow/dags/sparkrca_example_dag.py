"""Example DAG: a Spark job, then sparkrca on its event log.

The Spark task writes its event log under EVENT_LOG_DIR with a known application id; the
diagnose task runs whether the job failed or not (trigger_rule="all_done"), fails the DAG run
with the root cause when there is one, and leaves the report in XCom for the tasks after it.
On Composer/Kubernetes, run the CLI in a pod instead (see the KubernetesPodOperator below).
"""

import pendulum
from airflow import DAG
from airflow.operators.bash import BashOperator

from sparkrca_airflow.operator import SparkRcaOperator

EVENT_LOG_DIR = "/tmp/spark-events"
SPARKRCA = ["java", "-jar", "/opt/sparkrca/sparkrca.jar"]

with DAG(
    dag_id="spark_job_with_rca",
    start_date=pendulum.datetime(2026, 1, 1, tz="UTC"),
    schedule=None,
    catchup=False,
    tags=["spark", "sparkrca"],
) as dag:
    spark_job = BashOperator(
        task_id="spark_job",
        bash_command=(
            "spark-submit --master local[2] "
            f"--conf spark.eventLog.enabled=true --conf spark.eventLog.dir=file://{EVENT_LOG_DIR} "
            "--conf spark.app.id=etl-{{ ds_nodash }}-{{ ti.try_number }} "
            "/opt/jobs/etl.py 2> /tmp/etl-{{ ds_nodash }}.driver.log"
        ),
    )

    diagnose = SparkRcaOperator(
        task_id="diagnose",
        event_log=EVENT_LOG_DIR + "/etl-{{ ds_nodash }}-{{ ti.try_number }}",
        driver_logs=["/tmp/etl-{{ ds_nodash }}.driver.log"],
        sparkrca=SPARKRCA,
        on_problem="fail",
        trigger_rule="all_done",
    )

    spark_job >> diagnose

    # The same from a pod (Composer, or any Airflow on Kubernetes), when the CLI lives in an image:
    #
    # from airflow.providers.cncf.kubernetes.operators.pod import KubernetesPodOperator
    # KubernetesPodOperator(
    #     task_id="diagnose_in_pod", name="sparkrca", image="eclipse-temurin:17-jre",
    #     cmds=["java", "-jar", "/opt/sparkrca/sparkrca.jar"],
    #     arguments=["rca", "gs://my-bucket/spark-events/etl-{{ ds_nodash }}", "--format", "json",
    #                "--output", "/airflow/xcom/return.json"],
    #     do_xcom_push=True, trigger_rule="all_done")
    #
    # Exit code 1 (a root cause) fails that pod task; sparkrca_airflow.core.decide() applied to
    # the pulled XCom gives the pass/warn/fail policy of SparkRcaOperator.
