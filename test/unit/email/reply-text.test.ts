// A reply's raw message read as far as answering needs: its From address and the text of its first
// text/plain part, whatever mail client wrote it (plain, multipart, base64, quoted-printable, folded).
import { describe, expect, it } from "vitest";
import { readReply } from "../../../src/email/reply-text";

const bytes = (lines: string[]) => new TextEncoder().encode(lines.join("\r\n"));

describe("a reply's text", () => {
  it("is a plain message's body, with the From header's address", () => {
    const read = readReply(
      bytes(["From: Ana Lima <Ana@Mail.Example>", "Subject: Re: x", "", "approve", "> quoted"]),
    );
    expect(read).toEqual({ from: "ana@mail.example", text: "approve\r\n> quoted" });
    expect(readReply(bytes(["From: ana@mail.example", "", "deny"])).from).toBe("ana@mail.example");
  });

  it("is the first text/plain part of a multipart reply, its encoding and charset undone", () => {
    const raw = bytes([
      "From: =?utf-8?q?Ana?= <ana@mail.example>",
      'Content-Type: multipart/alternative;\r\n boundary="b1"',
      "",
      "preamble",
      "--b1",
      "Content-Type: text/plain; charset=UTF-8",
      "Content-Transfer-Encoding: base64",
      "",
      btoa("Deny\r\n\r\nOn Tue, Parley wrote:\r\n> approve"),
      "--b1",
      "Content-Type: text/html; charset=UTF-8",
      "",
      "<p>approve</p>",
      "--b1--",
      "",
    ]);
    expect(readReply(raw)).toEqual({
      from: "ana@mail.example",
      text: "Deny\r\n\r\nOn Tue, Parley wrote:\r\n> approve",
    });
  });

  it("undoes quoted-printable and reads a part nested in multipart/mixed", () => {
    const raw = bytes([
      "From: <bo@mail.example>",
      "Content-Type: multipart/mixed; boundary=outer",
      "",
      "--outer",
      "Content-Type: multipart/alternative; boundary=inner",
      "",
      "--inner",
      "Content-Type: text/plain; charset=iso-8859-1",
      "Content-Transfer-Encoding: quoted-printable",
      "",
      "approve=0D=0AMerci, Andr=E9 et un tr=",
      "=E8s long mot",
      "--inner--",
      "--outer--",
    ]);
    expect(readReply(raw)).toEqual({
      from: "bo@mail.example",
      text: "approve\r\nMerci, André et un très long mot",
    });
  });

  it("has no text when the message has no plain part, and no sender when From names no address", () => {
    const html = bytes(["From: Ana", "Content-Type: text/html", "", "<p>approve</p>"]);
    expect(readReply(html)).toEqual({ from: null, text: null });
    const unterminated = bytes([
      "From: a@b.example",
      "Content-Type: multipart/alternative",
      "",
      "--x",
      "",
      "approve",
    ]);
    expect(readReply(unterminated).text).toBeNull();
  });
});
