import type { StrictMode } from '../apply/index.js';
import type { ModelFormat } from '../model/index.js';

// The choices of the CLI's options, kept apart from the commands so that building the program
// loads no stage: each command's code is imported only when that command runs (cold start).
// A Record over each union makes the compiler refuse a list that misses or invents a value.

function choices<T extends string>(all: Record<T, true>): readonly T[] {
    return Object.keys(all) as T[];
}

export type CompileFormat = 'puppet' | 'json' | 'msgpack' | 'normalized';
export const COMPILE_FORMATS = choices<CompileFormat>({ puppet: true, json: true, msgpack: true, normalized: true });

export type DiffFormat = 'text' | 'json' | 'markdown';
export const DIFF_FORMATS = choices<DiffFormat>({ text: true, json: true, markdown: true });

export type ParseFormat = 'pn' | 'json' | 'msgpack';
export const PARSE_FORMATS = choices<ParseFormat>({ pn: true, json: true, msgpack: true });

export type ReviewFormat = 'markdown' | 'text' | 'json';
export const REVIEW_FORMATS = choices<ReviewFormat>({ markdown: true, text: true, json: true });

export const STRICT_MODES = choices<StrictMode>({ off: true, warning: true, error: true });

export const MERGE_STRATEGIES = ['first', 'unique', 'hash', 'deep'] as const;

export const MODEL_FORMATS = choices<ModelFormat>({ json: true, msgpack: true, xmi: true, rgen: true });
