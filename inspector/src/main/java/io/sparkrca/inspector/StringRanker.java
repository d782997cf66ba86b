package io.sparkrca.inspector;

import io.sparkrca.inspector.StringConstant.Kind;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Classifies and scores string literals: SQL text and table names first, then paths and URIs,
 * configuration keys, formats, messages; identifiers, descriptors and format fragments are noise.
 * The call a literal is passed to, when known, overrides the guess from its shape.
 */
final class StringRanker {
  static final int NOISE = 10;

  private static final Pattern SQL = Pattern.compile(
      "(?is)^\\s*(?:/\\*.*?\\*/\\s*)?(?:(?:select|with)\\b.+\\bfrom\\b|insert\\s+(?:into|overwrite)\\b"
          + "|create\\s+(?:or\\s+replace\\s+)?(?:temporary\\s+|temp\\s+|global\\s+|external\\s+)*"
          + "(?:table|view|database|schema|function)\\b|merge\\s+into\\b|delete\\s+from\\b"
          + "|update\\s+\\S+\\s+set\\b|drop\\s+(?:table|view)\\b|alter\\s+table\\b"
          + "|(?:cache|uncache|refresh|msck\\s+repair|analyze)\\s+table\\b|truncate\\s+table\\b"
          + "|show\\s+(?:tables|partitions|databases)\\b|describe\\s+\\S+|set\\s+spark\\.)");
  private static final Pattern SQL_FRAGMENT = Pattern.compile(
      "(?i)\\b(select|from|where|join|group\\s+by|order\\s+by|insert\\s+into|partition\\s+by)\\b");
  private static final Pattern URI = Pattern.compile(
      "(?i)^(gs|s3|s3a|s3n|hdfs|abfs|abfss|wasb|wasbs|adl|file|dbfs|oci|viewfs|maprfs|https?|ftp"
          + "|alluxio|cos|oss|obs|webhdfs|swebhdfs)://\\S*$");
  private static final Pattern JDBC = Pattern.compile("(?i)^jdbc:[a-z0-9]+:.*");
  private static final Pattern ABS_PATH = Pattern.compile("^(?:/[\\w.@%+=~-]+){2,}/?$|^[A-Za-z]:\\\\\\S+");
  private static final Pattern FILE_LIKE = Pattern.compile(
      "(?i)^[\\w./-]+\\.(parquet|csv|tsv|json|jsonl|orc|avro|txt|delta|conf|properties|yaml|yml"
          + "|xml|py|jar|zip|gz|sql|ndjson|xlsx)$");
  private static final Pattern CONFIG = Pattern.compile(
      "^(spark|hadoop|fs|mapreduce|mapred|yarn|hive|parquet|delta|iceberg|io\\.delta|dfs"
          + "|kafka|google|gcs|datanucleus|javax\\.jdo|es|hoodie|avro|orc|park)"
          + "\\.[A-Za-z0-9_.$\\[\\]-]+$");
  private static final Pattern TABLE = Pattern.compile(
      "^`?[a-z_][a-z0-9_]*`?(\\.`?[a-z_][a-z0-9_]*`?){1,2}$");
  private static final Pattern BQ_TABLE = Pattern.compile("^[a-z][a-z0-9-]{4,29}[:.][a-z_]\\w*\\.[a-z_]\\w*$");
  private static final Pattern DESCRIPTOR = Pattern.compile(
      "^\\(?(\\[*(L[\\w/$]+;|[BCDFIJSZV]))*\\)?(\\[*(L[\\w/$]+;|[BCDFIJSZV]))?$");
  private static final Pattern IDENTIFIER = Pattern.compile("^[\\w$<>-]+$");
  private static final Pattern CLASS_NAME = Pattern.compile("^([a-z_][\\w]*[./])+[A-Z$][\\w$]*$");
  private static final Set<String> FORMATS = Set.of("parquet", "delta", "csv", "json", "orc",
      "avro", "text", "jdbc", "iceberg", "hudi", "bigquery", "kafka", "overwrite", "append",
      "ignore", "errorifexists", "error", "libsvm", "binaryFile", "console", "memory", "noop",
      "com.databricks.spark.avro", "com.google.cloud.spark.bigquery");

  /** Calls whose string argument tells what the literal is. */
  private static final Map<String, Kind> USAGE = Map.ofEntries(
      Map.entry("sql", Kind.SQL),
      Map.entry("table", Kind.TABLE),
      Map.entry("saveAsTable", Kind.TABLE),
      Map.entry("insertInto", Kind.TABLE),
      Map.entry("writeTo", Kind.TABLE),
      Map.entry("toTable", Kind.TABLE),
      Map.entry("createOrReplaceTempView", Kind.TABLE),
      Map.entry("createTempView", Kind.TABLE),
      Map.entry("createGlobalTempView", Kind.TABLE),
      Map.entry("createOrReplaceGlobalTempView", Kind.TABLE),
      Map.entry("cacheTable", Kind.TABLE),
      Map.entry("uncacheTable", Kind.TABLE),
      Map.entry("refreshTable", Kind.TABLE),
      Map.entry("tableExists", Kind.TABLE),
      Map.entry("load", Kind.PATH),
      Map.entry("save", Kind.PATH),
      Map.entry("parquet", Kind.PATH),
      Map.entry("csv", Kind.PATH),
      Map.entry("json", Kind.PATH),
      Map.entry("orc", Kind.PATH),
      Map.entry("text", Kind.PATH),
      Map.entry("textFile", Kind.PATH),
      Map.entry("wholeTextFiles", Kind.PATH),
      Map.entry("binaryFiles", Kind.PATH),
      Map.entry("saveAsTextFile", Kind.PATH),
      Map.entry("saveAsObjectFile", Kind.PATH),
      Map.entry("objectFile", Kind.PATH),
      Map.entry("sequenceFile", Kind.PATH),
      Map.entry("addFile", Kind.PATH),
      Map.entry("addJar", Kind.PATH),
      Map.entry("setCheckpointDir", Kind.PATH),
      Map.entry("config", Kind.CONFIG_KEY),
      Map.entry("set", Kind.CONFIG_KEY),
      Map.entry("setIfMissing", Kind.CONFIG_KEY),
      Map.entry("option", Kind.CONFIG_KEY),
      Map.entry("getConf", Kind.CONFIG_KEY),
      Map.entry("setConf", Kind.CONFIG_KEY),
      Map.entry("format", Kind.FORMAT),
      Map.entry("mode", Kind.FORMAT));

  /** A classification. */
  record Ranked(Kind kind, int score) {}

  /** The kind a call gives its first string argument, when the call is one that tells. */
  static Optional<Kind> usageKind(String owner, String name) {
    Kind k = USAGE.get(name);
    if (k == null) {
      if ((name.equals("<init>") && (owner.equals("org/apache/hadoop/fs/Path")
          || owner.equals("java/io/File")))
          || (name.equals("get") && owner.equals("java/nio/file/Paths"))
          || (name.equals("of") && owner.equals("java/nio/file/Path"))) {
        return Optional.of(Kind.PATH);
      }
      if ((name.equals("get") || name.equals("getOption") || name.equals("contains"))
          && (owner.endsWith("/SparkConf") || owner.endsWith("/RuntimeConfig")
              || owner.endsWith("/Configuration"))) {
        return Optional.of(Kind.CONFIG_KEY);
      }
      return Optional.empty();
    }
    // Generic names (set, get, load, text...) count only on Spark/Hadoop owners.
    boolean sparkish = owner.startsWith("org/apache/spark/") || owner.startsWith("org/apache/hadoop/")
        || owner.startsWith("io/delta/") || owner.startsWith("org/apache/iceberg/");
    return sparkish ? Optional.of(k) : Optional.empty();
  }

  static Ranked rank(String s, Optional<Kind> usage) {
    String t = s.strip();
    if (t.length() < 2) {
      return new Ranked(Kind.OTHER, 0);
    }
    if (usage.isPresent()) {
      return switch (usage.get()) {
        case SQL -> new Ranked(Kind.SQL, 100);
        case TABLE -> new Ranked(Kind.TABLE, 90);
        case PATH -> new Ranked(Kind.PATH, 85);
        case CONFIG_KEY -> new Ranked(Kind.CONFIG_KEY, CONFIG.matcher(t).matches() ? 70 : 55);
        case FORMAT -> new Ranked(Kind.FORMAT, 30);
        default -> rank(s, Optional.empty());
      };
    }
    String lower = lower(t);
    boolean dot = t.indexOf('.') >= 0;
    boolean slash = t.indexOf('/') >= 0 || t.indexOf('\\') >= 0;
    if (mayBeSql(lower) && SQL.matcher(t).find()) {
      return new Ranked(Kind.SQL, 95);
    }
    if (lower.startsWith("jdbc:") && JDBC.matcher(t).matches()) {
      return new Ranked(Kind.PATH, 88);
    }
    if (t.contains("://") && URI.matcher(t).matches()) {
      return new Ranked(Kind.PATH, 85);
    }
    if (slash && (ABS_PATH.matcher(t).matches() || dot && FILE_LIKE.matcher(t).matches())) {
      return new Ranked(Kind.PATH, 70);
    }
    if (dot && CONFIG.matcher(t).matches()) {
      return new Ranked(Kind.CONFIG_KEY, 65);
    }
    if (dot && (BQ_TABLE.matcher(t).matches() || TABLE.matcher(t).matches() && t.contains("_"))) {
      return new Ranked(Kind.TABLE, 50);
    }
    if (dot && FILE_LIKE.matcher(t).matches()) {
      return new Ranked(Kind.PATH, 45);
    }
    if (FORMATS.contains(t)) {
      return new Ranked(Kind.FORMAT, 25);
    }
    if (mayBeSql(lower) && sqlKeywords(t) >= 2 && t.indexOf(' ') > 0 && t.length() > 12) {
      return new Ranked(Kind.SQL, 60);
    }
    if (DESCRIPTOR.matcher(t).matches() || CLASS_NAME.matcher(t).matches()
        || t.startsWith("%") && t.length() < 8) {
      return new Ranked(Kind.OTHER, 2);
    }
    if (t.indexOf(' ') > 0 && t.length() >= 12 && letters(t) >= t.length() / 2) {
      return new Ranked(Kind.MESSAGE, 15);
    }
    if (IDENTIFIER.matcher(t).matches()) {
      return new Ranked(Kind.OTHER, t.length() >= 4 ? 6 : 1);
    }
    return new Ranked(Kind.OTHER, 5);
  }

  private static final String[] SQL_WORDS = {"select", "insert", "create", "merge", "delete",
      "update", "drop", "alter", "cache", "refresh", "msck", "analyze", "truncate", "show",
      "describe", "set ", "with ", "from", "where", "join", "group", "order", "partition"};

  private static boolean mayBeSql(String lower) {
    for (String w : SQL_WORDS) {
      if (lower.contains(w)) {
        return true;
      }
    }
    return false;
  }

  private static int sqlKeywords(String t) {
    java.util.Set<String> seen = new java.util.HashSet<>();
    java.util.regex.Matcher m = SQL_FRAGMENT.matcher(t);
    while (m.find()) {
      seen.add(m.group(1).toLowerCase(Locale.ROOT).replaceAll("\\s+", " "));
    }
    return seen.size();
  }

  private static int letters(String t) {
    int n = 0;
    for (int i = 0; i < t.length(); i++) {
      if (Character.isLetter(t.charAt(i))) {
        n++;
      }
    }
    return n;
  }

  /** Lowercase without locale surprises. */
  static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }
}
