import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/** The folder holding package.json and schemas/, found from this module (src/ or dist/src/). */
export function projectRoot(): string {
    if (root) return root;
    let dir = dirname(fileURLToPath(import.meta.url));
    while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'schemas'))) {
        const parent = dirname(dir);
        if (parent === dir) throw new Error('modelc: cannot find the project root (package.json beside schemas/)');
        dir = parent;
    }
    root = dir;
    return dir;
}
