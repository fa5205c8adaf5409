/** Read-only workspace access for pipeline agents: the reader port, its tools and the bounded exploration loop. */
export * from './workspaceReader';
export * from './pathFilter';
export * from './glob';
export * from './inMemoryWorkspaceReader';
export * from './workspaceIndex';
export * from './workspaceTools';
export * from './explorationLoop';
