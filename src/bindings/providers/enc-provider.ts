import { parseYaml, type SourcePoint } from '../../common/index.js';
import type { AbstractBinding, ContributedBindings, SourceLocation } from '../../../generated/model/bindings.js';
import type { RichData } from '../../model/index.js';
import { BindingsIssues } from '../issues.js';
import { readProvidersConfig, runProgram, type ProgramCommand, type ProvidersConfig } from './programs.js';
import { fail, splitUri, type BindingsProvider, type ProviderContext } from './provider.js';

/** What Puppet's ENC YAML holds (exec node terminus): classes as a list or a hash of parameters, top-scope parameters, an environment. */
export interface EncOutput {
    readonly classes: ReadonlyMap<string, Readonly<Record<string, RichData>> | undefined>;
    readonly parameters: Readonly<Record<string, RichData>>;
    readonly environment?: string;
    /** Where the ENC is configured (providers.yaml's `enc:`), for errors about its answer. */
    readonly configuredAt?: SourcePoint;
}

const PARTS = ['classes', 'parameters', 'variables'] as const;
type Part = (typeof PARTS)[number];

/**
 * The `enc:` provider (ARM-8 "Enc Bindings Provider"): runs the configured external node
 * classifier once per request (`COMMAND NODE`, as Puppet's exec terminus does) and binds, inside
 * `when node 'NODE'`: `/classes` the classes (include), `/parameters` the class parameters of the
 * hash form (`bind parameters Class[c]`), `/variables` the ENC's top-scope `parameters`
 * (`bind variables`). `enc:`, `enc:/` and `enc:/*` are everything.
 */
export class EncBindingsProvider implements BindingsProvider {
    readonly scheme = 'enc';
    private output: EncOutput | undefined;
    /** A failed run, kept so the parts of `enc:` report it once rather than once per part. */
    private failure: unknown;
    private reported = false;

    /** The ENC: the environment's own, else the one that answered for the request (the confdir's). */
    private readonly command: ProgramCommand | undefined;

    constructor(private readonly ctx: ProviderContext, private readonly config: ProvidersConfig, asked?: EncAnswer) {
        // The same program already answered for this request (before the environment was chosen);
        // an environment that configures none uses the confdir's answer.
        if (asked && (!config.enc || asked.command.join('\u0000') === config.enc.join('\u0000'))) this.output = asked.output;
        this.command = config.enc ?? asked?.command;
    }

    expand(uri: string): string[] {
        const part = this.part(uri);
        return part === undefined ? PARTS.map(p => `enc:/${p}`) : [`enc:/${part}`];
    }

    contribute(uri: string, pattern: string, optional: boolean): ContributedBindings | undefined {
        const part = this.part(uri) ?? 'classes';
        if (!this.command) {
            if (optional) return undefined;
            fail(BindingsIssues.BIND_NOT_FOUND, `Cannot load bindings '${uri}' - no bindings found. (no enc program in bindings/providers.yaml)`, this.config.file ? { file: this.config.file } : {});
        }
        let enc: EncOutput;
        try {
            enc = this.run();
        } catch (e) {
            if (this.reported) return undefined;
            this.reported = true;
            throw e;
        }
        // Located where the ENC is configured (the program's answer has no lines of its own).
        const at = enc.configuredAt ?? this.config.positions.get('/enc');
        const location: SourceLocation = at ? { $type: 'SourceLocation', file: at.file, line: at.line, column: at.column } : { $type: 'SourceLocation', file: `enc:${this.command.join(' ')}` };
        const bindings = this.bindings(part, enc, location);
        const source = { $type: 'ContributionSource' as const, scheme: 'enc', uri: `enc:/${part}`, pattern, provider: this.command.join(' '), optional };
        return {
            $type: 'ContributedBindings', name: source.uri, location, source,
            bindings: [{
                $type: 'NamedBindings', name: `enc::${part}`, location, contributedBy: source,
                // The ENC classifies this node only: its bindings are the node category's.
                bindings: bindings.length === 0 ? [] : [{ $type: 'CategorizedBindings', location, predicates: [{ $type: 'Category', location, categorization: 'node', value: this.ctx.node }], bindings }]
            }]
        };
    }

    /** The ENC's output for the request (run once). */
    run(): EncOutput {
        if (this.output) return this.output;
        if (this.failure !== undefined) throw this.failure;
        if (!this.config.enc) fail(BindingsIssues.BIND_ENC_FAILED, 'no enc program is configured in bindings/providers.yaml');
        try {
            const text = runProgram(this.config.enc, [this.ctx.node], this.config, BindingsIssues.BIND_ENC_FAILED);
            const at = this.config.positions.get('/enc');
            this.output = { ...parseEncYaml(text, this.config.enc.join(' '), at), ...(at ? { configuredAt: at } : {}) };
        } catch (e) {
            this.failure = e;
            throw e;
        }
        return this.output;
    }

    private bindings(part: Part, enc: EncOutput, location: SourceLocation): AbstractBinding[] {
        switch (part) {
            case 'classes':
                return enc.classes.size === 0 ? [] : [{ $type: 'IncludeClassesBinding', location, classNames: [...enc.classes.keys()] }];
            case 'parameters':
                return [...enc.classes].flatMap(([cls, params]): AbstractBinding[] => params && Object.keys(params).length > 0
                    ? [{ $type: 'ParametersBinding', location, target: `Class[${cls}]`, producer: { $type: 'ConstantProducerDescriptor', value: params } } as AbstractBinding]
                    : []);
            case 'variables':
                return Object.keys(enc.parameters).length === 0 ? [] : [{ $type: 'VariablesBinding', location, producer: { $type: 'ConstantProducerDescriptor', value: enc.parameters } } as AbstractBinding];
            default:
                return assertPart(part);
        }
    }

    private part(uri: string): Part | undefined {
        const path = (splitUri(uri)?.path ?? '').replace(/^\/+/, '').replace(/\/+$/, '');
        if (path === '' || path === '*') return undefined;
        if ((PARTS as readonly string[]).includes(path)) return path as Part;
        fail(BindingsIssues.BIND_BAD_URI, `'${uri}' is not an enc URI: use enc:, enc:/classes, enc:/parameters or enc:/variables`);
    }
}

function assertPart(p: never): never {
    throw new Error(`unknown enc part ${String(p)}`);
}

/** Puppet's ENC YAML: `classes` (list, or hash of class => parameters or nil), `parameters` (hash), `environment` (string). */
export function parseEncYaml(text: string, program: string, configuredAt?: SourcePoint): EncOutput {
    // The answer is no file: its problems are located where the ENC is configured, and name the program.
    const where = (path?: string): { file: string; at?: SourcePoint; path?: string } => ({ file: configuredAt?.file ?? program, ...(configuredAt ? { at: configuredAt } : {}), ...(path !== undefined ? { path } : {}) });
    let data: unknown;
    try {
        data = parseYaml(text);
    } catch (e) {
        fail(BindingsIssues.BIND_ENC_OUTPUT, `the ENC (${program}) printed invalid YAML: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, where());
    }
    if (typeof data !== 'object' || data === null || Array.isArray(data)) fail(BindingsIssues.BIND_ENC_OUTPUT, `the ENC (${program}) must print a YAML hash (classes, parameters, environment)`, where());
    const { classes, parameters, environment } = data as Record<string, unknown>;
    const out = new Map<string, Record<string, RichData> | undefined>();
    if (Array.isArray(classes)) {
        for (const c of classes) {
            if (typeof c !== 'string') fail(BindingsIssues.BIND_ENC_OUTPUT, 'classes must be class names', where('/classes'));
            out.set(c, undefined);
        }
    } else if (isHash(classes)) {
        for (const [c, p] of Object.entries(classes)) {
            if (p !== null && !isHash(p)) fail(BindingsIssues.BIND_ENC_OUTPUT, `the parameters of class '${c}' must be a hash`, where(`/classes/${c}`));
            out.set(c, p === null ? undefined : p as Record<string, RichData>);
        }
    } else if (classes !== undefined && classes !== null) {
        fail(BindingsIssues.BIND_ENC_OUTPUT, 'classes must be a list or a hash', where('/classes'));
    }
    if (parameters !== undefined && parameters !== null && !isHash(parameters)) fail(BindingsIssues.BIND_ENC_OUTPUT, 'parameters must be a hash', where('/parameters'));
    if (environment !== undefined && environment !== null && typeof environment !== 'string') fail(BindingsIssues.BIND_ENC_OUTPUT, 'environment must be a string', where('/environment'));
    return {
        classes: out,
        parameters: (parameters ?? {}) as Record<string, RichData>,
        ...(typeof environment === 'string' ? { environment } : {})
    };
}

function isHash(v: unknown): v is Record<string, unknown> {
    return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The ENC's answer for a node, when `CONFDIR/bindings/providers.yaml` configures one; undefined
 * otherwise. Run before any environment is chosen (ARM-8 "Integration with existing ENC"): its
 * environment, top-scope parameters and classes are what environments.pp sees in the ENC scope.
 */
export function runEnc(confdir: string, node: string): EncAnswer | undefined {
    const config = readProvidersConfig(confdir);
    if (!config.enc) return undefined;
    const text = runProgram(config.enc, [node], config, BindingsIssues.BIND_ENC_FAILED);
    const at = config.positions.get('/enc');
    return { output: { ...parseEncYaml(text, config.enc.join(' '), at), ...(at ? { configuredAt: at } : {}) }, command: config.enc };
}

/** An ENC's answer and the program that gave it. */
export interface EncAnswer {
    readonly output: EncOutput;
    readonly command: ProgramCommand;
}
