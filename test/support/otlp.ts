/**
 * OTLP/JSON exports built from a few span specs, for the OTel importer's
 * tests: ids padded to 16 hex digits, times in milliseconds from a fixed
 * epoch, attribute objects written as JSON texts (as instrumentations do).
 */
type Attr = string | number | boolean | string[];

/** An OTLP AnyValue. */
function value(v: Attr): Record<string, unknown> {
  if (Array.isArray(v)) return { arrayValue: { values: v.map((s) => ({ stringValue: s })) } };
  if (typeof v === "number") return { intValue: String(v) };
  if (typeof v === "boolean") return { boolValue: v };
  return { stringValue: v };
}

const attributes = (attrs: Record<string, Attr | object>) =>
  Object.entries(attrs).map(([key, v]) => ({
    key,
    value: value(typeof v === "object" && !Array.isArray(v) ? JSON.stringify(v) : (v as Attr)),
  }));

export interface SpanSpec {
  id: string;
  parent?: string;
  name: string;
  start: number;
  end: number;
  attrs?: Record<string, Attr | object>;
  events?: { name: string; attrs: Record<string, Attr | object> }[];
  error?: boolean;
}

export const TRACE = "0af7651916cd43dd8448eb211c80319c";
const ns = (ms: number) => String(BigInt(1_760_000_000_000 + ms) * 1_000_000n);

/** One OTLP/JSON export of the spans, in the order given. */
export function otlp(spans: SpanSpec[]): unknown {
  return {
    resourceSpans: [
      {
        scopeSpans: [
          {
            scope: { name: "test" },
            spans: spans.map((s) => ({
              traceId: TRACE,
              spanId: s.id.padStart(16, "0"),
              ...(s.parent === undefined ? {} : { parentSpanId: s.parent.padStart(16, "0") }),
              name: s.name,
              startTimeUnixNano: ns(s.start),
              endTimeUnixNano: ns(s.end),
              attributes: attributes(s.attrs ?? {}),
              events: (s.events ?? []).map((e) => ({ name: e.name, timeUnixNano: ns(s.start), attributes: attributes(e.attrs) })),
              status: s.error === true ? { code: 2 } : { code: 0 },
            })),
          },
        ],
      },
    ],
  };
}
