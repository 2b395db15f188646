// An MCP `tools/call` result as the tool result the model reads: text, structured content and
// resource links in order; small images passed on as images, other binary content described; `isError` kept.
import * as z from "zod";
import { lazySchema } from "../protocol/lazy-schema";
import type { ToolImage, ToolOutput } from "../tools/define-tool";

/** Images up to this many base64 characters (about 150 KB) are shown to the model; larger ones are described. */
export const MAX_IMAGE_CHARS = 200_000;
/** At most this many images of one result are shown to the model. */
export const MAX_IMAGES_PER_RESULT = 3;
const IMAGE_TYPES = new Set<string>(["image/png", "image/jpeg", "image/gif", "image/webp"]);

const Block = lazySchema(() => z.looseObject({ type: z.string() }));
const CallResult = lazySchema(() =>
  z.looseObject({
    content: z.array(Block).default([]),
    structuredContent: z.unknown().optional(),
    isError: z.boolean().optional(),
  }),
);

/** Maps a result; a result that is not shaped like one becomes an error the model can read. */
export function describeCallResult(server: string, raw: unknown): ToolOutput {
  const parsed = CallResult.safeParse(raw);
  if (!parsed.success) {
    return { content: `MCP server "${server}" returned a malformed tool result.`, isError: true };
  }
  const { content, structuredContent, isError } = parsed.data;
  const images: ToolImage[] = [];
  const parts = content.map((block) => {
    const image = showableImage(block, images.length);
    if (!image) return describeBlock(block);
    images.push(image);
    return `[image ${images.length}: ${image.mediaType}, ${describeBytes(base64Bytes(image.data))} — shown below]`;
  });
  if (structuredContent !== undefined) {
    const json = JSON.stringify(structuredContent, null, 2);
    // Servers often repeat the structured content as text for older clients: say it once.
    const repeated = parts.some((part) => sameJson(part, structuredContent));
    if (!repeated) parts.push(`Structured content:\n${json}`);
  }
  return { content: parts.join("\n\n"), isError: isError === true, ...(images.length > 0 ? { images } : {}) };
}

function showableImage(block: z.infer<typeof Block>, shown: number): ToolImage | null {
  if (block.type !== "image" || shown >= MAX_IMAGES_PER_RESULT) return null;
  const { mimeType, data } = block;
  if (typeof mimeType !== "string" || !IMAGE_TYPES.has(mimeType)) return null;
  if (typeof data !== "string" || data.length === 0 || data.length > MAX_IMAGE_CHARS) return null;
  return { mediaType: mimeType as ToolImage["mediaType"], data };
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
