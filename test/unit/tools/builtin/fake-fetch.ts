// Stand-ins for the network in fetch_url tests: a scripted fetch that records its calls, and a
// response body that streams on demand and counts how much of it was actually pulled.

export interface FetchCall {
  url: string;
  init: RequestInit | undefined;
}

/** A fetch that answers from `handler` and records every call; it honours the request's signal. */
export function fakeFetch(
  handler: (url: string, init: RequestInit | undefined) => Response | Promise<Response>,
) {
  const calls: FetchCall[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    calls.push({ url, init });
    init?.signal?.throwIfAborted();
    return handler(url, init);
  };
  return { fetch: fetch as typeof globalThis.fetch, calls };
}

/** A fetch that, like the real one, only settles when its signal aborts; `onRequest` hears it go out. */
export function neverAnswering(onRequest: () => void = () => {}): typeof fetch {
  return (_input, init) =>
    new Promise<Response>((_resolve, reject) => {
      init?.signal?.addEventListener("abort", () => reject(init.signal?.reason), { once: true });
      onRequest();
    });
}

/** A body of `totalBytes` bytes of `fill`, produced one chunk per read. */
export function meteredBody(totalBytes: number, chunkBytes = 16 * 1024, fill = "a") {
  const meter = { pulled: 0, cancelled: false };
  const byte = fill.charCodeAt(0);
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        const size = Math.min(chunkBytes, totalBytes - meter.pulled);
        if (size <= 0) return controller.close();
        meter.pulled += size;
        controller.enqueue(new Uint8Array(size).fill(byte));
      },
      cancel() {
        meter.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, meter };
}

/** A body that sends `first` and then stalls forever (until cancelled). */
export function stallingBody(first: string) {
  const meter = { cancelled: false };
  let sent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent) return new Promise<void>(() => {});
      sent = true;
      controller.enqueue(new TextEncoder().encode(first));
    },
    cancel() {
      meter.cancelled = true;
    },
  });
  return { stream, meter };
}
