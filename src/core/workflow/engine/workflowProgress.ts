/** What a run reports while it works (shown as chat progress; nothing here is stored). */
export type WorkflowProgress =
  | { readonly kind: 'phase-started'; readonly phase: string; readonly name: string; readonly iteration: number }
  | { readonly kind: 'agent-started'; readonly phase: string; readonly type: string }
  | { readonly kind: 'agent-finished'; readonly phase: string; readonly type: string; readonly summary: string }
  | {
      readonly kind: 'gap-check';
      readonly phase: string;
      readonly iteration: number;
      readonly status: 'complete' | 'incomplete';
      readonly gaps: readonly string[];
    }
  | { readonly kind: 'skill'; readonly phase: string; readonly name: string; readonly ran: boolean }
  | { readonly kind: 'phase-completed'; readonly phase: string; readonly name: string }
  | { readonly kind: 'route-back'; readonly from: string; readonly to: string; readonly rationale: string }
  | { readonly kind: 'route-back-refused'; readonly from: string; readonly to: string; readonly reason: string };
