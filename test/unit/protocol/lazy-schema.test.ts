import { describe, expect, it } from "vitest";
import * as z from "zod";
import { lazySchema } from "../../../src/protocol/lazy-schema";

describe("a lazy schema", () => {
  it("is not built until something reads from it, and is built once", () => {
    let builds = 0;
    const Name = lazySchema(() => {
      builds++;
      return z.string().min(1);
    });
    const Person = lazySchema(() => z.object({ name: Name }));
    expect(builds).toBe(0);
    expect(Person.parse({ name: "Ada" })).toEqual({ name: "Ada" });
    expect(Name.safeParse("").success).toBe(false);
    expect(builds).toBe(1);
  });

  it("is the schema it builds: zod's own checks, composition and shape see a schema", () => {
    const Base = lazySchema(() => z.object({ id: z.string() }));
    const Extended = lazySchema(() => Base.extend({ count: z.number().int() }));
    expect(Base instanceof z.ZodObject).toBe(true);
    expect(Object.keys(Extended.shape)).toEqual(["id", "count"]);
    expect(() => Extended.parse({ id: "a", count: 1.5 })).toThrow(z.ZodError);
    const Either = lazySchema(() =>
      z.discriminatedUnion("type", [
        lazySchema(() => z.object({ type: z.literal("a"), a: z.string() })),
        z.object({ type: z.literal("b") }),
      ]),
    );
    expect(Either.parse({ type: "a", a: "x" })).toEqual({ type: "a", a: "x" });
    expect(Either.safeParse({ type: "c" }).success).toBe(false);
  });

  it("converts to the same JSON Schema as the schema built at once, descriptions included", () => {
    const build = () =>
      z.object({ when: z.string().describe("an ISO date"), tags: z.array(z.string()).optional() });
    const Inner = lazySchema(() => z.string().describe("an ISO date"));
    const composed = lazySchema(() => z.object({ when: Inner, tags: z.array(z.string()).optional() }));
    expect(z.toJSONSchema(lazySchema(build))).toEqual(z.toJSONSchema(build()));
    expect(z.toJSONSchema(composed)).toEqual(z.toJSONSchema(build()));
  });
});
