// The only way the UI builds DOM: elements with attributes and text children set through
// textContent / createTextNode, so model and user text can never become markup.

type Child = Node | string | null | undefined | false;
type Props = {
  class?: string;
  text?: string;
  on?: Partial<{ [K in keyof HTMLElementEventMap]: (event: HTMLElementEventMap[K]) => void }>;
} & Record<string, unknown>;

/** `h("button", { class: "primary", type: "button", on: { click } }, "Send")`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = String(value);
    else if (key === "text") node.textContent = String(value);
    else if (key === "on") {
      for (const [type, listener] of Object.entries(value as Record<string, EventListener>)) {
        node.addEventListener(type, listener);
      }
    } else if (key in node && typeof value !== "string") {
      (node as unknown as Record<string, unknown>)[key] = value;
    } else node.setAttribute(key, value === true ? "" : String(value));
  }
  append(node, children);
  return node;
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/** Replaces all children of `parent`. */
export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** Sets text only when it changed, so streaming updates do not reset selections needlessly. */
export function setText(node: Node, text: string): void {
  if (node.textContent !== text) node.textContent = text;
}

/**
 * Sets an attribute only when its value differs: an attribute written, even with the value it had,
 * restyles the page, and what redraws often (countdowns, a long inbox) writes mostly the same.
 */
export function setAttr(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}
