// A host's limit on what the model may spend: the loop asks before every model call, and a spent
// budget ends the turn with a `budget_exhausted` error instead of calling the model.

export interface ModelBudget {
  /** Why no model call may start now (the budget is spent), or null while one may. Reads only. */
  refusal(): string | null;
  /** A model call was refused for the budget: recorded once per refusal, not per look. */
  refused(): void;
}
