/**
 * Module-level constants of a generated judge: what a matcher needs that must
 * not be rebuilt at every event (the set of an `in` list, a compiled regular
 * expression). Lowering asks for one and gets its identifier; `emit.ts`
 * declares them all above the rules. Identifiers come from a counter per
 * prefix; equal constants are declared once.
 */
import { code, join, name, type Code } from "./code.js";

export type ConstantPrefix = "values" | "regex";

/**
 * The runtime names only some judges use (the extended forms, the evidence of
 * a false clause, the copies a report cites), imported by judge.ts when used.
 */
const EXTENDED_RUNTIME = {
  // What a false ordering, forbidden or count found (runtime/evidence.ts).
  eventFacts: code`eventFacts`,
  // A pairing's citations, made while stepping (runtime/checks.ts).
  CitationList: code`CitationList`,
  pairedEach: code`pairedEach`,
  pairedFollower: code`pairedFollower`,
  waitingIds: code`waitingIds`,
  // The ids a violation or an obligation cites, copied in shared code (runtime/checks.ts).
  reportIds: code`reportIds`,
  reportIdsAnd: code`reportIdsAnd`,
  reportId: code`reportId`,
  reportEventId: code`reportEventId`,
  // A metadata value equal to a stated string (runtime/matchers.ts).
  metadataIs: code`metadataIs`,
  Keyed: code`Keyed`,
  RegexProgram: code`type RegexProgram`,
  regexTest: code`regexTest`,
  readDecimal: code`readDecimal`,
  readInstant: code`readInstant`,
  inRange: code`inRange`,
  keyedOrderingClause: code`keyedOrderingClause`,
  orderingExplanation: code`orderingExplanation`,
  withinExplanation: code`withinExplanation`,
  eventsInstead: code`eventsInstead`,
  extendedPairingClause: code`extendedPairingClause`,
  keyedRequiredClause: code`keyedRequiredClause`,
  keyedForbiddenClause: code`keyedForbiddenClause`,
  groupedCountClause: code`groupedCountClause`,
  conditionClause: code`conditionClause`,
  explainCondition: code`explainCondition`,
  waitingEach: code`waitingEach`,
  // What lowered `when` expressions call (lower-when.ts WHEN_RUNTIME_NAMES).
  countIndexed: code`countIndexed`,
  instantOf: code`instantOf`,
  metadataValue: code`metadataValue`,
  numberOf: code`numberOf`,
  valueAdd: code`valueAdd`,
  valueDivide: code`valueDivide`,
  valueEquals: code`valueEquals`,
  valueIn: code`valueIn`,
  valueMultiply: code`valueMultiply`,
  valueNegate: code`valueNegate`,
  valueOrder: code`valueOrder`,
  valueSubtract: code`valueSubtract`,
} as const;

export type ExtendedRuntimeName = keyof typeof EXTENDED_RUNTIME;

export class Constants {
  readonly #declarations: Code[] = [];
  readonly #byText = new Map<string, Code>();
  readonly #counts: Record<ConstantPrefix, number> = { values: 0, regex: 0 };

  /** The identifier of a constant initialized by `init` (declared once per distinct `init`). */
  add(prefix: ConstantPrefix, type: Code, init: Code): Code {
    const key = `${prefix}\u0000${String(type)}\u0000${String(init)}`;
    const known = this.#byText.get(key);
    if (known !== undefined) return known;
    const id = prefix === "values" ? name("values", this.#counts.values++) : name("regex", this.#counts.regex++);
    this.#declarations.push(code`const ${id}: ${type} = ${init};`);
    this.#byText.set(key, id);
    return id;
  }

  readonly #uses = new Set<ExtendedRuntimeName>();

  /** The runtime name, noted as imported; names come from a fixed table, never from user text. */
  runtime(runtimeName: ExtendedRuntimeName): Code {
    this.#uses.add(runtimeName);
    if (runtimeName === "RegexProgram") return code`RegexProgram`;
    return EXTENDED_RUNTIME[runtimeName];
  }

  /**
   * Notes which of the expression helpers (`names`, identifiers of the runtime)
   * the lowered `when` code calls: a name followed by "(" outside a string literal.
   */
  whenRuntime(lowered: string, names: readonly string[]): void {
    const outsideStrings = lowered.replace(/"(?:[^"\\]|\\.)*"/g, '""');
    for (const helper of names) {
      if (!(helper in EXTENDED_RUNTIME)) throw new Error(`internal: the expression helper ${helper} is not in the runtime table`);
      if (new RegExp(`\\b${helper}\\(`).test(outsideStrings)) this.#uses.add(helper as ExtendedRuntimeName);
    }
  }

  /** The import specifiers of the extended runtime names used, in the table's order (empty for a version-1 judge). */
  runtimeImports(): Code | undefined {
    const used = (Object.keys(EXTENDED_RUNTIME) as ExtendedRuntimeName[]).filter((n) => this.#uses.has(n));
    return used.length === 0 ? undefined : join(used.map((n) => EXTENDED_RUNTIME[n]));
  }

  /**
   * The pattern tests of the rule being lowered (lowerRule): counted on a
   * first lowering, then, on the second, each test that `step` makes more
   * than once is named by a local evaluated once at its top.
   */
  #patterns: { counts: Map<string, number>; names: Map<string, Code> | undefined } | undefined;

  /** Starts counting the pattern tests of one rule's lowering. */
  countPatterns(): void {
    this.#patterns = { counts: new Map(), names: undefined };
  }

  /**
   * The tests counted more than once, in order of first use, each with its
   * local's name (`pattern0`, …); from now on `patternTest` answers with those names.
   */
  sharePatterns(): { test: Code; local: Code }[] {
    const scope = this.#patterns;
    if (scope === undefined) throw new Error("internal: sharePatterns outside a rule");
    const shared: { test: Code; local: Code }[] = [];
    scope.names = new Map();
    for (const [key, count] of scope.counts) {
      if (count < 2) continue;
      const local = name("pattern", shared.length);
      scope.names.set(key, code`(${local})`);
      shared.push({ test: this.#tests.get(key)!, local });
    }
    return shared;
  }

  /** Ends the rule: pattern tests are written in place again. */
  endPatterns(): void {
    this.#patterns = undefined;
    this.#tests.clear();
  }

  readonly #tests = new Map<string, Code>();

  /** A pattern's test as `step` writes it: in place, or the local it was hoisted to (sharePatterns). */
  patternTest(test: Code): Code {
    const scope = this.#patterns;
    if (scope === undefined) return test;
    const key = String(test);
    if (scope.names !== undefined) return scope.names.get(key) ?? test;
    scope.counts.set(key, (scope.counts.get(key) ?? 0) + 1);
    this.#tests.set(key, test);
    return test;
  }

  /** The declarations, in the order the constants were first asked for. */
  declarations(): readonly Code[] {
    return this.#declarations;
  }
}
