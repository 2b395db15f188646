import { describe, expect, it } from "vitest";
import { htmlToText } from "../../../src/tools/html-to-text";

describe("htmlToText", () => {
  it("keeps the readable text and title of a page and drops head, scripts and styles", () => {
    const page = htmlToText(`<!DOCTYPE html>
      <html><head><title> Fish &amp; Chips
        Guide </title><meta name="x"><style>body{color:red}</style>
        <script>var secret = "head script";</script></head>
      <body>
        <!-- a comment -->
        <h1>Best   fish</h1>
        <p>Crispy batter, <b>hot</b> chips.</p>
        <script type="text/javascript">alert("x < y")</script>
        <STYLE>.a > .b { }</STYLE>
        <noscript>Enable JavaScript</noscript>
        <ul><li>Cod</li><li>Haddock</li></ul>
        <a href="/x" title="a > b">Menu</a>
      </body></html>`);
    expect(page.title).toBe("Fish & Chips Guide");
    expect(page.text).toBe("Best fish\n\nCrispy batter, hot chips.\n\n- Cod\n- Haddock\n\nMenu");
  });

  it("decodes entities only after removing tags, so escaped markup stays text", () => {
    expect(htmlToText("<p>Use &lt;script&gt; tags &amp; &quot;quotes&quot;</p>").text).toBe(
      'Use <script> tags & "quotes"',
    );
  });

  it("decodes numeric and named references as a browser does, and leaves unknown names as written", () => {
    expect(
      htmlToText("<p>&#233;t&#xE9; &mdash; 5&euro; &hellip; &#128512; &bogus; &#0; &AMP;</p>").text,
    ).toBe("été — 5€ … 😀 &bogus; \uFFFD &");
  });

  it("treats an unclosed script as running to the end, as a browser does", () => {
    expect(htmlToText("<p>before</p><script>never shown").text).toBe("before");
  });

  it("returns no title when there is none and plain text unchanged", () => {
    expect(htmlToText("just words,   spaced")).toEqual({ title: null, text: "just words, spaced" });
  });
});

describe("htmlToText line structure", () => {
  it("makes lines from tags, not from the source's own line breaks", () => {
    const html = `<div>one
      two</div><div>three<br>four</div><table><tr><td>a</td><td>b</td></tr><tr><th>c</th></tr></table>`;
    expect(htmlToText(html).text).toBe("one two\nthree\nfour\n\na b\nc");
  });
});

describe("htmlToText on sloppy markup", () => {
  it("reports the title of a page without a head and keeps it out of the text", () => {
    expect(htmlToText("<title>Menu</title><p>Soup of the day</p>")).toEqual({
      title: "Menu",
      text: "Soup of the day",
    });
  });

  it("starts the text at <body> when the head is never closed", () => {
    expect(htmlToText("<html><head><title>Open head</title><meta charset=utf-8><body><p>Shown</p>")).toEqual({
      title: "Open head",
      text: "Shown",
    });
  });

  it("ends a tag at a stray apostrophe's > and at an unclosed quote's >", () => {
    expect(htmlToText("<a title=don't>Menu</a> it's <p class=\"intro>Hello</p>").text).toBe(
      "Menu it's\n\nHello",
    );
  });

  it("keeps a < that starts no tag as text", () => {
    expect(htmlToText("<p>if a < b and b <3 c</p>").text).toBe("if a < b and b <3 c");
  });

  it("keeps the rest of a page cut off inside a tag as text", () => {
    expect(htmlToText('<p>Tide at 06:42</p><a href="https://tides.example/to').text).toBe(
      'Tide at 06:42\n\n<a href="https://tides.example/to',
    );
  });

  it("merges line breaks from adjacent blocks separated only by inline tags", () => {
    expect(htmlToText("<div>one</div><span> </span><div>two</div>").text).toBe("one\ntwo");
  });

  it("treats a self-closed svg as empty instead of hiding the rest of the page", () => {
    expect(htmlToText('<p>Save <svg class="icon"/> now</p>').text).toBe("Save now");
  });
});

// Each input is large enough that a scan revisiting text at every `<` would run far past the
// suite's test timeout; a linear scan reads it in well under a second.
describe("htmlToText on hostile markup", () => {
  it.each([
    ["unclosed paragraph tags", "<p ".repeat(100_000)],
    ["unclosed div tags", "<div ".repeat(200_000)],
    ["unclosed script tags", "<script ".repeat(100_000)],
    ["unclosed tags with quoted attributes", '<a href="x" '.repeat(100_000)],
    ["unclosed declarations", "<!x".repeat(300_000)],
  ])("reads a page of %s as its text", (_what, html) => {
    expect(htmlToText(html)).toEqual({ title: null, text: html.trim() });
  });

  it("hides everything after a script, title or comment that is never closed", () => {
    expect(htmlToText(`<p>seen</p>${"<script>".repeat(100_000)}`).text).toBe("seen");
    expect(htmlToText(`<p>seen</p>${"<script></scrip".repeat(100_000)}`).text).toBe("seen");
    expect(htmlToText(`<p>seen</p>${"<title>".repeat(100_000)}`)).toEqual({ title: null, text: "seen" });
    expect(htmlToText(`<p>seen</p>${"<!--".repeat(300_000)}`).text).toBe("seen");
  });

  it("reads a 1 MB article with sloppy markup", () => {
    const page = largeArticle(1024 * 1024);
    const result = htmlToText(page.html);
    expect(result.title).toBe("Harbour log & tides");
    const lines = result.text.split("\n");
    expect(lines.slice(0, 7)).toEqual([
      "Entry 0 — high tide",
      "",
      "Boats in: 0 < 1 of the fleet, it's calm. See the chart.",
      "",
      "- Cod: 0 kg",
      "- Haddock: 0 kg",
      "",
    ]);
    expect(lines.filter((line) => line.startsWith("Entry ")).length).toBe(page.entries);
    expect(lines.at(-1)).toBe(`Wind ${page.entries - 1} Calm`);
    expect(result.text).not.toMatch(/track|secret|<(?:p|div|script|a)\b|&amp;/);
  });
});

/** An article of repeated entries, with the sloppiness real pages have, of at least `bytes`. */
function largeArticle(bytes: number): { html: string; entries: number } {
  const head = `<!DOCTYPE html><html><head><title>Harbour log &amp; tides</title>
    <style>.entry > h2 { color: navy }</style><script>track("<p>secret</p>")</script></head><body>`;
  const entry = (n: number) => `
    <div class="entry" data-n='${n}'><h2 id="e${n}">Entry ${n} &mdash; high tide</h2>
      <p>Boats in: ${n} < ${n + 1} of the fleet, it's calm. See <a href="/chart?n=${n}&amp;z=2" title="a > b">the chart</a>.
      <ul><li>Cod: ${n} kg<li>Haddock: ${n} kg</ul>
      <!-- entry ${n} --><script>track(${n})</script>
      <table><tr><th>Wind</th><td>${n}</td><td>Calm</td></tr></table></div>`;
  const parts = [head];
  let size = head.length;
  let entries = 0;
  while (size < bytes) {
    const next = entry(entries++);
    parts.push(next);
    size += next.length;
  }
  parts.push("</body></html>");
  return { html: parts.join(""), entries };
}
