// This browser's device id: random, kept in localStorage so receipts can say "on another device".

const KEY = "parley.deviceId";

/** Returns the stored id, creating one on first use; works (unpersisted) when storage is blocked. */
export function deviceId(storage: Pick<Storage, "getItem" | "setItem"> | null): string {
  const existing = safely(() => storage?.getItem(KEY));
  if (existing && /^[\w.-]{1,64}$/.test(existing)) return existing;
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  const id = `web-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
  safely(() => storage?.setItem(KEY, id));
  return id;
}

function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
