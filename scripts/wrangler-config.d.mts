// Types of scripts/wrangler-config.mjs for the TypeScript that imports it (the Workers tests' config).
export declare function configWithoutBuild(root: string): Promise<Record<string, unknown>>;
