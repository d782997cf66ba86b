"""The logic of SparkRcaOperator, in plain Python: run the ``sparkrca`` CLI, parse its
``--format json`` report, decide pass/warn/fail, and format the task log and the XCom value.

Example::

    result = run_sparkrca(["java", "-jar", "sparkrca.jar"], "gs://bucket/spark-events/app-1",
                          driver_logs=["gs://bucket/logs/driver.log"])
    decision = decide(result, on_problem="fail")
    print(format_log(result, decision))

The CLI's contract: exit 0 nothing wrong found (verdict HEALTHY), 1 a problem found (PROBLEM, or
UNDETERMINED when the evidence was not enough), 2 an error (bad input, fetch failure), with a JSON
``{"status": "ERROR", "error": {"message": ...}}`` on stdout under ``--format json``.
"""

import enum
import json
import subprocess
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence

# Bounds on what reaches the task log and XCom (XCom lives in Airflow's metadata database).
MAX_LOG_CHARS = 8000
MAX_ITEMS = 5
MAX_TEXT = 600


class SparkRcaError(Exception):
    """sparkrca could not analyse the run (exit 2, a timeout, output that is not its report)."""


class Outcome(enum.Enum):
    PASS = "pass"
    WARN = "warn"
    FAIL = "fail"


@dataclass(frozen=True)
class SparkRcaResult:
    """One run of ``sparkrca rca``: its exit code, its parsed JSON report and its command line."""

    exit_code: int
    report: Dict[str, Any]
    command: List[str]
    stderr: str = ""

    @property
    def verdict(self) -> str:
        return str(self.report.get("verdict", "UNDETERMINED"))

    @property
    def root_cause(self) -> Dict[str, Any]:
        return self.report.get("rootCause") or {}


@dataclass(frozen=True)
class Decision:
    outcome: Outcome
    reason: str
    details: List[str] = field(default_factory=list)


def build_command(sparkrca: Sequence[str], event_log: str, driver_logs: Sequence[str] = (),
                  executor_logs: Sequence[str] = (), baseline: Optional[str] = None,
                  extra_args: Sequence[str] = ()) -> List[str]:
    """The ``sparkrca rca ... --format json`` command line for one application."""
    if not event_log:
        raise ValueError("event_log is required: the event-log file, directory or URI of the Spark application")
    cmd = list(sparkrca) + ["rca", event_log]
    for d in driver_logs:
        cmd += ["--driver-log", d]
    for e in executor_logs:
        cmd += ["--executor-log", e]
    if baseline:
        cmd += ["--baseline", baseline]
    cmd += list(extra_args)
    cmd += ["--format", "json"]
    return cmd


def run_sparkrca(sparkrca: Sequence[str], event_log: str, driver_logs: Sequence[str] = (),
                 executor_logs: Sequence[str] = (), baseline: Optional[str] = None,
                 extra_args: Sequence[str] = (), timeout_seconds: float = 600,
                 env: Optional[Dict[str, str]] = None) -> SparkRcaResult:
    """Runs the CLI and parses its report; raises SparkRcaError when it could not produce one."""
    cmd = build_command(sparkrca, event_log, driver_logs, executor_logs, baseline, extra_args)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_seconds, env=env, check=False)
    except FileNotFoundError as e:
        raise SparkRcaError(f"cannot run {cmd[0]!r}: {e.strerror}; install the sparkrca CLI, or pass "
                            f"sparkrca=['java', '-jar', '/path/to/sparkrca.jar']") from e
    except subprocess.TimeoutExpired as e:
        raise SparkRcaError(f"sparkrca did not finish within {timeout_seconds:g} s analysing {event_log}; "
                            f"raise timeout_seconds, or give a smaller input") from e
    stderr = (proc.stderr or "")[-MAX_TEXT:]
    try:
        report = json.loads(proc.stdout)
    except ValueError as e:
        raise SparkRcaError(f"sparkrca exited {proc.returncode} without a JSON report for {event_log}: "
                            f"{_first_line(stderr) or _first_line(proc.stdout) or 'no output'}") from e
    if proc.returncode == 2 or report.get("status") == "ERROR":
        message = (report.get("error") or {}).get("message") or _first_line(stderr) or "no message"
        raise SparkRcaError(f"sparkrca could not analyse {event_log}: {message}")
    if proc.returncode not in (0, 1) or "verdict" not in report:
        raise SparkRcaError(f"sparkrca exited {proc.returncode} with output that is not its RCA report "
                            f"(no verdict) for {event_log}")
    return SparkRcaResult(proc.returncode, report, cmd, stderr)


def decide(result: SparkRcaResult, on_problem: str = "fail", on_undetermined: str = "warn") -> Decision:
    """PASS for a healthy run; for PROBLEM and UNDETERMINED, what ``on_problem``/``on_undetermined`` say."""
    for name, value in (("on_problem", on_problem), ("on_undetermined", on_undetermined)):
        if value not in ("fail", "warn", "pass"):
            raise ValueError(f"{name} must be 'fail', 'warn' or 'pass', not {value!r}")
    rc = result.root_cause
    headline = f"{rc.get('kind', '?')} ({rc.get('confidence', '?')}): {rc.get('title', '')}".strip()
    if result.exit_code == 0 and result.verdict == "HEALTHY":
        return Decision(Outcome.PASS, f"sparkrca found no problem: {headline}")
    policy = on_undetermined if result.verdict == "UNDETERMINED" else on_problem
    what = "could not determine a root cause" if result.verdict == "UNDETERMINED" else "found a root cause"
    details = [_clip(r.get("action", "")) for r in (result.report.get("recommendations") or [])[:MAX_ITEMS]]
    return Decision(Outcome(policy), f"sparkrca {what}: {headline}", [d for d in details if d])


def format_log(result: SparkRcaResult, decision: Decision) -> str:
    """The lines for the task log: the verdict, the root cause, the recommendations, what was missing."""
    r = result.report
    app = r.get("application") or {}
    rc = result.root_cause
    lines = [f"sparkrca {decision.outcome.value.upper()}: {decision.reason}",
             f"application {app.get('id', '?')} ({app.get('name', '')}), Spark {app.get('sparkVersion', '?')}, "
             f"outcome {app.get('outcome', '?')}"]
    if rc.get("explanation"):
        lines.append("root cause: " + _clip(rc["explanation"]))
    if rc.get("stageIds"):
        lines.append("stages: " + ", ".join(str(s) for s in rc["stageIds"]))
    recs = (r.get("recommendations") or [])[:MAX_ITEMS]
    if recs:
        lines.append("recommendations:")
        for rec in recs:
            props = ", ".join(f"{p.get('property')}={p.get('recommended')}" for p in rec.get("properties") or [])
            lines.append(f"  - [{rec.get('priority', '')}] {_clip(rec.get('action', ''))}" + (f" ({props})" if props else ""))
    missing = (r.get("missingEvidence") or [])[:MAX_ITEMS]
    if missing:
        lines.append("missing evidence: " + "; ".join(f"{m.get('what')} ({m.get('reason')})" for m in missing))
    text = "\n".join(lines)
    if len(text) > MAX_LOG_CHARS:
        text = text[:MAX_LOG_CHARS] + f"\n[cut at {MAX_LOG_CHARS} characters; the whole report is in XCom 'report']"
    return text


def xcom_value(result: SparkRcaResult, decision: Decision) -> Dict[str, Any]:
    """A small JSON-serializable summary for XCom (the whole report under 'report', findings capped)."""
    rc = result.root_cause
    report = dict(result.report)
    findings = report.get("findings") or []
    if len(findings) > MAX_ITEMS:
        report["findings"] = findings[:MAX_ITEMS]
        report["notes"] = list(report.get("notes") or []) + [
            f"XCom copy: {len(findings) - MAX_ITEMS} of {len(findings)} findings left out"]
    return {
        "outcome": decision.outcome.value,
        "verdict": result.verdict,
        "exitCode": result.exit_code,
        "rootCause": {k: rc.get(k) for k in ("kind", "title", "confidence", "stageIds")},
        "recommendations": [rec.get("action") for rec in (result.report.get("recommendations") or [])[:MAX_ITEMS]],
        "report": report,
    }


def _first_line(text: str) -> str:
    return next((line.strip() for line in (text or "").splitlines() if line.strip()), "")


def _clip(text: str) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= MAX_TEXT else text[:MAX_TEXT] + " [...]"
