import { z } from 'zod';
import { isBlank, NonBlankText } from './primitives';

/** What a persona argues, and whether (and why) it moved since its last position. */
export const stanceFields = {
  /** Short stance, e.g. "Use a queue, not polling". */
  position: NonBlankText,
  changedPosition: z.boolean(),
  /** Required when `changedPosition`: a persona that changes position says why. */
  changeReason: NonBlankText.optional(),
};

/** A stance's fields, as found on discussion turns, conclusions and cycle positions. */
export interface Stance {
  readonly position: string;
  readonly changedPosition: boolean;
  readonly changeReason?: string | undefined;
}

/** Why a stance is incoherent, or undefined when it is fine. Shared by the schemas and the machine's guards. */
export function stanceProblem(stance: Stance): string | undefined {
  if (isBlank(stance.position)) return 'A persona must state a position.';
  if (stance.changedPosition && isBlank(stance.changeReason))
    return 'A persona that changes position must say why (changeReason).';
  if (!stance.changedPosition && stance.changeReason !== undefined)
    return 'changeReason is only given when the position changed.';
  return undefined;
}

/** zod refinement reporting `stanceProblem` on the `changeReason` field. */
export function refineStance(stance: Stance, ctx: z.RefinementCtx): void {
  const problem = stanceProblem(stance);
  if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem, path: ['changeReason'] });
}

/** A persona's position at the end of a debate cycle. `personaId` is the persona's participantId. */
export const PersonaPosition = z.object({ personaId: z.string().min(1), ...stanceFields }).superRefine(refineStance);
export type PersonaPosition = z.infer<typeof PersonaPosition>;
