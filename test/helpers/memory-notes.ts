// An in-memory NotesStore for tests, behaving like the session's SQLite-backed one.
import type { Note, NotesStore } from "../../src/tools/define-tool";

/** Notes kept in a Map; `now` stamps `updatedAt` so tests can fix the clock. */
export class MemoryNotes implements NotesStore {
  readonly #notes = new Map<string, Note>();

  constructor(private readonly now: () => number = () => Date.now()) {}

  list(): Note[] {
    return [...this.#notes.values()].map((note) => ({ ...note }));
  }

  get(key: string): Note | null {
    const note = this.#notes.get(key);
    return note ? { ...note } : null;
  }

  put(key: string, text: string): Note {
    const note = { key, text, updatedAt: this.now() };
    this.#notes.set(key, note);
    return { ...note };
  }

  delete(key: string): boolean {
    return this.#notes.delete(key);
  }
}
