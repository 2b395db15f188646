// Reads and validates a JSON request body with a size cap, mapping every failure to an HttpError.
import type { Context } from "hono";
import type { z } from "zod";
import { describeZodError } from "../protocol/errors";
import { MAX_INPUT_BYTES } from "../protocol/limits";
import { HttpError } from "./http-error";

export async function readJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
  { optional = false } = {},
): Promise<z.infer<T>> {
  const declared = Number(c.req.header("content-length") ?? "0");
  if (declared > MAX_INPUT_BYTES)
    throw new HttpError("payload_too_large", `Body exceeds ${MAX_INPUT_BYTES} bytes`);
  const buffer = await c.req.arrayBuffer();
  if (buffer.byteLength > MAX_INPUT_BYTES)
    throw new HttpError("payload_too_large", `Body exceeds ${MAX_INPUT_BYTES} bytes`);
  const text = new TextDecoder().decode(buffer);
  let value: unknown = {};
  if (text.trim() !== "") {
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new HttpError("bad_json", `Body is not valid JSON: ${(error as Error).message}`);
    }
  } else if (!optional) {
    throw new HttpError("bad_json", "Body is empty; expected JSON");
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new HttpError("invalid_input", describeZodError(parsed.error));
  return parsed.data;
}
