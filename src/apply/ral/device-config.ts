import { existsSync } from 'node:fs';
import { notAFile, readRegularFile, UserError } from '../../common/index.js';
import { ApplyIssues } from '../issues.js';
import type { PuppetValue } from '../values.js';

/** One `[name]` section of a device.conf. */
export interface DeviceEntry {
    readonly name: string;
    /** The device type (`type` directive): `lib/puppet/util/network_device/<type>/device.rb`. */
    readonly type?: string;
    readonly url?: string;
    readonly line: number;
}

function fail(file: string, line: number, column: number, message: string): never {
    throw new UserError({ severity: 'error', code: ApplyIssues.DEVICE_CONFIG, message, at: { file, line, column } });
}

/**
 * A device.conf as `puppet device` reads it (Puppet::Util::NetworkDevice::Config): `[name]`
 * sections with `type`, `url` and `debug` directives, `#` comments. Puppet reports a bad line
 * with a line count that skips directive lines; the location here is the real line.
 */
export function readDeviceConfig(file: string): Map<string, DeviceEntry> {
    if (!existsSync(file)) throw new UserError({ severity: 'error', code: ApplyIssues.DEVICE_CONFIG, message: `Configuration error: '${file}' does not exist; cannot serve`, file });
    const devices = new Map<string, DeviceEntry>();
    let current: { name: string; type?: string; url?: string; line: number } | undefined;
    // A FIFO or a device read as a file blocks or never ends.
    const problem = notAFile(file);
    if (problem !== undefined) throw new UserError({ severity: 'error', code: ApplyIssues.DEVICE_CONFIG, message: `Configuration error: '${file}' ${problem}; cannot serve`, file });
    const lines = readRegularFile(file).toString('utf8').split('\n');
    lines.forEach((text, i) => {
        const line = i + 1;
        if (/^\s*#/.test(text) || /^\s*$/.test(text)) return;
        const section = /^\[([\w.-]+)\]\s*$/.exec(text);
        if (section) {
            const previous = devices.get(section[1]);
            if (previous) fail(file, line, 1, `Duplicate device found at (line: ${line}), already found at (line: ${previous.line})`);
            current = { name: section[1], line };
            devices.set(current.name, current);
            return;
        }
        const directive = /^\s*(type|url|debug)(\s+(.+?)\s*)?$/.exec(text);
        if (!directive || !current) fail(file, line, 1, `Invalid entry at (line: ${line}): ${text}`);
        if (directive[1] === 'type' && directive[3] !== undefined) current.type = directive[3];
        if (directive[1] === 'url' && directive[3] !== undefined) current.url = directive[3];
        devices.set(current.name, { ...current });
    });
    return devices;
}

/**
 * The connection info a device's `file:///` URL names (the gem's Transport::Wrapper reads it as
 * HOCON). Read here: JSON, and HOCON's common form (unquoted keys and values, `:` or `=`,
 * braces optional at the top, nested objects, arrays, `#` and `//` comments, commas optional
 * between fields). Includes and `${}` substitutions are refused with their location.
 */
export function readConnectionInfo(url: string): Map<string, PuppetValue> {
    const m = /^([a-z][a-z0-9+.-]*):\/\/([^/]*)(\/.*)?$/i.exec(url);
    if (!m || m[1].toLowerCase() !== 'file') throw new Error(`Unexpected url '${url}' found. Only file:/// URLs for configuration supported at the moment.`);
    const path = decodeURIComponent(m[3] ?? '');
    if (!existsSync(path)) throw new Error(`Trying to load config from '${path}, but file does not exist.`);
    return new Hocon(readRegularFile(path).toString('utf8'), path).document();
}

class Hocon {
    private i = 0;

    constructor(private readonly text: string, private readonly file: string) {}

    document(): Map<string, PuppetValue> {
        this.skip();
        const braced = this.text[this.i] === '{';
        if (braced) this.i++;
        const out = this.fields(braced ? '}' : undefined);
        if (braced) this.i++;
        this.skip();
        if (this.i < this.text.length) this.error('unexpected text after the configuration object');
        return out;
    }

    private fields(close: string | undefined): Map<string, PuppetValue> {
        const out = new Map<string, PuppetValue>();
        for (;;) {
            this.skip();
            if (this.i >= this.text.length) {
                if (close) this.error(`expected '${close}'`);
                return out;
            }
            if (this.text[this.i] === close) return out;
            if (this.text.startsWith('include', this.i) && /\s/.test(this.text[this.i + 7] ?? '')) this.error('HOCON includes are not supported');
            const key = this.key();
            this.skipInline();
            let value: PuppetValue;
            if (this.text[this.i] === '{') {
                this.i++;
                value = this.fields('}');
                this.i++;
            } else {
                if (this.text[this.i] !== ':' && this.text[this.i] !== '=') this.error(`expected ':' or '=' after '${key}'`);
                this.i++;
                this.skipInline();
                value = this.value();
            }
            const path = key.split('.');
            let target = out;
            for (const seg of path.slice(0, -1)) {
                const next = target.get(seg);
                if (next instanceof Map) target = next as Map<string, PuppetValue>;
                else { const fresh = new Map<string, PuppetValue>(); target.set(seg, fresh); target = fresh; }
            }
            target.set(path[path.length - 1], value);
            this.skipInline();
            if (this.text[this.i] === ',') this.i++;
        }
    }

    private key(): string {
        if (this.text[this.i] === '"') return this.quoted();
        const m = /^[A-Za-z0-9_.-]+/.exec(this.text.slice(this.i));
        if (!m) this.error('expected a key');
        this.i += m[0].length;
        return m[0];
    }

    private value(): PuppetValue {
        const c = this.text[this.i];
        if (c === '{') { this.i++; const v = this.fields('}'); this.i++; return v; }
        if (c === '[') {
            this.i++;
            const items: PuppetValue[] = [];
            for (;;) {
                this.skip();
                if (this.text[this.i] === ']') { this.i++; return items; }
                items.push(this.value());
                this.skip();
                if (this.text[this.i] === ',') this.i++;
            }
        }
        if (c === '"') return this.quoted();
        if (this.text.startsWith('${', this.i)) this.error('HOCON substitutions are not supported');
        const m = /^[^\n,}\]#]*/.exec(this.text.slice(this.i));
        const raw = (m?.[0] ?? '').replace(/\s*\/\/.*$/, '').trimEnd();
        this.i += m?.[0].length ?? 0;
        if (raw === '') this.error('expected a value');
        if (raw === 'true' || raw === 'false') return raw === 'true';
        if (raw === 'null') return null;
        if (/^-?\d+$/.test(raw)) return BigInt(raw);
        if (/^-?\d+\.\d+([eE][-+]?\d+)?$/.test(raw)) return Number(raw);
        return raw;
    }

    private quoted(): string {
        const start = this.i;
        const m = /^"(?:[^"\\\n]|\\.)*"/.exec(this.text.slice(this.i));
        if (!m) this.error('unterminated string');
        this.i += m[0].length;
        try {
            return JSON.parse(m[0]) as string;
        } catch {
            this.i = start;
            return this.error('bad escape in string');
        }
    }

    private skipInline(): void {
        while (this.i < this.text.length && (this.text[this.i] === ' ' || this.text[this.i] === '\t')) this.i++;
    }

    private skip(): void {
        for (;;) {
            while (this.i < this.text.length && /[\s,]/.test(this.text[this.i])) this.i++;
            if (this.text[this.i] === '#' || this.text.startsWith('//', this.i)) {
                while (this.i < this.text.length && this.text[this.i] !== '\n') this.i++;
                continue;
            }
            return;
        }
    }

    private error(message: string): never {
        const before = this.text.slice(0, this.i).split('\n');
        fail(this.file, before.length, before[before.length - 1].length + 1, message);
    }
}
