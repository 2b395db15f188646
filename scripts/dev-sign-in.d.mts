// Types of scripts/dev-sign-in.mjs for the TypeScript that imports it (the Worker's tests).
export declare const SIGN_IN_TTL_MS: number;
export declare function signInCode(secret: string, now: number, ttlMs?: number): Promise<string>;
export declare function signInAddress(baseUrl: string, code: string): string;
