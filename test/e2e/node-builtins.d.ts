// Types for the few Node built-ins that the browser tests and the wrangler helper use. The project's
// type checks target workerd and the browser and carry no @types/node; these lines cover exactly
// what this Node-side test code calls.

declare module "node:child_process" {
  interface Readable {
    on(event: "data", listener: (chunk: { toString(): string }) => void): void;
  }
  export interface ChildProcess {
    readonly pid?: number;
    readonly exitCode: number | null;
    readonly stdout: Readable | null;
    readonly stderr: Readable | null;
    once(event: "exit", listener: () => void): void;
  }
  export function spawn(
    command: string,
    args: string[],
    options: {
      cwd?: string;
      detached?: boolean;
      stdio?: ("ignore" | "pipe" | "inherit")[];
      env?: Record<string, string | undefined>;
    },
  ): ChildProcess;
}

declare module "node:fs" {
  export function existsSync(path: string): boolean;
}

declare module "node:fs/promises" {
  export function mkdtemp(prefix: string): Promise<string>;
  export function mkdir(path: string, options?: { recursive?: boolean }): Promise<string | undefined>;
  export function rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
}

declare module "node:net" {
  export interface Server {
    once(event: "error", listener: (error: Error) => void): void;
    listen(port: number, host: string, listener: () => void): void;
    address(): { port: number } | string | null;
    close(listener?: () => void): void;
  }
  export function createServer(): Server;
}

declare module "node:os" {
  export function tmpdir(): string;
}

declare module "node:path" {
  export function join(...parts: string[]): string;
}

declare module "node:process" {
  const process: {
    readonly execPath: string;
    readonly env: Record<string, string | undefined>;
    cwd(): string;
    kill(pid: number, signal: "SIGTERM" | "SIGKILL"): void;
    readonly stderr: { write(chunk: { toString(): string } | string): void };
  };
  export default process;
}
