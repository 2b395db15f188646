import { DurableObject } from "cloudflare:workers";
export class SessionObject extends DurableObject {
  override async fetch() {
    return new Response("hi");
  }
}
export default {
  async fetch() {
    return new Response("ok");
  },
};
