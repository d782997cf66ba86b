package io.sparkrca.inspector;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sparkrca.inspector.ArchiveOverview.ClassVersion;
import io.sparkrca.inspector.ArchiveOverview.EntrySize;
import io.sparkrca.inspector.ArchiveOverview.NestedArchive;
import io.sparkrca.inspector.ArchiveOverview.PackageCount;
import io.sparkrca.inspector.ArchiveOverview.Relocation;
import io.sparkrca.inspector.ClassView.Call;
import io.sparkrca.inspector.ClassView.ClassDetail;
import io.sparkrca.inspector.ClassView.MethodSummary;
import java.util.List;
import java.util.Locale;

/**
 * The JSON renderings: the same facts as the text, as fields with stable camelCase names.
 * Absent optional values are left out rather than written as null.
 */
final class JsonRender {
  private static final ObjectMapper MAPPER = new ObjectMapper()
      .enable(SerializationFeature.INDENT_OUTPUT);

  private JsonRender() {}

  private static String write(ObjectNode n) {
    return io.sparkrca.core.json.JsonText.indented(n, "the inspection") + "\n";
  }

  private static ArrayNode strings(ObjectNode parent, String field, List<String> values) {
    ArrayNode a = parent.putArray(field);
    values.forEach(a::add);
    return a;
  }

  static String overview(ArchiveOverview o) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("kind", "archive");
    n.put("source", o.source());
    n.put("sizeBytes", o.sizeBytes());
    n.put("estimated", o.estimated());
    o.sample().ifPresent(s -> {
      ObjectNode x = n.putObject("sample");
      x.put("note", "sampled central directory: files, directories, classes, uncompressedBytes "
          + "and compressedBytes are estimates; package and relocation class counts are the "
          + "classes seen (lower bounds); entries, lists and warnings in the unread parts are "
          + "missing");
      x.put("directoryBytes", s.directoryBytes());
      x.put("bytesRead", s.bytesRead());
      x.put("fractionRead", s.fractionRead());
      x.put("windows", s.windows());
      x.put("entriesRead", s.entriesRead());
      x.put("declaredEntries", s.declaredEntries());
      x.put("unreadClasses", s.unreadClasses());
    });
    n.put("entries", o.entries());
    n.put("declaredEntries", o.declaredEntries());
    n.put("files", o.files());
    n.put("directories", o.directories());
    n.put("classes", o.classes());
    n.put("uncompressedBytes", o.uncompressedBytes());
    n.put("compressedBytes", o.compressedBytes());
    o.mainClass().ifPresent(m -> n.put("mainClass", m));
    ObjectNode mf = n.putObject("manifest");
    o.manifest().forEach(mf::put);
    n.put("packageCount", o.packages().size());
    ArrayNode pk = n.putArray("packages");
    for (PackageCount p : o.packages()) {
      ObjectNode x = pk.addObject();
      x.put("name", p.name());
      x.put("classes", p.classes());
      if (p.sources() > 0) {
        x.put("sources", p.sources());
      }
    }
    strings(n, "keyEntries", o.keyEntries());
    n.put("keyEntriesTotal", o.keyEntriesTotal());
    ArrayNode na = n.putArray("nestedArchives");
    for (NestedArchive a : o.nestedArchives()) {
      ObjectNode x = na.addObject();
      x.put("name", a.name());
      x.put("sizeBytes", a.sizeBytes());
      x.put("stored", a.stored());
    }
    ArrayNode rl = n.putArray("relocations");
    for (Relocation r : o.relocations()) {
      ObjectNode x = rl.addObject();
      x.put("prefix", r.prefix());
      x.put("original", r.original());
      x.put("classes", r.classes());
    }
    strings(n, "bundledArtifacts", o.bundledArtifacts());
    ArrayNode cv = n.putArray("classVersions");
    for (ClassVersion v : o.classVersions()) {
      ObjectNode x = cv.addObject();
      x.put("major", v.major());
      x.put("java", v.java());
      x.put("sampled", v.sampled());
    }
    o.scala().ifPresent(s -> {
      ObjectNode x = n.putObject("scala");
      x.put("version", s.version());
      x.put("evidence", s.evidence());
    });
    ArrayNode le = n.putArray("largestEntries");
    for (EntrySize e : o.largestEntries()) {
      ObjectNode x = le.addObject();
      x.put("name", e.name());
      x.put("sizeBytes", e.sizeBytes());
      x.put("compressedBytes", e.compressedBytes());
    }
    strings(n, "warnings", o.warnings());
    strings(n, "notes", o.notes());
    n.put("drillIn", o.drillIn().words());
    return write(n);
  }

  private static void findings(ObjectNode n, List<Finding> findings, int omitted) {
    // The cap on findings, said the way the other caps say it: a total beside the list.
    n.put("findingsTotal", findings.size() + omitted);
    n.put("findingsOmitted", omitted);
    if (omitted > 0) {
      n.put("findingsCut", FindingCap.describe(findings.size(), omitted));
    }
    ArrayNode a = n.putArray("findings");
    for (Finding f : findings) {
      ObjectNode x = a.addObject();
      x.put("pattern", f.pattern().id());
      x.put("title", f.pattern().title());
      x.put("file", f.file());
      f.className().ifPresent(c -> x.put("class", c));
      f.method().ifPresent(m -> x.put("method", m));
      f.line().ifPresent(l -> x.put("line", l));
      x.put("evidence", f.evidence());
      x.put("remediation", f.remediation());
    }
  }

  static String classView(ClassView v) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("kind", "class");
    n.put("source", v.source());
    findings(n, v.findings(), v.findingsOmitted());
    int budget = v.lineBudget();
    ArrayNode classes = n.putArray("classes");
    boolean cut = false;
    for (ClassDetail c : v.classes()) {
      ObjectNode x = classes.addObject();
      x.put("entry", c.entry());
      x.put("name", c.name());
      x.put("followedBecause", c.followedBecause());
      x.put("majorVersion", c.majorVersion());
      x.put("minorVersion", c.minorVersion());
      x.put("java", c.java());
      c.sourceFile().ifPresent(s -> x.put("sourceFile", s));
      x.put("declaration", c.declaration());
      x.put("scala", c.scala());
      c.malformed().ifPresent(m -> x.put("malformed", m));
      strings(x, "fields", c.fields());
      ArrayNode ms = x.putArray("methods");
      for (MethodSummary m : c.methods()) {
        ObjectNode y = ms.addObject();
        y.put("name", m.name());
        y.put("descriptor", m.descriptor());
        y.put("declaration", m.declaration());
        m.firstLine().ifPresent(l -> y.put("firstLine", l));
        y.put("instructions", m.instructions());
        ArrayNode calls = y.putArray("calls");
        for (Call call : m.calls()) {
          ObjectNode z = calls.addObject();
          z.put("kind", call.kind().name().toLowerCase(Locale.ROOT));
          z.put("target", call.target());
          call.line().ifPresent(l -> z.put("line", l));
          call.spark().ifPresent(s -> z.put("spark", s));
        }
      }
      ArrayNode ss = x.putArray("strings");
      for (StringConstant s : c.strings()) {
        ObjectNode y = ss.addObject();
        y.put("value", s.value());
        y.put("kind", s.kind().name().toLowerCase(Locale.ROOT));
        y.put("score", s.score());
        y.put("method", s.method());
        s.line().ifPresent(l -> y.put("line", l));
        s.usedBy().ifPresent(u -> y.put("usedBy", u));
        y.put("occurrences", s.occurrences());
      }
      x.put("lowInterestStrings", c.lowInterestStrings());
      int take = Math.max(0, Math.min(budget, c.listing().size()));
      strings(x, "disassembly", c.listing().subList(0, take));
      if (take < c.listing().size()) {
        x.put("disassemblyCut", true);
        cut = true;
      }
      budget -= take;
    }
    strings(n, "omittedClasses", v.omittedClasses());
    n.put("lineBudget", v.lineBudget());
    n.put("cut", cut);
    strings(n, "notes", v.notes());
    return write(n);
  }

  static String source(SourceView s) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("kind", s.entry() ? "entry" : "file");
    n.put("source", s.source());
    n.put("language", s.language());
    n.put("firstLine", s.firstLine());
    n.put("totalLines", s.totalLines());
    n.put("totalLinesExact", s.totalLinesExact());
    n.put("truncated", s.truncated());
    ArrayNode lines = n.putArray("lines");
    int i = s.firstLine();
    for (String l : s.lines()) {
      ObjectNode x = lines.addObject();
      x.put("n", i++);
      x.put("text", l);
    }
    findings(n, s.findings(), s.findingsOmitted());
    strings(n, "notes", s.notes());
    return write(n);
  }

  static String findings(FindingsReport r) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("kind", "findings");
    n.put("source", r.source());
    n.put("classesScanned", r.classesScanned());
    n.put("sourcesScanned", r.sourcesScanned());
    findings(n, r.findings(), r.findingsOmitted());
    strings(n, "notes", r.notes());
    return write(n);
  }
}
