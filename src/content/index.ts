export * from './blocks.ts';
export * from './finish-reason.ts';
export * from './model.ts';
export * from './hookwire-error.ts';
export * from './model-error.ts';
export * from './json-encodable.ts';
