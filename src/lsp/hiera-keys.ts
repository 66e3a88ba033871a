import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readRegularFile } from '../common/index.js';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';

/** Where a data file sets a key: the file and the 1-based line of the key. */
export interface KeyPlace {
    readonly file: string;
    readonly line: number;
}

/**
 * The top-level keys of the environment's and modules' Hiera data files (`data/**` YAML and
 * JSON), each with the places that set it: what `lookup()` completion offers and where go to
 * definition leads. Which level wins for a node is the lookup's business (hover asks it).
 */
export function readHieraKeys(dataDirs: readonly string[]): Map<string, KeyPlace[]> {
    const keys = new Map<string, KeyPlace[]>();
    for (const dir of dataDirs) {
        for (const file of dataFiles(dir)) {
            let text: string;
            try {
                text = readRegularFile(file).toString('utf8');
            } catch {
                continue;
            }
            const lines = new LineCounter();
            const doc = parseDocument(text, { lineCounter: lines });
            if (!isMap(doc.contents)) continue;
            for (const item of doc.contents.items) {
                if (!isScalar(item.key) || typeof item.key.value !== 'string' || item.key.value === 'lookup_options') continue;
                const at = item.key.range ? lines.linePos(item.key.range[0]).line : 1;
                const places = keys.get(item.key.value) ?? [];
                places.push({ file, line: at });
                keys.set(item.key.value, places);
            }
        }
    }
    return keys;
}

function list(dir: string): string[] {
    try {
        return readdirSync(dir);
    } catch {
        return [];
    }
}

/** Data files below a directory (YAML and JSON), at most a few hundred. */
function dataFiles(dir: string, out: string[] = []): string[] {
    for (const name of list(dir)) {
        if (out.length >= 500) break;
        const full = join(dir, name);
        let isDir = false;
        try {
            isDir = statSync(full).isDirectory();
        } catch {
            continue;
        }
        if (isDir) dataFiles(full, out);
        else if (/\.(?:ya?ml|json)$/.test(name)) out.push(full);
    }
    return out;
}
