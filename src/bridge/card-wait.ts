// The one wait of every bridge: open the card by its key, wait for its resolution with long-poll reads
// of the card (a local bridge's over HTTP, the Worker's endpoint on the object), and withdraw it on
// every device when the agent gives up, also when it gives up mid-open.
import type { ExternalInteraction } from "../protocol/external/external";

/** A card as a bridge opens it: a kind, its request, and the key that finds it again. */
export interface KeyedCard {
  kind: string;
  request: unknown;
  key: string;
  /** The agent process's working folder, as the bridge knows it (relative path rules resolve against it). */
  cwd?: string;
}

/** How a bridge reaches its session: a port, so the same wait runs in Node, a browser and the Worker. */
export interface CardLine<Card extends KeyedCard = KeyedCard> {
  /** Opens the card, or finds it again by its key (open or resolved). */
  open(card: Card, signal?: AbortSignal): Promise<{ interactionId: string }>;
  /** Resolves with the card once it is resolved; rejects with the signal's reason on abort. */
  wait(interactionId: string, signal?: AbortSignal): Promise<ExternalInteraction>;
  /**
   * Cancels the card on every device. A line without it leaves an abandoned card open, for a
   * repeated call with the same key to wait on again (the Worker's endpoint).
   */
  withdraw?(interactionId: string): Promise<void>;
}

export interface CardWaitOptions {
  signal?: AbortSignal | undefined;
  /** Receives each withdrawal, so the host can wait for it before exiting (default: ignored). */
  track?: (withdrawal: Promise<void>) => void;
}

/** Opens `card` and resolves with it once a person (or its deadline) resolved it. */
export async function waitForCard<Card extends KeyedCard>(
  line: CardLine<Card>,
  card: Card,
  options: CardWaitOptions = {},
): Promise<ExternalInteraction> {
  const { signal } = options;
  const track = options.track ?? ((withdrawal: Promise<void>) => void withdrawal.catch(() => {}));
  const withdrawCard = line.withdraw?.bind(line);
  // Aborted while the card is being opened: Parley may have stored it already, so it is found again
  // by its key and withdrawn at once, never left waiting for an answer, nor for the first open to end.
  const withdrawWhileOpening = () => {
    if (withdrawCard) track(line.open(card).then((found) => withdrawCard(found.interactionId)));
  };
  if (signal?.aborted) withdrawWhileOpening();
  else signal?.addEventListener("abort", withdrawWhileOpening, { once: true });
  const opened = await line.open(card, signal).finally(() => {
    signal?.removeEventListener("abort", withdrawWhileOpening);
  });
  const withdraw = () => {
    if (withdrawCard) track(withdrawCard(opened.interactionId));
  };
  if (!signal?.aborted) signal?.addEventListener("abort", withdraw, { once: true });
  try {
    return await line.wait(opened.interactionId, signal);
  } finally {
    signal?.removeEventListener("abort", withdraw);
  }
}
