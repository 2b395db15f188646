// An MCP `tools/call` result as the tool result the model reads: text, structured content and
// resource links in order; binary content described rather than inlined; `isError` kept.
import { z } from "zod";
import type { ToolOutput } from "../tools/define-tool";

const Block = z.looseObject({ type: z.string() });
const CallResult = z.looseObject({
  content: z.array(Block).default([]),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
});

/** Maps a result; a result that is not shaped like one becomes an error the model can read. */
export function describeCallResult(server: string, raw: unknown): ToolOutput {
  const parsed = CallResult.safeParse(raw);
  if (!parsed.success) {
    return { content: `MCP server "${server}" returned a malformed tool result.`, isError: true };
  }
  const { content, structuredContent, isError } = parsed.data;
  const parts = content.map(describeBlock);
  if (structuredContent !== undefined) {
    const json = JSON.stringify(structuredContent, null, 2);
    // Servers often repeat the structured content as text for older clients: say it once.
    const repeated = parts.some((part) => sameJson(part, structuredContent));
    if (!repeated) parts.push(`Structured content:\n${json}`);
  }
  return { content: parts.join("\n\n"), isError: isError === true };
}

function describeBlock(block: z.infer<typeof Block>): string {
  const field = (key: string) => (typeof block[key] === "string" ? (block[key] as string) : "");
  switch (block.type) {
    case "text":
      return field("text");
    case "image":
    case "audio":
      return `[${block.type}: ${field("mimeType") || "unknown type"}, ${describeBytes(base64Bytes(field("data")))} — not shown to the model]`;
    case "resource_link": {
      const title = field("title") || field("name") || field("uri");
      const details = [field("mimeType"), field("description")].filter(Boolean).join(", ");
      return `[resource link: ${title} <${field("uri")}>${details ? ` (${details})` : ""}]`;
    }
    case "resource":
      return describeEmbedded(block.resource);
    default:
      return `[${block.type} content not shown]`;
  }
}

function describeEmbedded(resource: unknown): string {
  const parsed = z
    .looseObject({
      uri: z.string(),
      mimeType: z.string().optional(),
      text: z.string().optional(),
      blob: z.string().optional(),
    })
    .safeParse(resource);
  if (!parsed.success) return "[embedded resource that could not be read]";
  const { uri, mimeType, text, blob } = parsed.data;
  if (text !== undefined) return `[resource ${uri}${mimeType ? ` (${mimeType})` : ""}]\n${text}`;
  return `[resource ${uri}: ${mimeType ?? "binary"}, ${describeBytes(base64Bytes(blob ?? ""))} — not shown to the model]`;
}

function base64Bytes(data: string): number {
  const padding = data.endsWith("==") ? 2 : data.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}

function describeBytes(bytes: number): string {
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}

function sameJson(text: string, value: unknown): boolean {
  try {
    return JSON.stringify(JSON.parse(text)) === JSON.stringify(value);
  } catch {
    return false;
  }
}
