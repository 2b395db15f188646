// Stand-in for `@opentelemetry/api`, which the Anthropic SDK imports to trace its calls into the tracer
// provider an application registers. Parley registers none, so the API answers as its no-op: spans
// that record nothing and carry no trace context, a root context, a propagator that injects nothing.
// This is that no-op alone, without the API's global registry (wrangler.toml's [alias] points the
// package here); test/unit/channels/stand-ins/opentelemetry-noop.test.ts holds it to the real API's.

interface SpanContext {
  traceId: string;
  spanId: string;
  traceFlags: number;
}

const INVALID_SPAN_CONTEXT: SpanContext = { traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0 };
const SPAN_KEY = Symbol("OpenTelemetry Context Key SPAN");

class Context {
  constructor(private readonly values = new Map<symbol, unknown>()) {}
  getValue(key: symbol): unknown {
    return this.values.get(key);
  }
  setValue(key: symbol, value: unknown): Context {
    return new Context(new Map(this.values).set(key, value));
  }
  deleteValue(key: symbol): Context {
    const values = new Map(this.values);
    values.delete(key);
    return new Context(values);
  }
}

const ROOT_CONTEXT = new Context();

/** The API's `isSpanContextValid`: a trace and a span id in hex, neither all zeros. */
function isSpanContextValid(spanContext: SpanContext): boolean {
  return (
    /^[0-9a-f]{32}$/i.test(spanContext.traceId) &&
    spanContext.traceId !== INVALID_SPAN_CONTEXT.traceId &&
    /^[0-9a-f]{16}$/i.test(spanContext.spanId) &&
    spanContext.spanId !== INVALID_SPAN_CONTEXT.spanId
  );
}

class NonRecordingSpan {
  constructor(private readonly context: SpanContext = INVALID_SPAN_CONTEXT) {}
  spanContext(): SpanContext {
    return this.context;
  }
  setAttribute(): this {
    return this;
  }
  setAttributes(): this {
    return this;
  }
  addEvent(): this {
    return this;
  }
  addLink(): this {
    return this;
  }
  addLinks(): this {
    return this;
  }
  setStatus(): this {
    return this;
  }
  updateName(): this {
    return this;
  }
  end(): void {}
  isRecording(): boolean {
    return false;
  }
  recordException(): void {}
}

/** The no-op tracer's span: a child of the context's span when that one carries a valid trace context. */
function startSpan(_name: string, options?: { root?: boolean }, parent: Context = ROOT_CONTEXT) {
  if (options?.root) return new NonRecordingSpan();
  const parentSpan = parent.getValue(SPAN_KEY) as NonRecordingSpan | undefined;
  const parentContext = parentSpan?.spanContext();
  return new NonRecordingSpan(parentContext && isSpanContextValid(parentContext) ? parentContext : undefined);
}

const tracer = { startSpan };

export const context = {
  active: (): Context => ROOT_CONTEXT,
  with: <A extends unknown[], R>(
    _context: Context,
    fn: (...args: A) => R,
    thisArg?: unknown,
    ...args: A
  ): R => fn.call(thisArg, ...args),
};

export const trace = {
  getTracerProvider: () => ({ getTracer: (_name: string, _version?: string) => tracer }),
  isSpanContextValid,
  setSpan: (parent: Context, span: NonRecordingSpan): Context => parent.setValue(SPAN_KEY, span),
  getSpan: (from: Context) => from.getValue(SPAN_KEY) as NonRecordingSpan | undefined,
};

export const propagation = {
  inject(): void {},
  fields: (): string[] => [],
};

export const SpanKind = { INTERNAL: 0, SERVER: 1, CLIENT: 2, PRODUCER: 3, CONSUMER: 4 } as const;
export const SpanStatusCode = { UNSET: 0, OK: 1, ERROR: 2 } as const;
