// A tool's own storage: JSON values by key, kept with the session and apart from every other
// tool's, so a tool with state needs no table, store or host edit of its own.

/** What a running tool sees: its own keys only. Values come back as stored; validate them on read. */
export interface ToolState {
  /** The stored value, or undefined when the key is unset. */
  get(key: string): unknown;
  put(key: string, value: unknown): void;
  delete(key: string): boolean;
}

/** Every tool's state, by tool name: what the host supplies (the session's SQLite; memory in tests). */
export interface ToolStateStore {
  get(tool: string, key: string): unknown;
  put(tool: string, key: string, value: unknown): void;
  delete(tool: string, key: string): boolean;
}

/** The state of the tool `tool`, as its runs see it. */
export function toolStateOf(store: ToolStateStore, tool: string): ToolState {
  return {
    get: (key) => store.get(tool, key),
    put: (key, value) => store.put(tool, key, value),
    delete: (key) => store.delete(tool, key),
  };
}

/** Tool state in a Map, stored as JSON text as the session's SQLite stores it (tests, the demo). */
export class MemoryToolStateStore implements ToolStateStore {
  readonly #rows = new Map<string, string>();

  get(tool: string, key: string): unknown {
    const text = this.#rows.get(JSON.stringify([tool, key]));
    return text === undefined ? undefined : JSON.parse(text);
  }

  put(tool: string, key: string, value: unknown): void {
    this.#rows.set(JSON.stringify([tool, key]), JSON.stringify(value));
  }

  delete(tool: string, key: string): boolean {
    return this.#rows.delete(JSON.stringify([tool, key]));
  }
}
