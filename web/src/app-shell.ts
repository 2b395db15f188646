// Parley as an app on the home screen: the service worker registered on every page (the offline
// shell, installability), the app badge with the cards waiting, and on iOS Safari outside the home
// screen a one-time hint to add Parley there, since iOS pushes only to apps on the home screen.
import { type BrowserTraits, needsHomeScreen } from "./home-screen";
import { safeLocalStorage } from "./safe-storage";
import { h } from "./ui/dom";

const HINT_SEEN = "parley.home-screen-hint";

/** Registers the service worker, which keeps the page's shell for offline starts. Never throws. */
export function registerShell(): void {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => undefined);
}

/** Shows `count` waiting cards on the app's icon (where the platform has a badge). Never throws. */
export function showWaiting(count: number): void {
  const badging = navigator as Navigator & {
    setAppBadge?: (count?: number) => Promise<void>;
    clearAppBadge?: () => Promise<void>;
  };
  const done = count > 0 ? badging.setAppBadge?.(count) : badging.clearAppBadge?.();
  done?.catch(() => undefined);
}

/** What this browser says about itself, for needsHomeScreen. */
function thisBrowser(): BrowserTraits {
  return {
    userAgent: navigator.userAgent,
    maxTouchPoints: navigator.maxTouchPoints ?? 0,
    standalone:
      (navigator as Navigator & { standalone?: boolean }).standalone === true ||
      window.matchMedia?.("(display-mode: standalone)").matches === true,
  };
}

/** The one-time hint to add Parley to the home screen, or null when it is not needed or was seen. */
export function homeScreenHint(): HTMLElement | null {
  const storage = safeLocalStorage();
  if (!needsHomeScreen(thisBrowser()) || storage?.getItem(HINT_SEEN) === "1") return null;
  const close = h("button", { type: "button", class: "home-screen-hint-close", text: "Got it" });
  const hint = h(
    "aside",
    { class: "home-screen-hint", role: "note" },
    h("p", {
      text: "To get notifications on this iPhone or iPad, add Parley to your Home Screen: tap Share, then “Add to Home Screen”, and open Parley from there.",
    }),
    close,
  );
  close.addEventListener("click", () => hint.remove());
  // Shown once: the person has read it, whether or not they follow it.
  storage?.setItem(HINT_SEEN, "1");
  return hint;
}
