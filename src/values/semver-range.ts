import { PSemVer } from './values.js';

/**
 * Version ranges as SemanticPuppet reads them (npm's range grammar plus `~>`): alternatives
 * separated by `||`, each an intersection of comparators or a hyphen range, partial versions
 * (`1`, `1.2`, `1.x`, `*`) widened to the versions they stand for. A prerelease version is in a
 * range only when one of the comparators it passes names a prerelease of the same major.minor.patch.
 */

type Op = '>' | '>=' | '<' | '<=' | '=';
interface Comparator { readonly op: Op; readonly v: PSemVer }
/** One alternative: all comparators must hold (an empty list holds for every version; `nothing` for none). */
interface Alternative { readonly comparators: readonly Comparator[]; readonly nothing?: boolean }

/** A range SemanticPuppet refuses ("Unparsable version range: ..."). */
export class VersionRangeError extends Error {}

const PART = '[0-9A-Za-z-]+';
const PARTIAL = new RegExp(`^(x|X|\\*|0|[1-9]\\d*)(?:\\.(x|X|\\*|0|[1-9]\\d*)(?:\\.(x|X|\\*|0|[1-9]\\d*)(?:-(${PART}(?:\\.${PART})*))?(?:\\+(${PART}(?:\\.${PART})*))?)?)?$`);
const XR = '(?:x|X|\\*|0|[1-9]\\d*)';
const PARTIAL_TEXT = `${XR}(?:\\.${XR}(?:\\.${XR}(?:-${PART}(?:\\.${PART})*)?(?:\\+${PART}(?:\\.${PART})*)?)?)?`;
const SIMPLE = new RegExp(`^(<=|>=|~>|~=|[<>=~^])?(${PARTIAL_TEXT})$`);
const HYPHEN = new RegExp(`^(${PARTIAL_TEXT})\\s+-\\s+(${PARTIAL_TEXT})$`);

interface Partial { major?: bigint; minor?: bigint; patch?: bigint; pre: string; build: string }

function partial(text: string, whole: string): Partial {
    const m = PARTIAL.exec(text);
    if (!m) throw new VersionRangeError(`Unparsable version range: "${whole}"`);
    const digit = (s: string | undefined): bigint | undefined => s === undefined || /^[xX*]$/.test(s) ? undefined : BigInt(s);
    return { major: digit(m[1]), minor: digit(m[2]), patch: digit(m[3]), pre: m[4] ?? '', build: m[5] ?? '' };
}

const ver = (major: bigint, minor: bigint, patch: bigint, pre = '', build = ''): PSemVer => new PSemVer(major, minor, patch, pre, build);
const ALL: Comparator[] = [];
const NOTHING = 'nothing';

/** The comparators one simple expression stands for (`nothing` when no version can match). */
function simple(op: string | undefined, text: string, whole: string): Comparator[] | typeof NOTHING {
    const p = partial(text, whole);
    const { major, minor, patch } = p;
    const exact = (): PSemVer => ver(major!, minor!, patch!, p.pre, p.build);
    // x-ranges: the versions a partial version covers; ~ and ^ widen to the next minor or major.
    const patchUpdates = (tildeOrCaret: boolean): Comparator[] => {
        if (major === undefined) return ALL;
        if (minor === undefined) return [{ op: '>=', v: ver(major, 0n, 0n) }, { op: '<', v: ver(major + 1n, 0n, 0n) }];
        if (patch === undefined) return [{ op: '>=', v: ver(major, minor, 0n) }, { op: '<', v: ver(major, minor + 1n, 0n) }];
        if (!tildeOrCaret) return [{ op: '=', v: exact() }];
        return [{ op: '>=', v: exact() }, { op: '<', v: ver(major, minor + 1n, 0n) }];
    };
    switch (op) {
        case '~': case '~>': case '~=': return patchUpdates(true);
        case '^': {
            if (major === 0n) return patchUpdates(true);
            if (major === undefined) return ALL;
            const from = minor === undefined ? ver(major, 0n, 0n) : patch === undefined ? ver(major, minor, 0n) : exact();
            return [{ op: '>=', v: from }, { op: '<', v: ver(major + 1n, 0n, 0n) }];
        }
        case '>':
            if (major === undefined) return NOTHING;
            if (minor === undefined) return [{ op: '>=', v: ver(major + 1n, 0n, 0n) }];
            if (patch === undefined) return [{ op: '>=', v: ver(major, minor + 1n, 0n) }];
            return [{ op: '>', v: exact() }];
        case '>=': return [{ op: '>=', v: ver(major ?? 0n, minor ?? 0n, patch ?? 0n, p.pre, p.build) }];
        case '<': return [{ op: '<', v: ver(major ?? 0n, minor ?? 0n, patch ?? 0n, p.pre, p.build) }];
        case '<=':
            if (major === undefined) return ALL;
            if (minor === undefined) return [{ op: '<', v: ver(major + 1n, 0n, 0n) }];
            if (patch === undefined) return [{ op: '<', v: ver(major, minor + 1n, 0n) }];
            return [{ op: '<=', v: exact() }];
        default: return patchUpdates(false);
    }
}

/** SemanticPuppet's VersionRange.parse: the alternatives of a range string. */
export function parseVersionRange(text: string): Alternative[] {
    // Spaces (or a 'v') after an operator do not separate.
    const set = text.replace(/([><=~^])(?:\s+|\s*v)/g, '$1');
    const parts = set.split(/\s*\|\|\s*/);
    if (parts.length === 0 || (parts.length === 1 && parts[0] === '')) return [{ comparators: ALL }];
    return parts.map(range => {
        const h = HYPHEN.exec(range);
        if (h) return { comparators: [{ op: '>=', v: lowest(h[1], text) }, { op: '<=', v: lowest(h[2], text) }] };
        const comparators: Comparator[] = [];
        let nothing = false;
        for (const s of range.split(/\s+/)) {
            const m = SIMPLE.exec(s);
            if (!m) throw new VersionRangeError(`Unparsable version range: "${text}"`);
            const c = simple(m[1], m[2], text);
            if (c === NOTHING) nothing = true;
            else comparators.push(...c);
        }
        return { comparators, nothing };
    });
}

/** A partial version with its missing parts as 0 (a hyphen range's and `>=`'s bounds). */
function lowest(text: string, whole: string): PSemVer {
    const p = partial(text, whole);
    return ver(p.major ?? 0n, p.minor ?? 0n, p.patch ?? 0n, p.pre, p.build);
}

/** SemVer precedence: numbers, then a release above its prereleases, identifiers compared one by one. */
export function compareSemVer(a: PSemVer, b: PSemVer): number {
    for (const [x, y] of [[a.major, b.major], [a.minor, b.minor], [a.patch, b.patch]] as const) if (x !== y) return x < y ? -1 : 1;
    if (a.prerelease === b.prerelease) return 0;
    if (a.prerelease === '') return 1;
    if (b.prerelease === '') return -1;
    const xs = a.prerelease.split('.');
    const ys = b.prerelease.split('.');
    for (let i = 0; i < Math.min(xs.length, ys.length); i++) {
        const [x, y] = [xs[i], ys[i]];
        if (x === y) continue;
        const [nx, ny] = [/^\d+$/.test(x), /^\d+$/.test(y)];
        if (nx && ny) return BigInt(x) < BigInt(y) ? -1 : 1;
        if (nx !== ny) return nx ? -1 : 1;
        return x < y ? -1 : 1;
    }
    return xs.length === ys.length ? 0 : xs.length < ys.length ? -1 : 1;
}

function holds(c: Comparator, v: PSemVer): boolean {
    const r = compareSemVer(v, c.v);
    switch (c.op) {
        case '>': return r > 0;
        case '>=': return r >= 0;
        case '<': return r < 0;
        case '<=': return r <= 0;
        default: return r === 0;
    }
}

/** The version a string names (SemVer's full form), undefined when it names none. */
export function parseSemVer(text: string): PSemVer | undefined {
    const m = /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?$/.exec(text);
    return m ? ver(BigInt(m[1]), BigInt(m[2]), BigInt(m[3]), m[4] ?? '', m[5] ?? '') : undefined;
}

/** PSemVerRangeType.include?: a version, or a string naming one, within the range; anything else is not. */
export function semverRangeIncludes(range: string, v: unknown): boolean {
    const version = v instanceof PSemVer ? v : typeof v === 'string' ? parseSemVer(v) : undefined;
    return version !== undefined && versionRangeIncludes(parseVersionRange(range), version);
}

/** VersionRange#include?: some alternative holds, and a prerelease is named by one of its comparators. */
export function versionRangeIncludes(alternatives: readonly Alternative[], v: PSemVer): boolean {
    return alternatives.some(alt => !alt.nothing && alt.comparators.every(c => holds(c, v))
        && (v.prerelease === '' || alt.comparators.length === 0 || alt.comparators.some(c => c.v.prerelease !== '' && c.v.major === v.major && c.v.minor === v.minor && c.v.patch === v.patch)));
}

/**
 * SemanticPuppet's VersionRange#inspect: each alternative as its one lower and one upper bound
 * (the tightest of its comparators), `1.2.3` for an exact version, `*` for any, `<0.0.0` for none;
 * alternatives joined by ` || `.
 */
export function versionRangeInspect(text: string): string {
    return parseVersionRange(text).map(alt => {
        if (alt.nothing) return '<0.0.0';
        let lower: Comparator | undefined;
        let upper: Comparator | undefined;
        for (const c of alt.comparators) {
            const bounds: Comparator[] = c.op === '=' ? [{ op: '>=', v: c.v }, { op: '<=', v: c.v }] : [c];
            for (const b of bounds) {
                if (b.op === '>' || b.op === '>=') {
                    const d = lower === undefined ? 1 : compareSemVer(b.v, lower.v);
                    if (d > 0 || (d === 0 && b.op === '>')) lower = b;
                } else {
                    const d = upper === undefined ? -1 : compareSemVer(b.v, upper.v);
                    if (d < 0 || (d === 0 && b.op === '<')) upper = b;
                }
            }
        }
        if (lower && upper) {
            const d = compareSemVer(lower.v, upper.v);
            if (d > 0 || (d === 0 && (lower.op === '>' || upper.op === '<'))) return '<0.0.0';
            if (d === 0) return String(lower.v);
        }
        const parts = [lower, upper].filter((b): b is Comparator => b !== undefined).map(b => `${b.op}${b.v}`);
        return parts.length === 0 ? '*' : parts.join(' ');
    }).join(' || ');
}
