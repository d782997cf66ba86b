package io.sparkrca.testing.junit;

import io.sparkrca.core.app.SparkApplication;
import io.sparkrca.testing.SparkAssertions;
import io.sparkrca.testing.junit.internal.SparkReflection;
import io.sparkrca.testing.junit.internal.SparkSessionHolder;
import io.sparkrca.testing.junit.internal.TestRun;
import java.lang.reflect.AnnotatedElement;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.AfterTestExecutionCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link SparkTest}: starts a local SparkSession with its event log in
 * a temporary directory (or reuses the one the JVM runs, or lets the code under test build its
 * own), gives tests the session, its context and their {@link SparkRun}, and after each test body
 * replays the run and applies the checks declared on the test ({@link NoFailedStages} and the
 * others). Configure it with {@code @SparkTest}, or in code:
 *
 * <pre>{@code
 * @RegisterExtension
 * static SparkRcaExtension spark = SparkRcaExtension.builder()
 *     .master("local[2,2]")
 *     .conf("spark.sql.adaptive.enabled", "false")
 *     .configure(SparkSession.Builder.class, b -> b.enableHiveSupport())
 *     .build();
 * }</pre>
 *
 * Parameters it resolves: the {@code SparkSession} (or any supertype of it), the {@code
 * SparkContext}, a {@code JavaSparkContext}, the {@link SparkRun}, and, in {@code @AfterEach}
 * methods only, the test's {@link SparkApplication}. Tests of one class run on one session, one
 * after the other; running them in parallel is not supported.
 */
public final class SparkRcaExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
    AfterTestExecutionCallback, AfterEachCallback, ParameterResolver {
  private static final ExtensionContext.Namespace NS = ExtensionContext.Namespace.create(SparkRcaExtension.class);
  /** A class's session (PER_CLASS), in the class's store. */
  private static final String HOLDER = "holder";
  /**
   * A method's own session (PER_METHOD), in the method's store. A key of its own, because a store's
   * get() falls back to the parent stores: under HOLDER, a method would find its class's session
   * and stop it.
   */
  private static final String METHOD_HOLDER = "methodHolder";
  private static final String RUN = "run";
  private static final String PROPERTIES = "properties";
  private static final String RUN_DIR = "runDir";
  private static final String RESTORE_GROUP = "restoreGroup";

  private final Optional<Builder> configured;

  /** The extension as {@code @SparkTest} (or {@code @ExtendWith}) registers it: configured by {@link SparkTest}. */
  public SparkRcaExtension() {
    this.configured = Optional.empty();
  }

  private SparkRcaExtension(Builder b) {
    this.configured = Optional.of(b);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The settings of a test class: the builder's, or its {@code @SparkTest}'s, or the defaults. */
  private Builder settings(ExtensionContext ctx) {
    if (configured.isPresent()) {
      return configured.get();
    }
    Class<?> c = ctx.getRequiredTestClass();
    Optional<SparkTest> a = AnnotationSupport.findAnnotation(c, SparkTest.class);
    Builder b = new Builder().appName(a.map(SparkTest::appName).filter(n -> !n.isEmpty()).orElse(c.getSimpleName()));
    a.ifPresent(t -> {
      b.master(t.master()).session(t.session());
      for (String kv : t.conf()) {
        int eq = kv.indexOf('=');
        if (eq <= 0) {
          throw new ExtensionConfigurationException("@SparkTest conf entry '" + kv + "' of " + c.getName()
              + " is not key=value, e.g. spark.sql.shuffle.partitions=8");
        }
        b.conf(kv.substring(0, eq).strip(), kv.substring(eq + 1).strip());
      }
    });
    return b;
  }

  @Override
  public void beforeAll(ExtensionContext ctx) {
    Builder b = settings(ctx);
    if (b.scope == SessionScope.PER_CLASS) {
      ctx.getStore(NS).put(HOLDER, open(b, ctx));
    }
  }

  @Override
  public void afterAll(ExtensionContext ctx) {
    SparkSessionHolder h = ctx.getStore(NS).remove(HOLDER, SparkSessionHolder.class);
    if (h != null) {
      h.close();
    }
  }

  @Override
  public void beforeEach(ExtensionContext ctx) {
    Builder b = settings(ctx);
    ExtensionContext.Store store = ctx.getStore(NS);
    String label = "test \"" + ctx.getDisplayName() + "\"";
    String group = TestRun.GROUP_PREFIX + UUID.randomUUID();
    TestRun run;
    if (b.scope == SessionScope.CODE_UNDER_TEST) {
      Path dir = SparkSessionHolder.tempDirectory();
      store.put(RUN_DIR, dir);
      Map<String, String> props = new LinkedHashMap<>(b.conf);
      props.put("spark.eventLog.enabled", "true");
      props.put("spark.eventLog.dir", dir.toUri().toString());
      props.putIfAbsent("spark.ui.enabled", "false");
      store.put(PROPERTIES, setSystemProperties(props));
      run = new TestRun(b.scope, Optional.empty(), dir, group, label);
    } else {
      SparkSessionHolder h = b.scope == SessionScope.PER_METHOD ? open(b, ctx) : holder(ctx);
      if (b.scope == SessionScope.PER_METHOD) {
        store.put(METHOD_HOLDER, h);
      }
      store.put(RESTORE_GROUP, SparkReflection.setJobGroup(h.sparkContext(), group, label));
      run = new TestRun(b.scope, Optional.of(h), h.eventLogDir(), group, label);
    }
    store.put(RUN, run);
  }

  @Override
  public void afterTestExecution(ExtensionContext ctx) {
    TestRun run = ctx.getStore(NS).get(RUN, TestRun.class);
    if (run == null) {
      return;
    }
    run.finish();
    SparkSessionHolder methodHolder = ctx.getStore(NS).get(METHOD_HOLDER, SparkSessionHolder.class);
    if (methodHolder != null) {
      methodHolder.drain();
      methodHolder.stopSession(); // the run's log ends with the application: complete
    }
    if (ctx.getExecutionException().isPresent()) {
      return; // the body's own failure says what went wrong
    }
    List<Consumer<SparkApplication>> checks = declaredChecks(ctx);
    if (checks.isEmpty()) {
      return;
    }
    SparkApplication app = run.application();
    AssertionError first = null;
    for (Consumer<SparkApplication> check : checks) {
      try {
        check.accept(app);
      } catch (AssertionError e) {
        if (first == null) {
          first = e;
        } else {
          first.addSuppressed(e);
        }
      }
    }
    if (first != null) {
      throw first;
    }
  }

  @Override
  public void afterEach(ExtensionContext ctx) {
    ExtensionContext.Store store = ctx.getStore(NS);
    store.remove(RUN);
    Runnable restoreGroup = store.remove(RESTORE_GROUP, Runnable.class);
    if (restoreGroup != null) {
      restoreGroup.run(); // a test running inside another (a nested launcher) gives the outer one its group back
    }
    SparkSessionHolder methodHolder = store.remove(METHOD_HOLDER, SparkSessionHolder.class);
    if (methodHolder != null) {
      methodHolder.close();
    }
    @SuppressWarnings("unchecked")
    Map<String, Optional<String>> previous = store.remove(PROPERTIES, Map.class);
    if (previous != null) {
      previous.forEach((k, v) -> {
        if (v.isPresent()) {
          System.setProperty(k, v.get());
        } else {
          System.clearProperty(k);
        }
      });
    }
    Path dir = store.remove(RUN_DIR, Path.class);
    if (dir != null) {
      SparkSessionHolder.deleteOrKeep(dir);
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext pc, ExtensionContext ctx) {
    Class<?> type = pc.getParameter().getType();
    if (type == SparkRun.class || type == SparkApplication.class) {
      return true;
    }
    if (!type.getName().startsWith("org.apache.spark.")) {
      return false;
    }
    Optional<SparkSessionHolder> h = findHolder(ctx);
    return h.isPresent() && (type.isInstance(h.get().session()) || type.isInstance(h.get().sparkContext())
        || type.getName().equals("org.apache.spark.api.java.JavaSparkContext"));
  }

  @Override
  public Object resolveParameter(ParameterContext pc, ExtensionContext ctx) {
    Class<?> type = pc.getParameter().getType();
    if (type == SparkRun.class) {
      return run(ctx, pc);
    }
    if (type == SparkApplication.class) {
      if (!pc.getDeclaringExecutable().isAnnotationPresent(AfterEach.class)) {
        throw new ParameterResolutionException("a SparkApplication parameter is the run of the test body, so only "
            + "@AfterEach methods may take one (" + pc.getDeclaringExecutable() + "); in the test itself take "
            + "SparkRun and call application()");
      }
      return run(ctx, pc).application();
    }
    SparkSessionHolder h = findHolder(ctx).orElseThrow();
    if (type.isInstance(h.session())) {
      return h.session();
    }
    if (type.isInstance(h.sparkContext())) {
      return h.sparkContext();
    }
    try {
      Class<?> sc = Class.forName("org.apache.spark.SparkContext", true, type.getClassLoader());
      return type.getMethod("fromSparkContext", sc).invoke(null, h.sparkContext());
    } catch (ReflectiveOperationException e) {
      throw new ParameterResolutionException("could not make a " + type.getName() + " of the session's SparkContext: " + e, e);
    }
  }

  private static TestRun run(ExtensionContext ctx, ParameterContext pc) {
    TestRun run = ctx.getStore(NS).get(RUN, TestRun.class);
    if (run == null) {
      throw new ParameterResolutionException("a SparkRun exists only for a test and its @BeforeEach/@AfterEach "
          + "methods, not for " + pc.getDeclaringExecutable());
    }
    return run;
  }

  private static SparkSessionHolder holder(ExtensionContext ctx) {
    return findHolder(ctx).orElseThrow(() -> new ExtensionConfigurationException(
        "no SparkSession for " + ctx.getDisplayName() + ": the extension's beforeAll did not run"));
  }

  /** The method's holder (PER_METHOD), else the nearest class's (PER_CLASS, nested classes included). */
  private static Optional<SparkSessionHolder> findHolder(ExtensionContext ctx) {
    ExtensionContext.Store store = ctx.getStore(NS); // get() also looks in the enclosing classes' stores
    return Optional.ofNullable(store.get(METHOD_HOLDER, SparkSessionHolder.class))
        .or(() -> Optional.ofNullable(store.get(HOLDER, SparkSessionHolder.class)));
  }

  private SparkSessionHolder open(Builder b, ExtensionContext ctx) {
    try {
      return SparkSessionHolder.open(b.holderSettings(), ctx.getRequiredTestClass().getClassLoader());
    } catch (IllegalStateException e) {
      throw new ExtensionConfigurationException(e.getMessage(), e);
    }
  }

  private static Map<String, Optional<String>> setSystemProperties(Map<String, String> props) {
    Map<String, Optional<String>> previous = new LinkedHashMap<>();
    props.forEach((k, v) -> {
      previous.put(k, Optional.ofNullable(System.getProperty(k)));
      System.setProperty(k, v);
    });
    return previous;
  }

  /** The checks declared on the test method, else on its class (a method's own SkewBelow wins). */
  private static List<Consumer<SparkApplication>> declaredChecks(ExtensionContext ctx) {
    List<Consumer<SparkApplication>> out = new ArrayList<>();
    AnnotatedElement m = ctx.getRequiredTestMethod();
    Class<?> c = ctx.getRequiredTestClass();
    if (declared(m, c, NoFailedJobs.class)) {
      out.add(app -> SparkAssertions.assertThat(app).hasNoFailedJobs());
    }
    if (declared(m, c, NoFailedStages.class)) {
      out.add(app -> SparkAssertions.assertThat(app).hasNoFailedStages());
    }
    if (declared(m, c, NoTaskFailures.class)) {
      out.add(app -> SparkAssertions.assertThat(app).hasNoTaskFailures());
    }
    if (declared(m, c, NoExecutorLoss.class)) {
      out.add(app -> SparkAssertions.assertThat(app).hasNoExecutorLoss());
    }
    Optional<SkewBelow> skew = AnnotationSupport.findAnnotation(m, SkewBelow.class)
        .or(() -> AnnotationSupport.findAnnotation(c, SkewBelow.class));
    skew.ifPresent(s -> out.add(app -> SparkAssertions.assertThat(app).stages().hasSkewBelow(s.value())));
    if (declared(m, c, Healthy.class)) {
      out.add(app -> SparkAssertions.assertThat(app).isHealthy());
    }
    return out;
  }

  private static boolean declared(AnnotatedElement m, Class<?> c, Class<? extends java.lang.annotation.Annotation> a) {
    return AnnotationSupport.isAnnotated(m, a) || AnnotationSupport.isAnnotated(c, a);
  }

  /**
   * Settings of a {@link SparkRcaExtension} registered with {@code @RegisterExtension}.
   *
   * <pre>{@code
   * SparkRcaExtension.builder().master("local[2]").conf("spark.sql.shuffle.partitions", "8").build();
   * }</pre>
   */
  public static final class Builder {
    private String master = "local[2]";
    private String appName = "sparkrca-test";
    private final Map<String, String> conf = new LinkedHashMap<>();
    private SessionScope scope = SessionScope.PER_CLASS;
    private final List<SparkSessionHolder.Customizer<?>> customizers = new ArrayList<>();

    private Builder() {}

    /** The master URL (default {@code local[2]}). */
    public Builder master(String master) {
      this.master = Objects.requireNonNull(master, "master");
      return this;
    }

    /** The application name (default the test class's simple name with {@code @SparkTest}). */
    public Builder appName(String appName) {
      this.appName = Objects.requireNonNull(appName, "appName");
      return this;
    }

    /** A Spark property, applied after the extension's defaults. */
    public Builder conf(String key, String value) {
      conf.put(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value"));
      return this;
    }

    /** Whose session the tests run on (default {@link SessionScope#PER_CLASS}). */
    public Builder session(SessionScope scope) {
      this.scope = Objects.requireNonNull(scope, "scope");
      return this;
    }

    /**
     * Configures Spark's session builder before the session is built, typed as the test's Spark
     * has it: {@code configure(SparkSession.Builder.class, b -> b.enableHiveSupport())}.
     */
    public <B> Builder configure(Class<B> builderType, Consumer<? super B> customizer) {
      customizers.add(new SparkSessionHolder.Customizer<>(Objects.requireNonNull(builderType, "builderType"),
          Objects.requireNonNull(customizer, "customizer")));
      return this;
    }

    public SparkRcaExtension build() {
      Builder copy = new Builder();
      copy.master = master;
      copy.appName = appName;
      copy.conf.putAll(conf);
      copy.scope = scope;
      copy.customizers.addAll(customizers);
      return new SparkRcaExtension(copy);
    }

    SparkSessionHolder.Settings holderSettings() {
      return new SparkSessionHolder.Settings(master, appName, conf, customizers);
    }
  }
}
