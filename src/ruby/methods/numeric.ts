import { formatFloat } from '../../common/index.js';
import { compare } from '../compare.js';
import { Classes, classOf, RObject, rubyError, type CallSite, type Method, type RValue } from '../objects.js';
import { arity, enumerator, int, num } from './support.js';
import { asBinary } from './binary.js';

const isNum = (v: RValue): v is bigint | number => typeof v === 'bigint' || typeof v === 'number';

function coerceFail(other: RValue, self: RValue): never {
    const name = other === null ? 'nil' : other === true ? 'true' : other === false ? 'false' : classOf(other).name;
    throw rubyError('TypeError', `${name} can't be coerced into ${classOf(self).name}`);
}

function floorDiv(a: bigint, b: bigint): bigint {
    if (b === 0n) throw rubyError('ZeroDivisionError', 'divided by 0');
    const q = a / b;
    return (a % b !== 0n && (a < 0n) !== (b < 0n)) ? q - 1n : q;
}

function floorMod(a: bigint, b: bigint): bigint {
    if (b === 0n) throw rubyError('ZeroDivisionError', 'divided by 0');
    const m = a % b;
    return m !== 0n && (m < 0n) !== (b < 0n) ? m + b : m;
}

function fmod(a: number, b: number): number {
    const m = a % b;
    return m !== 0 && (m < 0) !== (b < 0) ? m + b : m;
}

/** Arithmetic with Ruby's Integer/Float rules: Integer op Integer stays Integer, anything with a Float is Float. */
function arith(op: string, a: bigint | number, b: RValue): RValue {
    if (!isNum(b)) coerceFail(b, a);
    if (typeof a === 'bigint' && typeof b === 'bigint') {
        switch (op) {
            case '+': return a + b;
            case '-': return a - b;
            case '*': return a * b;
            case '/': return floorDiv(a, b);
            case '%': return floorMod(a, b);
            case '**': return b < 0n ? rational(1n, a ** -b) : a ** b;
        }
    }
    const x = Number(a);
    const y = Number(b);
    if (typeof a === 'bigint' && y === 0 && op === '%') throw rubyError('ZeroDivisionError', 'divided by 0');
    switch (op) {
        case '+': return x + y;
        case '-': return x - y;
        case '*': return x * y;
        case '/': return x / y;
        case '%': return fmod(x, y);
        case '**': return x ** y;
    }
    throw rubyError('NoMethodError', `undefined method \`${op}'`);
}

/** Ruby answers `2 ** -1` with the Rational 1/2; templates only print it. */
function rational(n: bigint, d: bigint): RValue {
    if (d < 0n) { n = -n; d = -d; }
    let a = n < 0n ? -n : n;
    let b = d;
    while (b) [a, b] = [b, a % b];
    const text = `${n / a}/${d / a}`;
    return new RObject(Classes.Rational, `(${text})`, text);
}

/** Rounds half away from zero on the shortest decimal form, as Ruby's Float#round(n) does. */
export function roundFloat(x: number, digits: number): number {
    if (!Number.isFinite(x)) return x;
    const s = Math.abs(x).toFixed(20).replace(/0+$/, '');
    const shortest = String(Math.abs(x)).includes('e') ? s : String(Math.abs(x));
    const [ip, fp = ''] = shortest.split('.');
    if (digits >= fp.length) return x;
    const kept = (ip + fp.slice(0, digits)).replace(/^0+(?=\d)/, '');
    let n = BigInt(kept === '' ? '0' : kept);
    if (Number(fp[digits]) >= 5) n += 1n;
    const r = Number(n) / 10 ** digits;
    return x < 0 ? -r : r;
}

function roundInt(n: bigint, digits: number): bigint {
    if (digits >= 0) return n;
    const p = 10n ** BigInt(-digits);
    const abs = n < 0n ? -n : n;
    const r = ((abs + p / 2n) / p) * p;
    return n < 0n ? -r : r;
}

function cmp(self: RValue, other: RValue): number {
    const c = isNum(other) ? compare(self, other) : null;
    if (c === null) throw rubyError('ArgumentError', `comparison of ${classOf(self).name} with ${other === null ? 'nil' : typeof other === 'string' ? 'String' : classOf(other).name} failed`);
    return c;
}

function floatToInt(x: number): bigint {
    if (!Number.isFinite(x)) throw rubyError('FloatDomainError', formatFloat(x));
    return BigInt(Math.trunc(x));
}

function iterate(from: bigint, to: bigint, step: bigint, block: Parameters<Method>[2], call: CallSite, self: RValue): RValue {
    const items: RValue[] = [];
    if (step > 0n) for (let i = from; i <= to; i += step) items.push(i);
    else for (let i = from; i >= to; i += step) items.push(i);
    if (!block) return enumerator(items, 'each', () => self);
    for (const i of items) call.yield(block, [i]);
    return self;
}

const common: Record<string, Method> = {
    '+': (self, args) => { arity(args, 1); return arith('+', self as bigint, args[0]); },
    '-': (self, args) => { arity(args, 1); return arith('-', self as bigint, args[0]); },
    '*': (self, args) => { arity(args, 1); return arith('*', self as bigint, args[0]); },
    '/': (self, args) => { arity(args, 1); return arith('/', self as bigint, args[0]); },
    '%': (self, args) => { arity(args, 1); return arith('%', self as bigint, args[0]); },
    modulo: (self, args) => arith('%', self as bigint, args[0]),
    '**': (self, args) => { arity(args, 1); return arith('**', self as bigint, args[0]); },
    pow: (self, args) => arith('**', self as bigint, args[0]),
    '-@': self => (typeof self === 'bigint' ? -self : -(self as number)),
    '+@': self => self,
    '==': (self, args) => isNum(args[0]) && compare(self, args[0]) === 0,
    '===': (self, args) => isNum(args[0]) && compare(self, args[0]) === 0,
    '<=>': (self, args) => { const c = isNum(args[0]) ? compare(self, args[0]) : null; return c === null ? null : BigInt(c); },
    '<': (self, args) => cmp(self, args[0]) < 0,
    '<=': (self, args) => cmp(self, args[0]) <= 0,
    '>': (self, args) => cmp(self, args[0]) > 0,
    '>=': (self, args) => cmp(self, args[0]) >= 0,
    'between?': (self, args) => cmp(self, args[0]) >= 0 && cmp(self, args[1]) <= 0,
    clamp: (self, args) => (cmp(self, args[0]) < 0 ? args[0] : cmp(self, args[1]) > 0 ? args[1] : self),
    abs: self => (typeof self === 'bigint' ? (self < 0n ? -self : self) : Math.abs(self as number)),
    magnitude: self => (typeof self === 'bigint' ? (self < 0n ? -self : self) : Math.abs(self as number)),
    'zero?': self => Number(self) === 0,
    'positive?': self => Number(self) > 0,
    'negative?': self => Number(self) < 0,
    'nonzero?': self => (Number(self) === 0 ? null : self),
    fdiv: (self, args) => Number(self) / Number(args[0]),
    divmod: (self, args) => {
        const q = typeof self === 'bigint' && typeof args[0] === 'bigint' ? floorDiv(self, args[0]) : Math.floor(Number(self) / Number(args[0]));
        return [q, arith('%', self as bigint, args[0])];
    },
    div: (self, args) => { const r = arith('/', self as bigint, args[0]); return typeof r === 'number' ? floatToInt(Math.floor(r)) : r; },
    coerce: (self, args) => [typeof self === 'number' ? Number(args[0]) : args[0], self],
    step: (self, args, block, call) => iterate(int(self), int(args[0]), args.length > 1 ? int(args[1]) : 1n, block, call, self),
    to_c: () => { throw rubyError('NotImplementedError', 'complex numbers are not supported in templates'); },
    'integer?': self => typeof self === 'bigint',
    'finite?': self => typeof self === 'bigint' || Number.isFinite(self as number),
    'infinite?': self => (typeof self === 'number' && !Number.isFinite(self) && !Number.isNaN(self) ? (self > 0 ? 1n : -1n) : null),
    hash: self => (typeof self === 'bigint' ? self : BigInt(Math.trunc((self as number) * 1000)))
};

export const integerMethods: Record<string, Method> = {
    ...common,
    to_s: (self, args) => (self as bigint).toString(args.length ? num(args[0]) : 10),
    inspect: self => (self as bigint).toString(),
    to_i: self => self,
    to_int: self => self,
    to_f: self => Number(self),
    to_r: self => self,
    // Without an encoding, 128..255 is a byte (ASCII-8BIT), not a character.
    chr: self => (Number(self) > 0x7f && Number(self) < 0x100 ? asBinary(String.fromCharCode(Number(self))) : String.fromCodePoint(Number(self))),
    ord: self => self,
    times: (self, _a, block, call) => iterate(0n, (self as bigint) - 1n, 1n, block, call, self),
    upto: (self, args, block, call) => iterate(self as bigint, int(args[0]), 1n, block, call, self),
    downto: (self, args, block, call) => iterate(self as bigint, int(args[0]), -1n, block, call, self),
    'even?': self => (self as bigint) % 2n === 0n,
    'odd?': self => (self as bigint) % 2n !== 0n,
    succ: self => (self as bigint) + 1n,
    next: self => (self as bigint) + 1n,
    pred: self => (self as bigint) - 1n,
    round: (self, args) => roundInt(self as bigint, args.length ? num(args[0]) : 0),
    floor: (self, args) => { const d = args.length ? num(args[0]) : 0; if (d >= 0) return self; const p = 10n ** BigInt(-d); return floorDiv(self as bigint, p) * p; },
    ceil: (self, args) => { const d = args.length ? num(args[0]) : 0; if (d >= 0) return self; const p = 10n ** BigInt(-d); return -floorDiv(-(self as bigint), p) * p; },
    truncate: self => self,
    '&': (self, args) => (self as bigint) & int(args[0]),
    '|': (self, args) => (self as bigint) | int(args[0]),
    '^': (self, args) => (self as bigint) ^ int(args[0]),
    '~': self => ~(self as bigint),
    '<<': (self, args) => (self as bigint) << int(args[0]),
    '>>': (self, args) => (self as bigint) >> int(args[0]),
    '[]': (self, args) => ((self as bigint) >> int(args[0])) & 1n,
    gcd: (self, args) => { let a = self as bigint; let b = int(args[0]); if (a < 0n) a = -a; if (b < 0n) b = -b; while (b) [a, b] = [b, a % b]; return a; },
    lcm: (self, args) => { const a = self as bigint; const b = int(args[0]); if (a === 0n || b === 0n) return 0n; let x = a < 0n ? -a : a; let y = b < 0n ? -b : b; const p = x * y; while (y) [x, y] = [y, x % y]; return p / x; },
    digits: self => { if ((self as bigint) < 0n) throw rubyError('DomainError', 'out of domain'); return [...(self as bigint).toString()].reverse().map(d => BigInt(d)); },
    bit_length: self => BigInt(((self as bigint) < 0n ? ~(self as bigint) : (self as bigint)).toString(2).replace(/^0$/, '').length),
    size: () => 8n
};

export const floatMethods: Record<string, Method> = {
    ...common,
    to_s: self => formatFloat(self as number),
    inspect: self => formatFloat(self as number),
    to_i: self => floatToInt(self as number),
    to_int: self => floatToInt(self as number),
    truncate: self => floatToInt(self as number),
    to_f: self => self,
    'nan?': self => Number.isNaN(self),
    round: (self, args) => {
        const d = args.length && !(args[0] instanceof Map) ? num(args[0]) : 0;
        const x = self as number;
        if (d > 0) return roundFloat(x, d);
        const r = x < 0 ? -Math.round(-x) : Math.round(x);
        const i = floatToInt(r);
        return d === 0 ? i : roundInt(floatToInt(x < 0 ? -Math.round(-x) : Math.round(x)), d);
    },
    floor: (self, args) => { const d = args.length ? num(args[0]) : 0; if (d > 0) return Math.floor((self as number) * 10 ** d) / 10 ** d; return floatToInt(Math.floor(self as number)); },
    ceil: (self, args) => { const d = args.length ? num(args[0]) : 0; if (d > 0) return Math.ceil((self as number) * 10 ** d) / 10 ** d; return floatToInt(Math.ceil(self as number)); }
};
