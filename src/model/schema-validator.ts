import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { lazyRequire, type Diagnostic } from '../common/index.js';
import { ModelIssues } from './issues.js';
import { escapePointer } from './json-pointer.js';
import { fileStem, type PackageIndex } from './package-index.js';
import { projectRoot } from './project-root.js';

const ajvModule = lazyRequire<typeof import('ajv/dist/2020.js')>(import.meta.url, 'ajv/dist/2020.js');
let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

function validatorFor(index: PackageIndex): ValidateFunction {
    let v = compiled.get(index.pkg.nsURI);
    if (!v) {
        const schema = JSON.parse(readFileSync(join(projectRoot(), 'schemas', `${fileStem(index.pkg.name)}.schema.json`), 'utf8')) as object;
        ajv ??= new (ajvModule().Ajv2020)({ strict: true, discriminator: true, allErrors: true, allowUnionTypes: true });
        v = ajv.compile(schema);
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
