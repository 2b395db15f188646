// What HTTP handlers throw: the one Refusal (src/objects/refusal.ts), under the name the routes
// have always used; `app.onError` maps it to its status and `{ error: { code, message } }`.
export { Refusal as HttpError } from "../objects/refusal";
