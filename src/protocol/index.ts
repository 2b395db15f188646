// The wire protocol shared by the Worker, the Durable Object and the browser client.
export * from "./access";
export * from "./agents";
export * from "./commands";
export * from "./elicitation";
export * from "./errors";
export * from "./events";
export * from "./external";
export * from "./form-content";
export * from "./frames";
export * from "./http";
export * from "./inbox";
export * from "./inbox-links";
export * from "./limits";
export * from "./notify";
export * from "./session";
export * from "./text-merge";
