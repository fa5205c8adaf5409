/** The pipeline's stages: discovery, planning and tickets, each orchestrator -> parallel agents -> collector. */
export * from './pipelineOptions';
export * from './progressEvents';
export * from './needsUserInput';
export * from './contextIdIssuer';
export * from './stageEnvironment';
export * from './stageContracts';
export * from './stageRounds';
export * from './boundedParallel';
export * from './previousAttempt';
export * from './discovery/discoveryStage';
export * from './discovery/discoveryStageRecord';
export * from './discovery/discoveryCuration';
export * from './discovery/workspaceAreas';
export * from './planning/planningStage';
export * from './planning/planningStageRecord';
export * from './tickets/ticketStage';
export * from './tickets/ticketStageRecord';
