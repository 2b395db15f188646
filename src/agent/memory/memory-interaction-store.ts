// Interactions in memory, behaving like the SQLite store: resolution is a compare-and-set.
import { answererName, type Decider } from "../../protocol/cards/decider";
import type { InteractionOutcome } from "../../protocol/session/session";
import type { InteractionRecord, InteractionStore } from "../ports";

export class MemoryInteractionStore implements InteractionStore {
  readonly #records = new Map<string, InteractionRecord>();

  get(id: string): InteractionRecord | null {
    const record = this.#records.get(id);
    return record ? structuredClone(record) : null;
  }

  pending(): InteractionRecord[] {
    return this.#all().filter((record) => record.status === "pending");
  }

  due(now: number): InteractionRecord[] {
    return this.pending()
      .filter((record) => record.deadline <= now)
      .sort((a, b) => a.deadline - b.deadline);
  }

  create(
    record: Omit<
      InteractionRecord,
      "status" | "response" | "resolvedAt" | "resolvedBy" | "answeredBy" | "decider"
    >,
  ): void {
    if (this.#records.has(record.id)) throw new Error(`interaction ${record.id} already exists`);
    this.#records.set(record.id, {
      ...structuredClone(record),
      status: "pending",
      response: null,
      resolvedAt: null,
      resolvedBy: null,
      answeredBy: null,
      decider: null,
    });
  }

  resolve(
    id: string,
    outcome: InteractionOutcome,
    response: unknown,
    resolvedBy: string | null,
    at: number,
    decider: Decider | null = null,
  ): boolean {
    const record = this.#records.get(id);
    if (record?.status !== "pending") return false;
    Object.assign(record, {
      status: outcome,
      response: structuredClone(response ?? null),
      resolvedBy,
      resolvedAt: at,
      answeredBy: answererName(decider),
      decider: structuredClone(decider),
    });
    return true;
  }

  #all(): InteractionRecord[] {
    // Insertion order stands in for SQLite's (created_at, rowid) order.
    return [...this.#records.values()]
      .map((record) => structuredClone(record))
      .sort((a, b) => a.createdAt - b.createdAt);
  }
}
