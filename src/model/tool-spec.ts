// The Messages API definition of a tool, built from the zod schema of its input: one recipe for
// the tool registry and for the interaction kinds a tool call opens.
import { z } from "zod";
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
