// The one-time hint to add Parley to the home screen is for iOS and iPadOS Safari outside the home
// screen only: there, and only there, push needs the app on the home screen first.
import { describe, expect, it } from "vitest";
import { needsHomeScreen } from "../../../web/src/home-screen";

const IPHONE_SAFARI =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Mobile/15E148 Safari/604.1";
const IPAD_SAFARI =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.4 Safari/605.1.15";
const IPHONE_CHROME =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 18_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1";
const ANDROID_CHROME =
  "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";

describe("the home screen hint", () => {
  it("is shown on iPhone Safari outside the home screen", () => {
    expect(needsHomeScreen({ userAgent: IPHONE_SAFARI, maxTouchPoints: 5, standalone: false })).toBe(true);
  });

  it("is shown on iPad Safari, which says it is a Mac but has touch points", () => {
    expect(needsHomeScreen({ userAgent: IPAD_SAFARI, maxTouchPoints: 5, standalone: false })).toBe(true);
  });

  it("is not shown on a Mac, whose Safari has no touch points", () => {
    expect(needsHomeScreen({ userAgent: IPAD_SAFARI, maxTouchPoints: 0, standalone: false })).toBe(false);
  });

  it("is not shown once Parley runs from the home screen", () => {
    expect(needsHomeScreen({ userAgent: IPHONE_SAFARI, maxTouchPoints: 5, standalone: true })).toBe(false);
  });

  it("is not shown in another iOS browser, which cannot add to the home screen, nor on Android", () => {
    expect(needsHomeScreen({ userAgent: IPHONE_CHROME, maxTouchPoints: 5, standalone: false })).toBe(false);
    expect(needsHomeScreen({ userAgent: ANDROID_CHROME, maxTouchPoints: 5, standalone: false })).toBe(false);
  });
});
