// The DevTools protocol of a local `wrangler dev` Worker (its `--inspector-port`): the Worker's own
// target, not the runtime's internal ones, and a call that resolves with the reply to it.

/**
 * @param {number} inspectorPort
 * @returns {Promise<{ call: (method: string, params?: object) => Promise<any>, ws: WebSocket }>}
 */
export async function inspector(inspectorPort) {
  const targets = await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json();
  const target = targets.find((t) => !String(t.title ?? t.id).includes("core:")) ?? targets[0];
  console.error("inspector targets:", targets.map((t) => t.title ?? t.id).join(", "), "→", target.title);
  return inspectorAt(target.webSocketDebuggerUrl);
}

/**
 * The DevTools protocol of one isolate, by its address.
 * @param {string} url
 * @returns {Promise<{ call: (method: string, params?: object) => Promise<any>, ws: WebSocket }>}
 */
export async function inspectorAt(url) {
  const ws = new WebSocket(url, { headers: { origin: "http://localhost" } });
  await new Promise((resolve, reject) => {
    ws.onopen = resolve;
    ws.onerror = reject;
  });
  let nextId = 0;
  const pending = new Map();
  ws.onmessage = (message) => {
    const data = JSON.parse(message.data);
    if (data.id && pending.has(data.id)) {
      pending.get(data.id)(data);
      pending.delete(data.id);
    }
  };
  const call = (method, params = {}) =>
    new Promise((resolve) => {
      const id = ++nextId;
      pending.set(id, resolve);
      ws.send(JSON.stringify({ id, method, params }));
    });
  return { call, ws };
}
