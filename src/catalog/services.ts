import { bootEnvironment } from './boot.js';
import { Compiler, type CompileOptions, type CompileResult } from './compiler.js';
import { coreFunctions, type FunctionTable } from './functions/index.js';
import type { LookupService } from './lookup.js';

/**
 * The catalog stage's services in Langium's style: each is created once per module instance
 * and can be replaced (e.g. a different lookup service or extra functions) by overriding the
 * factory.
 */
export interface CatalogServices {
    readonly Functions: FunctionTable;
    readonly Lookup: LookupService | undefined;
    /** Compiles CODEDIR for a node: boot, load, evaluate, finish. Never throws for errors in the code. */
    compile(codedir: string, environment: string, options: Omit<CompileOptions, 'lookup'>, basemodulepath?: readonly string[]): CompileResult;
}

export interface CatalogModule {
    readonly Functions?: () => FunctionTable;
    readonly Lookup?: () => LookupService | undefined;
}

export function createCatalogServices(module: CatalogModule = {}): CatalogServices {
    const functions = (module.Functions ?? coreFunctions)();
    const lookup = module.Lookup?.();
    return {
        Functions: functions,
        Lookup: lookup,
        compile(codedir, environment, options, basemodulepath = []) {
            const env = bootEnvironment(codedir, environment, basemodulepath);
            return new Compiler(env, functions, { ...options, lookup }).compile();
        }
    };
}
