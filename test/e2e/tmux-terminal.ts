// A real terminal for the terminal-device tests: a detached tmux session running one command, read
// with capture-pane and typed into with send-keys, kept after exit so its last screen can be read.
import { execFileSync, spawnSync } from "node:child_process";

export const hasTmux = spawnSync("tmux", ["-V"]).status === 0;

export class TmuxTerminal {
  private constructor(readonly name: string) {}

  static start(command: string[], cwd: string): TmuxTerminal {
    const name = `parley-${process.pid}-${Math.random().toString(36).slice(2, 8)}`;
    const quoted = command.map((part) => `'${part.replaceAll("'", `'\\''`)}'`).join(" ");
    execFileSync("tmux", ["new-session", "-d", "-s", name, "-x", "200", "-y", "50", "-c", cwd, quoted]);
    execFileSync("tmux", ["set-option", "-t", name, "remain-on-exit", "on"]);
    return new TmuxTerminal(name);
  }

  /** The screen and scrollback as plain text. */
  text(): string {
    return execFileSync("tmux", ["capture-pane", "-p", "-J", "-S", "-500", "-t", this.name], {
      encoding: "utf8",
    });
  }

  /** Types text and presses Enter. */
  line(text: string): void {
    execFileSync("tmux", ["send-keys", "-t", this.name, "-l", text]);
    execFileSync("tmux", ["send-keys", "-t", this.name, "Enter"]);
  }

  keys(...keys: string[]): void {
    execFileSync("tmux", ["send-keys", "-t", this.name, ...keys]);
  }

  /** Waits until the screen matches; the error shows the screen. */
  async waitFor(pattern: RegExp, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const text = this.text();
      if (pattern.test(text)) return text;
      if (Date.now() > deadline) throw new Error(`terminal never showed ${pattern}; screen:\n${text}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /**
   * How the command ended, as tmux saw it: "running", "exited <status>", "killed by signal <n>", or
   * "ended" while tmux has not yet collected the status (a window, longer on a loaded machine).
   */
  exitState(): string {
    const out = execFileSync(
      "tmux",
      ["display-message", "-p", "-t", this.name, "#{pane_dead}|#{pane_dead_status}|#{pane_dead_signal}"],
      { encoding: "utf8" },
    ).trim();
    const [dead, status, signal] = out.split("|");
    if (dead !== "1") return "running";
    if (status) return `exited ${status}`;
    return signal ? `killed by signal ${signal}` : "ended";
  }

  kill(): void {
    spawnSync("tmux", ["kill-session", "-t", this.name]);
  }
}
