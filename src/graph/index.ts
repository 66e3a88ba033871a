export { catalogGraphInput, graphOf, resourceGraph, type GraphEdge, type GraphInput, type GraphResource, type ResourceGraph } from './resource-graph.js';
export { bindingsGrid, type BindingsCell, type BindingsGrid } from './bindings-graph.js';
export { bindingsGridDot, resourceGraphDot } from './dot.js';
export { graphFormat, GraphIssues, writeGraph } from './write-graph.js';
