// Whether a browser must add Parley to the home screen before it can get pushes: iOS and iPadOS
// push only to web apps opened from the home screen, and only Safari can put them there.

/** What the page can tell about where it runs. */
export interface BrowserTraits {
  userAgent: string;
  maxTouchPoints: number;
  /** Running from the home screen (`navigator.standalone`, or `display-mode: standalone`). */
  standalone: boolean;
}

/** True on iOS or iPadOS Safari when the page is not running from the home screen. */
export function needsHomeScreen({ userAgent, maxTouchPoints, standalone }: BrowserTraits): boolean {
  if (standalone) return false;
  // iPadOS says it is a Mac; its touch points tell it apart.
  const ios = /iPhone|iPad|iPod/.test(userAgent) || (userAgent.includes("Macintosh") && maxTouchPoints > 1);
  // Other iOS browsers name themselves (CriOS, FxiOS, EdgiOS, OPiOS) and cannot add to the home screen.
  return ios && /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS/.test(userAgent);
}
