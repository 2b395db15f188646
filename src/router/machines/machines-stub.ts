// The person's Machines object, as the Worker reaches it.
import type { MachinesRpc } from "../../objects/contracts/machines";

export function machinesStub(env: Env, person: string): MachinesRpc {
  return env.MACHINES.get(env.MACHINES.idFromName(person));
}
