// Draws Parley's app icons (web/static/icons/*.png, committed) from one SVG with the local Chromium
// through playwright-core: the manifest's 192 and 512 px icons, their maskable versions (the mark
// inside the middle 80%, the background to every edge) and the 180 px Apple touch icon.
// Run `node scripts/make-icons.mjs` after changing the drawing; CHROMIUM_PATH names another browser.
import { mkdir } from "node:fs/promises";
import { chromium } from "playwright-core";

const OUT = new URL("../web/static/icons/", import.meta.url).pathname;
const BACKGROUND = "#1f3a5f";
const MARK = "#ffffff";

/**
 * The mark: a speech bubble with a check, Parley's "ask a person, then go on". `inset` is the share
 * of each side left to the background (maskable icons keep the mark in the safe zone).
 * @param {number} size
 * @param {{ inset: number, rounded: boolean }} options
 */
function svg(size, { inset, rounded }) {
  const box = size * (1 - 2 * inset);
  const at = (x) => size * inset + box * x;
  const radius = rounded ? size * 0.18 : 0;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  <rect width="${size}" height="${size}" rx="${radius}" fill="${BACKGROUND}"/>
  <path d="M ${at(0.12)} ${at(0.18)} h ${box * 0.76} a ${box * 0.08} ${box * 0.08} 0 0 1 ${box * 0.08} ${box * 0.08}
    v ${box * 0.44} a ${box * 0.08} ${box * 0.08} 0 0 1 ${-box * 0.08} ${box * 0.08} h ${-box * 0.42}
    l ${-box * 0.2} ${box * 0.16} v ${-box * 0.16} h ${-box * 0.14} a ${box * 0.08} ${box * 0.08} 0 0 1 ${-box * 0.08} ${-box * 0.08}
    v ${-box * 0.44} a ${box * 0.08} ${box * 0.08} 0 0 1 ${box * 0.08} ${-box * 0.08} z" fill="${MARK}"/>
  <path d="M ${at(0.32)} ${at(0.47)} l ${box * 0.12} ${box * 0.12} l ${box * 0.24} ${-box * 0.24}" fill="none"
    stroke="${BACKGROUND}" stroke-width="${box * 0.07}" stroke-linecap="round" stroke-linejoin="round"/>
</svg>`;
}

const ICONS = [
  { file: "icon-192.png", size: 192, inset: 0.06, rounded: true },
  { file: "icon-512.png", size: 512, inset: 0.06, rounded: true },
  // Maskable: the platform cuts its own shape, so the background fills the square and the mark
  // stays inside the central circle of 80% (W3C manifest, "safe zone").
  { file: "icon-maskable-192.png", size: 192, inset: 0.16, rounded: false },
  { file: "icon-maskable-512.png", size: 512, inset: 0.16, rounded: false },
  // iOS rounds the corners itself and shows no transparency.
  { file: "apple-touch-icon.png", size: 180, inset: 0.1, rounded: false },
];

await mkdir(OUT, { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" });
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    await page.setContent(
      `<html><body style="margin:0;background:transparent">${svg(icon.size, icon)}</body></html>`,
    );
    await page.screenshot({ path: `${OUT}${icon.file}`, omitBackground: true, type: "png" });
    await page.close();
    console.log(`web/static/icons/${icon.file}`);
  }
} finally {
  await browser.close();
}
