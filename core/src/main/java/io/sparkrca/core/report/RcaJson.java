package io.sparkrca.core.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.core.json.JsonText;
import io.sparkrca.core.redaction.Redactor;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Writes an {@link RcaReport} as JSON in the documented shape (rca-report.schema.json): fields in
 * a fixed order, ISO-8601 instants, absent values as {@code null}, every string redacted.
 */
final class RcaJson {
  private static final ObjectMapper MAPPER = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final Redactor REDACTOR = Redactor.standard();

  private RcaJson() {}

  static String write(RcaReport r) {
    return JsonText.indented(tree(r), "the report");
  }

  /** The report as a JSON tree. */
  static JsonNode tree(RcaReport r) {
    ObjectNode o = MAPPER.createObjectNode();
    o.put("schemaVersion", RcaReport.SCHEMA_VERSION);
    o.set("application", application(r.application()));
    o.put("verdict", r.verdict().name());
    o.set("rootCause", rootCause(r.rootCause()));
    ArrayNode chain = o.putArray("failureChain");
    for (ChainLink l : r.failureChain()) {
      ObjectNode n = chain.addObject();
      n.put("step", l.step());
      instant(n, "time", l.time());
      n.put("role", l.role().name());
      text(n, "event", l.event());
      ref(n, "evidence", l.evidence());
    }
    ArrayNode timeline = o.putArray("timeline");
    for (TimelineEvent t : r.timeline()) {
      ObjectNode n = timeline.addObject();
      n.put("time", t.time().toString());
      text(n, "source", t.source());
      text(n, "event", t.event());
      n.put("approximate", t.approximate());
      ref(n, "evidence", t.evidence());
    }
    ArrayNode findings = o.putArray("findings");
    for (Finding f : r.findings()) {
      ObjectNode n = findings.addObject();
      n.put("id", f.id());
      n.put("kind", f.kind().name());
      n.put("severity", f.severity().name());
      text(n, "title", f.title());
      text(n, "summary", f.summary());
      culprit(n, f.culprit());
      ArrayNode metrics = n.putArray("metrics");
      for (Metric m : f.metrics()) {
        ObjectNode x = metrics.addObject();
        x.put("name", m.name());
        if (Double.isFinite(m.value())) {
          x.put("value", m.value());
        } else {
          x.putNull("value");
        }
        x.put("unit", m.unit());
      }
      n.put("estimatedCostMs", f.estimatedCostMs());
      n.put("costShare", Double.isFinite(f.costShare()) ? f.costShare() : 0);
      n.put("fallout", f.fallout());
      optText(n, "causedBy", f.causedBy());
      refs(n.putArray("evidence"), f.evidence());
      n.put("analyzer", f.analyzer());
    }
    ArrayNode recs = o.putArray("recommendations");
    for (Recommendation rec : r.recommendations()) {
      ObjectNode n = recs.addObject();
      n.put("priority", rec.priority().name());
      text(n, "action", rec.action());
      ArrayNode props = n.putArray("properties");
      for (PropertyChange p : rec.properties()) {
        ObjectNode x = props.addObject();
        x.put("property", p.property());
        if (p.current().isPresent()) {
          x.put("current", REDACTOR.redactProperty(p.property(), p.current().get()));
        } else {
          x.putNull("current");
        }
        x.put("recommended", REDACTOR.redactProperty(p.property(), p.recommended()));
      }
      text(n, "rationale", rec.rationale());
      optText(n, "findingId", rec.findingId());
    }
    ArrayNode missing = o.putArray("missingEvidence");
    for (MissingEvidence m : r.missingEvidence()) {
      ObjectNode n = missing.addObject();
      text(n, "what", m.what());
      n.put("reason", m.reason().name());
      text(n, "detail", m.detail());
      text(n, "whyItMatters", m.whyItMatters());
      text(n, "howToGet", m.howToGet());
    }
    ArrayNode notes = o.putArray("notes");
    r.notes().forEach(s -> notes.add(REDACTOR.redactText(s)));
    return o;
  }

  private static ObjectNode application(ApplicationRef a) {
    ObjectNode n = MAPPER.createObjectNode();
    text(n, "id", a.id());
    text(n, "name", a.name());
    optText(n, "attemptId", a.attemptId());
    n.put("sparkVersion", a.sparkVersion());
    text(n, "user", a.user());
    text(n, "source", a.source());
    n.put("provider", a.provider());
    text(n, "master", a.master());
    instant(n, "startTime", a.startTime());
    instant(n, "endTime", a.endTime());
    if (a.durationMs().isPresent()) {
      n.put("durationMs", a.durationMs().get());
    } else {
      n.putNull("durationMs");
    }
    n.put("outcome", a.outcome().name());
    return n;
  }

  private static ObjectNode rootCause(RootCause rc) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("kind", rc.kind().name());
    text(n, "title", rc.title());
    n.put("confidence", rc.confidence().name());
    text(n, "explanation", rc.explanation());
    culprit(n, rc.culprit());
    optText(n, "codeLocation", rc.codeLocation());
    refs(n.putArray("evidenceFor"), rc.evidenceFor());
    refs(n.putArray("evidenceAgainst"), rc.evidenceAgainst());
    ArrayNode alts = n.putArray("alternatives");
    for (Alternative a : rc.alternatives()) {
      ObjectNode x = alts.addObject();
      x.put("kind", a.kind().name());
      text(x, "title", a.title());
      text(x, "whyRejected", a.whyRejected());
    }
    optText(n, "toConfirm", rc.toConfirm());
    optText(n, "findingId", rc.findingId());
    return n;
  }

  private static void culprit(ObjectNode n, Culprit c) {
    ArrayNode stages = n.putArray("stageIds");
    c.stageIds().forEach(stages::add);
    if (c.partitionIndex().isPresent()) {
      n.put("partitionIndex", c.partitionIndex().get());
    } else {
      n.putNull("partitionIndex");
    }
    ArrayNode execs = n.putArray("executorIds");
    c.executorIds().forEach(execs::add);
    optText(n, "host", c.host());
    if (c.sqlExecutionId().isPresent()) {
      n.put("sqlExecutionId", c.sqlExecutionId().get());
    } else {
      n.putNull("sqlExecutionId");
    }
    optText(n, "operator", c.operator());
  }

  private static void refs(ArrayNode out, List<EvidenceRef> refs) {
    for (EvidenceRef r : refs) {
      out.add(ref(r));
    }
  }

  private static ObjectNode ref(EvidenceRef r) {
    ObjectNode x = MAPPER.createObjectNode();
    x.put("kind", r.kind().name());
    text(x, "source", r.source());
    x.put("line", r.line());
    text(x, "detail", r.detail());
    return x;
  }

  private static void ref(ObjectNode n, String field, Optional<EvidenceRef> r) {
    if (r.isPresent()) {
      n.set(field, ref(r.get()));
    } else {
      n.putNull(field);
    }
  }

  private static void text(ObjectNode n, String field, String value) {
    n.put(field, REDACTOR.redactText(value));
  }

  private static void optText(ObjectNode n, String field, Optional<String> value) {
    if (value.isPresent()) {
      text(n, field, value.get());
    } else {
      n.putNull(field);
    }
  }

  private static void instant(ObjectNode n, String field, Optional<Instant> t) {
    if (t.isPresent()) {
      n.put(field, t.get().toString());
    } else {
      n.putNull(field);
    }
  }
}
