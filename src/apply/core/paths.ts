import { join, resolve } from 'node:path';

/** The real path of a catalog path under the run's root ("/etc/motd" under /tmp/r → /tmp/r/etc/motd). */
export function underRoot(root: string, path: string): string {
    return root === '/' ? path : join(resolve(root), path);
}
