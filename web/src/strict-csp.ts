// Runs before any other module: zod compiles fast parsers with `new Function` unless told not to,
// and under the page's Content-Security-Policy (no 'unsafe-eval') even its guarded probe is
// reported as a violation. Schemas built after this line never try.
import { z } from "zod";

z.config({ jitless: true });
