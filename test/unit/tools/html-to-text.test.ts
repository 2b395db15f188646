import { describe, expect, it } from "vitest";
import { decodeEntities, htmlToText } from "../../../src/tools/html-to-text";

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

  it("decodes numeric, hex and common named entities and leaves unknown ones alone", () => {
    expect(decodeEntities("&#233;t&#xE9; &mdash; 5&nbsp;&euro; &hellip; &#128512; &bogus; &#0;")).toBe(
      "été — 5\u00a0€ … 😀 &bogus; \uFFFD",
    );
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
