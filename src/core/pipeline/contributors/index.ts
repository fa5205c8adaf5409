/** Prompt contributors (spec 000): data added to agents' prompts, ordered and pruned by priority. */
export * from './promptContributor';
export * from './registry';
export * from './assembly';
export * from './untrusted';
export * from './workspaceFacts';
export * from './episodicMemory';
export * from './toolGuidance';
export * from './attachedContext';
