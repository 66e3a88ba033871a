export * from './issues.js';
export * from './hiera/index.js';
export { BindingsTransformer, type BindingsFile, type SiteDefinition } from './pp/transform.js';
export { composeBindings, hasArm8Bindings, readSite, HIERA_LAYER, type ComposeOptions, type Composition } from './compose.js';
export { loadBindingsFile, PpBindingsProvider } from './providers/pp-provider.js';
export { EncBindingsProvider, parseEncYaml, type EncOutput } from './providers/enc-provider.js';
export { ExternalBindingsProvider } from './providers/external-provider.js';
export { readProvidersConfig, type ProvidersConfig, type ProgramCommand } from './providers/programs.js';
export type { BindingsProvider, ProviderContext } from './providers/provider.js';
