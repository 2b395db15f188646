// "Open on another device": the session's share link with a copy button.
import { h, setText } from "./dom";

export function shareLink(url: string): HTMLElement {
  const field = h("input", {
    type: "text",
    class: "share-url",
    readonly: true,
    value: url,
    "aria-label": "Share link for this session",
  });
  const status = h("span", { class: "share-status", role: "status" });
  const copy = h("button", {
    type: "button",
    text: "Copy link",
    on: {
      click: async () => {
        try {
          await navigator.clipboard.writeText(url);
          setText(status, "Copied");
        } catch {
          // Clipboard access can be refused (no permission, insecure origin): select for a manual copy.
          field.focus();
          field.select();
          setText(status, "Press Ctrl+C to copy");
        }
        setTimeout(() => setText(status, ""), 2500);
      },
    },
  });
  field.addEventListener("focus", () => field.select());
  return h(
    "details",
    { class: "share" },
    h("summary", { text: "Open on another device" }),
    h("p", { class: "hint", text: "Anyone with this link can read and answer this session." }),
    h("div", { class: "share-row" }, field, copy, status),
  );
}
