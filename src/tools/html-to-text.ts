// Readable text from an HTML page, for a model to read: no markup, scripts or styles.
// Deliberately plain string work so it runs anywhere (no DOM, no HTMLRewriter).

/** The text of a page and its `<title>`, if it has one. */
export interface PageText {
  title: string | null;
  text: string;
}

/** Elements whose content is never readable text. Unclosed ones run to the end, as in a browser. */
const INVISIBLE = /<(head|script|style|noscript|template|svg|iframe|object)\b[^>]*>[\s\S]*?(?:<\/\1\s*>|$)/gi;
const COMMENT = /<!--[\s\S]*?(?:-->|$)/g;
const DECLARATION = /<![^>]*>|<\?[^>]*>/g;
const ATTRS = String.raw`\b(?:[^>"']|"[^"]*"|'[^']*')*>`;
/** Tags that separate paragraphs (a blank line). */
const PARAGRAPH = new RegExp(
  String.raw`<\/?(?:address|article|aside|blockquote|dl|fieldset|figure|footer|form|h[1-6]|header|hr|main|nav|ol|p|pre|section|table|ul)` +
    ATTRS,
  "gi",
);
/** Tags that start a new line; nested or adjacent ones (`</div><div>`) still make only one. */
const LINE = new RegExp(String.raw`<\/?(?:dd|div|dt|figcaption|tr)` + ATTRS, "gi");
const BREAK = new RegExp(`<br${ATTRS}`, "gi");
/** Marks a line start until adjacent ones merge; private-use, and any in the source go in the whitespace pass. */
const SOFT_LINE = "\uE000";
const SOFT_LINES = /[\uE000 ]*\uE000[\uE000 ]*/g;
const LIST_ITEM = new RegExp(`<li${ATTRS}`, "gi");
const CELL = new RegExp(String.raw`<\/?(?:td|th)` + ATTRS, "gi");
/** Any other tag; quoted attribute values may contain `>`. */
const TAG = /<\/?[a-z][a-z0-9-]*\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi;
const TITLE = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i;
const ENTITY = /&(?:#(\d{1,7})|#[xX]([0-9a-fA-F]{1,6})|([a-zA-Z][a-zA-Z0-9]{1,31}));/g;

const NAMED_ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: "\u00a0",
  ensp: "\u2002",
  emsp: "\u2003",
  thinsp: "\u2009",
  shy: "",
  ndash: "–",
  mdash: "—",
  hellip: "…",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  copy: "©",
  reg: "®",
  trade: "™",
  deg: "°",
  plusmn: "±",
  times: "×",
  divide: "÷",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  sect: "§",
  para: "¶",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
};

/** Strips markup from `html`, decodes entities and collapses whitespace. */
export function htmlToText(html: string): PageText {
  const titleMatch = TITLE.exec(html);
  const title = titleMatch?.[1] ? collapseInline(decodeEntities(stripTags(titleMatch[1]))) : "";

  const text = stripTags(
    html
      .replace(COMMENT, "")
      .replace(INVISIBLE, "")
      .replace(DECLARATION, "")
      // Source line breaks mean nothing in HTML; only the tags below make lines.
      .replace(/[\s\uE000]+/g, " ")
      .replace(PARAGRAPH, "\n\n")
      .replace(LINE, SOFT_LINE)
      .replace(SOFT_LINES, "\n")
      .replace(BREAK, "\n")
      .replace(LIST_ITEM, "\n- ")
      .replace(CELL, " "),
  );
  return { title: title === "" ? null : title, text: collapseBlocks(decodeEntities(text)) };
}

/** Decodes numeric references and the common named entities; unknown names stay as written. */
export function decodeEntities(text: string): string {
  return text.replace(ENTITY, (whole, decimal?: string, hex?: string, name?: string) => {
    if (name !== undefined) return NAMED_ENTITIES[name] ?? NAMED_ENTITIES[name.toLowerCase()] ?? whole;
    const code = decimal !== undefined ? Number.parseInt(decimal, 10) : Number.parseInt(hex ?? "", 16);
    const valid = code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff);
    return valid ? String.fromCodePoint(code) : "\uFFFD";
  });
}

function stripTags(html: string): string {
  return html.replace(TAG, "");
}

function collapseInline(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** One space between words, no blank-line runs longer than one. */
function collapseBlocks(text: string): string {
  return text
    .split("\n")
    .map(collapseInline)
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
