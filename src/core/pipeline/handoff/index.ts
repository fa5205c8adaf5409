/** Agent handoffs: the envelope, payload contracts with versioning, layered validation and the repair loop (spec 003). */
export * from './contractRegistry';
export * from './envelope';
export * from './errorCatalogue';
export * from './handoffWithRepair';
export * from './migrations';
export * from './payloadContract';
export * from './rejectionSummary';
export * from './semver';
export * from './validateHandoff';
export * from './validationContext';
export * from './validationError';
