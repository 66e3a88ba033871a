/** One JSON Pointer (RFC 6901) segment: every model diagnostic's path is built from these. */
export function escapePointer(segment: string): string {
    return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}
