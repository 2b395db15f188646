// A host's limit on what the model may spend: the loop asks before every model call, and a spent
// budget ends the turn with a `budget_exhausted` error instead of calling the model.

export interface ModelBudget {
  /** Why no model call may start now (the budget is spent), or null while one may. */
  refusal(): string | null;
}
