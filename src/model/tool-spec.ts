// The Messages API definition of a tool, built from the zod schema of its input: one recipe for
// the tool registry and for the interaction kinds a tool call opens.
import * as z from "zod";
import type { ToolSpec } from "./model-client";

/**
 * Describes the tool `name` to the model. The schema is converted as `"input"` because the model
 * writes what the schema parses, so fields with defaults stay optional. Throws when the schema is
 * not an object, which the Messages API requires; registries build specs at startup, so that
 * mistake fails there rather than in the middle of a turn.
 */
export function toToolSpec(name: string, description: string, schema: z.ZodType): ToolSpec {
  const { $schema: _dialect, ...json } = z.toJSONSchema(schema, { io: "input" });
  if (json.type !== "object") {
    throw new Error(`Tool "${name}" must take an object input, got JSON schema type ${json.type}`);
  }
  return {
    name,
    description,
    input_schema: {
      ...json,
      type: "object",
      properties: json.properties ?? {},
      required: json.required ?? [],
    },
  };
}

/**
 * `toToolSpec`, converted on the first call and kept: converting every tool's schema when a module
 * loads is start-up CPU spent before any request needs it. An input that is not plainly an object
 * is converted now, so the mistake still fails where the registry is built.
 */
export function lazyToolSpec(name: string, description: string, schema: z.ZodType): () => ToolSpec {
  let spec: ToolSpec | null = inputIsObject(schema) ? null : toToolSpec(name, description, schema);
  return () => {
    spec ??= toToolSpec(name, description, schema);
    return spec;
  };
}

/** True when the input side of `schema` is a zod object, which converts to a JSON object schema. */
function inputIsObject(schema: z.ZodType): boolean {
  let def = schema._zod.def as { type: string; in?: z.ZodType };
  while (def.type === "pipe" && def.in) def = def.in._zod.def as typeof def;
  return def.type === "object";
}
