package io.sparkrca.rules;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelIssue;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationResult;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructTypeReference;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Compiles rule, detail and advice expressions with CEL-Java against {@link DataprocSchema}, with
 * the caps of {@link RuleLimits}, and turns CEL's diagnostics into one-line messages (an unknown
 * field names the message and the closest real fields).
 */
final class RuleCompiler {
  static final String STAGE_DATA = DataprocSchema.PACKAGE + ".StageData";
  static final String EXECUTORS = DataprocSchema.PACKAGE + ".ConsolidatedExecutorSummary";

  /** What a compiled rule yields. */
  enum ResultKind {
    BOOL,
    LIST,
    DYN
  }

  /** A compiled expression and what the engine needs to know about it. */
  record Compiled(
      CelAbstractSyntaxTree ast,
      CelRuntime.Program program,
      Set<String> freeVariables,
      Optional<String> topLevelVariable,
      ResultKind kind) {
    boolean reads(String variable) {
      return freeVariables.contains(variable);
    }
  }

  /** An expression that does not compile, with CEL-style class of error and a one-line message. */
  static final class CompileError extends Exception {
    private static final long serialVersionUID = 1L;

    CompileError(String message) {
      super(message);
    }
  }

  private static final Pattern UNDEFINED_FIELD = Pattern.compile("undefined field '([^']*)'");
  private static final Pattern MIXED_ARITH =
      Pattern.compile("no matching overload for '_[-+*/%]_' applied to '\\((int|uint|double), (int|uint|double)\\)'");
  private static final Pattern MIXED_EQ =
      Pattern.compile("no matching overload for '(_==_|_!=_|@in)' applied to '\\((int|uint|double), (?:list\\()?(int|uint|double)\\)?\\)'");
  private static final Pattern INT_STRING_EQ =
      Pattern.compile("no matching overload for '(_==_|_!=_)' applied to '\\(int, string\\)'");

  private final RuleLimits limits;
  private final CelOptions options;
  private final CelCompiler rules;
  private final CelRuntime runtime;

  RuleCompiler(RuleLimits limits) {
    this.limits = limits;
    this.options =
        CelOptions.current()
            .enableHeterogeneousNumericComparisons(true)
            .maxExpressionCodePointSize(limits.maxExpressionLength())
            .maxParseRecursionDepth(limits.maxNestingDepth())
            .maxParseExpressionNodeCount(limits.maxNodes())
            .comprehensionMaxIterations(limits.maxIterations())
            .maxRegexProgramSize(10_000)
            .build();
    this.rules = base().addVar("s", StructTypeReference.create(STAGE_DATA)).build();
    this.runtime =
        CelRuntimeFactory.standardCelRuntimeBuilder()
            .setOptions(options)
            .addFileTypes(DataprocSchema.file())
            .addFunctionBindings(CelHelpers.bindings())
            .build();
  }

  private CelCompilerBuilder base() {
    return CelCompilerFactory.standardCelCompilerBuilder()
        .setOptions(options)
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        .addFileTypes(DataprocSchema.file())
        .addFunctionDeclarations(CelHelpers.declarations())
        .addVar("stages", ListType.create(StructTypeReference.create(STAGE_DATA)))
        .addVar("total_executor_summary", StructTypeReference.create(EXECUTORS));
  }

  /** A rule: bool or list, or bool when it reads {@code s}. */
  Compiled rule(String expression) throws CompileError {
    Compiled c = compile(rules, expression);
    if (c.reads("s")) {
      if (c.kind() == ResultKind.LIST) {
        throw new CompileError(
            "CelTypeError: a rule that reads `s` is evaluated per stage and must yield a bool, not "
                + describe(c.ast().getResultType()));
      }
    }
    return c;
  }

  /** A detail: any type, with {@code s} and the rule's top-level macro variable bound to stages. */
  Compiled detail(String expression, Optional<String> topVariable) throws CompileError {
    CelCompilerBuilder b = base().addVar("s", StructTypeReference.create(STAGE_DATA));
    topVariable
        .filter(v -> !v.equals("s") && !v.equals("stages") && !v.equals("total_executor_summary"))
        .ifPresent(v -> b.addVar(v, StructTypeReference.create(STAGE_DATA)));
    return compile(b.build(), expression, true);
  }

  /** An advice condition over {@code conf}. */
  Compiled condition(String expression) throws CompileError {
    return bool(compile(confCompiler(), expression, true), "an advice condition");
  }

  /** A value an advice text embeds ({@code ${expr}}): any type, over {@code conf}. */
  Compiled value(String expression) throws CompileError {
    return compile(confCompiler(), expression, true);
  }

  /** An advice's stage condition: a bool over the flagged stage {@code s} and the rule variables. */
  Compiled stageCondition(String expression) throws CompileError {
    CelCompiler c = base().addVar("s", StructTypeReference.create(STAGE_DATA)).build();
    return bool(compile(c, expression, true), "an advice's stage condition");
  }

  private CelCompiler confCompiler() {
    return CelCompilerFactory.standardCelCompilerBuilder()
        .setOptions(options)
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
        .addFunctionDeclarations(CelHelpers.declarations())
        .addVar("conf", MapType.create(SimpleType.STRING, SimpleType.STRING))
        .build();
  }

  private static Compiled bool(Compiled out, String what) throws CompileError {
    CelType t = out.ast().getResultType();
    if (t.kind() != CelKind.BOOL && t.kind() != CelKind.DYN) {
      throw new CompileError("CelTypeError: " + what + " must yield a bool, not " + describe(t));
    }
    return out;
  }

  private Compiled compile(CelCompiler compiler, String expression) throws CompileError {
    return compile(compiler, expression, false);
  }

  private Compiled compile(CelCompiler compiler, String expression, boolean anyType)
      throws CompileError {
    int length = expression.codePointCount(0, expression.length());
    if (length > limits.maxExpressionLength()) {
      throw new CompileError(
          "CelSyntaxError: the expression is " + length + " characters long, over the limit of "
              + limits.maxExpressionLength());
    }
    if (expression.isBlank()) {
      throw new CompileError("CelSyntaxError: the expression is empty");
    }
    CelValidationResult parsed = compiler.parse(expression);
    if (parsed.hasError()) {
      throw new CompileError("CelSyntaxError: " + messages(parsed.getErrors(), null));
    }
    CelAbstractSyntaxTree parsedAst;
    try {
      parsedAst = parsed.getAst();
    } catch (dev.cel.common.CelValidationException e) {
      throw new CompileError("CelSyntaxError: " + e.getMessage());
    }
    CelValidationResult checked = compiler.check(parsedAst);
    if (checked.hasError()) {
      throw new CompileError("CelTypeError: " + messages(checked.getErrors(), parsedAst));
    }
    CelAbstractSyntaxTree ast;
    try {
      ast = checked.getAst();
    } catch (dev.cel.common.CelValidationException e) {
      throw new CompileError("CelTypeError: " + e.getMessage());
    }
    ResultKind kind;
    CelType t = ast.getResultType();
    switch (t.kind()) {
      case BOOL -> kind = ResultKind.BOOL;
      case LIST -> kind = ResultKind.LIST;
      case DYN, ANY -> kind = ResultKind.DYN;
      default -> {
        if (!anyType) {
          throw new CompileError(
              "CelTypeError: a rule must yield a bool or a list, not " + describe(t));
        }
        kind = ResultKind.DYN;
      }
    }
    CelRuntime.Program program;
    try {
      program = runtime.createProgram(ast);
    } catch (CelEvaluationException e) {
      throw new CompileError("CelTypeError: " + e.getMessage());
    }
    Set<String> free = new HashSet<>();
    freeVariables(ast.getExpr(), new HashSet<>(), free);
    return new Compiled(ast, program, Set.copyOf(free), topLevelVariable(ast.getExpr()), kind);
  }

  CelOptions options() {
    return options;
  }

  private static String describe(CelType t) {
    return switch (t.kind()) {
      case LIST -> "list";
      case MAP -> "map";
      case STRUCT -> t.name() + " message";
      default -> t.name();
    };
  }

  private static String messages(List<CelIssue> issues, CelAbstractSyntaxTree parsed) {
    List<String> out = new ArrayList<>();
    for (CelIssue i : issues) {
      String m = i.getMessage();
      Matcher undefined = UNDEFINED_FIELD.matcher(m);
      if (undefined.find() && parsed != null) {
        Optional<CelExpr> select = find(parsed.getExpr(), i.getExprId());
        if (select.isPresent() && select.get().getKind() == CelExpr.ExprKind.Kind.SELECT) {
          m = m + FieldSuggestions.explain(select.get(), undefined.group(1));
        }
      } else if (mixed(MIXED_ARITH, m)) {
        m = m + "; CEL does not mix int, uint and double in arithmetic -- convert with double(...) or int(...)";
      } else if (INT_STRING_EQ.matcher(m).find()) {
        m = m + "; enum fields are ints in CEL: compare with"
            + " google.cloud.dataproc.v1.StageStatus.<VALUE> (e.g."
            + " google.cloud.dataproc.v1.StageStatus.STAGE_STATUS_FAILED) or the number";
      } else if (mixed(MIXED_EQ, m)) {
        m = m + "; CEL does not mix int, uint and double in ==, != or `in` -- write the literal in"
            + " the field's type (e.g. 12 rather than 12.0) or convert with double(...) / int(...)";
      }
      int line = i.getSourceLocation().getLine();
      int column = i.getSourceLocation().getColumn();
      if (line > 0) {
        m = m + " (line " + line + ", column " + (column + 1) + ")";
      }
      out.add(m);
    }
    return String.join("; ", out);
  }

  private static boolean mixed(Pattern p, String message) {
    Matcher m = p.matcher(message);
    return m.find() && !m.group(m.groupCount() - 1).equals(m.group(m.groupCount()));
  }

  private static Optional<CelExpr> find(CelExpr e, long id) {
    if (e.id() == id) {
      return Optional.of(e);
    }
    for (CelExpr c : children(e)) {
      Optional<CelExpr> f = find(c, id);
      if (f.isPresent()) {
        return f;
      }
    }
    return Optional.empty();
  }

  private static List<CelExpr> children(CelExpr e) {
    List<CelExpr> out = new ArrayList<>();
    switch (e.getKind()) {
      case SELECT -> out.add(e.select().operand());
      case CALL -> {
        e.call().target().ifPresent(out::add);
        out.addAll(e.call().args());
      }
      case LIST -> out.addAll(e.list().elements());
      case STRUCT -> e.struct().entries().forEach(en -> out.add(en.value()));
      case MAP -> e.map().entries().forEach(en -> {
        out.add(en.key());
        out.add(en.value());
      });
      case COMPREHENSION -> {
        var c = e.comprehension();
        out.add(c.iterRange());
        out.add(c.accuInit());
        out.add(c.loopCondition());
        out.add(c.loopStep());
        out.add(c.result());
      }
      default -> {}
    }
    return out;
  }

  /** Identifiers used outside any comprehension that binds them. */
  private static void freeVariables(CelExpr e, Set<String> bound, Set<String> out) {
    switch (e.getKind()) {
      case IDENT -> {
        if (!bound.contains(e.ident().name())) {
          out.add(e.ident().name());
        }
      }
      case COMPREHENSION -> {
        var c = e.comprehension();
        freeVariables(c.iterRange(), bound, out);
        freeVariables(c.accuInit(), bound, out);
        Set<String> inner = new HashSet<>(bound);
        inner.add(c.iterVar());
        if (!c.iterVar2().isEmpty()) {
          inner.add(c.iterVar2());
        }
        inner.add(c.accuVar());
        freeVariables(c.loopCondition(), inner, out);
        freeVariables(c.loopStep(), inner, out);
        Set<String> result = new HashSet<>(bound);
        result.add(c.accuVar());
        freeVariables(c.result(), result, out);
      }
      default -> {
        for (CelExpr child : children(e)) {
          freeVariables(child, bound, out);
        }
      }
    }
  }

  /** The variable of a top-level {@code stages.filter|map|exists|all|exists_one(x, ...)}. */
  private static Optional<String> topLevelVariable(CelExpr e) {
    if (e.getKind() == CelExpr.ExprKind.Kind.COMPREHENSION) {
      CelExpr range = e.comprehension().iterRange();
      if (range.getKind() == CelExpr.ExprKind.Kind.IDENT && range.ident().name().equals("stages")) {
        return Optional.of(e.comprehension().iterVar());
      }
    }
    return Optional.empty();
  }
}
