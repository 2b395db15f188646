import { describe, expect, it } from "vitest";
import { readAttachArgs } from "../../../bin/attach-args";

const LINK = "https://parley.example/#/s/0123456789abcdef0123456789abcdef?token=t";

describe("parley attach's arguments", () => {
  it("reads the device name given before the link as the device, and the link as the link", () => {
    expect(readAttachArgs(["--device", "phone", LINK])).toEqual({ ok: true, link: LINK, device: "phone" });
  });

  it("reads the device name after the link, in --device=name form, or not at all", () => {
    expect(readAttachArgs([LINK, "--device", "laptop"])).toEqual({ ok: true, link: LINK, device: "laptop" });
    expect(readAttachArgs([`--device=tablet`, LINK])).toEqual({ ok: true, link: LINK, device: "tablet" });
    expect(readAttachArgs([LINK])).toEqual({ ok: true, link: LINK, device: undefined });
  });

  it("refuses a missing link, two links, an unknown option, a device without a name, and a bad name", () => {
    expect(readAttachArgs([])).toEqual({ ok: false, message: "attach needs a share link" });
    expect(readAttachArgs(["--device", "phone"])).toEqual({
      ok: false,
      message: "attach needs a share link",
    });
    expect(readAttachArgs([LINK, LINK])).toEqual({
      ok: false,
      message: "attach takes one share link, not 2",
    });
    expect(readAttachArgs(["--colour", "red", LINK])).toMatchObject({ ok: false, message: /--colour/ });
    expect(readAttachArgs([LINK, "--device"])).toMatchObject({ ok: false, message: /--device/ });
    expect(readAttachArgs(["--device", "my phone!", LINK])).toEqual({
      ok: false,
      message: "--device takes letters, digits, '.', '_' or '-'",
    });
  });
});
