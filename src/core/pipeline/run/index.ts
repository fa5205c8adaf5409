/** Running the pipeline: the run loop, its resumable state, outcomes, metadata and Markdown report. */
export * from './runPipeline';
export * from './runState';
export * from './runOutcome';
export * from './runMetadata';
export * from './report';
export * from './mermaid';
export * from './proposedChangeMarkdown';
export * from './storedPlanRun';
