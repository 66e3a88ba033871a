/** The injector stage: effective bindings of a request from a Bindings model, and lookups. */
export { createInjector, type Injector, type CreateInjectorOptions } from './injector.js';
export { createInjectorServices, InjectorModule, type InjectorServices, type InjectorOverrides } from './services.js';
export type { InjectionRequest } from './request.js';
export { InjectIssues, formatIssue, type InjectIssueCode } from './issues.js';
export { InjectorError, formatLocation, type InjectorDiagnostic } from './diagnostics.js';
export { explainKey, formatExplanation, type Explanation, type ExplainedCandidate } from './explain.js';
export { DEFAULT_LAYERS, uriMatches } from './layers.js';
export { escapeInstanceName, parseTarget, CLASSES_KEY, DEPENDENCIES_KEY, INCLUDED_CLASSES, EXCLUDED_CLASSES } from './keys.js';
export type { EvaluationScope, ExpressionEvaluator, InstanceFactory, InstanceResolver, ProducerObject, PuppetCode, QueryService, ResourceTypeInfo } from './spi.js';
export type { TypeService } from './types/type-service.js';
export { toPuppetValue, type InjectedValue, type RuntimeValue } from './values.js';
export { builtinProducers } from './builtin-producers.js';
