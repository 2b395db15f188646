// current_time: the gateway's clock in any IANA time zone, so the model need not guess the date.
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";
import { defineTool, type ToolOutput } from "../define-tool";

const input = lazySchema(() =>
  z.object({
    timeZone: z
      .string()
      .max(64)
      .optional()
      .describe('IANA time zone name such as "Europe/Paris" or "America/New_York" (default "UTC").'),
  }),
);

export const currentTime = defineTool({
  name: "current_time",
  description:
    "Get the current date and time, as an ISO 8601 UTC timestamp and as local time in an " +
    "optional IANA time zone (with its UTC offset and weekday).",
  input,
  risk: "read",
  idempotent: true,
  async run({ timeZone = "UTC" }, ctx): Promise<ToolOutput> {
    const now = new Date(ctx.now());
    let readable: Intl.DateTimeFormat;
    let offset: Intl.DateTimeFormat;
    try {
      readable = new Intl.DateTimeFormat("en-US", { timeZone, dateStyle: "full", timeStyle: "long" });
      offset = new Intl.DateTimeFormat("en-US", { timeZone, timeZoneName: "longOffset" });
    } catch {
      return {
        content: `Unknown time zone "${timeZone}". Use an IANA name such as "UTC", "Europe/Paris" or "Asia/Tokyo".`,
        isError: true,
      };
    }
    const zone = readable.resolvedOptions().timeZone;
    return [
      `UTC: ${now.toISOString()}`,
      `Local time in ${zone}: ${readable.format(now)}`,
      `UTC offset: ${utcOffset(offset, now)}`,
    ].join("\n");
  },
});

/** "+02:00" style offset; `longOffset` prints "GMT+02:00", or plain "GMT" for zero. */
function utcOffset(format: Intl.DateTimeFormat, at: Date): string {
  const name = format.formatToParts(at).find((part) => part.type === "timeZoneName")?.value ?? "GMT";
  const offset = name.replace(/^(GMT|UTC)/, "");
  return offset === "" ? "+00:00" : offset;
}
