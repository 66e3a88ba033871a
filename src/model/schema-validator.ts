import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { threadId } from 'node:worker_threads';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { lazyRequire, type Diagnostic } from '../common/index.js';
import { ModelIssues } from './issues.js';
import { escapePointer } from './json-pointer.js';
import { fileStem, type PackageIndex } from './package-index.js';
import { projectRoot } from './project-root.js';

const ajvModule = lazyRequire<typeof import('ajv/dist/2020.js')>(import.meta.url, 'ajv/dist/2020.js');
const standalone = lazyRequire<typeof import('ajv/dist/standalone/index.js')>(import.meta.url, 'ajv/dist/standalone/index.js');
const AJV_OPTIONS = { strict: true, discriminator: true, allErrors: true, allowUnionTypes: true } as const;
let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

/**
 * Where a schema's compiled validator is kept between runs: ajv's standalone code, named by a hash
 * of the schema, ajv's version and options, under node_modules/.cache (where its `require`s of
 * ajv's runtime resolve). Compiling a model package's schema costs a cold command about 50 ms and
 * loading ajv's compiler more; requiring the kept code costs about 1 ms.
 */
function cacheFileFor(schemaText: string): string {
    const version = (JSON.parse(readFileSync(join(projectRoot(), 'node_modules', 'ajv', 'package.json'), 'utf8')) as { version: string }).version;
    const key = createHash('sha256').update(`${version}\0${JSON.stringify(AJV_OPTIONS)}\0${schemaText}`).digest('hex').slice(0, 32);
    return join(projectRoot(), 'node_modules', '.cache', 'modelc-validators', `${key}.cjs`);
}

function compileSchema(schemaText: string): ValidateFunction {
    let file: string | undefined;
    try {
        file = cacheFileFor(schemaText);
        if (existsSync(file)) return createRequire(import.meta.url)(file) as ValidateFunction;
    } catch {
        // No ajv package.json where expected, or an unreadable cache: compile as below.
        file = undefined;
    }
    ajv ??= new (ajvModule().Ajv2020)({ ...AJV_OPTIONS, code: { source: true } });
    const validate = ajv.compile(JSON.parse(schemaText) as object);
    if (file !== undefined) {
        try {
            mkdirSync(dirname(file), { recursive: true });
            const tmp = `${file}.${process.pid}.${threadId}.tmp`;
            writeFileSync(tmp, standalone().default(ajv, validate));
            renameSync(tmp, file);
        } catch {
            // A read-only installation: compile every run.
        }
    }
    return validate;
}

function validatorFor(index: PackageIndex): ValidateFunction {
    let v = compiled.get(index.pkg.nsURI);
    if (!v) {
        v = compileSchema(readFileSync(join(projectRoot(), 'schemas', `${fileStem(index.pkg.name)}.schema.json`), 'utf8'));
        compiled.set(index.pkg.nsURI, v);
    }
    return v;
}

/** Validates a wire-form document against its package's generated schema. */
export function validateAgainstSchema(wire: unknown, index: PackageIndex, file: string): Diagnostic[] {
    const validate = validatorFor(index);
    if (validate(wire)) return [];
    return dedupe((validate.errors ?? []).map(e => toDiagnostic(e, file)));
}

function toDiagnostic(e: ErrorObject, file: string): Diagnostic {
    const base = { severity: 'error' as const, file, path: e.instancePath };
    const params = e.params as Record<string, unknown>;
    switch (e.keyword) {
        case 'required':
            return { ...base, code: ModelIssues.MISSING_FEATURE, message: `missing required feature '${String(params.missingProperty)}'` };
        case 'additionalProperties':
            return { ...base, code: ModelIssues.UNKNOWN_FEATURE, message: `unknown feature '${String(params.additionalProperty)}'`, path: `${e.instancePath}/${escapePointer(String(params.additionalProperty))}` };
        case 'const':
            return { ...base, code: ModelIssues.WRONG_TYPE, message: `$type must be ${JSON.stringify(params.allowedValue)}` };
        case 'discriminator':
            return params.error === 'mapping'
                ? { ...base, code: ModelIssues.WRONG_TYPE, message: `$type ${JSON.stringify(params.tagValue)} is not allowed here`, path: `${e.instancePath}/$type` }
                : { ...base, code: ModelIssues.WRONG_TYPE, message: 'missing or non-string $type', path: `${e.instancePath}/$type` };
        case 'minItems': case 'maxItems':
            return { ...base, code: ModelIssues.BAD_MULTIPLICITY, message: e.message ?? e.keyword };
        case 'type': case 'enum': case 'minimum': case 'maximum': case 'minLength':
            return { ...base, code: ModelIssues.WRONG_DATATYPE, message: e.keyword === 'enum' ? `must be one of ${JSON.stringify(params.allowedValues)}` : (e.message ?? e.keyword) };
        default:
            return { ...base, code: ModelIssues.SCHEMA, message: e.message ?? e.keyword };
    }
}

function dedupe(ds: Diagnostic[]): Diagnostic[] {
    const seen = new Set<string>();
    return ds.filter(d => {
        const key = `${d.code}|${d.path}|${d.message}`;
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
    });
}
