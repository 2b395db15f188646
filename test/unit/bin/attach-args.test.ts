import { describe, expect, it } from "vitest";
import { LINK_NOT_AN_ARGUMENT, readAttachArgs } from "../../../bin/attach-args";

const LINK = "https://parley.example/#/s/0123456789abcdef0123456789abcdef?token=t";

describe("parley attach's arguments", () => {
  it("reads the device name and the link's file, in either order and either form, or neither", () => {
    expect(readAttachArgs(["--device", "phone", "--link-file", "link.txt"])).toEqual({
      ok: true,
      linkFile: "link.txt",
      device: "phone",
    });
    expect(readAttachArgs(["--link-file=l", "--device=tablet"])).toEqual({
      ok: true,
      linkFile: "l",
      device: "tablet",
    });
    expect(readAttachArgs([])).toEqual({ ok: true, linkFile: undefined, device: undefined });
  });

  it("refuses the link as an argument, where ps and shell history show it, saying how to pass it", () => {
    for (const args of [[LINK], ["--device", "phone", LINK], [LINK, "--link-file", "l"], ["not-a-link"]]) {
      expect(readAttachArgs(args)).toEqual({ ok: false, message: LINK_NOT_AN_ARGUMENT });
    }
    expect(LINK_NOT_AN_ARGUMENT).toMatch(/--link-file FILE, on standard input, or paste it/);
  });

  it("refuses an unknown option, a device without a name, a bad name, and an empty file name", () => {
    expect(readAttachArgs(["--colour", "red"])).toMatchObject({ ok: false, message: /--colour/ });
    expect(readAttachArgs(["--device"])).toMatchObject({ ok: false, message: /--device/ });
    expect(readAttachArgs(["--device", "my phone!"])).toEqual({
      ok: false,
      message: "--device takes letters, digits, '.', '_' or '-'",
    });
    expect(readAttachArgs(["--link-file="])).toEqual({
      ok: false,
      message: "--link-file takes a file's path",
    });
  });
});
