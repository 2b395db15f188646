// The HTML named character references the Chat SDK's Markdown parser (micromark) decodes, read from
// the `entities` table fetch_url already bundles: wrangler.toml's [alias] points
// `decode-named-character-reference` here, so the Worker carries one copy of the HTML standard's
// table rather than two (its own `character-entities` map is 12 KiB gzip more).
import { decodeHTMLStrict } from "entities";

/** A reference's name: what micromark collects between `&` and `;` (at most 31 letters and digits). */
const NAME = /^[A-Za-z][A-Za-z0-9]{0,31}$/;

/**
 * The characters `&name;` stands for, or false when the standard names no such reference (as
 * `decode-named-character-reference` answers). Strict decoding needs the `;`, and the name holds none,
 * so a decoded result always consumed the whole name: `&notit;` is not `¬` followed by `it;`.
 */
export function decodeNamedCharacterReference(value: string): string | false {
  if (!NAME.test(value)) return false;
  const reference = `&${value};`;
  const decoded = decodeHTMLStrict(reference);
  return decoded === reference ? false : decoded;
}
