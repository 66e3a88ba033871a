import { ObjectClass, RClass, RObject, RSymbol, type PluginRuntime, type RValue } from '../../ruby/index.js';
import type { ResourceHash } from '../rsapi/provider.js';
import { ForeignValue } from '../inspect.js';
import { PSensitive, type PuppetValue } from '../values.js';

const SENSITIVE = 'Puppet::Pops::Types::PSensitiveType::Sensitive';

/**
 * Values between the apply stage and a module's Ruby providers: resource hashes are Ruby hashes
 * with symbol keys (as the gem hands them), Sensitive values are `Sensitive` objects providers
 * `unwrap`, and what comes back has symbols as strings (`:absent` is 'absent').
 */
export class RubyValues {
    private readonly sensitive: RClass;

    constructor(readonly rt: PluginRuntime) {
        const known = rt.ns.constants.get(SENSITIVE);
        if (known instanceof RClass) {
            this.sensitive = known;
        } else {
            this.sensitive = new RClass(SENSITIVE, ObjectClass);
            rt.ns.constants.set(SENSITIVE, this.sensitive);
            this.sensitive.define('initialize', (self, args) => { if (self instanceof RObject) self.ivars.set('@value', args[0] ?? null); return null; });
            this.sensitive.define('unwrap', self => (self instanceof RObject ? self.ivars.get('@value') ?? null : null));
            this.sensitive.define(['to_s', 'inspect'], () => 'Sensitive [value redacted]');
        }
    }

    toRuby(v: PuppetValue | undefined): RValue {
        if (v === undefined) return null;
        if (v instanceof PSensitive) {
            const o = new RObject(this.sensitive, '#<Sensitive [value redacted]>', 'Sensitive [value redacted]');
            o.ivars.set('@value', this.toRuby(v.value));
            return o;
        }
        if (Array.isArray(v)) return v.map(x => this.toRuby(x));
        if (v instanceof Map) return new Map([...v].map(([k, x]) => [this.toRuby(k), this.toRuby(x)]));
        // The gem's own symbols in a state it made up (`ensure: :absent`) reach Ruby providers as symbols.
        if ((v as unknown) instanceof ForeignValue && (v as unknown as ForeignValue).className === 'Symbol') return RSymbol.of(String(v));
        return v as RValue;
    }

    fromRuby(v: RValue): PuppetValue {
        if (v instanceof RObject && v.cls === this.sensitive) return new PSensitive(this.fromRuby(v.ivars.get('@value') ?? null));
        if (v instanceof RSymbol) return v.name;
        if (Array.isArray(v)) return v.map(x => this.fromRuby(x));
        if (v instanceof Map) return new Map([...v].map(([k, x]) => [this.fromRuby(k), this.fromRuby(x)]));
        return this.rt.toPuppet(v);
    }

    /** A resource hash (or a composite identity) as a symbol-keyed Ruby hash. */
    hashToRuby(h: Readonly<Record<string, PuppetValue>>): Map<RValue, RValue> {
        return new Map(Object.entries(h).map(([k, v]) => [RSymbol.of(k), this.toRuby(v)]));
    }

    /** A Ruby hash returned by a provider as a resource hash; undefined when it is no hash. */
    hashFromRuby(v: RValue): ResourceHash | undefined {
        if (!(v instanceof Map)) return undefined;
        const out: ResourceHash = {};
        for (const [k, x] of v) out[k instanceof RSymbol ? k.name : String(k)] = this.fromRuby(x);
        return out;
    }

    /** An identity: a plain value, or for composite types a namevar hash. */
    identityToRuby(id: unknown): RValue {
        if (typeof id === 'object' && id !== null && !Array.isArray(id) && !(id instanceof Map) && !(id instanceof PSensitive)) {
            return this.hashToRuby(id as Record<string, PuppetValue>);
        }
        return this.toRuby(id as PuppetValue);
    }
}
