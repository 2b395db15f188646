// A card in words when its kind has no `summary` of its own (or its stored request no longer
// parses): read structurally, so any kind gets a sensible line.
import * as z from "zod";
import { lazySchema } from "../protocol/lazy-schema";
import type { KindSummary } from "./define-interaction";

const Worded = lazySchema(() => z.object({ title: z.string().optional(), message: z.string().optional() }));

/** `The agent is waiting (kind)`, with the request's title or message, or the tool's name. */
export function genericSummary(kind: string, toolName: string, request: unknown): KindSummary {
  const parsed = Worded.safeParse(request);
  const data = parsed.success ? parsed.data : {};
  return {
    title: `The agent is waiting (${kind})`,
    line: data.title ?? data.message ?? `${toolName} is waiting for you`,
  };
}
