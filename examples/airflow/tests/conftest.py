"""Shared set-up: the real sparkrca CLI (cli/target/sparkrca.jar) and the testkit's real Spark runs."""

import json
import os
import pathlib
import sys

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[2]
sys.path.insert(0, str(HERE.parent))

from sparkrca_airflow import core  # noqa: E402


def _jar() -> pathlib.Path:
    return pathlib.Path(os.environ.get("SPARKRCA_JAR", ROOT / "cli" / "target" / "sparkrca.jar"))


@pytest.fixture(scope="session")
def sparkrca():
    jar = _jar()
    if not jar.is_file():
        pytest.fail(f"{jar} is missing: build the CLI first (mvn -B -q -DskipTests package -pl cli -am), "
                    f"or set SPARKRCA_JAR")
    return ["java", "-jar", str(jar)]


class Fixture:
    def __init__(self, version: str, scenario: str):
        self.dir = pathlib.Path(os.environ.get("SPARKRCA_FIXTURES", ROOT / "testkit" / "fixtures")) / f"spark-{version}" / scenario
        if not self.dir.is_dir():
            pytest.fail(f"testkit fixture {self.dir} is missing")
        self.label = json.loads((self.dir / "label.json").read_text())
        self.event_log = str(self.dir / "eventlog")
        self.driver_log = str(self.dir / "driver-stderr.log")


@pytest.fixture(scope="session")
def fixture():
    return Fixture


@pytest.fixture(scope="session")
def analysed(sparkrca):
    """One real CLI run per (version, scenario, with driver log), shared by the tests."""
    cache = {}

    def run(version: str, scenario: str, with_driver_log: bool = True) -> "core.SparkRcaResult":
        key = (version, scenario, with_driver_log)
        if key not in cache:
            f = Fixture(version, scenario)
            cache[key] = core.run_sparkrca(sparkrca, f.event_log, [f.driver_log] if with_driver_log else [])
        return cache[key]

    return run
