import { formatValue, PEnumType, PIntegerType, rubyInspect } from '../../types/index.js';
import { dataClassName, PIterator, type PuppetValue } from '../../values/index.js';
import { classOf, describe as describeRuby } from '../../ruby/index.js';
import { RuntimeFailure } from '../errors.js';
import { CatalogIssues } from '../issues.js';
import type { FunctionContext, Closure } from './function.js';
import { lambdaArity } from './signatures.js';

/** The elements an iteration function walks: array elements, [key, value] pairs, 0..n-1, characters, type ranges. */
export function iterableOf(v: PuppetValue, fname: string): { items: PuppetValue[]; hash: boolean } {
    if (Array.isArray(v)) return { items: v, hash: false };
    if (v instanceof Map) return { items: [...v].map(([k, x]): PuppetValue => [k, x]), hash: true };
    if (typeof v === 'bigint') return { items: Array.from({ length: Number(v) }, (_, i) => BigInt(i)), hash: false };
    if (typeof v === 'string') return { items: [...v], hash: false };
    if (v instanceof PIterator) return { items: v.elementsOf(), hash: false };
    if (v instanceof PIntegerType && v.from !== null && v.to !== null) {
        const out: PuppetValue[] = [];
        for (let i = v.from; i <= v.to; i++) out.push(i);
        return { items: out, hash: false };
    }
    if (v instanceof PEnumType) return { items: [...v.values], hash: false };
    throw new RuntimeFailure(CatalogIssues.EVAL_NOT_ITERABLE.message({ fname, value: formatValue(v) }));
}

/**
 * Whether the block takes two arguments: Puppet dispatches to the two-argument signature
 * (Callable[2, 2]) first, which any lambda accepting two arguments takes (`|$a, $b = 1|`, `|*$all|`).
 */
export function acceptsTwo(block: Closure): boolean {
    const { min, max } = lambdaArity(block.lambda);
    return min <= 2 && (max === null || max >= 2);
}

/** Calls the block with one element: a pair is spread over two parameters, indexes are prepended for arrays. */
export function callWith(call: FunctionContext, block: Closure, item: PuppetValue, indexValue: number, hash: boolean, two = acceptsTwo(block)): PuppetValue {
    if (hash) {
        const pair = item as PuppetValue[];
        return call.callLambda(block, two ? [pair[0], pair[1]] : [pair]);
    }
    return call.callLambda(block, two ? [BigInt(indexValue), item] : [item]);
}

export function requireBlock(block: Closure | undefined, fname: string, min = 1, max = 2): Closure {
    if (!block) throw new RuntimeFailure(CatalogIssues.EVAL_BLOCK_REQUIRED.message({ fname }));
    const n = block.lambda.params.length;
    if (n < min || n > max) throw new RuntimeFailure(CatalogIssues.EVAL_BLOCK_ARITY.message({ fname, min, max, count: n }));
    return block;
}

export function str(v: PuppetValue, fname: string, what = 'argument'): string {
    if (typeof v !== 'string') throw new RuntimeFailure(CatalogIssues.EVAL_PARAMETER_TYPE.message({ fname, name: what, expected: 'a String', actual: typeName(v) }));
    return v;
}

export function typeName(v: PuppetValue): string {
    return dataClassName(v) ?? 'Object';
}

/**
 * A 3.x file or template name as Puppet's Files.find_in_module takes it: undef is ''; a value
 * that is no string is warned about twice (Util.absolute_path?, then split_file_path asks again)
 * and fails in String#split (what Ruby's error_highlight shows of that line).
 */
export function filePathText(call: FunctionContext, v: PuppetValue): string {
    if (v === null) return '';
    if (typeof v === 'string') return v;
    const text = Array.isArray(v) || v instanceof Map ? rubyInspect(v) : formatValue(v);
    const warning = CatalogIssues.EVAL_ABSOLUTE_PATH_NOT_STRING.message({ text, kind: classOf(v).name });
    for (let i = 0; i < 2; i++) call.runtime.log('warning', warning, call.where);
    throw new RuntimeFailure(CatalogIssues.EVAL_RUBY_NO_METHOD.message({ method: 'split', receiver: describeRuby(v), line: '      path.split(File::SEPARATOR, 2)' }));
}
