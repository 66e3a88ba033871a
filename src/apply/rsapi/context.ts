import { ArgumentError } from '../errors.js';
import { rubyInspect } from '../inspect.js';
import type { LogLevel, LogSink } from '../log.js';
import { hasFeature, isEnsurable, type AttributeDefinition, type TransportDefinition, type TypeDefinition } from './definition.js';

/**
 * An error a logging block must not swallow (Ruby's non-StandardError exceptions such as
 * LoadError): it ends the run instead of failing one resource.
 */
export class FatalError extends Error {
    constructor(message: string) {
        super(message);
        this.name = 'FatalError';
    }
}

/** `context.type`: introspection of the definition the provider serves. */
export class TypeIntrospection {
    constructor(readonly definition: TypeDefinition | TransportDefinition) {}
    get name(): string {
        return this.definition.name;
    }
    get attributes(): readonly AttributeDefinition[] {
        return 'attributes' in this.definition ? this.definition.attributes : this.definition.connectionInfo;
    }
    isEnsurable(): boolean {
        return 'attributes' in this.definition && isEnsurable(this.definition);
    }
    hasFeature(feature: string): boolean {
        return 'attributes' in this.definition && hasFeature(this.definition, feature);
    }
    namevars(): string[] {
        return this.attributes.filter(a => a.behaviour === 'namevar').map(a => a.name);
    }
}

/** Identities are a plain value (one namevar) or a namevar map (several). */
export type Titles = unknown;

interface BlockOptions {
    readonly message?: string;
}

/**
 * The provider's view of the runtime (the gem's PuppetContext): logging with the gem's exact
 * message formats (features.md §14), block actions with timing, failure tracking, type
 * introspection and the transport.
 */
export class ProviderContext {
    readonly type: TypeIntrospection;
    private failedFlag = false;
    private blockPrefix: string | undefined;

    constructor(definition: TypeDefinition | TransportDefinition, private readonly sink: LogSink, private readonly transportInstance?: unknown,
                private readonly clock: () => number = () => performance.now()) {
        // Callers outside TypeScript's checks (a provider written in plain JavaScript) can pass anything.
        if (typeof definition !== 'object' || definition === null) {
            throw new ArgumentError(`BaseContext requires definition to be a child of Puppet::ResourceApi::BaseTypeDefinition, not <${rubyClassOf(definition)}>`);
        }
        this.type = new TypeIntrospection(definition);
    }

    get transport(): unknown {
        if (this.transportInstance === undefined) throw new Error('No transport available.');
        return this.transportInstance;
    }

    isFailed(): boolean {
        return this.failedFlag;
    }

    resetFailed(): void {
        this.failedFlag = false;
    }

    /** Deprecated in the gem; kept with its warning. */
    featureSupport(feature: string): boolean {
        this.warning('context.feature_support? is deprecated. Please use context.type.feature? instead.');
        return this.type.hasFeature(feature);
    }

    debug(...args: unknown[]): void { this.plain('debug', args); }
    info(...args: unknown[]): void { this.plain('info', args); }
    notice(...args: unknown[]): void { this.plain('notice', args); }
    warning(...args: unknown[]): void { this.plain('warning', args); }
    err(...args: unknown[]): void { this.plain('err', args); }

    creating<T>(titles: Titles, block: () => T, options: BlockOptions = {}): void { this.block(titles, options.message ?? 'Creating', block); }
    updating<T>(titles: Titles, block: () => T, options: BlockOptions = {}): void { this.block(titles, options.message ?? 'Updating', block); }
    deleting<T>(titles: Titles, block: () => T, options: BlockOptions = {}): void { this.block(titles, options.message ?? 'Deleting', block); }

    failing<T>(titles: Titles, block: () => T, options: BlockOptions = {}): void {
        const message = options.message ?? 'Failing';
        const prefix = `${this.titled(titles)}: ${message}`;
        this.send('debug', `${prefix}: Start`);
        const start = this.clock();
        this.withPrefix(prefix, () => {
            try {
                block();
                this.send('warning', `${prefix}: Finished failing in ${this.elapsed(start)} seconds`);
            } catch (e) {
                this.recordFailure(e, `${prefix}: Failed after ${this.elapsed(start)} seconds`);
            }
        });
    }

    processing<T>(title: Titles, is: unknown, should: unknown, block: () => T, message = 'Processing'): void {
        if (Array.isArray(title)) throw new Error('processing only accepts a single resource title');
        const prefix = `${this.titled(title)}: ${message}`;
        const t = this.titleText(title);
        this.send('debug', `${prefix}: Starting processing of ${t} from ${rubyInspect(is)} to ${rubyInspect(should)}`);
        const start = this.clock();
        this.withPrefix(prefix, () => {
            try {
                block();
                this.send('notice', `${prefix}: Finished processing ${t} in ${this.elapsed(start)} seconds: ${rubyInspect(should)}`);
            } catch (e) {
                this.recordFailure(e, `${prefix}: Failed processing ${t} after ${this.elapsed(start)} seconds`);
            }
        });
    }

    created(titles: Titles, options: BlockOptions = {}): void { this.action(titles, options.message ?? 'Created'); }
    updated(titles: Titles, options: BlockOptions = {}): void { this.action(titles, options.message ?? 'Updated'); }
    deleted(titles: Titles, options: BlockOptions = {}): void { this.action(titles, options.message ?? 'Deleted'); }

    processed(title: Titles, is: unknown, should: unknown): void {
        if (Array.isArray(title)) throw new Error('processed only accepts a single resource title');
        this.send('notice', `${this.type.name}: Processed ${this.titleText(title)} from ${rubyInspect(is)} to ${rubyInspect(should)}`);
    }

    /** The gem's default message is 'Updating has failed' (the spec says 'Failed'); the gem wins. */
    failed(titles: Titles, options: BlockOptions = {}): void {
        this.failedFlag = true;
        this.send('err', `${this.titled(titles)}: ${options.message ?? 'Updating has failed'}`);
    }

    /**
     * `attribute 'x' changed from A to B`. The gem prints `false` as `nil` (a truthiness test);
     * that defect is fixed here: false prints as false.
     */
    attributeChanged(title: Titles, attribute: string, is: unknown, should: unknown, options: BlockOptions = {}): void {
        if (Array.isArray(title)) throw new Error('attribute_changed only accepts a single resource title');
        const why = options.message ? `: ${options.message}` : '';
        this.send('notice', `${this.type.name}: ${this.titleText(title)}: attribute '${attribute}' changed from ${changeValue(is)} to ${changeValue(should)}${why}`);
    }

    logException(e: unknown, options: { message?: string; trace?: boolean } = {}): void {
        const text = e instanceof Error ? e.message : String(e);
        const trace = options.trace && e instanceof Error && e.stack ? `\n${e.stack.split('\n').slice(1).map(l => l.trim()).join('\n')}` : '';
        this.send('err', `${this.type.name}: ${options.message ?? 'Error encountered'}: ${text}${trace}`);
    }

    private plain(level: LogLevel, args: unknown[]): void {
        if (args.length >= 3) {
            this.send(level, args.map(a => String(a)).join(', '));
        } else if (args.length === 2) {
            const [titles, message] = args;
            const empty = Array.isArray(titles) && titles.length === 0;
            this.send(level, `${empty ? this.type.name : this.titled(titles)}: ${String(message)}`);
        } else {
            this.send(level, `${this.blockPrefix ?? this.type.name}: ${String(args[0])}`);
        }
    }

    private block(titles: Titles, message: string, body: () => unknown): void {
        const prefix = `${this.titled(titles)}: ${message}`;
        this.send('debug', `${prefix}: Start`);
        const start = this.clock();
        this.withPrefix(prefix, () => {
            try {
                body();
                this.send('notice', `${prefix}: Finished in ${this.elapsed(start)} seconds`);
            } catch (e) {
                this.recordFailure(e, `${prefix}: Failed after ${this.elapsed(start)} seconds`);
            }
        });
    }

    /** Ordinary errors fail the resource and are consumed; fatal ones end the run. */
    private recordFailure(e: unknown, text: string): void {
        if (e instanceof FatalError) throw e;
        this.failedFlag = true;
        this.send('err', `${text}: ${e instanceof Error ? e.message : String(e)}`);
    }

    /** The prefix is restored whatever happens, so one block never leaks into the next message. */
    private withPrefix(prefix: string, body: () => void): void {
        const saved = this.blockPrefix;
        this.blockPrefix = prefix;
        try {
            body();
        } finally {
            this.blockPrefix = saved;
        }
    }

    private action(titles: Titles, message: string): void {
        const t = Array.isArray(titles) ? rubyInspect(titles) : this.titleText(titles);
        this.send('notice', `${this.type.name}: ${message}: ${t}`);
    }

    private titled(titles: Titles): string {
        const list = Array.isArray(titles) ? titles : [titles];
        return `${this.type.name}[${list.map(t => this.titleText(t)).join(', ')}]`;
    }

    private titleText(t: unknown): string {
        return typeof t === 'object' && t !== null ? rubyInspect(t) : String(t);
    }

    private elapsed(start: number): string {
        return formatDuration((this.clock() - start) / 1000);
    }

    private send(level: LogLevel, message: string): void {
        this.sink({ level, message, time: new Date() });
    }
}

/** `%.6f` under a second, else `%.2f`, as the gem formats timings. */
export function formatDuration(seconds: number): string {
    return seconds < 1 ? seconds.toFixed(6) : seconds.toFixed(2);
}

function changeValue(v: unknown): string {
    if (v === null || v === undefined) return 'nil';
    if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') return String(v);
    if (typeof v === 'string') return `'${v}'`;
    return rubyInspect(v);
}

/** The Ruby class a non-object argument would have had, for the gem's ArgumentError text. */
function rubyClassOf(v: unknown): string {
    if (v === null || v === undefined) return 'NilClass';
    if (typeof v === 'boolean') return v ? 'TrueClass' : 'FalseClass';
    if (typeof v === 'number') return Number.isInteger(v) ? 'Integer' : 'Float';
    if (typeof v === 'bigint') return 'Integer';
    return typeof v === 'string' ? 'String' : 'Object';
}
