import { createMemoryStores } from "../../../../src/agent/memory/memory-stores";
import { describeStoreContract } from "../stores.contract";

describeStoreContract("the in-memory stores", async (test) => test(createMemoryStores()));
