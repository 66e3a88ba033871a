import { DevError, ResourceError } from '../errors.js';
import { rubyClassName } from '../inspect.js';
import { parseRubyRegexLiteral, type RubyRegexSource } from '../ruby-regex.js';
import type { TypeSystem } from '../type-system.js';
import type { PuppetValue } from '../values.js';
import {
    AUTO_RELATION_KINDS, BEHAVIOURS, CUSTOM_INSYNC_TRIGGER, KNOWN_FEATURES,
    type AttributeDefinition, type AutoRelation, type Behaviour, type TitlePattern, type TypeDefinition
} from './definition.js';

/** Registration input as a module author writes it (the gem's keyword hash, snake_case keys). */
export type DefinitionInput = Record<string, unknown>;

const TYPE_CLASS = 'Puppet::ResourceApi::TypeDefinition';

/** Attribute names Puppet reserves for metaparameters, in the order the gem checks them. */
export const RESERVED_ATTRIBUTES = ['title', 'provider', 'alias', 'audit', 'before', 'consume', 'export', 'loglevel', 'noop', 'notify', 'require', 'schedule', 'stage', 'subscribe', 'tag'];

export interface Registration<T> {
    readonly definition: T;
    readonly warnings: readonly string[];
}

/**
 * Validates a `register_type` definition with the gem's checks and messages, in its order
 * (features.md §3), and returns the normalized, serializable definition plus the warnings.
 * Two deliberate fixes: a missing `attributes` key gets the intended message instead of Ruby's
 * KeyError, and several namevars require title_patterns (the spec's rule, which the compiler
 * side enforces too).
 */
export function validateTypeDefinition(input: unknown, ts: TypeSystem): Registration<TypeDefinition> {
    const warnings: string[] = [];
    if (!isPlainObject(input)) throw new DevError(`${TYPE_CLASS} must be a Hash, not \`${rubyClassName(input)}\``);
    if (!('name' in input)) throw new DevError(`${TYPE_CLASS} must have a name`);
    const name = String(input.name);
    if (!('attributes' in input)) throw new DevError(`${TYPE_CLASS} must have \`attributes\``);
    const attrs = input.attributes;
    if (!isPlainObject(attrs)) throw new DevError(`\`${name}.attributes\` must be a hash, not \`${rubyClassName(attrs)}\``);
    const desc = docString(input, name, warnings);
    const attributes = validateAttributes(name, attrs, ts, warnings, 'type');

    for (const reserved of RESERVED_ATTRIBUTES) {
        if (attributes.some(a => a.name === reserved)) throw new DevError(`must not define an attribute called \`:${reserved}\``);
    }
    const patternsInput = input.title_patterns;
    if (patternsInput !== undefined && !Array.isArray(patternsInput)) {
        throw new DevError(`\`:title_patterns\` must be an array, not \`${rubyClassName(patternsInput)}\``);
    }
    const ensure = attributes.find(a => a.name === 'ensure');
    if (ensure && !isEnsureType(ensure.type, ts)) {
        throw new DevError('`:ensure` attribute must have a type of: `Enum[present, absent]` or `Optional[Enum[present, absent]]`');
    }
    const features = Array.isArray(input.features) ? input.features.map(String) : [];
    const unknown = features.filter(f => !(KNOWN_FEATURES as readonly string[]).includes(f));
    if (unknown.length > 0) warnings.push(`Unknown feature detected: [${unknown.map(f => JSON.stringify(f)).join(', ')}]`);

    // Phase B: what the gem checks while building the Puppet type.
    for (const a of attributes) {
        if (a.behaviour !== undefined && !BEHAVIOURS.includes(a.behaviour)) throw new ResourceError(`\`${a.behaviour}\` is not a valid behaviour value`);
    }
    // Several namevars without title_patterns are accepted: the gem's own title pattern gives the
    // title to the first namevar (Puppet's 'you must specify title patterns' is never reached).
    const titlePatterns = patternsInput === undefined ? undefined : (patternsInput as unknown[]).map(toTitlePattern);
    return {
        definition: {
            name,
            ...(desc !== undefined ? { desc } : {}),
            attributes,
            features,
            ...(titlePatterns ? { titlePatterns } : {}),
            autoRelations: autoRelations(input)
        },
        warnings
    };
}

/** `desc`, or the deprecated `docs` alias; both is an error, neither a warning. */
export function docString(input: Record<string, unknown>, name: string, warnings: string[]): string | undefined {
    if ('desc' in input && 'docs' in input) throw new DevError(`\`${name}\` has both \`desc\` and \`docs\`, prefer using \`desc\``);
    const doc = input.desc ?? input.docs;
    if (doc === undefined || doc === null) {
        warnings.push(`\`${name}\` has no documentation, add it using a \`desc\` key`);
        return undefined;
    }
    return String(doc);
}

/** The per-attribute checks (A7–A13) shared by types and transports. */
export function validateAttributes(owner: string, attrs: Record<string, unknown>, ts: TypeSystem, warnings: string[], kind: 'type' | 'transport'): AttributeDefinition[] {
    const out: AttributeDefinition[] = [];
    for (const [key, options] of Object.entries(attrs)) {
        if (kind === 'type' && key === CUSTOM_INSYNC_TRIGGER) {
            throw new DevError(`\`${CUSTOM_INSYNC_TRIGGER}\` cannot be specified as an attribute; it is reserved for propertyless types with the custom_insync feature`);
        }
        if (!isPlainObject(options)) throw new DevError(`\`${owner}.${key}\` must be a Hash, not a ${rubyClassName(options)}`);
        if (!('type' in options)) throw new DevError(`\`${owner}.${key}\` has no type`);
        if (!('desc' in options)) warnings.push(`\`${owner}.${key}\` has no documentation, add it using a \`desc\` key`);
        const typeString = options.type;
        if (typeof typeString !== 'string') {
            // The gem crashes inside its type parser here; say what is wrong instead.
            throw new DevError(`The type of the \`${key}\` attribute must be a String, not \`${rubyClassName(typeString)}\``);
        }
        const parsed = ts.parse(typeString);
        if (!parsed.ok) {
            throw new DevError(parsed.kind === 'syntax'
                ? `The type of the \`${key}\` attribute \`${typeString}\` could not be parsed: ${parsed.message}`
                : `The type of the \`${key}\` attribute \`${typeString}\` is not recognised: ${parsed.message}`);
        }
        if ('behavior' in options && 'behaviour' in options) {
            throw new DevError(`the '${key}' attribute has both a \`behavior\` and a \`behaviour\`, only use one`);
        }
        const behaviour = options.behaviour ?? options.behavior;
        out.push({
            name: key,
            type: typeString,
            ...(typeof options.desc === 'string' ? { desc: options.desc } : {}),
            ...('default' in options ? { default: options.default as PuppetValue } : {}),
            ...(behaviour !== undefined && behaviour !== null ? { behaviour: String(behaviour) as Behaviour } : {}),
            ...(options.sensitive === true ? { sensitive: true } : {})
        });
    }
    return out;
}

const ENSURE_TYPES = [
    'Enum[present, absent]', 'Enum[absent, present]',
    'Optional[Enum[present, absent]]', 'Optional[Enum[absent, present]]',
    'Variant[Undef, Enum[present, absent]]', 'Variant[Undef, Enum[absent, present]]',
    'Variant[Enum[present, absent], Undef]', 'Variant[Enum[absent, present], Undef]'
];

/** Accepted ensure types are compared as types (member order irrelevant), as the gem does. */
function isEnsureType(typeString: string, ts: TypeSystem): boolean {
    const parsed = ts.parse(typeString);
    if (!parsed.ok) return false;
    return ENSURE_TYPES.some(candidate => {
        const c = ts.parse(candidate);
        return c.ok && ts.typesEqual(parsed.type, c.type);
    });
}

function toTitlePattern(p: unknown): TitlePattern {
    const o = isPlainObject(p) ? p : {};
    return { pattern: toRegexSource(o.pattern), ...(typeof o.desc === 'string' ? { desc: o.desc } : {}) };
}

/** Title patterns are Ruby regexes: a source string, a `{source, flags}` pair, or a JS RegExp (its `s` flag is Ruby's `m`). */
export function toRegexSource(p: unknown): RubyRegexSource {
    if (p instanceof RegExp) return { source: p.source, flags: p.flags.replace('s', 'm').replace(/[^mix]/g, '') };
    if (typeof p === 'string') return parseRubyRegexLiteral(p);
    if (isPlainObject(p) && typeof p.source === 'string') return { source: p.source, ...(typeof p.flags === 'string' ? { flags: p.flags } : {}) };
    throw new DevError(`title pattern must be a Regexp, not \`${rubyClassName(p)}\``);
}

function autoRelations(input: Record<string, unknown>): AutoRelation[] {
    const out: AutoRelation[] = [];
    for (const kind of AUTO_RELATION_KINDS) {
        const spec = input[kind];
        if (!isPlainObject(spec)) continue;
        for (const [type, values] of Object.entries(spec)) {
            const list = Array.isArray(values) ? values : [values];
            out.push({ kind, type: type.toLowerCase(), values: list as PuppetValue[] });
        }
    }
    return out;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
    return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Map) && !(v instanceof RegExp);
}
