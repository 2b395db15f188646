// The words an MCP tool's input schema gives each argument (its `title`, else its `description`),
// kept with the tool so an approval card can title the argument rows. Read defensively: a server's
// schema is whatever it sent.

/** Most arguments titled, and the longest title kept. */
export const MAX_TITLED_ARGUMENTS = 64;
export const MAX_TITLE_CHARS = 200;

function words(property: unknown): string | null {
  if (typeof property !== "object" || property === null) return null;
  for (const key of ["title", "description"] as const) {
    const value = (property as Record<string, unknown>)[key];
    if (typeof value === "string" && value.trim() !== "") return value.trim().slice(0, MAX_TITLE_CHARS);
  }
  return null;
}

/** Argument name → title from a JSON schema's `properties`; empty when it names none. */
export function schemaTitles(inputSchema: unknown): Record<string, string> {
  const properties =
    typeof inputSchema === "object" && inputSchema !== null
      ? (inputSchema as Record<string, unknown>).properties
      : undefined;
  if (typeof properties !== "object" || properties === null) return {};
  // Built as own entries, so an argument named `__proto__` is a title like any other.
  const titled = Object.entries(properties)
    .slice(0, MAX_TITLED_ARGUMENTS)
    .map(([name, property]) => [name, words(property)] as const)
    .filter((entry): entry is readonly [string, string] => entry[1] !== null);
  return Object.fromEntries(titled);
}
