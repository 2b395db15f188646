// Turns zod validation issues into one readable line, for the model (an is_error tool result)
// and for devices (an error ack or a 400), which both need to see what to fix and where.
import type { z } from "zod";

function describePath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const segment of path) {
    if (typeof segment === "number") text += `[${segment}]`;
    else text += text === "" ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

/** `"questions[0].header: header must be at most 12 characters; …"`, one clause per issue. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = describePath(issue.path);
      return where === "" ? issue.message : `${where}: ${issue.message}`;
    })
    .join("; ");
}
