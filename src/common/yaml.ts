import { parse, type Document, type ParseOptions, type DocumentOptions, type SchemaOptions, type ToJSOptions } from 'yaml';

/**
 * How many times aliases may multiply data, for every YAML modelc reads (facts, Hiera data,
 * ENC and provider output): the yaml library's measure (an alias counts as the aliases inside
 * what it names, times its uses), so a "billion laughs" document is refused before it expands.
 */
export const YAML_MAX_ALIAS_COUNT = 100;

/** The message the yaml library gives for a document over the alias limit. */
const EXCESSIVE = /Excessive alias count/;

/** `yaml.parse` with modelc's alias limit. */
export function parseYaml(text: string, options: ParseOptions & DocumentOptions & SchemaOptions & ToJSOptions = {}): unknown {
    return parse(text, { ...options, maxAliasCount: YAML_MAX_ALIAS_COUNT });
}

/**
 * For readers that walk a parsed Document themselves: the refusal message when its aliases
 * expand beyond the limit (the yaml library's toJS keeps aliased data shared, so the check is
 * linear in the document), else undefined.
 */
export function excessiveAliasing(doc: Document): string | undefined {
    try {
        doc.toJS({ maxAliasCount: YAML_MAX_ALIAS_COUNT });
        return undefined;
    } catch (e) {
        if (e instanceof Error && EXCESSIVE.test(e.message)) return `aliases expand the data more than ${YAML_MAX_ALIAS_COUNT} times (a "billion laughs" document)`;
        return undefined;
    }
}
