/**
 * A tool call is planned once: its confirmation (`prepareInvocation`) makes the plan (settings read, model chosen,
 * personas loaded, cost forecast) and its run (`invoke`) takes that same plan, so what the user confirmed is what
 * runs. VS Code's stable API gives no call id shared by the two, so a call is known by its input, which VS Code
 * passes to both unchanged. A run without a confirmation before it (or after the plan was dropped) plans anew.
 */
export class CallPlans<Plan> {
  private readonly plans = new Map<string, Promise<Plan>>();

  /** `kept`: how many confirmed calls wait for their run at most (the oldest plan is dropped first). */
  constructor(private readonly kept = 8) {}

  /** The plan for `input`, made now for its confirmation and kept for its run. */
  prepare(input: unknown, make: () => Promise<Plan>): Promise<Plan> {
    const key = JSON.stringify(input);
    const plan = make();
    this.plans.delete(key);
    this.plans.set(key, plan);
    // A plan that failed is not kept: the run tries again.
    plan.catch(() => this.plans.get(key) === plan && this.plans.delete(key));
    for (const oldest of this.plans.keys()) {
      if (this.plans.size <= this.kept) break;
      this.plans.delete(oldest);
    }
    return plan;
  }

  /** The plan the confirmation of `input` showed (used once), else a new one. */
  take(input: unknown, make: () => Promise<Plan>): Promise<Plan> {
    const key = JSON.stringify(input);
    const plan = this.plans.get(key);
    this.plans.delete(key);
    return plan ?? make();
  }
}
