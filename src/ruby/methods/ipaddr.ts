import { Classes, Exceptions, RClass, RObject, RRange, RubyError, type CallSite, type Method, type RValue } from '../objects.js';
import { arity, int, str } from './support.js';

/**
 * Ruby's `ipaddr` library as plugin code and templates use it (validating and comparing
 * addresses: haproxy's bind template, stdlib's is_ip_address and ip_in_range, firewall's
 * IPCidr subclass). The state lives in the instance variables Ruby's own class uses
 * (`@addr`, `@family`, `@mask_addr`), so a subclass reading them sees the same values.
 */
const AF_UNSPEC = 0n;
const AF_INET = 2n;
const AF_INET6 = 10n;
const IN4MASK = 0xffffffffn;
const IN6MASK = (1n << 128n) - 1n;

const IPAddr = Classes.IPAddr;
const fail = (cls: RClass, message: string): RubyError => new RubyError(cls, message);

interface Parsed { addr: bigint; family: bigint }

/** `a.b.c.d`, or null when the text does not look like IPv4. */
function parse4(text: string): bigint | null {
    const m = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
    if (!m) return null;
    return octets(m.slice(1, 5));
}

function octets(parts: string[]): bigint {
    let v = 0n;
    for (const p of parts) {
        if (Number(p) > 255) throw fail(Exceptions.IPAddrInvalidAddress, 'invalid address: ');
        if (/^0./.test(p)) throw fail(Exceptions.IPAddrInvalidAddress, 'zero-filled number in IPv4 address is ambiguous: ');
        v = (v << 8n) | BigInt(p);
    }
    return v;
}

/** Full or `::`-compressed IPv6, optionally ending in a dotted IPv4 part; null when it has too many groups. */
function parse6(text: string): bigint | null {
    const invalid = (): RubyError => fail(Exceptions.IPAddrInvalidAddress, 'invalid address: ');
    const hex = '[\\da-f]{1,4}';
    const v4 = '(\\d+)\\.(\\d+)\\.(\\d+)\\.(\\d+)';
    let left: string;
    let right: string;
    let low = 0n;
    const full = new RegExp(`^(?:(?:${hex}:){7}${hex}|((?:${hex}:){6})${v4})$`, 'i').exec(text);
    if (full) {
        // six groups and a dotted tail: the tail fills the last two groups
        if (full[1] !== undefined) { low = octets(full.slice(2, 6)); left = full[1].slice(0, -1); } else left = text;
        right = '';
    } else {
        const comp = new RegExp(`^((?:(?:${hex}:)*${hex})?)::(((?:${hex}:)*)(?:${hex}|${v4}))?$`, 'i').exec(text);
        if (!comp) throw invalid();
        const tail = comp[2] ?? '';
        if (comp[4] !== undefined) {
            if ((text.match(/:/g) ?? []).length > 6) throw invalid();
            low = octets(comp.slice(4, 8));
            left = comp[1];
            right = `${comp[3]}0:0`;
        } else {
            const limit = comp[1] === '' || tail === '' ? 8 : 7;
            if ((text.match(/:/g) ?? []).length > limit) throw invalid();
            left = comp[1];
            right = tail;
        }
    }
    const l = left === '' ? [] : left.split(':');
    const r = right === '' ? [] : right.split(':');
    const rest = 8 - l.length - r.length;
    if (rest < 0) return null;
    let v = 0n;
    for (const g of [...l, ...new Array<string>(rest).fill('0'), ...r]) v = (v << 16n) | BigInt(`0x${g === '' ? '0' : g}`);
    return v | low;
}

function maskFor(family: bigint): bigint { return family === AF_INET ? IN4MASK : IN6MASK; }
function bits(family: bigint): bigint { return family === AF_INET ? 32n : 128n; }

const ivars = (o: RValue, call: CallSite): Map<string, RValue> => call.ivarsOf(o);
const stateOf = (o: RValue, call: CallSite): { addr: bigint; family: bigint; mask: bigint } => {
    const v = ivars(o, call);
    return { addr: v.get('addr') as bigint, family: v.get('family') as bigint, mask: v.get('mask_addr') as bigint };
};

/** `mask!`: a prefix length (`24`) or a netmask (`255.255.0.0`) narrows the address to its network. */
function applyMask(o: RValue, spec: RValue, call: CallSite): void {
    const { addr, family } = stateOf(o, call);
    let prefix: bigint;
    if (typeof spec === 'string' && !/^\d+$/.test(spec)) {
        let m: Parsed;
        try { m = parseAddress(spec, AF_UNSPEC); } catch { throw fail(Exceptions.IPAddrInvalidPrefix, `invalid mask ${spec}: ${addr}`); }
        if (m.family !== family) throw fail(Exceptions.IPAddrInvalidPrefix, `address family is not same: ${addr}`);
        const text = m.addr.toString(2).padStart(Number(bits(family)), '0');
        if (!/^1*0*$/.test(text)) throw fail(Exceptions.IPAddrInvalidPrefix, `invalid mask ${spec}: ${addr}`);
        prefix = BigInt(text.indexOf('0') < 0 ? text.length : text.indexOf('0'));
    } else {
        if (typeof spec === 'string' && /^0\d/.test(spec)) throw fail(Exceptions.IPAddrInvalidPrefix, 'leading zeros in prefix');
        prefix = typeof spec === 'string' ? BigInt(spec) : int(spec);
        if (prefix < 0n || prefix > bits(family)) throw fail(Exceptions.IPAddrInvalidPrefix, `invalid length: ${addr}`);
    }
    const all = maskFor(family);
    const mask = (all << (bits(family) - prefix)) & all;
    ivars(o, call).set('mask_addr', mask);
    ivars(o, call).set('addr', addr & mask);
}

function parseAddress(text: string, wanted: bigint): Parsed {
    let prefix = text;
    let family = wanted;
    const bracket = /^\[(.*)\]$/.exec(prefix);
    if (bracket) { prefix = bracket[1]; family = AF_INET6; }
    const zone = /^(.*)(%\w+)$/.exec(prefix);
    if (zone) { prefix = zone[1]; family = AF_INET6; }
    let addr: bigint | null = null;
    let found = AF_UNSPEC;
    if (family === AF_UNSPEC || family === AF_INET) { addr = parse4(prefix); if (addr !== null) found = AF_INET; }
    if (addr === null && (family === AF_UNSPEC || family === AF_INET6)) { addr = parse6(prefix); found = AF_INET6; }
    if (family !== AF_UNSPEC && found !== family) throw fail(Exceptions.IPAddrFamily, 'address family mismatch');
    return { addr: addr ?? 0n, family: found };
}

const initialize: Method = (self, args, _b, call) => {
    arity(args, 0, 2);
    const given = args[0] ?? '::';
    const family = args.length > 1 ? int(args[1]) : AF_UNSPEC;
    const v = ivars(self, call);
    if (typeof given !== 'string') {
        if (family !== AF_INET && family !== AF_INET6) {
            throw fail(Exceptions.IPAddrFamily, family === AF_UNSPEC ? 'address family must be specified' : `unsupported address family: ${family}`);
        }
        const addr = int(given);
        if (addr < 0n || addr > maskFor(family)) throw fail(Exceptions.IPAddrInvalidAddress, `invalid address: ${addr}`);
        v.set('addr', addr); v.set('family', family); v.set('mask_addr', maskFor(family));
        return null;
    }
    const slash = given.indexOf('/');
    const text = slash < 0 ? given : given.slice(0, slash);
    const zone = /%\w+$/.exec(text.replace(/^\[(.*)\]$/, '$1'));
    const p = parseAddress(text, family);
    v.set('addr', p.addr); v.set('family', p.family); v.set('mask_addr', maskFor(p.family));
    if (zone) v.set('zone_id', zone[0]);
    if (slash >= 0) applyMask(self, given.slice(slash + 1), call);
    return null;
};

function canonical(addr: bigint, family: bigint): string {
    if (family === AF_INET) return [24n, 16n, 8n, 0n].map(s => String((addr >> s) & 0xffn)).join('.');
    return addr.toString(16).padStart(32, '0').replace(/.{4}(?!$)/g, '$&:');
}

/** Ruby's compressed form: leading zeros dropped, the first longest run of zero groups as `::`, IPv4-compatible tails dotted. */
function compressed(addr: bigint, zone: string): string {
    const groups = canonical(addr, AF_INET6).split(':').map(g => g.replace(/^0{1,3}/, ''));
    let best = -1;
    let bestLen = 1;
    for (let i = 0; i < 8; i++) {
        let j = i;
        while (j < 8 && groups[j] === '0') j++;
        if (j - i > bestLen) { best = i; bestLen = j - i; }
    }
    let s = best < 0 ? groups.join(':') : `${groups.slice(0, best).join(':')}::${groups.slice(best + bestLen).join(':')}`;
    s += zone;
    const v4 = /^::(ffff:)?([\da-f]{1,4}):([\da-f]{1,4})$/i.exec(s);
    if (v4) {
        const a = parseInt(v4[2], 16);
        const b = parseInt(v4[3], 16);
        s = `::${v4[1] ?? ''}${Math.floor(a / 256)}.${a % 256}.${Math.floor(b / 256)}.${b % 256}`;
    }
    return s;
}

function make(call: CallSite, cls: RClass, addr: bigint, family: bigint, mask: bigint): RObject {
    const o = new RObject(cls, `#<${cls.name}>`);
    const v = ivars(o, call);
    v.set('addr', addr); v.set('family', family); v.set('mask_addr', mask);
    return o;
}

/** Another address as the receiver's class reads it (`include?`, `==`, `<=>` take strings and integers too). */
function coerce(self: RValue, other: RValue, call: CallSite): { addr: bigint; family: bigint; mask: bigint } {
    if (other instanceof RObject && other.cls.isSubclassOf(IPAddr)) return stateOf(other, call);
    const o = new RObject(IPAddr, '#<IPAddr>');
    initialize(o, typeof other === 'string' ? [other] : [other, stateOf(self, call).family], undefined, call);
    return stateOf(o, call);
}

const methods: Record<string, Method> = {
    initialize,
    to_i: (self, _a, _b, call) => stateOf(self, call).addr,
    to_string: (self, _a, _b, call) => { const s = stateOf(self, call); return canonical(s.addr, s.family) + (s.family === AF_INET6 ? str(ivars(self, call).get('zone_id') ?? '') : ''); },
    _to_string: (self, args, _b, call) => canonical(int(args[0]), stateOf(self, call).family),
    to_s: (self, _a, _b, call) => {
        const s = stateOf(self, call);
        return s.family === AF_INET ? canonical(s.addr, s.family) : compressed(s.addr, str(ivars(self, call).get('zone_id') ?? ''));
    },
    family: (self, _a, _b, call) => stateOf(self, call).family,
    'ipv4?': (self, _a, _b, call) => stateOf(self, call).family === AF_INET,
    'ipv6?': (self, _a, _b, call) => stateOf(self, call).family === AF_INET6,
    prefix: (self, _a, _b, call) => {
        const s = stateOf(self, call);
        const text = s.mask.toString(2).padStart(Number(bits(s.family)), '0');
        return BigInt(text.indexOf('0') < 0 ? text.length : text.indexOf('0'));
    },
    netmask: (self, _a, _b, call) => { const s = stateOf(self, call); return make(call, (self as RObject).cls, s.mask, s.family, maskFor(s.family)); },
    mask: (self, args, _b, call) => {
        const s = stateOf(self, call);
        const copy = make(call, (self as RObject).cls, s.addr, s.family, s.mask);
        applyMask(copy, args[0], call);
        return copy;
    },
    to_range: (self, _a, _b, call) => {
        const s = stateOf(self, call);
        const cls = (self as RObject).cls;
        return new RRange(make(call, cls, s.addr & s.mask, s.family, maskFor(s.family)), make(call, cls, (s.addr & s.mask) | (maskFor(s.family) ^ s.mask), s.family, maskFor(s.family)), false);
    },
    'include?': (self, args, _b, call) => {
        arity(args, 1);
        const s = stateOf(self, call);
        let o;
        try { o = coerce(self, args[0], call); } catch (e) { if (e instanceof RubyError) return false; throw e; }
        if (o.family !== s.family) return false;
        const lo = s.addr & s.mask;
        const hi = lo | (maskFor(s.family) ^ s.mask);
        return lo <= (o.addr & o.mask) && hi >= ((o.addr & o.mask) | (maskFor(o.family) ^ o.mask));
    },
    '==': (self, args, _b, call) => {
        try { const o = coerce(self, args[0], call); const s = stateOf(self, call); return o.family === s.family && o.addr === s.addr; } catch { return false; }
    },
    '<=>': (self, args, _b, call) => {
        let o;
        try { o = coerce(self, args[0], call); } catch { return null; }
        const s = stateOf(self, call);
        if (o.family !== s.family) return null;
        return s.addr === o.addr ? 0n : s.addr < o.addr ? -1n : 1n;
    },
    succ: (self, _a, _b, call) => { const s = stateOf(self, call); return make(call, (self as RObject).cls, s.addr + 1n, s.family, s.mask); },
    'loopback?': (self, _a, _b, call) => { const s = stateOf(self, call); return s.family === AF_INET ? (s.addr >> 24n) === 127n : s.addr === 1n; },
    'private?': (self, _a, _b, call) => {
        const s = stateOf(self, call);
        if (s.family === AF_INET6) return (s.addr >> 121n) === 0x7en;
        return (s.addr >> 24n) === 10n || (s.addr >> 20n) === 0xac1n || (s.addr >> 16n) === 0xc0a8n;
    },
    'link_local?': (self, _a, _b, call) => {
        const s = stateOf(self, call);
        return s.family === AF_INET ? (s.addr >> 16n) === 0xa9fen : (s.addr >> 118n) === 0x3fan;
    },
    inspect: (self, _a, _b, call) => {
        const s = stateOf(self, call);
        const fam = s.family === AF_INET ? 'IPv4' : 'IPv6';
        const zone = s.family === AF_INET6 ? str(ivars(self, call).get('zone_id') ?? '') : '';
        return `#<${(self as RObject).cls.name}: ${fam}:${canonical(s.addr, s.family)}${zone}/${canonical(s.mask, s.family)}>`;
    }
};
methods['==='] = methods['include?'];

export function installIPAddr(): void {
    for (const [name, m] of Object.entries(methods)) IPAddr.define(name, m);
    for (const [name, v] of [['AF_UNSPEC', AF_UNSPEC], ['AF_INET', AF_INET], ['AF_INET6', AF_INET6]] as const) Classes.Socket.constants.set(name, v);
    IPAddr.constants.set('IN4MASK', IN4MASK);
    IPAddr.constants.set('IN6MASK', IN6MASK);
    for (const e of [Exceptions.IPAddrError, Exceptions.IPAddrInvalidAddress, Exceptions.IPAddrFamily, Exceptions.IPAddrInvalidPrefix]) {
        IPAddr.constants.set(e.name.slice('IPAddr::'.length), e);
    }
}
