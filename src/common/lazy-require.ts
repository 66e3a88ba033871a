import { createRequire } from 'node:module';

/**
 * A CommonJS package loaded on first use instead of at start-up: `const lib = lazyRequire<typeof
 * import('pkg')>(import.meta.url, 'pkg')`, then `lib().fn()`. For libraries only some commands
 * need (schema validation, msgpack, XMI, text diffs), so a compile does not pay for loading them.
 */
export function lazyRequire<T>(from: string, id: string): () => T {
    let loaded: T | undefined;
    return () => {
        loaded ??= createRequire(from)(id) as T;
        return loaded;
    };
}
