// localStorage, or null where the browser blocks it (private modes, sandboxed frames).

export function safeLocalStorage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}
