// `/api/decisions`: the person's decision record, cursor-paged and filtered, and its export as CSV
// or JSON. Only the person in person reads it; no link does.
import { Hono } from "hono";
import * as z from "zod";
import { decisionsCsv } from "../../inbox/decision-store";
import { DecisionQuery } from "../../protocol/inbox/decisions";
import { lazySchema } from "../../protocol/lazy-schema";
import { describeZodError } from "../../protocol/wire/errors";
import { inboxStub } from "../../session/inbox-report/inbox-rpc";
import type { AppEnv } from "../app-env";
import { HttpError } from "../http-error";
import { personOf, requireInPerson } from "../person";

export const decisionRoutes = new Hono<AppEnv>();

decisionRoutes.use("*", async (c, next) => {
  requireInPerson(c, "read the decision record");
  await next();
});

decisionRoutes.get("/", async (c) => {
  const parsed = DecisionQuery.safeParse(c.req.query());
  if (!parsed.success) throw new HttpError("invalid_input", describeZodError(parsed.error));
  return c.json(await inboxStub(c.env, personOf(c)).decisions(parsed.data));
});

const ExportQuery = lazySchema(() => z.strictObject({ format: z.enum(["csv", "json"]).default("json") }));

decisionRoutes.get("/export", async (c) => {
  const parsed = ExportQuery.safeParse(c.req.query());
  if (!parsed.success) throw new HttpError("invalid_input", describeZodError(parsed.error));
  const records = await inboxStub(c.env, personOf(c)).allDecisions();
  const day = new Date().toISOString().slice(0, 10);
  const disposition = (ext: string) => `attachment; filename="parley-decisions-${day}.${ext}"`;
  if (parsed.data.format === "json") {
    return c.json({ decisions: records }, 200, { "content-disposition": disposition("json") });
  }
  return c.body(decisionsCsv(records), 200, {
    "content-type": "text/csv; charset=utf-8",
    "content-disposition": disposition("csv"),
  });
});
