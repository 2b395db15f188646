// Markdown for model text, plans and option previews: `marked` reads it into tokens, and this module
// builds DOM nodes from them with textContent only, so no text ever becomes markup. Raw HTML in the
// text is shown as text, links are limited to http(s)/mailto, and images are never loaded.
import { Lexer, type Token, type Tokens } from "marked";
import { h } from "./dom";

const SAFE_PROTOCOLS = new Set(["http:", "https:", "mailto:"]);

// Marked decodes numeric references itself; these are the named ones model text uses.
const NAMED: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'", nbsp: "\u00a0" };

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => NAMED[name] ?? "");
}

/** The URL a link may open, or null when it is not an absolute http(s) or mailto URL. */
export function safeHref(href: string): string | null {
  try {
    const url = new URL(href);
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

function inline(tokens: readonly Token[] | undefined): Node[] {
  return (tokens ?? []).map(inlineNode);
}

function inlineNode(token: Token): Node {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case "strong":
      return h("strong", {}, ...inline(t.tokens));
    case "em":
      return h("em", {}, ...inline(t.tokens));
    case "del":
      return h("del", {}, ...inline(t.tokens));
    case "codespan":
      return h("code", { text: String(t.text) });
    case "br":
      return h("br");
    case "link": {
      const href = safeHref(String(t.href));
      const children = inline(t.tokens);
      if (href === null) return h("span", { class: "md-unsafe-link", title: "Link not opened" }, ...children);
      return h("a", { href, target: "_blank", rel: "noopener noreferrer" }, ...children);
    }
    case "image": {
      // Loading an image would tell its server who reads this session: show a link instead.
      const href = safeHref(String(t.href));
      const label = `🖼 ${String(t.text) || "image"}`;
      if (href === null) return document.createTextNode(label);
      return h("a", { href, target: "_blank", rel: "noopener noreferrer", text: label });
    }
    case "checkbox":
      return h("input", { type: "checkbox", disabled: true, checked: Boolean(t.checked) });
    case "text":
      return t.tokens ? h("span", {}, ...inline(t.tokens)) : document.createTextNode(decode(String(t.text)));
    case "escape":
      return document.createTextNode(String(t.text));
    default:
      // Raw HTML and anything unknown is shown as the text it is.
      return document.createTextNode(token.raw);
  }
}

function listItem(item: Tokens.ListItem): HTMLElement {
  const children = item.tokens.map((token) =>
    token.type === "text" || token.type === "checkbox" ? inlineNode(token) : block(token),
  );
  return h("li", item.task ? { class: "md-task" } : {}, ...children);
}

function tableCell(tag: "th" | "td", cell: Tokens.TableCell): HTMLElement {
  return h(tag, cell.align ? { class: `md-align-${cell.align}` } : {}, ...inline(cell.tokens));
}

function block(token: Token): Node {
  const t = token as Tokens.Generic;
  switch (token.type) {
    case "paragraph":
      return h("p", {}, ...inline(t.tokens));
    case "heading": {
      const depth = Math.min(6, Math.max(1, Number(t.depth)));
      return h(`h${depth}` as "h1", {}, ...inline(t.tokens));
    }
    case "code": {
      const lang = String(t.lang ?? "").split(/\s/)[0];
      return h(
        "pre",
        { class: "md-code" },
        h("code", { text: String(t.text), "data-lang": lang || undefined }),
      );
    }
    case "blockquote":
      return h("blockquote", {}, ...(t.tokens ?? []).map(block));
    case "list": {
      const list = token as Tokens.List;
      const start = typeof list.start === "number" && list.start !== 1 ? String(list.start) : undefined;
      return h(list.ordered ? "ol" : "ul", { start }, ...list.items.map(listItem));
    }
    case "table": {
      const table = token as Tokens.Table;
      return h(
        "div",
        { class: "md-table" },
        h(
          "table",
          {},
          h("thead", {}, h("tr", {}, ...table.header.map((cell) => tableCell("th", cell)))),
          h(
            "tbody",
            {},
            ...table.rows.map((row) => h("tr", {}, ...row.map((cell) => tableCell("td", cell)))),
          ),
        ),
      );
    }
    case "hr":
      return h("hr");
    case "text":
      return h("p", {}, ...(t.tokens ? inline(t.tokens) : [decode(String(t.text))]));
    default:
      // Raw HTML blocks and anything unknown: shown as the text it is.
      return h("p", { class: "md-raw", text: token.raw });
  }
}

interface Rendered {
  raw: string;
  node: Node;
}

// INVARIANT: per container, the blocks last rendered into it; rebuilt from the text if lost.
const rendered = new WeakMap<Element, Rendered[]>();

/**
 * Renders `text` into `container`. Called again with the grown text of a streaming block, it
 * rebuilds only the blocks whose source changed (usually the last one), so finished paragraphs
 * keep their nodes, selection and layout: no flicker, no jump in the scroll position.
 */
export function renderMarkdown(container: HTMLElement, text: string): void {
  const tokens = Lexer.lex(text, { gfm: true, breaks: false });
  // Reference definitions change how earlier blocks read: with any, rebuild everything.
  const keep = Object.keys(tokens.links).length === 0;
  const previous = keep ? (rendered.get(container) ?? []) : [];
  if (!keep) container.replaceChildren();
  const next: Rendered[] = [];
  for (const token of tokens) {
    if (token.type === "space" || token.type === "def") continue;
    const index = next.length;
    const old = previous[index];
    if (old && old.raw === token.raw && old.node.parentNode === container) {
      next.push(old);
      continue;
    }
    const node = block(token);
    if (old?.node.parentNode === container) container.replaceChild(node, old.node);
    else container.appendChild(node);
    next.push({ raw: token.raw, node });
  }
  for (const stale of previous.slice(next.length)) stale.node.parentNode?.removeChild(stale.node);
  rendered.set(container, next);
}
