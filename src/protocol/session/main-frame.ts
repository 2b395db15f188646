// The main agent's frame id, in a module of its own so the web page can use it without bundling zod.

/** The main agent's frame id; delegated agents get generated ids. */
export const MAIN_FRAME_ID = "main";
