/**
 * A failure the user can fix (a persona file was removed, no persona is available): its message says what
 * happened and what to do, and is shown as it is. Anything else a turn throws is Council's own problem.
 */
export class ActionableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ActionableError';
  }
}
