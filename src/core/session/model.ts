/** The council session's domain model (spec 004): zod schemas are the single source of truth for these types. */
export * from './clarification';
export * from './discussion';
export * from './enums';
export * from './limits';
export * from './participants';
export * from './primitives';
export * from './session';
export * from './stance';
export * from './turns';
