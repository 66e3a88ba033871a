import { existsSync, readFileSync } from 'node:fs';
import { underRoot } from './paths.js';

/** One entry of /etc/passwd or /etc/group. */
export interface DbEntry {
    readonly name: string;
    readonly id: number;
    readonly fields: readonly string[];
}

/** Reads /etc/passwd, /etc/group or /etc/shadow below a root; a missing file means no entries. */
export function readDb(root: string, file: '/etc/passwd' | '/etc/group' | '/etc/shadow'): DbEntry[] {
    const path = underRoot(root, file);
    if (!existsSync(path)) return [];
    return readFileSync(path, 'utf8').split('\n').filter(l => l.includes(':')).map(l => {
        const fields = l.split(':');
        return { name: fields[0], id: Number(fields[2]), fields };
    });
}
