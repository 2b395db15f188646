// Chooses a session's model: its stored script (tests, demos, benchmarks), the Anthropic API when
// a key is configured, or the built-in offline demo model.
import * as z from "zod";
import type { Config } from "../config";
import { createDemoModel } from "../model/demo-script";
import { lazyAnthropicClient } from "../model/lazy-anthropic-client";
import type { ModelClient } from "../model/model-client";
import { ScriptedModelClient } from "../model/scripted-client";
import { ScriptedReply } from "../model/scripted-reply";
import { lazySchema } from "../protocol/lazy-schema";

export const StoredScript = lazySchema(() => z.array(ScriptedReply));

export function createModelClient(
  config: Config,
  script: ScriptedReply[] | null,
  nextCallIndex: () => number,
): ModelClient {
  // Scripted sessions exist for tests and benchmarks, which read back what the model was sent.
  if (script) return new ScriptedModelClient(script, { nextCallIndex, record: true });
  if (config.anthropic) {
    return lazyAnthropicClient({
      apiKey: config.anthropic.apiKey,
      model: config.model,
      ...(config.anthropic.baseURL ? { baseURL: config.anthropic.baseURL } : {}),
    });
  }
  // A little pacing lets people watch the demo's text stream in.
  return createDemoModel(nextCallIndex, { paceMs: 15 });
}
