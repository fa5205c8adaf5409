/** Repairs one structured reply may take, whichever check asks for them (schema, then handoff validation). */
export const MAX_REPAIRS_PER_REPLY = 2;

/**
 * The repairs left for one reply. Every loop that may ask the model again for the same reply takes from the one
 * budget, so a reply costs at most 1 + MAX_REPAIRS_PER_REPLY requests however many checks it goes through.
 */
export class RepairBudget {
  private left: number;

  constructor(repairs: number = MAX_REPAIRS_PER_REPLY) {
    this.left = Math.max(0, Math.floor(repairs));
  }

  get remaining(): number {
    return this.left;
  }

  /** Takes one repair; false when none is left. */
  take(): boolean {
    if (this.left <= 0) return false;
    this.left -= 1;
    return true;
  }
}
