// The append-only event log: persist one row, then send the same bytes to every socket. Replay
// reads the stored frames back verbatim, so live and replayed events are identical. The events one
// synchronous step appends are written in one statement when the step ends (a statement costs far
// more than its rows), and only then sent: nothing a device sees can be missing from storage, and
// a seq is spent only once its row is stored.
import type { EventSink } from "../../agent/ports";
import { MAX_EVENTS_PAGE, MAX_REPLAY_BYTES, MAX_REPLAY_FRAME_BYTES } from "../../protocol/limits";
import type { EventData, EventType, SessionEvent } from "../../protocol/wire/events";
import type { DeltaFrame } from "../../protocol/wire/frames";
import type { EventsPage } from "../../protocol/wire/http";
import { atEndOfStep } from "../../storage/deferred-writes";
import { InsertFailed, type Kept, type SqlCounter } from "../../storage/sql-counter";

export class EventLog implements EventSink {
  // INVARIANT: a cache of MAX(seq) as stored, reloaded from storage by every new instance; it moves
  // only when rows are written, so a write storage refuses leaves no gap.
  private stored: number;
  // INVARIANT: frames of a transaction not yet committed; empty outside `holdingBroadcasts`.
  private held: string[] | null = null;
  // INVARIANT: events appended and not yet written, in seq order, with their frames. Written, then
  // sent, by `flush`: at the end of the microtask turn that appended the first of them, and before
  // anything reads the table, sends a frame after them, or a transaction commits.
  private unwritten: Array<{ event: SessionEvent; frame: string }> = [];
  private readonly flushSoon = atEndOfStep(
    () => this.flush(),
    (error) => this.sql.onDeferredWriteFailure(error),
  );
  // The `at` of the newest stored event other than an expiry warning, kept until `events` is
  // written (this class's own writes bring it up to date). The alarm's every re-arm asks for it.
  private readonly lastStoredActivity: Kept<number | null>;
  /** Counts the readers that get stored events only (event streams); set by the object that has them. */
  storedOnlyReaders: () => number = () => 0;

  constructor(
    private readonly sql: SqlCounter,
    /** Sends a frame to every device; says how many sockets that was. */
    private readonly broadcast: (frame: string) => number,
    private readonly now: () => number,
    /** Side effects of a stored event (notifications); runs after the broadcast, must not throw. */
    private readonly afterAppend: (event: SessionEvent) => void = () => {},
  ) {
    this.stored = this.storedSeq();
    this.lastStoredActivity = sql.keptUntilWritten(
      ["events"],
      () =>
        sql.one<{ at: number }>(
          `SELECT at FROM events WHERE type != 'session_expiring' ORDER BY seq DESC LIMIT 1`,
        )?.at ?? null,
    );
  }

  /** The seq of the newest event appended (written or about to be). */
  get lastSeq(): number {
    return this.stored + this.unwritten.length;
  }

  append<T extends EventType>(type: T, data: EventData<T>): SessionEvent {
    const event = { seq: this.lastSeq + 1, at: this.now(), type, data } as SessionEvent;
    this.unwritten.push({ event, frame: JSON.stringify(event) });
    this.flushSoon();
    // Delivery rows are written in the same task (and transaction) as the event, so they share its fate.
    this.afterAppend(event);
    return event;
  }

  /**
   * Writes the events appended so far in one statement, then sends their frames. When storage
   * refuses them (a row over its size limit, a full disk) the ones it took are still sent, the
   * rest are dropped, the next seq follows what it holds, and the failure is thrown.
   */
  flush(): void {
    const rows = this.unwritten;
    if (rows.length === 0) return;
    let written = rows;
    let failure: unknown = null;
    try {
      this.sql.insertRows(
        ["events"],
        `INSERT INTO events (seq, type, frame, at)`,
        rows.map(({ event, frame }) => [event.seq, event.type, frame, event.at]),
      );
    } catch (error) {
      failure = error;
      written = rows.slice(0, error instanceof InsertFailed ? error.stored : 0);
    }
    this.unwritten = [];
    this.stored += written.length;
    const active = newestActivity(written);
    this.lastStoredActivity.patch((previous) => active ?? previous);
    for (const { frame } of written) {
      if (this.held) this.held.push(frame);
      else this.broadcast(frame);
    }
    if (failure) throw failure;
  }

  /** The session is being erased: events not yet written are dropped with it. */
  discard(): void {
    this.unwritten = [];
  }

  /**
   * Runs `work` (a storage transaction) holding its frames back: sent once it returns, dropped
   * when it throws, since the rollback removed their rows.
   */
  holdingBroadcasts<T>(work: () => T): T {
    if (this.held) return work();
    // What was appended before the transaction is written and sent outside it.
    this.flush();
    const held: string[] = [];
    this.held = held;
    let result: T;
    try {
      result = work();
    } catch (error) {
      this.unwritten = [];
      this.stored = this.storedSeq();
      throw error;
    } finally {
      this.held = null;
    }
    for (const frame of held) this.broadcast(frame);
    return result;
  }

  /** When the session was last used: its newest event other than an expiry warning (null: none). */
  lastActivityAt(): number | null {
    return newestActivity(this.unwritten) ?? this.lastStoredActivity();
  }

  private storedSeq(): number {
    this.flush();
    return this.sql.one<{ seq: number | null }>(`SELECT MAX(seq) AS seq FROM events`)?.seq ?? 0;
  }

  sendLive(frame: DeltaFrame): number {
    this.flush();
    return this.broadcast(JSON.stringify(frame));
  }

  readsStoredOnly(): boolean {
    return this.storedOnlyReaders() > 0;
  }

  /** Stored frames after `after`, oldest first, at most `limit`. */
  framesAfter(after: number, limit = MAX_EVENTS_PAGE): string[] {
    this.flush();
    return this.sql
      .all<{ frame: string }>(`SELECT frame FROM events WHERE seq > ? ORDER BY seq LIMIT ?`, after, limit)
      .map((row) => row.frame);
  }

  /** `GET …/events`: a page of stored events after `after`, for clients without a socket. */
  page(after: number, limit: number): EventsPage {
    const frames = this.framesAfter(after, limit + 1);
    return {
      events: frames.slice(0, limit).map((frame) => JSON.parse(frame)),
      lastSeq: this.lastSeq,
      hasMore: frames.length > limit,
    };
  }

  /**
   * The stored events after `after` as `batch` frames of bounded size, ready to send. Frames are
   * spliced as strings: replaying 10 000 events must not parse and re-serialize each one. One
   * replay sends at most `budget` bytes; when it stops short, its last frame says `"more":true` and
   * the client asks for the rest with `resume`, so a long session never floods one socket at once.
   */
  *replayFrames(after: number, budget = MAX_REPLAY_BYTES): Generator<string> {
    this.flush();
    let parts: string[] = [];
    let bytes = 0;
    let total = 0;
    for (const row of this.sql.iterate<{ frame: string }>(
      `SELECT frame FROM events WHERE seq > ? ORDER BY seq`,
      after,
    )) {
      if (total > 0 && total + row.frame.length > budget) {
        yield batch(parts, true);
        return;
      }
      if (bytes + row.frame.length > MAX_REPLAY_FRAME_BYTES && parts.length > 0) {
        yield batch(parts, false);
        parts = [];
        bytes = 0;
      }
      parts.push(row.frame);
      bytes += row.frame.length + 1;
      total += row.frame.length + 1;
    }
    if (parts.length > 0) yield batch(parts, false);
  }

  countsByType(): Record<string, number> {
    this.flush();
    const counts: Record<string, number> = {};
    for (const row of this.sql.all<{ type: string; n: number }>(
      `SELECT type, COUNT(*) AS n FROM events GROUP BY type`,
    )) {
      counts[row.type] = row.n;
    }
    return counts;
  }
}

function newestActivity(rows: ReadonlyArray<{ event: SessionEvent }>): number | null {
  for (let i = rows.length - 1; i >= 0; i -= 1) {
    const event = rows[i]?.event;
    if (event && event.type !== "session_expiring") return event.at;
  }
  return null;
}

function batch(frames: string[], more: boolean): string {
  return `{"type":"batch","events":[${frames.join(",")}]${more ? ',"more":true' : ""}}`;
}
