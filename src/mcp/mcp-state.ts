// What a session remembers about each of its MCP servers, as a small synchronous port: the
// Durable Object implements it over SQLite (src/session/stores/mcp-store.ts), tests in memory.
import * as z from "zod";
import { lazySchema } from "../protocol/lazy-schema";

/** A tool as the server listed it (the MCP `Tool` shape), kept loosely: the server owns its schema. */
export const ListedTool = lazySchema(() =>
  z.looseObject({
    name: z.string(),
    title: z.string().optional(),
    description: z.string().optional(),
    inputSchema: z.looseObject({ type: z.literal("object") }),
    annotations: z
      .looseObject({
        title: z.string().optional(),
        readOnlyHint: z.boolean().optional(),
        destructiveHint: z.boolean().optional(),
        idempotentHint: z.boolean().optional(),
        openWorldHint: z.boolean().optional(),
      })
      .optional(),
  }),
);
export type ListedTool = z.infer<typeof ListedTool>;

/** How to pick up the server's session again: `Mcp-Session-Id` and protocol version (both may be absent). */
export interface McpConnectionRecord {
  sessionId: string | null;
  protocolVersion: string | null;
  /** The 2026-07-28 `server/discover` result, so a reconnect needs no probe. */
  discover: unknown;
}

export interface McpServerRecord extends McpConnectionRecord {
  name: string;
  /** The cached tool list; null until listed (or after a listing failed before any succeeded). */
  tools: ListedTool[] | null;
  listedAt: number | null;
  /** The list must be fetched again before the next model call (list_changed, a vanished tool). */
  stale: boolean;
  /** The last listing failure, shown to the model as a note until a listing succeeds. */
  error: string | null;
  failedAt: number | null;
}

export interface McpStateStore {
  /** The servers this session uses, in configuration order. */
  selected(): string[];
  get(name: string): McpServerRecord;
  saveConnection(name: string, connection: McpConnectionRecord): void;
  /** Forgets the server session (it expired or the server restarted); the next use starts a new one. */
  forgetConnection(name: string): void;
  saveTools(name: string, tools: ListedTool[], at: number): void;
  markStale(name: string): void;
  saveError(name: string, message: string, at: number): void;
}
