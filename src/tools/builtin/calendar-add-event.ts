// calendar_add_event: adds an event to the session calendar after the person confirms its details
// in a form, and asks again when it overlaps one already there. Side effect only after the last form.
import * as z from "zod";
import { lazySchema } from "../../protocol/lazy-schema";
import { defineTool } from "../define-tool";
import {
  type CalendarEvent,
  firstOverlap,
  formatEvent,
  readCalendar,
  writeCalendar,
} from "./calendar-events";

const MAX_TITLE_CHARS = 200;

const input = lazySchema(() =>
  z.object({
    title: z.string().trim().min(1).max(MAX_TITLE_CHARS).describe("What the event is, e.g. 'Dentist'."),
    start: z
      .string()
      .max(40)
      .optional()
      .describe("Suggested start as an ISO date and time, e.g. 2026-12-01T09:30, if the user mentioned one."),
    minutes: z.number().int().min(5).max(480).optional().describe("Suggested length in minutes."),
  }),
);

export const calendarAddEvent = defineTool({
  name: "calendar_add_event",
  description:
    "Add an event to this session's calendar. The user confirms or corrects the title, start and length in a " +
    "form before anything is saved, and is asked again if it overlaps an existing event. Pass what you know " +
    "as suggestions. The result lists the whole calendar.",
  input,
  risk: "edit",
  // Appending twice would list the event twice.
  idempotent: false,
  async run(suggested, ctx) {
    const details = await ctx.elicit({
      message: `Add “${suggested.title}” to the calendar? Check the details.`,
      requestedSchema: {
        type: "object",
        properties: {
          title: {
            type: "string",
            title: "Title",
            minLength: 1,
            maxLength: MAX_TITLE_CHARS,
            default: suggested.title,
          },
          start: {
            type: "string",
            title: "Starts at",
            format: "date-time",
            ...(suggested.start ? { default: suggested.start } : {}),
          },
          minutes: {
            type: "integer",
            title: "Length (minutes)",
            minimum: 5,
            maximum: 480,
            default: suggested.minutes ?? 30,
          },
        },
        required: ["title", "start", "minutes"],
      },
    });
    if (details.action === "decline") return "The user declined; nothing was added to the calendar.";
    if (details.action === "cancel")
      return "The form was dismissed or timed out; nothing was added to the calendar.";
    const event: CalendarEvent = {
      title: String(details.content.title),
      start: String(details.content.start),
      minutes: Number(details.content.minutes),
    };
    const existing = readCalendar(ctx.state);
    const overlap = firstOverlap(existing, event);
    if (overlap) {
      const confirm = await ctx.elicit({
        message: `“${event.title}” overlaps “${overlap.title}” (${overlap.start}, ${overlap.minutes} min).`,
        requestedSchema: {
          type: "object",
          properties: {
            choice: {
              type: "string",
              title: "What now?",
              oneOf: [
                { const: "add", title: "Add it anyway" },
                { const: "skip", title: "Don't add it" },
              ],
            },
          },
          required: ["choice"],
        },
      });
      if (confirm.action !== "accept" || confirm.content.choice !== "add") {
        return `Not added: “${event.title}” overlaps “${overlap.title}” and the user chose not to double-book.`;
      }
    }
    const events = [...existing, event];
    writeCalendar(ctx.state, events);
    const count = events.length;
    return [
      `Added “${event.title}” at ${event.start} for ${event.minutes} minutes. The calendar has ${count} event${count === 1 ? "" : "s"}:`,
      ...events.map(formatEvent),
    ].join("\n");
  },
});
