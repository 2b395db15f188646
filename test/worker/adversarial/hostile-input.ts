// Generators of malformed and hostile input for the property suites: wrong types, huge numbers,
// deep nesting, `__proto__` keys, lone surrogates, oversized strings, and real ids with bad payloads.
import fc from "fast-check";
import { MAX_INPUT_BYTES } from "../../../src/protocol/limits";
import { COMMAND_TYPES } from "../../../src/protocol/wire/commands";

/** The paused session's real pending tool call (see `pausedSession`). */
export const PENDING_ID = "toolu_pending";

const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code));
const nastyString = fc.oneof(
  fc.string(),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ unit: fc.oneof(loneSurrogate, fc.string({ unit: "grapheme", maxLength: 1 })), maxLength: 20 }),
  fc.constantFrom("", " ", "\u0000", "__proto__", "constructor", "toolu_pending", "\u202e", "🙂".repeat(3)),
);
const hugeNumber = fc.oneof(
  fc.constantFrom(
    Number.MAX_VALUE,
    -Number.MAX_VALUE,
    Number.MAX_SAFE_INTEGER + 2,
    Number.MIN_VALUE,
    -0,
    1e21,
  ),
  fc.double(),
  fc.integer(),
);

/** Any JSON-ish value, including the hostile leaves above. */
export const hostileValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    nastyString,
    hugeNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(nastyString, tie("value"), { maxKeys: 4 }),
  ),
})).value;

/** Nesting far deeper than any schema expects: `[[[[…]]]]` or `{"a":{"a":…}}`. */
const deepNesting = fc
  .tuple(fc.integer({ min: 50, max: 5_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${"[".repeat(depth)}${"]".repeat(depth)}` : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
  );

/** A command-shaped object: a known or unknown type with hostile fields, some aimed at the real card. */
const commandShaped = fc.record(
  {
    type: fc.oneof(fc.constantFrom(...COMMAND_TYPES), nastyString, hugeNumber, fc.constant(null)),
    requestId: fc.oneof(nastyString, hugeNumber, fc.constant(undefined)),
    toolCallId: fc.oneof(fc.constant(PENDING_ID), nastyString, hugeNumber),
    text: hostileValue,
    answers: hostileValue,
    remember: hostileValue,
    reason: hostileValue,
    response: hostileValue,
    mode: hostileValue,
    after: hostileValue,
    extra: hostileValue,
  },
  { requiredKeys: ["type"] },
);

/** Real ids with payloads that do not fit them. */
const realIdBadPayload = fc.oneof(
  fc.record({
    type: fc.constant("approve"),
    toolCallId: fc.constant(PENDING_ID),
    remember: hostileValue.filter((v) => typeof v !== "boolean"),
  }),
  fc.record({
    type: fc.constant("deny"),
    toolCallId: fc.constant(PENDING_ID),
    reason: hostileValue.filter((v) => typeof v !== "string"),
  }),
  fc.record({
    type: fc.constant("submit_answers"),
    toolCallId: fc.constant(PENDING_ID),
    answers: hostileValue,
  }),
  fc.record({ type: fc.constant("respond"), toolCallId: fc.constant(PENDING_ID), response: hostileValue }),
  fc.record({
    type: fc.constant("deny"),
    toolCallId: fc.constant(PENDING_ID),
    reason: fc.constant("r".repeat(5_000)),
  }),
  fc.record({
    type: fc.constant("decide_batch"),
    toolCallIds: fc.oneof(fc.constant([PENDING_ID]), hostileValue),
    decision: hostileValue.filter((v) => v !== "approve" && v !== "deny"),
    reason: hostileValue,
    stop: hostileValue,
  }),
  fc.record({
    type: fc.constant("decide_batch"),
    toolCallIds: hostileValue.filter((v) => !Array.isArray(v)),
    decision: fc.constantFrom("approve", "deny"),
  }),
);

/** A hostile value for one path segment or query value: never the real card's id. */
export const hostileSegment: fc.Arbitrary<string> = fc
  .oneof(
    nastyString,
    hugeNumber.map(String),
    fc.constantFrom("..", "%2e%2e", "a/b", "0".repeat(32), "f".repeat(200)),
  )
  .filter((text) => text !== PENDING_ID);

/** A credential that is none: garbage, a forged-looking JWT, a bare HMAC shape, or nothing. */
export const hostileToken: fc.Arbitrary<string> = fc.oneof(
  fc
    .string({ unit: "binary-ascii", minLength: 1, maxLength: 80 })
    .filter((text) => /^[\x21-\x7e]+$/.test(text)),
  fc.constantFrom(
    "eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.",
    "eyJhbGciOiJIUzI1NiJ9.e30.AAAA",
    "A".repeat(43),
    // Agent-key shapes: forged, malformed, and naming a person who never minted one.
    `pak_bG9jYWw.${"0".repeat(32)}.${"A".repeat(43)}`,
    `pak_${"0".repeat(32)}`,
    "pak_",
    "null",
    "undefined",
    "Bearer",
  ),
);

/** JSON text a parser might treat specially: `__proto__` keys, escaped lone surrogates, 1e999. */
const trickyJsonText = fc.oneof(
  fc.constantFrom(
    `{"__proto__":{"type":"cancel"},"type":"cancel","x":1}`,
    `{"type":"approve","toolCallId":"${PENDING_ID}","__proto__":{"remember":true},"remember":"yes"}`,
    `{"type":"send_message","text":"\\ud800"}`,
    `{"type":"deny","toolCallId":"\\udfff","reason":"x"}`,
    `{"type":"resume","after":1e999}`,
    `{"type":"approve","toolCallId":"${PENDING_ID}","remember":1e999}`,
    `{"type":"cancel","constructor":{"prototype":{"polluted":true}}}`,
    `{"type":"send_message","text":""}`,
    `{"type":"set_permission_mode","mode":"__proto__"}`,
  ),
  deepNesting,
  fc.string({ unit: "binary-ascii", maxLength: 60 }),
);

/** Text past the size limit, as JSON and as plain garbage. */
const oversized = fc.constantFrom(
  JSON.stringify({ type: "send_message", text: "x".repeat(MAX_INPUT_BYTES) }),
  "y".repeat(MAX_INPUT_BYTES + 1),
  JSON.stringify({ type: "deny", toolCallId: PENDING_ID, reason: "é".repeat(MAX_INPUT_BYTES / 2 + 1) }),
);

/** One raw frame or body: JSON of a hostile value, or tricky text. */
export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { arbitrary: commandShaped.map((v) => JSON.stringify(v)), weight: 5 },
  { arbitrary: realIdBadPayload.map((v) => JSON.stringify(v)), weight: 4 },
  { arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? "undefined"), weight: 2 },
  { arbitrary: trickyJsonText, weight: 2 },
  { arbitrary: oversized, weight: 1 },
);
