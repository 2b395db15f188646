// The sessions this browser opened, kept in localStorage so the start page can offer to reopen
// them. Nothing leaves the browser; a token here is the same secret the share link carries.
import type { SessionStatus } from "../../src/protocol/index";

const KEY = "parley.recentSessions";
const MAX_SESSIONS = 20;

export interface RecentSession {
  sessionId: string;
  token: string;
  /** The last message sent in it, as a title. */
  title: string | null;
  status: SessionStatus | "unavailable";
  lastSeenAt: number;
}

type Store = Pick<Storage, "getItem" | "setItem">;

function isRecent(value: unknown): value is RecentSession {
  const v = value as RecentSession;
  return (
    typeof v === "object" &&
    v !== null &&
    typeof v.sessionId === "string" &&
    typeof v.token === "string" &&
    typeof v.lastSeenAt === "number"
  );
}

/** Most recently seen first; unreadable storage gives an empty list. */
export function readRecent(storage: Store | null): RecentSession[] {
  try {
    const parsed: unknown = JSON.parse(storage?.getItem(KEY) ?? "[]");
    return Array.isArray(parsed) ? parsed.filter(isRecent).sort((a, b) => b.lastSeenAt - a.lastSeenAt) : [];
  } catch {
    // Corrupt or blocked storage: start over rather than break the start page.
    return [];
  }
}

function write(storage: Store | null, list: RecentSession[]): void {
  try {
    storage?.setItem(KEY, JSON.stringify(list.slice(0, MAX_SESSIONS)));
  } catch {
    // Full or blocked storage: the list is a convenience, the session works without it.
  }
}

/** Adds or updates one session (fields left out keep their stored value) and moves it to the top. */
export function rememberSession(
  storage: Store | null,
  entry: Pick<RecentSession, "sessionId" | "token"> & Partial<RecentSession>,
  now = Date.now(),
): void {
  const list = readRecent(storage);
  const existing = list.find((item) => item.sessionId === entry.sessionId);
  const merged: RecentSession = {
    title: null,
    status: "idle",
    ...existing,
    ...Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== undefined)),
    lastSeenAt: entry.lastSeenAt ?? now,
  } as RecentSession;
  write(storage, [merged, ...list.filter((item) => item.sessionId !== entry.sessionId)]);
}

/** Updates a stored session's status without moving it (the start page refreshing statuses). */
export function updateStatus(
  storage: Store | null,
  sessionId: string,
  status: RecentSession["status"],
): void {
  write(
    storage,
    readRecent(storage).map((item) => (item.sessionId === sessionId ? { ...item, status } : item)),
  );
}

export function forgetSession(storage: Store | null, sessionId: string): void {
  write(
    storage,
    readRecent(storage).filter((item) => item.sessionId !== sessionId),
  );
}
