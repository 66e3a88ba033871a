/** A point in a source text; line and column are 1-based, as editors and Puppet print them. */
export interface SourcePoint {
    readonly file: string;
    readonly line: number;
    readonly column: number;
}

export function formatPoint(p: SourcePoint): string {
    return `${p.file}:${p.line}:${p.column}`;
}
