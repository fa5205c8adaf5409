/** What the user asked a council session to do in one chat turn. */
export type CouncilCommand =
  /** Answer the active clarifying question in the user's words. */
  | { readonly kind: 'answer'; readonly text: string }
  /** Answer the active question with the council's recommended answer. */
  | { readonly kind: 'accept' }
  /** Skip the active question; its recommended answer becomes a logged assumption. */
  | { readonly kind: 'skip' }
  /** Skip every remaining question and go straight to the final answer on assumptions. */
  | { readonly kind: 'skipAll' }
  /** Open another clarification round (at most 3 in all). */
  | { readonly kind: 'more' }
  /** Put the skipped questions back in the queue. */
  | { readonly kind: 'revisit' }
  /** Let a debate stopped by the cycle limit continue up to the admin maximum. */
  | { readonly kind: 'extend' }
  | { readonly kind: 'cancel' }
  /** Continue whatever step was interrupted (a model error, a Stop, a reload). */
  | { readonly kind: 'retry' };

/** Feature flag recorded on the session when the user asked to debate without clarification (`/debate`). */
export const SKIP_CLARIFICATION = 'skipClarification';
