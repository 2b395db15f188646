// "Chat apps" on the inbox page: Link Telegram shows a one-time code (and Telegram's deep link) to
// send the bot; linked accounts are listed as the person's devices, each with Unlink, and the list
// follows the inbox stream, so an account linked from anywhere shows the moment it links. An invited
// approver's page offers the same for accounts of their own (chatLinksPanel with the approver's calls).
import { chatPlatforms, listChatLinks, mintLinkCode, unlinkChat } from "../../../../client/channels-api";
import type { InboxTarget } from "../../../../client/inbox-api";
import type {
  ChannelAccountView,
  ChatPlatform,
  InboxChatLink,
  LinkCodeResponse,
} from "../../../../src/protocol/index";
import { LINK_COMMANDS, PLATFORM_NAMES } from "../../../../src/protocol/reach/platform-names";
import { h, setText } from "../dom";

/** How often the page looks for the account a shown code linked. */
const LINK_POLL_MS = 2_000;

/** Whose accounts a panel links, lists and unlinks: the person's own, or an approver's. */
export interface ChatLinkCalls {
  platforms(): Promise<ChatPlatform[]>;
  mint(platform: ChatPlatform): Promise<LinkCodeResponse>;
  list(): Promise<ChannelAccountView[]>;
  unlink(linkId: string): Promise<unknown>;
}

export function chatLinksSection(target: InboxTarget): {
  el: HTMLElement;
  show(links: InboxChatLink[]): void;
} {
  return chatLinksPanel(
    {
      platforms: () => chatPlatforms(target),
      mint: (platform) => mintLinkCode(target, platform),
      list: () => listChatLinks(target),
      unlink: (linkId) => unlinkChat(target, linkId),
    },
    {
      headingId: "chat-links-heading",
      heading: "Chat apps",
      intro: "Link a chat account to get every card there, with buttons, in a direct message.",
    },
  );
}

export function chatLinksPanel(
  calls: ChatLinkCalls,
  words: { headingId: string; heading: string; intro: string },
): {
  el: HTMLElement;
  show(links: InboxChatLink[]): void;
} {
  const list = h("ul", { class: "chat-links-list" });
  const offer = h("div", { class: "chat-links-offer" });
  const note = h("p", { class: "chat-links-note", role: "status" });
  const el = h(
    "section",
    { class: "chat-links", "aria-labelledby": words.headingId, hidden: true },
    h("h2", { id: words.headingId, text: words.heading }),
    h("p", { text: words.intro }),
    list,
    offer,
    note,
  );
  let shown: InboxChatLink[] = [];
  const render = (links: InboxChatLink[]) => {
    shown = links;
    list.replaceChildren(
      ...links.map((link) =>
        h(
          "li",
          { class: "chat-link", "data-link-id": link.linkId },
          h("span", { text: `${PLATFORM_NAMES[link.platform]}: ${link.name} (id ${link.accountId})` }),
          h("button", {
            type: "button",
            text: "Unlink",
            "aria-label": `Unlink ${PLATFORM_NAMES[link.platform]} account ${link.name}`,
            on: {
              click: async () => {
                await calls.unlink(link.linkId).catch((error: Error) => setText(note, error.message));
                await refresh();
              },
            },
          }),
        ),
      ),
    );
  };
  const refresh = async () => render(await calls.list());
  const showCode = async (platform: ChatPlatform) => {
    try {
      const minted = await calls.mint(platform);
      const name = PLATFORM_NAMES[platform];
      const minutes = Math.round((minted.expiresAt - Date.now()) / 60_000);
      const panel = h(
        "div",
        { class: "chat-link-code" },
        h("p", {}, `Send this to the ${name} bot in a direct message within ${minutes} minutes: `),
        h(
          "p",
          {},
          h("code", {
            class: "chat-link-command",
            text: `${LINK_COMMANDS[platform] ?? "/link"} ${minted.code}`,
          }),
        ),
        minted.deepLink
          ? h(
              "p",
              {},
              h("a", { href: minted.deepLink, target: "_blank", rel: "noopener", text: `Open ${name}` }),
            )
          : null,
      );
      offer.querySelector(".chat-link-code")?.remove();
      offer.append(panel);
      // The bot tells the person it linked; the page learns it by asking until the code expires.
      // Only a new link of this platform ends the wait (another device may link another meanwhile).
      const linkIdsOf = (links: InboxChatLink[]) =>
        links.filter((link) => link.platform === platform).map((link) => link.linkId);
      const before = new Set(linkIdsOf(shown));
      const poll = async () => {
        if (!panel.isConnected || Date.now() > minted.expiresAt) return;
        await refresh().catch(() => {});
        if (linkIdsOf(shown).some((linkId) => !before.has(linkId))) {
          panel.remove();
          setText(note, `${name} linked.`);
          return;
        }
        setTimeout(poll, LINK_POLL_MS);
      };
      setTimeout(poll, LINK_POLL_MS);
    } catch (error) {
      setText(note, `Could not make a link code: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  void calls
    .platforms()
    .then(async (platforms) => {
      if (platforms.length === 0) return;
      offer.replaceChildren(
        ...platforms.map((platform) =>
          h("button", {
            type: "button",
            class: "chat-link-start",
            text: `Link ${PLATFORM_NAMES[platform]}`,
            on: { click: () => void showCode(platform) },
          }),
        ),
      );
      el.hidden = false;
      await refresh();
    })
    .catch(() => {});
  return { el, show: render };
}
