import { createHieraDataBinding, createTypeSupport } from '../bindings/hiera/index.js';
import { PAnyType, parseTypeString } from '../types/index.js';
import { bootEnvironment, type Environment } from './boot.js';
import { convert } from './functions/type-functions.js';
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
    readonly Lookup: LookupFactory;
    /** Compiles CODEDIR for a node: boot, load, evaluate, finish. Never throws for errors in the code. */
    compile(codedir: string, environment: string, options: Omit<CompileOptions, 'lookup'>, basemodulepath?: readonly string[]): CompileResult;
}

/** Creates the data-binding service for one compile; `warn` logs Puppet's lookup warnings. */
export type LookupFactory = (env: Environment, warn: (message: string, file?: string) => void) => LookupService | undefined;

export interface CatalogModule {
    readonly Functions?: () => FunctionTable;
    readonly Lookup?: () => LookupFactory;
}

/** Hiera 5 (src/bindings/hiera) as the lookup service, with Puppet's `new` for convert_to. */
export function hieraLookupFactory(): LookupFactory {
    return (env, warn) => createHieraDataBinding({
        environment: { name: env.name, root: env.dir, modulePath: env.modulepath },
        types: createTypeSupport((type, value, args) => convert(type instanceof PAnyType ? type : parseTypeString(String(type)), [value, ...args])),
        warn
    });
}

export function createCatalogServices(module: CatalogModule = {}): CatalogServices {
    const functions = (module.Functions ?? coreFunctions)();
    const lookup = (module.Lookup ?? hieraLookupFactory)();
    return {
        Functions: functions,
        Lookup: lookup,
        compile(codedir, environment, options, basemodulepath = []) {
            const env = bootEnvironment(codedir, environment, basemodulepath);
            const logs: Array<{ message: string; file?: string }> = [];
            const service = lookup(env, (message, file) => { logs.push({ message, file }); });
            const compiler = new Compiler(env, functions, { ...options, lookup: service });
            compiler.lookupWarnings = logs;
            return compiler.compile();
        }
    };
}
