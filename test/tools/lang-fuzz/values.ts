/**
 * Values and types for generated programs: literals of every kind (radix integers, float
 * forms, nested collections, undef, default, regexps), and types paired with a value that
 * matches them and one that does not.
 */
import type { Rng } from '../hiera-fuzz/rng.ts';

const WORDS = ['alpha', 'beta', 'Gamma', 'd-e', 'x_y', 'web01', 'db', 'a b', ''];

export function word(r: Rng): string {
    return r.pick(WORDS.slice(0, 7));
}

export function intLit(r: Rng): string {
    return r.pick(['0', '1', '3', '42', '-7', '0x1F', '0X2a', '010', '0777', '1_000'.replace('_', ''), '9223372036854775807', '-9223372036854775808',
        '2147483648', '255', '-0x10', '00']);
}

export function floatLit(r: Rng): string {
    return r.pick(['0.5', '3.14', '1e3', '1.5e-3', '2.0', '-0.0', '1E10', '1.0e20', '0.1', '123456789.125', '1e-7', '7.0e+2']);
}

export function stringLit(r: Rng): string {
    const w = word(r);
    return r.pick([`'${w}'`, `"${w}"`, `'it\\'s'`, `"tab\\there"`, `"q\\"uote"`, `'back\\\\slash'`, `"dollar \\$x"`, `"uni\\u00e9"`, `'${w}\\n'`, "''"]);
}

export function scalar(r: Rng): string {
    return r.weighted({
        int: 4, float: 2, str: 5, bool: 1, undef: 1, regex: 1, default: 0.3, type: 0.7
    }) === 'int' ? intLit(r) : pickScalar(r);
}

function pickScalar(r: Rng): string {
    return r.pick([floatLit(r), stringLit(r), stringLit(r), r.pick(['true', 'false']), 'undef', r.pick(['/^a.*b$/', '/x(\\d+)/']), 'Integer[1, 5]',
        r.pick(['String', 'Optional[Integer]', 'Enum[a, b]'])]);
}

export function value(r: Rng, depth = 0): string {
    const k = depth >= 2 ? 'scalar' : r.weighted({ scalar: 5, array: 2, hash: 2 });
    if (k === 'scalar') return scalar(r);
    if (k === 'array') return `[${Array.from({ length: r.int(0, 3) }, () => value(r, depth + 1)).join(', ')}]`;
    const keys = r.sample(['a', 'b', 'key', 'Name', '1'], r.int(0, 3));
    return `{${keys.map(key => `${r.chance(0.8) ? `'${key}'` : key === '1' ? '1' : key.toLowerCase()} => ${value(r, depth + 1)}`).join(', ')}}`;
}

/** A type with a value it matches and one it does not. */
export interface TypeCase {
    readonly type: string;
    readonly good: string;
    readonly bad: string;
}

export function typeCase(r: Rng, depth = 0): TypeCase {
    const k = r.pick(depth > 0 ? SCALAR_TYPES : [...SCALAR_TYPES, ...COLLECTION_TYPES]);
    return k(r, depth);
}

type TypeGen = (r: Rng, depth: number) => TypeCase;

const SCALAR_TYPES: TypeGen[] = [
    r => ({ type: 'Integer', good: intLit(r), bad: r.pick(["'5'", '5.0', 'undef']) }),
    r => ({ type: 'Integer[1, 10]', good: r.pick(['1', '10', '0x0A']), bad: r.pick(['0', '11', '-1']) }),
    r => ({ type: 'Integer[default, 0]', good: r.pick(['0', '-3']), bad: '1' }),
    r => ({ type: 'Float', good: floatLit(r), bad: r.pick(['1', "'1.0'"]) }),
    r => ({ type: 'Float[0.0, 1.0]', good: r.pick(['0.5', '1.0']), bad: r.pick(['1.5', '-0.1']) }),
    r => ({ type: 'Numeric', good: r.pick(['1', '2.5', '-0x1']), bad: r.pick(["'1'", 'true']) }),
    r => ({ type: 'String', good: stringLit(r), bad: r.pick(['1', 'undef', '[]']) }),
    r => ({ type: 'String[2, 4]', good: r.pick(["'ab'", "'abcd'"]), bad: r.pick(["'a'", "'abcde'", "''"]) }),
    r => ({ type: 'String[1]', good: "'x'", bad: r.pick(["''", 'undef']) }),
    r => ({ type: "Enum['on', 'off']", good: r.pick(["'on'", "'off'"]), bad: r.pick(["'On'", "'maybe'"]) }),
    r => ({ type: 'Enum[a, b, c]', good: r.pick(["'a'", "'c'"]), bad: "'d'" }),
    r => ({ type: 'Pattern[/^web\\d+$/]', good: "'web12'", bad: r.pick(["'db1'", "'web'"]) }),
    r => ({ type: "Pattern[/^a/, 'z$']", good: r.pick(["'abc'", "'xyz'"]), bad: "'b'" }),
    r => ({ type: 'Boolean', good: r.pick(['true', 'false']), bad: r.pick(["'true'", '0']) }),
    r => ({ type: 'Optional[String]', good: r.pick(['undef', "'s'"]), bad: '3' }),
    r => ({ type: 'Optional[Integer[0]]', good: r.pick(['undef', '4']), bad: '-4' }),
    r => ({ type: 'Variant[Integer, Enum[auto]]', good: r.pick(['7', "'auto'"]), bad: "'manual'" }),
    r => ({ type: 'NotUndef', good: r.pick(['0', "''"]), bad: 'undef' }),
    r => ({ type: 'Scalar', good: r.pick(['1', "'s'", 'true', '/r/']), bad: '[1]' }),
    r => ({ type: 'Undef', good: 'undef', bad: "''" }),
    r => ({ type: 'Regexp', good: '/a+/', bad: "'a+'" }),
    r => ({ type: 'Regexp[/a+/]', good: '/a+/', bad: '/b/' }),
    r => ({ type: 'Type[Integer]', good: r.pick(['Integer', 'Integer[1]']), bad: 'String' }),
    r => ({ type: 'Sensitive[String]', good: "Sensitive('pw')", bad: "'pw'" }),
    r => ({ type: 'Port', good: r.pick(['80', '65535']), bad: r.pick(['0', '70000']) }),
    r => ({ type: 'Data', good: r.pick(['1', "{ 'a' => [1, undef] }"]), bad: '/re/' }),
    r => ({ type: 'Any', good: value(r), bad: 'undef' })
];

const COLLECTION_TYPES: TypeGen[] = [
    (r, d) => {
        const e = typeCase(r, d + 1);
        return { type: `Array[${e.type}]`, good: `[${e.good}]`, bad: `[${e.good}, ${e.bad}]` };
    },
    (r, d) => {
        const e = typeCase(r, d + 1);
        return { type: `Array[${e.type}, 1, 2]`, good: `[${e.good}]`, bad: r.pick(['[]', `[${e.good}, ${e.good}, ${e.good}]`]) };
    },
    (r, d) => {
        const e = typeCase(r, d + 1);
        return { type: `Hash[String, ${e.type}]`, good: `{ 'k' => ${e.good} }`, bad: r.pick([`{ 'k' => ${e.bad} }`, `{ 1 => ${e.good} }`]) };
    },
    (r, d) => {
        const a = typeCase(r, d + 1);
        const b = typeCase(r, d + 1);
        return {
            type: `Struct[{ name => ${a.type}, Optional[port] => ${b.type} }]`,
            good: r.pick([`{ 'name' => ${a.good} }`, `{ 'name' => ${a.good}, 'port' => ${b.good} }`]),
            bad: r.pick([`{ 'name' => ${a.bad} }`, `{ 'port' => ${b.good} }`, `{ 'name' => ${a.good}, 'other' => 1 }`])
        };
    },
    (r, d) => {
        const a = typeCase(r, d + 1);
        const b = typeCase(r, d + 1);
        return { type: `Tuple[${a.type}, ${b.type}]`, good: `[${a.good}, ${b.good}]`, bad: r.pick([`[${a.good}]`, `[${a.bad}, ${b.good}]`]) };
    },
    (r, d) => {
        const e = typeCase(r, d + 1);
        return { type: `Variant[Array[${e.type}], ${e.type}]`, good: r.pick([e.good, `[${e.good}]`]), bad: `{ 'a' => ${e.good} }` };
    }
];

/** An expression of Puppet's arithmetic and conversions, with its operands' edge values. */
export function arith(r: Rng): string {
    const a = r.chance(0.7) ? intLit(r) : floatLit(r);
    const b = r.chance(0.7) ? intLit(r) : floatLit(r);
    const op = r.pick(['+', '-', '*', '/', '%', '<<', '>>', '+', '*']);
    return r.weighted({ bin: 6, conv: 2, str: 2, cmp: 1 }) === 'bin' ? `${a} ${op} ${b}`
        : r.pick([`Integer(${r.pick(["'0x1f'", "'0b101'", "'017'", "'12'", "' 3'", "'3.0'", "'abc'", '3.7', "'-0'"])})`,
            `Float(${r.pick(["'1e3'", "'0.5'", '3', "'x'", "'.5'"])})`, `Numeric(${r.pick(["'0x10'", "'1.5'", "'7'"])})`,
            `'${r.pick(['3', '0x10', '2.5', '1e2', '010'])}' ${op} ${b}`, `${a} ${r.pick(['<', '>=', '==', '!='])} ${b}`,
            `String(${a})`, `-(${a})`, `${a}.abs`, `${r.pick(['7', '-7', '7.5'])} ${r.pick(['/', '%'])} ${r.pick(['2', '-2', '0', '2.0'])}`]);
}
