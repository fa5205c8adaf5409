/** The council session (spec 004): domain model, XState machine, selectors, validation and replay. */
export * from './model';
export * from './events';
export type { SessionContext } from './context';
export { sessionMachine, type SessionMachine, type SessionSnapshot } from './machine';
export * from './selectors';
export { explainRejection } from './rejection';
export * from './replay';
export { validateSession } from './validation/validateSession';
export type { ValidationIssue, ValidationOptions } from './validation/issues';
