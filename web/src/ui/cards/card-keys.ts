// When a key may answer a card: not in the first second after the card appeared, since a key
// pressed then was meant for whatever had the person's attention before (most often the message
// box, where Enter means "send").

/** How long a new card ignores the keys that could answer it. */
export const CARD_SETTLE_MS = 1_000;

/** The clock cards read their appearance time from; tests replace `now`. */
export const cardClock = { now: (): number => performance.now() };

/**
 * Whether `key`, pressed `sinceAppearedMs` after the card appeared, comes too soon to count:
 * Enter and Space (which also press a focused button) always, digits unless typed into a text field.
 */
export function tooSoonForCard(key: string, sinceAppearedMs: number, inTextField: boolean): boolean {
  if (sinceAppearedMs >= CARD_SETTLE_MS) return false;
  return key === "Enter" || key === " " || (!inTextField && /^[0-9]$/.test(key));
}
