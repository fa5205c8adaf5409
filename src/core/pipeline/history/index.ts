/** Blackboard history of a pipeline run: items, notes, the store port and the history tools (spec 001). */
export * from './blackboardHistory';
export * from './historyItem';
export * from './historyStore';
export * from './inMemoryHistoryStore';
export * from './tools/addHistoryNote';
export * from './tools/getHistoryItem';
export * from './tools/historyTools';
export * from './tools/listHistory';
export * from './tools/searchHistory';
export * from './tools/traceHistory';
export * from './storedHistory';
