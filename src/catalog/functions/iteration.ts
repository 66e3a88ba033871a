import { PIterator, PRegexp, rubyToJs, strictEquals, type PuppetValue } from '../../values/index.js';
import { BreakSignal, NextSignal, ReturnSignal } from '../evaluator/evaluator.js';
import { isTruthy } from '../evaluator/operators.js';
import { RuntimeFailure } from '../errors.js';
import type { PuppetFunction } from './function.js';
import { acceptsTwo, callWith, iterableOf, requireBlock } from './support.js';
import { lambdaArity } from './signatures.js';
import { CatalogIssues } from '../issues.js';

/** How Ruby names a Puppet lambda (its object address is not reproducible: zeros stand for it). */
const PUPPET_PROC = '#<Puppet::Pops::Evaluator::PuppetProc:0x0000000000000000 /usr/lib/ruby/vendor_ruby/puppet/pops/evaluator/evaluator_impl.rb:1004>';

function toJsRegExp(r: PRegexp): RegExp {
    const { pattern, flags } = rubyToJs(r.source);
    return new RegExp(pattern, flags);
}

/** Runs `body` for each element; `break` ends the loop early. */
function loop(items: PuppetValue[], body: (item: PuppetValue, i: number) => void): void {
    try {
        items.forEach(body);
    } catch (e) {
        if (!(e instanceof BreakSignal)) throw e;
    }
}

export const iterationFunctions: Record<string, PuppetFunction> = {
    each: (call, [v], block) => {
        const b = requireBlock(block, 'each');
        const { items, hash } = iterableOf(v, 'each');
        const two = acceptsTwo(b);
        loop(items, (x, i) => { callWith(call, b, x, i, hash, two); });
        return v;
    },
    map: (call, [v], block) => {
        const b = requireBlock(block, 'map');
        const { items, hash } = iterableOf(v, 'map');
        const two = acceptsTwo(b);
        const out: PuppetValue[] = [];
        loop(items, (x, i) => { out.push(callWith(call, b, x, i, hash, two)); });
        return out;
    },
    filter: (call, [v], block) => {
        const b = requireBlock(block, 'filter');
        const { items, hash } = iterableOf(v, 'filter');
        const two = acceptsTwo(b);
        const kept: PuppetValue[] = [];
        loop(items, (x, i) => { if (isTruthy(callWith(call, b, x, i, hash, two))) kept.push(x); });
        if (hash) return new Map(kept.map(p => [(p as PuppetValue[])[0], (p as PuppetValue[])[1]]));
        return kept;
    },
    reduce: (call, args, block) => {
        const b = requireBlock(block, 'reduce', 2, 2);
        const { items } = iterableOf(args[0], 'reduce');
        let acc: PuppetValue;
        let rest: PuppetValue[];
        if (args.length > 1) { acc = args[1]; rest = items; } else { acc = items[0] ?? null; rest = items.slice(1); }
        loop(rest, x => { acc = call.callLambda(b, [acc, x]); });
        return acc;
    },
    slice: (call, [v, n], block) => {
        const size = Number(n);
        const { items, hash } = iterableOf(v, 'slice');
        const chunks: PuppetValue[] = [];
        for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
        if (!block) return chunks;
        // A block with several parameters gets each slice spread over them, a short last slice filled with undef;
        // a block with optional parameters (Ruby's negative arity) takes the slice's size.
        const { min, max } = lambdaArity(block.lambda);
        const serving = max === null || max > min ? size : min;
        if (serving === 0) throw new RuntimeFailure(CatalogIssues.EVAL_SLICE_NO_PARAMETERS.message());
        // Puppet's message for any other count asks the lambda for parameter_names, which it lacks.
        if (serving !== 1 && serving !== size) throw new RuntimeFailure(CatalogIssues.EVAL_RUBY_NO_METHOD.message({ method: 'parameter_names', receiver: PUPPET_PROC, suggestions: ['parameters'] }));
        loop(chunks, c => {
            const arr = c as PuppetValue[];
            call.callLambda(block, serving > 1 ? [...arr, ...Array<PuppetValue>(Math.max(0, serving - arr.length)).fill(null)] : [arr]);
        });
        void hash;
        return v;
    },
    with: (call, args, block) => call.callLambda(requireBlock(block, 'with', 0, Infinity), args),
    any: (call, [v], block) => {
        const b = requireBlock(block, 'any');
        const { items, hash } = iterableOf(v, 'any');
        const two = acceptsTwo(b);
        return items.some((x, i) => isTruthy(callWith(call, b, x, i, hash, two)));
    },
    all: (call, [v], block) => {
        const b = requireBlock(block, 'all');
        const { items, hash } = iterableOf(v, 'all');
        const two = acceptsTwo(b);
        return items.every((x, i) => isTruthy(callWith(call, b, x, i, hash, two)));
    },
    index: (call, [v, needle], block) => {
        if (typeof v === 'string' && !block) {
            // string_index: the position of a substring or a regexp match.
            const at = needle instanceof PRegexp ? v.search(toJsRegExp(needle)) : v.indexOf(String(needle));
            return at < 0 ? null : BigInt([...v.slice(0, at)].length);
        }
        const { items, hash } = iterableOf(v, 'index');
        for (let i = 0; i < items.length; i++) {
            const pair = items[i] as PuppetValue[];
            let hit: boolean;
            if (!block) hit = strictEquals(hash ? pair[1] : items[i], needle);
            // A block taking one argument sees a hash's values (index_Hash_1).
            else if (hash && !acceptsTwo(block)) hit = isTruthy(call.callLambda(block, [pair[1]]));
            else hit = isTruthy(callWith(call, block, items[i], i, hash));
            if (hit) return hash ? pair[0] : BigInt(i);
        }
        return null;
    },
    reverse_each: (call, [v], block) => {
        const { items, hash } = iterableOf(v, 'reverse_each');
        const rev = [...items].reverse();
        if (!block) return new PIterator(() => rev, hash || (v instanceof PIterator && v.pairs), v instanceof PIterator ? v.typed : items);
        loop(rev, x => { call.callLambda(block, [x]); });
        return null;
    },
    step: (call, [v, n], block) => {
        const { items, hash } = iterableOf(v, 'step');
        const stepped = items.filter((_, i) => i % Number(n) === 0);
        if (!block) return new PIterator(() => stepped, hash || (v instanceof PIterator && v.pairs), v instanceof PIterator ? v.typed : items);
        loop(stepped, x => { call.callLambda(block, [x]); });
        return null;
    },
    break: call => { throw new BreakSignal(call.where); },
    next: (call, [v]) => { throw new NextSignal(v ?? null, call.where); },
    return: (call, [v]) => { throw new ReturnSignal(v ?? null, call.where); },
    tree_each: (call, [v, options], block) => {
        const elements = treeElements(v, options instanceof Map ? options : new Map());
        if (!block) return new PIterator(() => elements, false, undefined, treeIteratorClass(options));
        const b = requireBlock(block, 'tree_each', 1, 2);
        loop(elements, e => {
            const [path, node] = e as [PuppetValue, PuppetValue];
            call.callLambda(b, acceptsTwo(b) ? [path, node] : [node]);
        });
        return v;
    }
};

/**
 * The [path, value] pairs tree_each visits: depth first (pre-order) or breadth first, with
 * containers (arrays and hashes, the root among them) and leaf values included unless the
 * options leave them out.
 */
function treeElements(tree: PuppetValue, options: ReadonlyMap<PuppetValue, PuppetValue>): PuppetValue[] {
    const flag = (name: string): boolean => options.get(name) !== false;
    const includeContainers = flag('include_containers');
    const includeValues = flag('include_values');
    const includeRoot = flag('include_root');
    const out: PuppetValue[] = [];
    const children = (node: PuppetValue, path: PuppetValue[]): [PuppetValue[], PuppetValue][] =>
        Array.isArray(node) ? node.map((x, i): [PuppetValue[], PuppetValue] => [[...path, BigInt(i)], x])
            : node instanceof Map ? [...node].map(([k, x]): [PuppetValue[], PuppetValue] => [[...path, k], x]) : [];
    const take = (path: PuppetValue[], node: PuppetValue): void => {
        const container = Array.isArray(node) || node instanceof Map;
        if (container ? includeContainers && (path.length > 0 || includeRoot) : includeValues) out.push([path, node]);
    };
    if (options.get('order') === 'breadth_first') {
        let level: [PuppetValue[], PuppetValue][] = [[[], tree]];
        while (level.length > 0) {
            for (const [path, node] of level) take(path, node);
            level = level.flatMap(([path, node]) => children(node, path));
        }
    } else {
        const visit = (path: PuppetValue[], node: PuppetValue): void => {
            take(path, node);
            for (const [p, x] of children(node, path)) visit(p, x);
        };
        visit([], tree);
    }
    return out;
}

export { RuntimeFailure };

/** The Ruby class of the iterator tree_each returns without a block (what its string form names). */
function treeIteratorClass(options: PuppetValue | undefined): string {
    const breadth = options instanceof Map && options.get('order') === 'breadth_first';
    return `Puppet::Pops::Types::Iterable::${breadth ? 'BreadthFirst' : 'DepthFirst'}TreeIterator`;
}
