/** Degenerate-loop detection and the context-manager agent that re-routes a stuck run (spec 001). */
export * from './degenerateLoop';
export * from './routing';
export * from './runContextManager';
export type { ToolLoopLimits } from './toolLoop';
