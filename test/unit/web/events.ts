// Builders for protocol events and hello frames used by the web client's unit tests.
import type {
  EventData,
  EventType,
  HelloFrame,
  SessionEvent,
  SessionSnapshot,
} from "../../../src/protocol/index";

export function ev<T extends EventType>(seq: number, type: T, data: EventData<T>): SessionEvent {
  return { seq, at: 1_000 + seq, type, data } as SessionEvent;
}

export function hello(snapshot: Partial<SessionSnapshot> = {}, deviceId = "device-a"): HelloFrame {
  return {
    type: "hello",
    deviceId,
    snapshot: {
      sessionId: "0123456789abcdef0123456789abcdef",
      status: "idle",
      mode: "default",
      lastSeq: 0,
      pending: [],
      queued: 0,
      stack: [],
      model: "scripted",
      demo: false,
      interactionTimeoutMs: 600_000,
      serverTime: 50_000,
      createdAt: 1_000,
      ...snapshot,
    },
  };
}

export const QUESTION_REQUEST = {
  questions: [
    {
      question: "Which colour?",
      header: "Colour",
      multiSelect: false,
      options: [
        { label: "Red", description: "Warm" },
        { label: "Blue", description: "Cool" },
      ],
    },
    {
      question: "Which toppings?",
      header: "Toppings",
      multiSelect: true,
      options: [
        { label: "Cheese", description: "" },
        { label: "Olives", description: "" },
      ],
    },
  ],
};

export function questionPrompt(seq: number, toolCallId = "toolu_q", expiresAt = 600_000): SessionEvent {
  return ev(seq, "question_prompt", {
    toolCallId,
    kind: "question",
    toolName: "AskUserQuestion",
    request: QUESTION_REQUEST,
    createdAt: 0,
    expiresAt,
  });
}
