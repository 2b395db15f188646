// The agent definitions shipped with this deployment: `agents/*.md`, bundled as text at build time.
// Adding an agent is one markdown file in `agents/` and one line below.
import noteKeeper from "../../agents/note-keeper.md";
import researcher from "../../agents/researcher.md";

/** Each bundled definition with the file it came from, so a bad one is reported by file name. */
export const BUNDLED_AGENT_FILES: readonly { file: string; source: string }[] = [
  { file: "agents/researcher.md", source: researcher },
  { file: "agents/note-keeper.md", source: noteKeeper },
];
