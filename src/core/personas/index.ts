/** Personas: the contract schema, the file parser, the registry and the panel selection. */
export * from './contract';
export { parsePersonaFile, type PersonaFileError, type PersonaParseResult } from './parse';
export {
  findPersona,
  loadPersonas,
  type PersonaFile,
  type PersonaProblem,
  type PersonaRegistry,
  type PersonaSource,
} from './registry';
export { normalizeLabel } from './labels';
export * from './select';
