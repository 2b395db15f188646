// What the Worker may call on a person's MachinesObject (src/machines/machine-object.ts): their
// machines, and starting or stopping an agent on one. Types only, so a caller loads no object.
import type {
  MachineProtocol,
  MachineStart,
  MachineView,
  StartMachineSessionBody,
} from "../../protocol/machines/machines";
import type { Outcome } from "../outcome";

export interface MachinesRpc extends Rpc.DurableObjectBranded {
  /** A daemon's socket; the Worker checked its agent key and names the machine in a header. */
  fetch(request: Request): Promise<Response>;
  list(): Promise<MachineView[]>;
  /** Whether the machine advertises this agent and folder; the daemon checks again when asked. */
  check(machineId: string, body: StartMachineSessionBody): Promise<Outcome<MachineProtocol>>;
  /** Sends a start over the machine's socket and waits up to `waitMs` for the daemon's answer. */
  start(machineId: string, start: MachineStart, waitMs?: number): Promise<Outcome<null>>;
  /** Marks a session the person stopped and tells its machine; null when no machine started it. */
  stop(sessionId: string): Promise<{ machineId: string; told: boolean } | null>;
  /** The machine's key was revoked: its socket closes and it takes no more work. */
  revoke(machineId: string): Promise<void>;
}
