/**
 * Just enough DER (X.690) to read an X.509 certificate's extensions: node:crypto's
 * X509Certificate names a few well-known extensions but gives no access to private OIDs such as
 * Puppet's `pp_*` ones, which `$trusted['extensions']` carries.
 */
interface Tlv {
    readonly tag: number;
    /** Offset of the content. */
    readonly start: number;
    /** Offset just past the content. */
    readonly end: number;
}

function readTlv(der: Uint8Array, at: number): Tlv {
    if (at + 2 > der.length) throw new Error('truncated DER');
    const tag = der[at];
    let len = der[at + 1];
    let start = at + 2;
    if (len & 0x80) {
        const n = len & 0x7f;
        if (n === 0 || n > 4 || start + n > der.length) throw new Error('unsupported DER length');
        len = 0;
        for (let i = 0; i < n; i++) len = len * 256 + der[start + i];
        start += n;
    }
    if (start + len > der.length) throw new Error('truncated DER');
    return { tag, start, end: start + len };
}

function children(der: Uint8Array, parent: Tlv): Tlv[] {
    const out: Tlv[] = [];
    for (let at = parent.start; at < parent.end;) {
        const t = readTlv(der, at);
        out.push(t);
        at = t.end;
    }
    return out;
}

/** An OBJECT IDENTIFIER's content as dotted text. */
function oidText(der: Uint8Array, t: Tlv): string {
    const arcs: number[] = [];
    let v = 0;
    for (let i = t.start; i < t.end; i++) {
        v = v * 128 + (der[i] & 0x7f);
        if (!(der[i] & 0x80)) {
            if (arcs.length === 0) arcs.push(v < 80 ? Math.floor(v / 40) : 2, v < 80 ? v % 40 : v - 80);
            else arcs.push(v);
            v = 0;
        }
    }
    return arcs.join('.');
}

const STRING_TAGS = new Set([0x0c /* UTF8String */, 0x13 /* PrintableString */, 0x16 /* IA5String */, 0x14 /* T61String */, 0x1e /* BMPString */]);

/**
 * The extension value as Puppet reads it: the DER inside the OCTET STRING decoded when it is a
 * string, else the raw bytes as text (certificates signed before values were DER-encoded).
 */
function extensionValue(der: Uint8Array, octets: Tlv): string {
    const raw = der.subarray(octets.start, octets.end);
    try {
        const inner = readTlv(raw, 0);
        if (inner.end === raw.length && STRING_TAGS.has(inner.tag)) {
            const bytes = raw.subarray(inner.start, inner.end);
            return inner.tag === 0x1e ? Buffer.from(bytes).swap16().toString('utf16le') : Buffer.from(bytes).toString(inner.tag === 0x0c ? 'utf8' : 'latin1');
        }
    } catch {
        // not DER: the raw value
    }
    return Buffer.from(raw).toString('utf8');
}

/** Every extension of a DER certificate: dotted OID → value. */
export function certificateExtensions(der: Uint8Array): Map<string, string> {
    const out = new Map<string, string>();
    const cert = readTlv(der, 0);
    const tbs = children(der, cert)[0];
    if (tbs === undefined) return out;
    // tbsCertificate's extensions are its [3] EXPLICIT field.
    const explicit = children(der, tbs).find(t => t.tag === 0xa3);
    if (explicit === undefined) return out;
    const list = children(der, explicit)[0];
    if (list === undefined) return out;
    for (const ext of children(der, list)) {
        const parts = children(der, ext);
        const oid = parts[0];
        const value = parts[parts.length - 1];
        if (oid?.tag !== 0x06 || value?.tag !== 0x04) continue;
        out.set(oidText(der, oid), extensionValue(der, value));
    }
    return out;
}
