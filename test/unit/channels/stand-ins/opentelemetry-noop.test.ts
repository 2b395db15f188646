// The Worker's Anthropic SDK traces through the no-op stand-in for `@opentelemetry/api` (wrangler.toml's
// [alias]); with no tracer provider registered, as in Parley, the real API must answer every call
// the SDK makes of it just as the stand-in does.
import * as real from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import * as standIn from "../../../../src/channels/stand-ins/opentelemetry-noop";

const VALID = { traceId: "4bf92f3577b34da6a3ce929d0e0e4736", spanId: "00f067aa0ba902b7", traceFlags: 1 };

type Api = typeof standIn;
const apis = { real: real as unknown as Api, standIn };

/** What each API answers to `probe`, which must be the same. */
function same<T>(probe: (api: Api) => T): T {
  const answers = Object.values(apis).map(probe);
  expect(answers[1]).toEqual(answers[0]);
  return answers[0] as T;
}

describe("the stand-in for OpenTelemetry's API, with no provider registered", () => {
  it("starts spans that record nothing and carry no trace context, whatever is set on them", () => {
    const span = same((api) => {
      const tracer = api.trace.getTracerProvider().getTracer("com.anthropic.sdk", "1.0.0");
      const started = tracer.startSpan("messages.create", { kind: api.SpanKind.CLIENT } as never);
      const chained = [
        started.setAttribute(),
        started.setAttributes(),
        started.addEvent(),
        started.setStatus(),
        started.updateName(),
      ].every((returned) => returned === started);
      started.end();
      return { recording: started.isRecording(), context: started.spanContext(), chained };
    });
    expect(span).toEqual({
      recording: false,
      context: { traceId: "0".repeat(32), spanId: "0".repeat(16), traceFlags: 0 },
      chained: true,
    });
  });

  it("starts a child span in the trace context of a valid parent set on the context, and a root span in none", () => {
    const contexts = same((api) => {
      const tracer = api.trace.getTracerProvider().getTracer("t");
      const parent = api.trace.setSpan(api.context.active(), { spanContext: () => VALID } as never);
      return {
        child: tracer.startSpan("child", {}, parent).spanContext(),
        root: tracer.startSpan("root", { root: true }, parent).spanContext(),
        invalidParent: tracer
          .startSpan(
            "x",
            {},
            api.trace.setSpan(api.context.active(), {
              spanContext: () => ({ ...VALID, spanId: "0".repeat(16) }),
            } as never),
          )
          .spanContext(),
      };
    });
    expect(contexts.child).toEqual(VALID);
  });

  it("tells a valid span context from an invalid one as the API does", () => {
    const verdicts = same((api) =>
      [
        VALID,
        { ...VALID, traceId: VALID.traceId.toUpperCase() },
        { ...VALID, traceId: "0".repeat(32) },
        { ...VALID, spanId: "0".repeat(16) },
        { ...VALID, traceId: `${VALID.traceId}0` },
        { ...VALID, spanId: "zz".repeat(8) },
      ].map((context) => api.trace.isSpanContextValid(context)),
    );
    expect(verdicts).toEqual([true, true, false, false, false, false]);
  });

  it("runs a function in a context as called, with its `this` and arguments, and keeps the root context active", () => {
    same((api) => {
      const inner = api.trace.setSpan(api.context.active(), { spanContext: () => VALID } as never);
      const self = { name: "self" };
      const seen = api.context.with(
        inner,
        function (this: unknown, a: number, b: number) {
          return { self: this, sum: a + b, active: api.trace.getSpan(api.context.active()) };
        },
        self,
        1,
        2,
      );
      expect(api.trace.getSpan(inner)?.spanContext()).toEqual(VALID);
      return seen;
    });
  });

  it("injects no trace headers and names no fields of its own", () => {
    same((api) => {
      const carrier = {};
      const context = api.trace.setSpan(api.context.active(), { spanContext: () => VALID } as never);
      (api.propagation.inject as (context: unknown, carrier: object) => void)(context, carrier);
      return { carrier, fields: api.propagation.fields() };
    });
  });

  it("numbers span kinds and status codes as the API does", () => {
    for (const [name, value] of Object.entries(standIn.SpanKind))
      expect(real.SpanKind[name as keyof typeof real.SpanKind]).toBe(value);
    for (const [name, value] of Object.entries(standIn.SpanStatusCode))
      expect(real.SpanStatusCode[name as keyof typeof real.SpanStatusCode]).toBe(value);
  });
});
