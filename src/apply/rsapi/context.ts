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
 * introspection and the transport. Like the gem, a block or `failed` sets the label that
 * one-argument messages start with and clears it (not restores it) when it ends, so a `failed`
 * inside a block leaves the rest of the block's messages under the type's name.
 */
export class ProviderContext {
    readonly type: TypeIntrospection;
    private failedFlag = false;
    private label: string | undefined;

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

    creating<T>(titles: Titles, block: () => T, options: BlockOptions = {}): void { this.block(titles, options.message ?? 'Creating', block, 'Finished'); }
    updating<T>(titles: Titles, block: () => T, options: BlockOptions = {}): void { this.block(titles, options.message ?? 'Updating', block, 'Finished'); }
    deleting<T>(titles: Titles, block: () => T, options: BlockOptions = {}): void { this.block(titles, options.message ?? 'Deleting', block, 'Finished'); }
    failing<T>(titles: Titles, block: () => T, options: BlockOptions = {}): void { this.block(titles, options.message ?? 'Failing', block, 'Finished failing'); }

    processing<T>(title: Titles, is: unknown, should: unknown, block: () => T, message = 'Processing'): void {
        if (isCollection(title)) throw new Error('processing only accepts a single resource title');
        const start = this.clock();
        this.label = `${this.formatTitles(title)}: ${message}`;
        try {
            this.debug(`Starting processing of ${rubyToS(title)} from ${rubyToS(is)} to ${rubyToS(should)}`);
            block();
            this.notice(`Finished processing ${rubyToS(title)} in ${this.elapsed(start)} seconds: ${rubyToS(should)}`);
        } catch (e) {
            this.recordFailure(e, `Failed processing ${rubyToS(title)} after ${this.elapsed(start)} seconds`);
        } finally {
            this.label = undefined;
        }
    }

    created(titles: Titles, options: BlockOptions = {}): void { this.notice(`${options.message ?? 'Created'}: ${rubyToS(titles)}`); }
    updated(titles: Titles, options: BlockOptions = {}): void { this.notice(`${options.message ?? 'Updated'}: ${rubyToS(titles)}`); }
    deleted(titles: Titles, options: BlockOptions = {}): void { this.notice(`${options.message ?? 'Deleted'}: ${rubyToS(titles)}`); }

    processed(title: Titles, is: unknown, should: unknown): void {
        if (isCollection(title)) throw new Error('processed only accepts a single resource title');
        this.notice(`Processed ${rubyToS(title)} from ${rubyToS(is)} to ${rubyToS(should)}`);
    }

    /**
     * Logs the failure under the resources' label. The gem's default message is 'Updating has
     * failed' (the spec says 'Failed'), and, as in the gem, it does not mark the context failed.
     */
    failed(titles: Titles, options: BlockOptions = {}): void {
        this.label = this.formatTitles(titles);
        try {
            this.err(options.message ?? 'Updating has failed');
        } finally {
            this.label = undefined;
        }
    }

    /** `attribute 'x' changed from A to B`: numbers bare, other values quoted, nil and false (not truthy in Ruby) as nil. */
    attributeChanged(title: Titles, attribute: string, is: unknown, should: unknown, options: BlockOptions = {}): void {
        if (isCollection(title)) throw new Error('attribute_changed only accepts a single resource title');
        const why = options.message ? `: ${options.message}` : '';
        this.notice(`${rubyToS(title)}: attribute '${attribute}' changed from ${changeValue(is)} to ${changeValue(should)}${why}`);
    }

    logException(e: unknown, options: { message?: string; trace?: boolean } = {}): void {
        const trace = options.trace && e instanceof Error && e.stack ? `\n${e.stack.split('\n').slice(1).map(l => l.trim()).join('\n')}` : '';
        this.err(`${options.message ?? 'Error encountered'}: ${rubyToS(e)}${trace}`);
    }

    private plain(level: LogLevel, args: unknown[]): void {
        if (args.length >= 3) this.send(level, args.map(rubyToS).join(', '));
        else if (args.length === 2) this.send(level, `${this.formatTitles(args[0])}: ${rubyToS(args[1])}`);
        else this.send(level, `${this.label ?? this.type.name}: ${rubyToS(args[0])}`);
    }

    private block(titles: Titles, message: string, body: () => unknown, finished: string): void {
        const start = this.clock();
        this.label = `${this.formatTitles(titles)}: ${message}`;
        try {
            this.debug('Start');
            body();
            if (finished === 'Finished failing') this.warning(`${finished} in ${this.elapsed(start)} seconds`);
            else this.notice(`${finished} in ${this.elapsed(start)} seconds`);
        } catch (e) {
            this.recordFailure(e, `Failed after ${this.elapsed(start)} seconds`);
        } finally {
            this.label = undefined;
        }
    }

    /** Ordinary errors fail the resource and are consumed; fatal ones end the run. */
    private recordFailure(e: unknown, message: string): void {
        if (e instanceof FatalError) throw e;
        this.logException(e, { message });
        this.failedFlag = true;
    }

    /** The gem's format_titles: no titles is the type's name, else the titles flattened, nils dropped. */
    private formatTitles(titles: Titles): string {
        if ((Array.isArray(titles) && titles.length === 0) || (titles instanceof Map && titles.size === 0)) return this.type.name;
        const flat = (Array.isArray(titles) ? titles.flat(Infinity) : [titles]).filter(t => t !== null && t !== undefined);
        return `${this.type.name}[${flat.map(rubyToS).join(', ')}]`;
    }

    private elapsed(start: number): string {
        return formatDuration((this.clock() - start) / 1000);
    }

    private send(level: LogLevel, message: string): void {
        this.sink({ level, message, time: new Date() });
    }
}

/** What Ruby's string interpolation makes of a value (`to_s`): strings bare, nil empty, collections inspected. */
export function rubyToS(v: unknown): string {
    if (v === null || v === undefined) return '';
    if (typeof v === 'string') return v;
    if (v instanceof Error) return v.message;
    return rubyInspect(v);
}

const isCollection = (v: unknown): boolean => Array.isArray(v) || v instanceof Map || (typeof v === 'object' && v !== null && Object.getPrototypeOf(v) === Object.prototype);

/** `%.6f` under a second, else `%.2f`, as the gem formats timings. */
export function formatDuration(seconds: number): string {
    return seconds < 1 ? seconds.toFixed(6) : seconds.toFixed(2);
}

function changeValue(v: unknown): string {
    if (v === null || v === undefined || v === false) return 'nil';
    if (typeof v === 'number' || typeof v === 'bigint') return rubyToS(v);
    return `'${rubyToS(v)}'`;
}

/** The Ruby class a non-object argument would have had, for the gem's ArgumentError text. */
function rubyClassOf(v: unknown): string {
    if (v === null || v === undefined) return 'NilClass';
    if (typeof v === 'boolean') return v ? 'TrueClass' : 'FalseClass';
    if (typeof v === 'number') return Number.isInteger(v) ? 'Integer' : 'Float';
    if (typeof v === 'bigint') return 'Integer';
    return typeof v === 'string' ? 'String' : 'Object';
}
