/**
 * The JSON of a judgment as `--json` (indented, an element of the array) and
 * `--jsonl` (compact) write it, without `JSON.stringify` over the whole
 * judgment (issue 26): a judgment has a known shape (runtime/types.ts), and
 * most of its text is the same from case to case (a rule's name, a clause's
 * quote, a citation's description, the fields' names and indentation), so it
 * is written as pieces made once per run, and only what varies (a trajectory's
 * id, a citation's event id, an extension's text) is escaped per case.
 *
 * The bytes are those of `JSON.stringify`: anything this writer does not
 * expect (a field it does not know in a place it does not know, a value of
 * another type, an object that is not a plain object, an array that is not
 * a plain array, a toJSON; an enumerable field on Object.prototype, which
 * for-in lists after a judgment's own) makes it give up, and the caller
 * stringifies the judgment instead. test/report/judgment-json.test.ts compares the two over judgments of every
 * shape.
 */
import type { TrajectoryJudgment } from "../../runtime/types.js";

const OBJECT: object = Object.prototype;
const ARRAY: object = Array.prototype;

/** Whether a string's JSON is the string between quotes: no quote, backslash, control character or surrogate (paired or not: JSON.stringify's own test then decides). */
function plainText(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) return false;
  }
  return true;
}

/** A string's JSON without its quotes: the string itself when short and plain (a call to JSON.stringify costs more than the scan), else JSON.stringify's. */
function inQuotes(s: string): string {
  return s.length < 64 && plainText(s) ? s : JSON.stringify(s).slice(1, -1);
}

/**
 * A plain object, whose JSON.stringify writes its own enumerable fields and
 * nothing else once nothing gives it a toJSON: its prototype is
 * Object.prototype. Each caller also asks for its toJSON (a field of its own
 * that for-in does not list): there the property load sees one kind of
 * object, which costs next to nothing, where here it would see every kind.
 */
function plain(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && Object.getPrototypeOf(value) === OBJECT;
}

/** A plain array (its toJSON is the caller's to ask, as for plain). */
function plainArray(value: unknown): value is readonly unknown[] & { toJSON?: unknown } {
  return Array.isArray(value) && Object.getPrototypeOf(value) === ARRAY;
}

/** 0–2 for a verdict, -1 for anything else. */
function verdictCode(v: unknown): number {
  return v === "true" ? 0 : v === "false" ? 1 : v === "na" ? 2 : -1;
}

/** 0–2 for an na reason (null included), -1 for anything else. */
function naCode(n: unknown): number {
  return n === null ? 0 : n === "not_applicable" ? 1 : n === "insufficient_evidence" ? 2 : -1;
}

/** A map that forgets everything once it holds `limit` entries, so a run with endless distinct texts does not grow it without end. */
class Pieces<K, V = string> {
  private readonly map = new Map<K, V>();
  constructor(
    private readonly make: (key: K) => V,
    private readonly limit = 4096,
  ) {}
  get(key: K): V {
    let piece = this.map.get(key);
    if (piece === undefined) {
      if (this.map.size >= this.limit) this.map.clear();
      piece = this.make(key);
      this.map.set(key, piece);
    }
    return piece;
  }
  /** What `make` would not know to make. */
  put(key: K, piece: V): V {
    if (this.map.size >= this.limit) this.map.clear();
    this.map.set(key, piece);
    return piece;
  }
}

const VERDICTS = ["true", "false", "na"] as const;
const NA_REASONS = [null, "not_applicable", "insufficient_evidence"] as const;

/** A clause's opening up to its verdict's value, as the first clause of its rule and as a later one; `kind` is the kind it was made for. */
interface QuotePiece {
  kind: string;
  first: string;
  next: string;
}

/**
 * Writes judgments as JSON.stringify does with `indent` spaces a level, `base`
 * levels deep (an element of `--json`'s array is one level deep), or compact
 * (indent 0). Text is added to one string piece by piece, each piece as large
 * as what is fixed allows: every `+` makes a string of its own, and a case
 * of 10 events has about 40 of them.
 */
class JudgmentJson {
  /** A line break and the indentation of a judgment's fields (empty when compact). */
  private readonly field: string;
  /** What closes a rule with no clauses, and one with clauses. */
  private readonly ruleEmpty: string;
  private readonly ruleEnd: string;
  /** What closes a clause after its citations. */
  private readonly clauseEnd: string;
  private readonly behaviors: Pieces<string>;
  /** From a trajectory's id's closing quote to its rules' opening, by verdict and error. */
  private readonly afterIds: string[] = [];
  /** A rule's opening up to its verdict's value, as the first rule and as a later one. */
  private readonly namesFirst: Pieces<string>;
  private readonly namesNext: Pieces<string>;
  /** From a rule's verdict to its clauses' opening, by verdict, na reason, error and triggered. */
  private readonly ruleMiddles: string[] = [];
  private readonly quotes: Pieces<string, QuotePiece>;
  /** From a clause's verdict to its citations, by verdict and na reason, without citations ("[]") and with (up to the first event id). */
  private readonly clauseEmpty: string[] = [];
  private readonly clauseCited: string[] = [];
  /** From an event id's closing quote to the next one's opening, or to the end of the citations. */
  private readonly descriptionsNext: Pieces<string>;
  private readonly descriptionsLast: Pieces<string>;
  /** A clause's last field, `check`, and its closing brace. */
  private readonly checks: Pieces<string>;
  private readonly tailKeys: Pieces<string>;

  constructor(indent: number, base: number) {
    const at = (level: number) => (indent === 0 ? "" : `\n${" ".repeat(indent * (base + level))}`);
    const c = indent === 0 ? ":" : ": ";
    const field = (this.field = at(1));
    const [rule, ruleField, clause, clauseField, citation, citationField] = [at(2), at(3), at(4), at(5), at(6), at(7)];
    this.ruleEmpty = `[]${rule}}`;
    this.ruleEnd = `${ruleField}]${rule}}`;
    this.clauseEnd = `${clause}}`;
    this.behaviors = new Pieces((behavior) => `{${field}"behavior"${c}${JSON.stringify(behavior)},${field}"trajectoryId"${c}"`, 16);
    for (const verdict of VERDICTS)
      for (const error of [false, true])
        this.afterIds.push(`",${field}"verdict"${c}"${verdict}",${error ? `${field}"error"${c}true,` : ""}${field}"metaBehaviors"${c}`);
    const name = (sep: string) => (text: string) => `${sep}${rule}{${ruleField}"name"${c}${JSON.stringify(text)},${ruleField}"verdict"${c}`;
    this.namesFirst = new Pieces(name("["));
    this.namesNext = new Pieces(name(","));
    for (const verdict of VERDICTS)
      for (const naReason of NA_REASONS)
        for (const error of [false, true])
          for (const triggered of [false, true])
            this.ruleMiddles.push(
              `"${verdict}",${ruleField}"naReason"${c}${JSON.stringify(naReason)},${error ? `${ruleField}"error"${c}true,` : ""}${ruleField}"triggered"${c}${triggered},${ruleField}"clauses"${c}`,
            );
    // Made for a quote's kind as a clause meets it (clause()).
    this.quotes = new Pieces((): QuotePiece => ({ kind: "", first: "", next: "" }));
    this.quoteOpening = (quote, kind) => {
      const rest = `{${clauseField}"kind"${c}${JSON.stringify(kind)},${clauseField}"quote"${c}${JSON.stringify(quote)},${clauseField}"verdict"${c}`;
      return { kind, first: `[${clause}${rest}`, next: `,${clause}${rest}` };
    };
    for (const verdict of VERDICTS)
      for (const naReason of NA_REASONS) {
        const middle = `"${verdict}",${clauseField}"naReason"${c}${JSON.stringify(naReason)},${clauseField}"citations"${c}`;
        this.clauseEmpty.push(`${middle}[]`);
        this.clauseCited.push(`${middle}[${citation}{${citationField}"eventId"${c}"`);
      }
    const description = (after: string) => (text: string) =>
      `",${citationField}"description"${c}${JSON.stringify(text)}${citation}}${after}`;
    this.descriptionsNext = new Pieces(description(`,${citation}{${citationField}"eventId"${c}"`));
    this.descriptionsLast = new Pieces(description(`${clauseField}]`));
    this.checks = new Pieces((check) => `,${clauseField}"check"${c}${JSON.stringify(check)}${clause}}`);
    this.tailKeys = new Pieces((key) => `,${clauseField}${JSON.stringify(key)}${c}`);
  }

  private readonly quoteOpening: (quote: string, kind: string) => QuotePiece;

  /**
   * The judgment's JSON without its closing brace (and the line break and
   * indentation before it), so fields can follow its last one; undefined when
   * it is not of the shape this writer knows.
   */
  head(judgment: TrajectoryJudgment): string | undefined {
    const j: unknown = judgment;
    if (
      !plain(j) ||
      j.toJSON !== undefined ||
      (OBJECT as { toJSON?: unknown }).toJSON !== undefined ||
      (ARRAY as { toJSON?: unknown }).toJSON !== undefined
    )
      return undefined;
    let n = 0;
    let error = false;
    for (const k in j) {
      if (n === 3 && k === "error" && !error) error = true;
      else if (k !== (n === 0 ? "behavior" : n === 1 ? "trajectoryId" : n === 2 ? "verdict" : n === 3 ? "metaBehaviors" : "") || n++ > 3)
        return undefined;
    }
    if (n !== 4) return undefined;
    const { behavior, trajectoryId, verdict, metaBehaviors } = j;
    const v = verdictCode(verdict);
    if (
      typeof behavior !== "string" ||
      typeof trajectoryId !== "string" ||
      v < 0 ||
      !plainArray(metaBehaviors) ||
      metaBehaviors.toJSON !== undefined
    )
      return undefined;
    if (error && j.error !== true) return undefined;
    let s = this.behaviors.get(behavior) + inQuotes(trajectoryId) + this.afterIds[v * 2 + (error ? 1 : 0)]!;
    if (metaBehaviors.length === 0) return `${s}[]`;
    for (let i = 0; i < metaBehaviors.length; i++) {
      const next = this.rule(metaBehaviors[i], s, i === 0);
      if (next === undefined) return undefined;
      s = next;
    }
    return s + this.field + "]";
  }

  /** `s` and a meta-behavior's JSON: name, verdict, naReason, error (only true), triggered, clauses. */
  private rule(m: unknown, s: string, first: boolean): string | undefined {
    if (!plain(m) || m.toJSON !== undefined) return undefined;
    let n = 0;
    let error = false;
    for (const k in m) {
      if (n === 3 && k === "error" && !error) error = true;
      else if (
        k !== (n === 0 ? "name" : n === 1 ? "verdict" : n === 2 ? "naReason" : n === 3 ? "triggered" : n === 4 ? "clauses" : "") ||
        n++ > 4
      )
        return undefined;
    }
    if (n !== 5) return undefined;
    const { name, verdict, naReason, triggered, clauses } = m;
    const v = verdictCode(verdict);
    const na = naCode(naReason);
    if (
      typeof name !== "string" ||
      v < 0 ||
      na < 0 ||
      typeof triggered !== "boolean" ||
      !plainArray(clauses) ||
      clauses.toJSON !== undefined
    )
      return undefined;
    if (error && m.error !== true) return undefined;
    s += (first ? this.namesFirst : this.namesNext).get(name);
    s += this.ruleMiddles[v * 12 + na * 4 + (error ? 2 : 0) + (triggered ? 1 : 0)]!;
    if (clauses.length === 0) return s + this.ruleEmpty;
    for (let i = 0; i < clauses.length; i++) {
      const next = this.clause(clauses[i], s, i === 0);
      if (next === undefined) return undefined;
      s = next;
    }
    return s + this.ruleEnd;
  }

  /** `s` and a clause's JSON: kind, quote, verdict, naReason, citations, then its other fields (strings, booleans, finite numbers, null) as they come. */
  private clause(c: unknown, s: string, first: boolean): string | undefined {
    if (!plain(c) || c.toJSON !== undefined) return undefined;
    let n = 0;
    let last = "";
    for (const k in c) {
      if (n < 5 && k !== (n === 0 ? "kind" : n === 1 ? "quote" : n === 2 ? "verdict" : n === 3 ? "naReason" : "citations"))
        return undefined;
      last = k;
      n++;
    }
    if (n < 5) return undefined;
    const { kind, quote, verdict, naReason, citations } = c;
    const v = verdictCode(verdict);
    const na = naCode(naReason);
    if (
      typeof kind !== "string" ||
      typeof quote !== "string" ||
      v < 0 ||
      na < 0 ||
      !plainArray(citations) ||
      citations.toJSON !== undefined
    )
      return undefined;
    let opening = this.quotes.get(quote);
    // Made once per quote (a quote of two kinds is made again each time it changes kind, and stays right).
    if (opening.kind !== kind) opening = this.quotes.put(quote, this.quoteOpening(quote, kind));
    s += first ? opening.first : opening.next;
    const count = citations.length;
    if (count === 0) s += this.clauseEmpty[v * 3 + na]!;
    else {
      s += this.clauseCited[v * 3 + na]!;
      for (let i = 0; i < count; i++) {
        const t = citations[i];
        if (!plain(t) || t.toJSON !== undefined) return undefined;
        let m = 0;
        for (const k in t) if (k !== (m++ === 0 ? "eventId" : "description") || m > 2) return undefined;
        const { eventId, description } = t;
        if (m !== 2 || typeof eventId !== "string" || typeof description !== "string") return undefined;
        s += inQuotes(eventId);
        s += (i === count - 1 ? this.descriptionsLast : this.descriptionsNext).get(description);
      }
    }
    if (n === 5) return s + this.clauseEnd;
    if (n === 6 && last === "check" && typeof c.check === "string") return s + this.checks.get(c.check);
    let m = 0;
    for (const k in c) {
      if (m++ < 5) continue;
      const value = c[k];
      if (typeof value === "string") s += `${this.tailKeys.get(k)}"${inQuotes(value)}"`;
      else if (typeof value === "boolean" || value === null || (typeof value === "number" && Number.isFinite(value)))
        s += `${this.tailKeys.get(k)}${String(value)}`;
      else return undefined;
    }
    return s + this.clauseEnd;
  }
}

const indented = new JudgmentJson(2, 1);
const compact = new JudgmentJson(0, 0);

/** `--json`'s element of a judgment (indented two spaces, one level deep in the array) without its closing "\n  }"; undefined when JSON.stringify must write it. */
export function indentedJudgmentHead(judgment: TrajectoryJudgment): string | undefined {
  return indented.head(judgment);
}

/** A judgment's compact JSON (`--jsonl`) without its closing "}"; undefined when JSON.stringify must write it. */
export function compactJudgmentHead(judgment: TrajectoryJudgment): string | undefined {
  return compact.head(judgment);
}
