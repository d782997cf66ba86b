package io.sparkrca.analysis.rca.internal;

import static io.sparkrca.analysis.rca.internal.Support.fix;
import static io.sparkrca.analysis.rca.internal.Support.prop;
import static io.sparkrca.analysis.rca.internal.Support.tune;

import io.sparkrca.core.model.StageData;
import io.sparkrca.core.report.PropertyChange;
import io.sparkrca.core.report.Recommendation;
import io.sparkrca.core.knowledge.FailureFamily;
import io.sparkrca.core.knowledge.Fix;
import io.sparkrca.core.knowledge.RootCauseKind;
import io.sparkrca.analysis.AnalysisContext;
import io.sparkrca.analysis.EffectiveConf;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What to do about each kind of failure (the log-pattern catalogue's and the OOM troubleshooter's),
 * with preconditions checked against the effective configuration and exact property values computed
 * from the current ones. Platform limits are applied where the platform is known (Dataproc
 * Serverless: about 9.6 GB per executor by default, at least 1024m per core, 4 cores at least);
 * every recommendation is then fitted to Serverless' documented limits, and checked against what
 * the application already sets, by {@link ServerlessLimits}.
 */
final class Remedies {
  private static final Pattern DATA_SOURCE = Pattern.compile("Failed to find (?:the )?data source:? ?([\\w.-]+)");
  private static final Pattern MISSING_CLASS = Pattern.compile("(?:ClassNotFoundException|NoClassDefFoundError): ([\\w.$/]+)");
  private static final Pattern MODULE = Pattern.compile("No module named '([^']+)'");
  private static final Pattern PATH = Pattern.compile("Path does not exist: (\\S+?)\\.?(?:\\s|$)");

  private Remedies() {}

  /**
   * The fix for a failure: the built-in one for its kind, else its knowledge-base family's (the
   * action, why, and the properties with their values).
   */
  static List<Recommendation> forFailure(AnalysisContext ctx, RootCauseKind kind, String text,
      Optional<FailureFamily> family) {
    List<Recommendation> out = forKind(ctx, kind, text);
    if (out.isEmpty() && family.isPresent()) {
      Fix f = family.get().fix();
      List<PropertyChange> props = new ArrayList<>();
      for (Fix.Property p : f.properties()) {
        props.add(prop(ctx.conf(), p.name(), p.value()));
      }
      out = List.of(fix(f.action(), f.rationale(), props));
    }
    return out;
  }

  /** The fix for a non-OOM failure kind, from the failure's text. */
  static List<Recommendation> forKind(AnalysisContext ctx, RootCauseKind kind, String text) {
    EffectiveConf conf = ctx.conf();
    List<Recommendation> out = new ArrayList<>();
    switch (kind) {
      case MISSING_DEPENDENCY -> {
        Matcher ds = DATA_SOURCE.matcher(text);
        Matcher mod = MODULE.matcher(text);
        Matcher cls = MISSING_CLASS.matcher(text);
        String scala = scalaVersion(ctx);
        String spark = ctx.app().map(a -> a.sparkVersion()).filter(v -> !v.isEmpty()).orElse("<spark version>");
        if (ds.find()) {
          String source = ds.group(1);
          if (source.equalsIgnoreCase("avro")) {
            out.add(fix("Ship the Avro data source with the job: it is built into Spark's distribution but not "
                    + "on the default class path.",
                "The job reads format 'avro', and Spark could not find its data source.",
                List.of(prop(conf, "spark.jars.packages", "org.apache.spark:spark-avro_" + scala + ":" + spark))));
          } else {
            out.add(fix("Add the package that provides data source '" + source + "' (spark.jars.packages or --jars), "
                    + "built for Scala " + scala + " and Spark " + spark + ", or correct the format name.",
                "Spark could not find data source '" + source + "' on the class path.", List.of()));
          }
        } else if (mod.find()) {
          out.add(fix("Ship Python module '" + mod.group(1) + "' with the job: --py-files, --archives with a "
                  + "packed environment (venv-pack, conda-pack), or a custom container image; never pip install "
                  + "inside the job.",
              "The Python worker could not import '" + mod.group(1) + "'.", List.of()));
        } else if (cls.find()) {
          out.add(fix("Put class " + cls.group(1).replace('/', '.') + " on the driver's and executors' class path: "
                  + "ship its JAR with --jars or spark.jars.packages, or build an assembly (fat) JAR; if it is "
                  + "there, check for a version conflict (spark.driver.userClassPathFirst / shading).",
              "The JVM could not load the class.", List.of()));
        } else {
          out.add(fix("Align the library versions on the class path with the ones the code was built against "
                  + "(shade or relocate the conflicting dependency).",
              "A method or class the code needs is missing or has another shape at run time.", List.of()));
        }
      }
      case SERIALIZATION_FAILURE -> out.add(fix("Do not capture non-serializable objects (connections, writers, "
              + "locks, the SparkSession) in functions sent to executors: create them inside the task "
              + "(mapPartitions / foreachPartition), mark driver-only fields transient, and broadcast read-only lookups.",
          "Spark must serialize every closure it ships to executors.", List.of()));
      case PYTHON_UDF_FAILURE -> out.add(fix("Fix the exception in the Python UDF at the frame the traceback "
              + "names; guard against missing keys and nulls, or replace the UDF with built-in functions "
              + "(when/coalesce/regexp_extract), which also run far faster.",
          "The Python worker raised an exception on a record.", List.of()));
      case INPUT_NOT_FOUND -> {
        Matcher p = PATH.matcher(text);
        String path = p.find() ? p.group(1) : "the input path";
        out.add(fix("Check that " + path + " exists and is spelled right (list it: gcloud storage ls / hdfs dfs -ls / "
                + "ls), and that the job that writes it ran first; read with a glob or a partition filter if only "
                + "some partitions may be missing.",
            "The driver failed while resolving its input, before any job ran.", List.of()));
      }
      case ACCESS_DENIED -> out.add(fix("Grant the job's identity read access to the input (for Cloud Storage "
              + "roles/storage.objectViewer, or roles/storage.objectUser to write), or run it with an identity "
              + "that has it.",
          "Storage refused the request.", List.of()));
      case WRITE_COMMIT_FAILURE -> {
        String committer = conf.set("spark.sql.sources.outputCommitterClass")
            .or(() -> conf.set("spark.hadoop.mapreduce.outputcommitter.factory.class")).orElse("");
        out.add(fix("Fix what the write or its commit failed on (the error names it): permissions on the output "
                + "path, a file or directory already there, another job writing the same path, or the committer."
                + (committer.isEmpty() ? "" : " This job uses a custom committer (" + committer + "): check it first."),
            "Tasks or the job commit failed while writing the output.",
            committer.isEmpty() ? List.of() : List.of(new PropertyChange("spark.sql.sources.outputCommitterClass",
                Optional.of(committer), "(remove, to use Spark's default committer)"))));
        out.add(tune("Do not let two jobs write the same output path at the same time; write to a staging path "
                + "and rename, or use a table format with atomic commits (Delta, Iceberg, Hudi).",
            "Concurrent writers and retried stages are the usual cause of commit conflicts.", List.of()));
      }
      default -> { }
    }
    return out;
  }

  /** What to change for an out-of-memory error of this kind. */
  static List<Recommendation> oom(AnalysisContext ctx, RootCauseKind kind, Optional<StageData> stage,
      List<String> operators, Optional<String> code) {
    EffectiveConf conf = ctx.conf();
    List<Recommendation> out = new ArrayList<>();
    String heapKey = ctx.heapProperty();
    long heap = conf.bytes(heapKey).orElse(1L << 30);
    long raised = Math.min(heap * 2, serverlessCap(ctx).orElse(Long.MAX_VALUE));
    String place = code.map(c -> " (" + c + ")").orElse("");
    switch (kind) {
      case EXECUTOR_OOM_HEAP, EXECUTOR_OOM_GC_OVERHEAD -> {
        out.add(fix("Give each task less data to hold, or hold less: "
                + (code.isPresent() ? "the code at " + code.get() + " keeps data in memory; iterate instead of collecting a "
                    + "partition into a collection" : "look for what keeps rows in memory (collecting a partition into "
                    + "a list, large per-task maps, wide rows)")
                + ", and split the input into more partitions (repartition, a smaller spark.sql.files.maxPartitionBytes, "
                + "more shuffle partitions).",
            "The heap ran out while a task held its data.", List.of()));
        List<PropertyChange> props = new ArrayList<>();
        props.add(new PropertyChange(heapKey, conf.get(heapKey), EffectiveConf.sparkSize(raised)));
        out.add(tune("Raise the heap only after reducing what each task holds.",
            "Tasks run with " + conf.cite(heapKey) + serverlessNote(ctx) + ".", props));
        OptionalLong cores = conf.number("spark.executor.cores");
        if (cores.isPresent() && cores.getAsLong() > 4) {
          out.add(tune("Run fewer tasks per executor so that each gets a larger share of the heap.",
              conf.cite("spark.executor.cores") + " tasks share each executor's heap.",
              List.of(prop(conf, "spark.executor.cores", Long.toString(Math.max(2, cores.getAsLong() / 2))))));
        }
        if (kind == RootCauseKind.EXECUTOR_OOM_GC_OVERHEAD) {
          out.add(tune("Reduce the live set (cached data, broadcast variables, per-task state) before adding heap: "
                  + "GC overhead means the heap is nearly all live objects.",
              "The JVM spent over 98% of its time in GC and recovered under 2% of the heap.", List.of()));
        }
      }
      case EXECUTOR_OOM_DIRECT_MEMORY -> {
        long overhead = conf.bytes("spark.executor.memoryOverhead").orElse(Math.max(384L << 20, heap / 10));
        out.add(fix("Give executors more off-heap memory and put less pressure on it: fewer concurrent shuffle fetches "
                + "(spark.reducer.maxSizeInFlight), fewer cores per executor, and release direct buffers" + place + ".",
            "Direct (off-heap) buffer memory ran out; it comes out of the overhead, not the heap.",
            List.of(new PropertyChange("spark.executor.memoryOverhead", conf.get("spark.executor.memoryOverhead"),
                EffectiveConf.sparkSize(overhead * 2)))));
        String opts = conf.get("spark.executor.extraJavaOptions").orElse("");
        if (opts.contains("MaxDirectMemorySize")) {
          out.add(tune("Raise or remove -XX:MaxDirectMemorySize in spark.executor.extraJavaOptions: it caps direct memory.",
              "spark.executor.extraJavaOptions sets " + extract(opts, "-XX:MaxDirectMemorySize=\\S+") + ".", List.of()));
        }
      }
      case EXECUTOR_OOM_CONTAINER_KILLED -> {
        long overhead = conf.bytes("spark.executor.memoryOverhead").orElse(Math.max(384L << 20, heap / 10));
        long target = Math.max(overhead * 2, (long) (heap * 0.25));
        out.add(fix("Raise the executor memory overhead (off-heap, Python workers, native buffers live there), or "
                + "lower what each container runs at once.",
            "The container's limit is about spark.executor.memory + spark.executor.memoryOverhead ("
                + EffectiveConf.sparkSize(heap) + " + " + EffectiveConf.sparkSize(overhead)
                + "); low GC time with a kill points at memory outside the heap.",
            List.of(new PropertyChange("spark.executor.memoryOverhead", conf.get("spark.executor.memoryOverhead"),
                EffectiveConf.sparkSize(target)))));
        OptionalLong cores = conf.number("spark.executor.cores");
        if (cores.isPresent() && cores.getAsLong() > 4) {
          out.add(tune("Use fewer cores per executor: concurrent tasks multiply the memory a container needs.",
              conf.cite("spark.executor.cores"), List.of(prop(conf, "spark.executor.cores", "4"))));
        }
      }
      case ACCELERATOR_OOM -> {
        // RAPIDS' own defaults (2 concurrent tasks per GPU in recent releases, a target batch of 1 GiB or more) when unset.
        long tasks = conf.number("spark.rapids.sql.concurrentGpuTasks").orElse(2);
        long batch = conf.bytes("spark.rapids.sql.batchSizeBytes").orElse(1L << 30);
        List<PropertyChange> props = new ArrayList<>();
        if (tasks > 1) {
          props.add(prop(conf, "spark.rapids.sql.concurrentGpuTasks", Long.toString(Math.max(1, tasks / 2))));
        }
        props.add(prop(conf, "spark.rapids.sql.batchSizeBytes", EffectiveConf.sparkSize(Math.max(64L << 20, batch / 2))));
        String fraction = conf.set("spark.rapids.memory.gpu.allocFraction").map(v -> " (it is " + v + "; lowered to share "
            + "the GPU with another process, it leaves the RAPIDS pool less)").orElse(" (it is not set: the pool takes its "
            + "default share)");
        out.add(fix("Give each GPU task less device memory to need at once: smaller GPU batches, fewer tasks sharing a GPU"
                + (tasks > 1 ? "" : " (one already)") + ", and more, smaller partitions for the failing stage; check "
                + "spark.rapids.memory.gpu.allocFraction" + fraction + ".",
            "The GPU's memory is shared by the tasks running on it; the RAPIDS Accelerator already split and retried "
                + "the batch, so the same batch will not fit on a retry: a GPU out of memory is not an error in the data.",
            props));
      }
      case DRIVER_OOM -> {
        out.add(fix("Do not pull the data into the driver" + place + ": write the result out distributed "
                + "(df.write.parquet(...), saveAsTable, a BigQuery write), look at samples with take(n)/limit(n), "
                + "and aggregate before collecting.",
            "collect()/toPandas()/a large broadcast materialises every partition in the driver's heap.", List.of()));
        long driver = conf.bytes("spark.driver.memory").orElse(1L << 30);
        List<PropertyChange> props = new ArrayList<>();
        props.add(new PropertyChange("spark.driver.memory", conf.get("spark.driver.memory"), EffectiveConf.sparkSize(driver * 2)));
        if (conf.set("spark.driver.maxResultSize").map(v -> v.trim().equals("0")).orElse(false)) {
          props.add(new PropertyChange("spark.driver.maxResultSize", Optional.of("0"), "1g"));
        }
        out.add(tune("If the driver really needs the data, give it more heap"
                + (props.size() > 1 ? ", and bound the result size so that an oversized collect fails fast with a "
                    + "clear error instead of an OutOfMemoryError" : "") + ".",
            "The driver runs with " + conf.cite("spark.driver.memory")
                + (props.size() > 1 ? " and spark.driver.maxResultSize=0 (unlimited)" : "") + ".", props));
        if (conf.bytes("spark.sql.autoBroadcastJoinThreshold").orElse(10L << 20) > (64L << 20)) {
          out.add(tune("Lower the broadcast threshold: the driver builds every broadcast relation.",
              conf.cite("spark.sql.autoBroadcastJoinThreshold"),
              List.of(prop(conf, "spark.sql.autoBroadcastJoinThreshold", "10m"))));
        }
      }
      default -> { }
    }
    if (operators.stream().anyMatch(o -> o.startsWith("Broadcast"))) {
      out.add(tune("A broadcast relation stays in every executor's memory while the join's tasks run: check its "
              + "size in the plan, lower spark.sql.autoBroadcastJoinThreshold or drop the broadcast hint if it is large.",
          "The failing stage's plan has " + String.join(", ", operators.stream().filter(o -> o.startsWith("Broadcast")).toList()) + ".",
          List.of()));
    }
    if (operators.contains("Generate explode(arrays_zip(...))")) {
      out.add(tune("Explode or filter the original array of structs instead of explode(arrays_zip(...)), which "
              + "materialises the zipped arrays per row.", "The plan explodes zipped arrays.", List.of()));
    }
    if (operators.contains("AQEShuffleRead coalesced")) {
      out.add(tune("AQE coalesced shuffle partitions, making each task larger: lower "
              + "spark.sql.adaptive.advisoryPartitionSizeInBytes, or turn coalescing off for a diagnostic run.",
          conf.cite("spark.sql.adaptive.advisoryPartitionSizeInBytes"),
          List.of(prop(conf, "spark.sql.adaptive.advisoryPartitionSizeInBytes", "32m"))));
    }
    return out;
  }

  /** The Scala binary version of the application's Spark (2.12 or 2.13), from its class path. */
  static String scalaVersion(AnalysisContext ctx) {
    Optional<String> fromRuntime = ctx.app().flatMap(a -> a.environment())
        .flatMap(e -> e.runtime().scalaVersion()).map(v -> v.replaceAll(".*?(2\\.1[0-3]|3)\\..*", "$1"));
    if (fromRuntime.isPresent() && fromRuntime.get().matches("2\\.1[0-3]|3")) {
      return fromRuntime.get();
    }
    String v = ctx.app().map(a -> a.sparkVersion()).orElse("");
    return v.startsWith("4") ? "2.13" : "2.12";
  }

  /** Dataproc Serverless caps what an executor may have: keep raised memory within the default shape. */
  private static OptionalLong serverlessCap(AnalysisContext ctx) {
    if (ctx.platform() != AnalysisContext.Platform.DATAPROC_SERVERLESS) {
      return OptionalLong.empty();
    }
    long cores = ctx.conf().number("spark.executor.cores").orElse(4);
    // About 9.6 GB in all for the default 4-core executor; memory scales with cores.
    return OptionalLong.of(cores * 2400L * (1L << 20));
  }

  private static String serverlessNote(AnalysisContext ctx) {
    return ctx.platform() == AnalysisContext.Platform.DATAPROC_SERVERLESS
        ? "; on Dataproc Serverless an executor has about 9.6 GB by default (4 cores, at least 1024m per core), so "
            + "raise spark.executor.cores with the memory when more is needed"
        : "";
  }

  private static String extract(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    return m.find() ? m.group() : regex;
  }
}
