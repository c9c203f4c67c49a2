// The dashboard's building blocks, one file per kind: data loading, toasts, layout pieces, tables, fields,
// the one-time secret, dialogs, icons and date-range presets. Pages import them from here.
export * from './load';
export * from './toast';
export * from './layout';
export * from './table';
export * from './fields';
export * from './secret';
export * from './dialog';
export * from './icons';
export * from './range-presets';
