import { UsageTally, type ModelCallCost, type UsageMeter } from '../../llm/usage';

/** A meter that keeps its own tally (one agent, one phase) and forwards every call to its parent. */
export class ForkedMeter implements UsageMeter {
  readonly tally = new UsageTally();

  constructor(private readonly parent?: UsageMeter) {}

  record(call: ModelCallCost): void {
    this.tally.record(call);
    this.parent?.record(call);
  }
}
