import { describe, expect, it } from "vitest";
import { signIn, takeSignInCode } from "../../../web/src/ui/inbox/sign-in";

const place = (hash: string, replaced: string[]) => ({
  hash,
  replace: (next: string) => void replaced.push(next),
});

describe("the sign-in address npm run dev prints", () => {
  it("has its code taken out of the address bar at once, leaving the inbox's address", () => {
    const replaced: string[] = [];
    expect(takeSignInCode(place("#/sign-in?code=eyJ.code.sig", replaced))).toBe("eyJ.code.sig");
    expect(replaced).toEqual(["#/"]);
    expect(takeSignInCode(place("#/sign-in", replaced))).toBe("");
  });

  it("leaves every other address alone", () => {
    const replaced: string[] = [];
    for (const hash of ["", "#/", "#/inbox?token=t", "#/s/abc?token=t", "#/sign-inx?code=c"]) {
      expect(takeSignInCode(place(hash, replaced))).toBeNull();
    }
    expect(replaced).toEqual([]);
  });

  it("posts the code once and says why the server refused it", async () => {
    const sent: Array<{ url: string; body: unknown }> = [];
    const refusing = (async (url: string, init: RequestInit) => {
      sent.push({ url, body: JSON.parse(String(init.body)) });
      return Response.json(
        { error: { code: "forbidden", message: "This sign-in address was already used" } },
        { status: 403 },
      );
    }) as typeof fetch;
    expect(await signIn("http://127.0.0.1:8787", "the-code", refusing)).toBe(
      "This sign-in address was already used",
    );
    expect(sent).toEqual([{ url: "http://127.0.0.1:8787/api/sign-in", body: { code: "the-code" } }]);
    const accepting = (async () => Response.json({ gatewayToken: "t" })) as unknown as typeof fetch;
    expect(await signIn("http://127.0.0.1:8787", "the-code", accepting)).toBeNull();
  });
});
