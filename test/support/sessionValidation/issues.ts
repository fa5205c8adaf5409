import type { ConversationSession } from '../../../src/core/session/session';

/** One broken rule: where (a property path such as `messageTurns[2].sequenceNumber`) and what. */
export interface ValidationIssue {
  readonly path: string;
  readonly message: string;
}

/** What validation needs to know beyond the session itself. */
export interface ValidationOptions {
  /** Names of the council persona contracts that exist. */
  readonly personaNames: ReadonlySet<string>;
}

/** One group of the spec's validation rules. */
export type SessionRule = (session: ConversationSession, options: ValidationOptions) => readonly ValidationIssue[];

/** Renders a property path the way a reader writes it: `a[0].b`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((text, key) => {
    if (typeof key === 'number') return `${text}[${key}]`;
    const name = String(key);
    return text === '' ? name : `${text}.${name}`;
  }, '');
}

/** An issue at `path`. */
export function issueAt(path: ReadonlyArray<PropertyKey>, message: string): ValidationIssue {
  return { path: formatPath(path), message };
}
