// Readable text from an HTML page, for a model to read: no markup, scripts or styles.
// One forward scan that never revisits a character, so the cost stays linear however broken the
// markup is: a page of a million unclosed `<` costs what a clean page of that size does.
// Character references are decoded as browsers do, by the HTML standard's table (`entities`).
import { decodeHTML } from "entities";

/** The text of a page and its `<title>`, if it has one. */
export interface PageText {
  title: string | null;
  text: string;
}

/**
 * Elements whose content is never readable text (the title is reported on its own). Unclosed
 * ones run to the end, as in a browser.
 */
const INVISIBLE = new Set(["script", "style", "noscript", "template", "svg", "iframe", "object", "title"]);
/** Tags that separate paragraphs (a blank line). */
const PARAGRAPH = new Set(
  (
    "address article aside blockquote dl fieldset figure footer form h1 h2 h3 h4 h5 h6 header hr " +
    "main nav ol p pre section table ul"
  ).split(" "),
);
/** Tags that start a new line; nested or adjacent ones (`</div><div>`) still make only one. */
const LINE = new Set(["dd", "div", "dt", "figcaption", "tr"]);
const CELL = new Set(["td", "th"]);

const GT = 0x3e;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const BANG = 0x21;
const QUESTION = 0x3f;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;

/** Strips markup from `html`, decodes entities and collapses whitespace. */
export function htmlToText(html: string): PageText {
  const page = scanPage(html);
  const title = page.titleHtml === null ? "" : collapseInline(decodeHTML(scanPage(page.titleHtml).text));
  return { title: title === "" ? null : title, text: collapseBlocks(decodeHTML(page.text)) };
}

/** The page's text with line breaks where tags make them, and the raw content of its first `<title>`. */
function scanPage(html: string): { text: string; titleHtml: string | null } {
  const out = new LineWriter();
  const tags = new TagReader(html);
  let titleHtml: string | null = null;
  let at = 0;
  while (at < html.length) {
    const lt = html.indexOf("<", at);
    if (lt === -1) break;
    out.text(html.slice(at, lt));
    at = lt + 1; // unless markup starts here, the `<` is text and the scan goes on after it
    const next = html.charCodeAt(lt + 1);
    if (html.startsWith("<!--", lt)) {
      // From lt + 2, so `<!-->` closes itself as in a browser. An unclosed comment hides the rest.
      const close = html.indexOf("-->", lt + 2);
      at = close === -1 ? html.length : close + 3;
    } else if (next === BANG || next === QUESTION) {
      const gt = html.indexOf(">", lt + 2); // <!DOCTYPE …>, <?xml …?>
      if (gt === -1) {
        at = lt; // with no `>` anywhere after, nothing later can be markup: the rest is text
        break;
      }
      at = gt + 1;
    } else if (isTagStart(html, lt)) {
      const tag = tags.read(lt);
      if (tag === null) {
        // Nothing closes this tag, so the rest is text; stopping here rather than retrying from
        // the next `<` is what keeps the scan linear.
        at = lt;
        break;
      }
      at = tag.end;
      if (!tag.closing && INVISIBLE.has(tag.name) && !(tag.selfClosing && tag.name === "svg")) {
        const close = closingTag(html, tag.name, tag.end);
        if (tag.name === "title" && close !== null) titleHtml ??= html.slice(tag.end, close.start);
        at = close?.end ?? html.length;
      } else if (tag.name === "head" || (tag.name === "body" && !tag.closing)) {
        // The head holds no readable text; a page that never closes it starts its text at <body>.
        out.muted = tag.name === "head" && !tag.closing;
      } else {
        out.tag(tag.name, tag.closing);
      }
    } else {
      out.text("<");
    }
  }
  out.text(html.slice(at));
  return { text: out.toString(), titleHtml };
}

/** Whether `<` at `lt` opens a start or end tag (`<p`, `</p`), not text such as `a < b` or `<3`. */
function isTagStart(html: string, lt: number): boolean {
  const next = html.charCodeAt(lt + 1);
  return isLetter(next) || (next === SLASH && isLetter(html.charCodeAt(lt + 2)));
}

interface Tag {
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** Index just past the tag's `>`. */
  end: number;
}

/** Reads tags in one document, remembering which quote characters never occur again. */
class TagReader {
  readonly #html: string;
  // A quote missing from some index on is missing from every later one, and tags are read in
  // document order, so each quote character is searched for to the very end at most once.
  readonly #missing = new Set<number>();

  constructor(html: string) {
    this.#html = html;
  }

  /**
   * The tag starting at `lt`, or null when no `>` ends it. A `>` inside a quoted attribute value
   * does not end the tag; a quote that is never closed is an ordinary character, as a stray
   * apostrophe in `title=don't` is.
   */
  read(lt: number): Tag | null {
    const html = this.#html;
    const closing = html.charCodeAt(lt + 1) === SLASH;
    let at = lt + (closing ? 2 : 1);
    const nameStart = at;
    while (at < html.length && !isNameEnd(html.charCodeAt(at))) at++;
    const name = html.slice(nameStart, at).toLowerCase();
    let afterEquals = false;
    for (; at < html.length; at++) {
      const code = html.charCodeAt(at);
      if (code === GT) return { name, closing, selfClosing: html.charCodeAt(at - 1) === SLASH, end: at + 1 };
      if (code === EQUALS) afterEquals = true;
      else if (afterEquals && (code === DOUBLE_QUOTE || code === SINGLE_QUOTE)) {
        at = this.#closingQuote(code, at + 1) ?? at;
        afterEquals = false;
      } else if (!isSpace(code)) afterEquals = false;
    }
    return null;
  }

  #closingQuote(quote: number, from: number): number | undefined {
    if (this.#missing.has(quote)) return undefined;
    const index = this.#html.indexOf(String.fromCharCode(quote), from);
    if (index !== -1) return index;
    this.#missing.add(quote);
    return undefined;
  }
}

/** The `</name …>` that ends a raw-text element's content, searched for from `from`. */
function closingTag(html: string, name: string, from: number): { start: number; end: number } | null {
  for (let at = from; ; ) {
    const start = html.indexOf("</", at);
    if (start === -1) return null;
    const afterName = start + 2 + name.length;
    const named = html.slice(start + 2, afterName).toLowerCase() === name;
    if (named && (afterName === html.length || isNameEnd(html.charCodeAt(afterName)))) {
      const gt = html.indexOf(">", afterName);
      return gt === -1 ? null : { start, end: gt + 1 };
    }
    at = start + 2;
  }
}

/** Collects text with the source's whitespace flattened: only tags make line breaks. */
class LineWriter {
  /** Drops everything while set (inside `<head>`). */
  muted = false;
  readonly #parts: string[] = [];
  /** Ends in a soft line break, maybe followed by spaces, so another soft break adds nothing. */
  #afterSoftLine = false;

  text(chunk: string): void {
    if (this.muted || chunk === "") return;
    const flat = chunk.replace(/\s+/g, " ");
    if (flat !== " ") this.#afterSoftLine = false;
    this.#parts.push(flat);
  }

  tag(name: string, closing: boolean): void {
    if (PARAGRAPH.has(name)) this.#hard("\n\n");
    else if (LINE.has(name)) this.#softLine();
    else if (name === "br") this.#hard("\n");
    else if (name === "li" && !closing) this.#hard("\n- ");
    else if (CELL.has(name)) this.text(" ");
  }

  toString(): string {
    return this.#parts.join("");
  }

  #hard(breaks: string): void {
    if (this.muted) return;
    this.#parts.push(breaks);
    this.#afterSoftLine = false;
  }

  #softLine(): void {
    if (this.muted || this.#afterSoftLine) return;
    this.#parts.push("\n");
    this.#afterSoftLine = true;
  }
}

function isLetter(code: number): boolean {
  return (code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a);
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d;
}

/** A tag name runs until whitespace, `/` or `>`, as in a browser. */
function isNameEnd(code: number): boolean {
  return isSpace(code) || code === SLASH || code === GT;
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
