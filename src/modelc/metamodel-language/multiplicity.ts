import type { MmMultiplicity } from '../../../generated/langium/ast.js';

/** Emfatic multiplicities: none = [0..1], `?` = [0..1], `*` = [0..*], `+` = [1..*], `n`, `n..m`, `n..*`. */
export function multiplicityOf(m: MmMultiplicity | undefined): { lower: number; upper: number } {
    if (!m) return { lower: 0, upper: 1 };
    switch (m.bound) {
        case '?': return { lower: 0, upper: 1 };
        case '*': return { lower: 0, upper: -1 };
        case '+': return { lower: 1, upper: -1 };
        default: break;
    }
    const lower = m.lower ?? 0;
    if (m.upperMany) return { lower, upper: -1 };
    return { lower, upper: m.upper ?? lower };
}
